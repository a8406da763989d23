/**
 * Writes the bundled examples from the simulator: examples/bug-2019850 is the scenario
 * examples/scenarios/bug-2019850.yaml under the pre-fix machine-config operator (policy pre-fix-2021),
 * examples/bug-2019850-fixed the same update under the fixed one (policy fixed), each with a fixed
 * seed, written through the artifact writer (src/writer/) with a README made from the run's summary.
 * Deterministic: the same scenario, policy and seed give the same bytes (test/examples.test.ts
 * regenerates them and compares byte for byte).
 *
 *   npm run examples
 */
import { rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadScenarioFile,
  type PolicyName,
  type RunSummary,
  renderArtifacts,
  runSimulation,
  type Scenario,
  summarize,
} from '../src/sim/index.js';
import { writeRunFolder } from '../src/writer/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCENARIO = 'examples/scenarios/bug-2019850.yaml';
const JOB = 'periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade';

interface Example {
  readonly folder: string;
  readonly policy: PolicyName;
  readonly seed: number;
}

/**
 * Seed 9 puts the operator's level report at 03:23:19, ten seconds after the real one (03:23:09.856),
 * and the upgrade test catches the violation, as it did in CI. The fixed example keeps the seed.
 */
export const EXAMPLES: readonly Example[] = [
  { folder: 'bug-2019850', policy: 'pre-fix-2021', seed: 9 },
  { folder: 'bug-2019850-fixed', policy: 'fixed', seed: 9 },
];

/**
 * What the simulator writes that the examples leave out: every object revision the simulated API
 * server stored. A CI run has no such file, and the examples are what a CI run gives.
 */
const LEFT_OUT = new Set(['atlevel-revisions.jsonl']);

/** Every file of one example, path (relative to its folder) → text. */
async function exampleFiles(example: Example): Promise<Map<string, string>> {
  const scenario = await loadScenarioFile(join(ROOT, SCENARIO));
  const run = runSimulation(scenario, example.policy, example.seed, { record: true });
  const files = new Map([...renderArtifacts(run)].filter(([path]) => !LEFT_OUT.has(path)));
  files.set('README.md', readme(example, scenario, summarize(run), [...files.keys(), 'README.md']));
  return files;
}

/** Write every example as `<root>/<folder>`; each folder must be absent or empty. */
export async function writeExamples(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const example of EXAMPLES) {
    const files = await exampleFiles(example);
    const dir = join(root, example.folder);
    await writeRunFolder(dir, files, { what: 'the example', flag: 'make-examples' });
    const bytes = [...files.values()].reduce((n, text) => n + Buffer.byteLength(text), 0);
    out.push(`${relative(process.cwd(), dir)}: ${files.size} files, ${bytes} bytes`);
  }
  return out;
}

const time = (iso: string | null): string => (iso === null ? '(never)' : iso.slice(11, 23));

function readme(example: Example, scenario: Scenario, s: RunSummary, paths: readonly string[]): string {
  const fixed = example.policy === 'fixed';
  const nodes = (pool: string) =>
    scenario.pools.find((p) => p.name === pool)?.names?.join(', ') ?? `the ${pool} nodes`;
  const rendered = (pool: string) => s.renderedConfigs.find((r) => r.pool === pool && r.created)?.name ?? '?';
  const newMaster = s.renderedConfigs.find((r) => r.pool === 'master' && r.created);
  const title = fixed
    ? `# ${example.folder}: the update of Bugzilla 2019850 under the fixed machine-config operator`
    : `# ${example.folder}: a simulated CI run of the update behind Bugzilla 2019850`;
  const counterpart = fixed
    ? 'The failing run, the same update under the pre-fix operator, is `examples/bug-2019850`.'
    : 'The clean counterpart, the same update under the fixed machine-config operator, is\n`examples/bug-2019850-fixed`.';
  const story = fixed
    ? [
        `The two nightlies had the same machine-config operator and the same machine-os-content, but a new`,
        '`pod` (pause) image. The fixed operator (MCO PR #2918) stamps `release-image-version` on the',
        `ControllerConfig it writes (${time(s.controllerConfigWrittenAt)}) and accepts the master pool only on a rendered`,
        'config carrying it, so it waited for the render controller to create',
        `\`${rendered('master')}\` (${time(newMaster?.at ?? null)}) and for the master pool to roll it out`,
        `node by node until ${time(s.masterUpdatedAt)} (${nodes('master')}). It reported`,
        `\`operator ${s.to}\` at ${time(s.operatorLevelAt)}, and the CVO completed the update at ${time(s.cvoCompletedAt)}.`,
        `The upgrade test ${s.testFailure === null ? 'passed' : `failed: ${s.testFailure}`}.`,
      ]
    : [
        'The two nightlies had the same machine-config operator and the same machine-os-content, but a new',
        '`pod` (pause) image. The new operator wrote the new ControllerConfig at',
        `${time(s.controllerConfigWrittenAt)} and, finding the master pool Updated on a rendered config that passed every`,
        `check it had (made by its controller version, with the payload's osImageURL), reported`,
        `\`operator ${s.to}\` at ${time(s.operatorLevelAt)}. The CVO took that as "machine-config is at level" and`,
        `completed the update at ${time(s.cvoCompletedAt)}. But the render controller, which waits 5 s before rendering,`,
        `created \`${rendered('master')}\` and \`${rendered('worker')}\` at ${time(newMaster?.at ?? null)}`,
        "with the new pause image in kubelet.service and CRI-O's `00-default`, so the master pool went",
        `Updating and rebooted its masters one at a time (${nodes('master')})`,
        `until ${time(s.masterUpdatedAt)}. The upgrade test saw the master pool Updating after the CVO had reported`,
        `the new version and failed with \`${s.testFailure ?? '(it did not fail)'}\`.`,
      ];
  return `${[
    title,
    '',
    "This folder is **not** the original CI artifacts. It is a run of atlevel's simulator",
    `(docs/simulate.md): scenario \`${SCENARIO}\`, policy \`${example.policy}\`, seed ${example.seed},`,
    'written by `scripts/make-examples.ts` (`npm run examples`) in the layout CI gives the artifacts of',
    `\`${JOB}\`.`,
    'The same run, with every object revision besides: `atlevel simulate --scenario',
    `${SCENARIO} --policy ${example.policy} --seed ${example.seed} --artifacts DIR\`.`,
    '',
    `Try it: \`atlevel analyze examples/${example.folder}\`.`,
    counterpart,
    '',
    '## What happened',
    '',
    ...story,
    '',
    '## What is from the bug report and what is from the model',
    '',
    'From the bug report (https://bugzilla.redhat.com/show_bug.cgi?id=2019850, closed as a duplicate of',
    '1999556):',
    `- the update from \`${s.from}\` to \`${s.to}\` and the target release image;`,
    "- the pause image's digests in both releases (the `pod` tag, and so `--pod-infra-container-image=`",
    "  in kubelet.service and `pause_image` in CRI-O's `00-default`); `machine-config-operator` and",
    '  `machine-os-content` identical in both;',
    '- the CI job and its cluster: an AWS install in us-east-2 with 3 masters and 3 workers (the node',
    '  names are chosen to look like it, in examples/scenarios/bug-2019850.yaml).',
    '',
    "Everything else comes from the model (docs/simulate.md): every time stamp, the controllers' latencies",
    "drawn from the seed, the rendered configs' names (the model hashes its own merged specs), the other",
    `components that changed (${s.changedComponents.join(', ')}), the other ClusterOperators, the`,
    "operators' Deployments, dns's DaemonSet, their pods and Events, and all MachineConfig content.",
    "`atlevel-simulation.json` holds the run's ground truth (atlevel's sources skip it with a note).",
    '',
    '## Files',
    '',
    '```',
    ...[...paths].sort().map((p) => p),
    '```',
    '',
    'Regenerate with `npm run examples`: the output is byte-identical on every run (test/examples.test.ts).',
  ].join('\n')}\n`;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(ROOT, 'examples');
  for (const example of EXAMPLES) await rm(join(root, example.folder), { recursive: true, force: true });
  for (const line of await writeExamples(root)) console.log(line);
}
