/**
 * A corpus of simulated CI runs with known ground truth, for the ingest and stats tests, the note's
 * 2,000-run corpus (scripts/make-run-corpus.ts) and the benchmarks. Each run is one simulator run
 * (scenario, policy, seed) given its own versions, platform, week and Prow path
 * (`logs/JOB/BUILD_ID/`), written through the simulator's artifact writer. The simulator's own
 * verdict (atlevel-simulation.json) is the ground truth the stats are checked against.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  builtinScenario,
  DEFAULT_EPOCH,
  GROUND_TRUTH,
  type PolicyName,
  renderArtifacts,
  runSimulation,
  type Scenario,
} from '../../src/sim/index.js';
import { writeRunFolder } from '../../src/writer/index.js';

export const CORPUS_PLATFORMS = ['aws', 'gcp', 'azure', 'metal'] as const;
export const CORPUS_STREAMS = [
  ['4.9', '4.10'],
  ['4.10', '4.10'],
  ['4.10', '4.11'],
] as const;
/**
 * Mostly the two policies the issue compares. The naive policy is the operator of 2019 (before MCO PR
 * #265): its runs get a stream of that era (4.1→4.2), so a `--stream` filter separates them from the
 * pre-fix-2021 runs, which carry no release-image-version either.
 */
export const CORPUS_POLICIES: readonly PolicyName[] = [
  'pre-fix-2021',
  'fixed',
  'pre-fix-2021',
  'fixed',
  'naive',
];
export const NAIVE_STREAM = ['4.1', '4.2'] as const;
const WEEK = 7 * 86_400_000;

export interface CorpusRun {
  readonly dir: string;
  readonly job: string;
  readonly buildId: string;
  readonly scenario: string;
  readonly policy: PolicyName;
  readonly seed: number;
  readonly platform: string;
  readonly stream: string;
  readonly from: string;
  readonly to: string;
  readonly epoch: number;
}

export interface GroundTruth {
  readonly scenario: string;
  readonly policy: PolicyName;
  readonly violated: boolean;
  readonly changedComponents: readonly string[];
  /** The CVO completed the update (else the race rule cannot be checked: atlevel says "not checked"). */
  readonly cvoCompleted: boolean;
  /**
   * The CVO's start of the update (the simulator's ClusterVersion history entry) → its completion, and
   * machine-config's level report → master pool Updated, in ms.
   */
  readonly updateMs: number | null;
  readonly masterGapMs: number | null;
}

function stamp(ms: number): string {
  const d = new Date(ms).toISOString();
  return `${d.slice(0, 10)}-${d.slice(11, 19).replace(/:/g, '')}`;
}

/**
 * The scenarios a corpus cycles through: the six single-update race scenarios, named so that a new
 * built-in scenario (a day-2 change, a same-version update, two updates in one run) leaves the
 * corpus, and the statistics tests over it, as they were.
 */
const CORPUS_SCENARIOS = [
  'pause-image-only',
  'os-only',
  'mco-only',
  'no-config-change',
  'paused-worker-pool',
  'degraded-node',
] as const;

/** Run i of a corpus: everything about it follows from i (and the seed offset), so a corpus is reproducible. */
export function corpusRun(root: string, i: number, seedBase = 1): CorpusRun {
  const policy = CORPUS_POLICIES[i % CORPUS_POLICIES.length] as PolicyName;
  const scenario = CORPUS_SCENARIOS[
    Math.floor(i / CORPUS_POLICIES.length) % CORPUS_SCENARIOS.length
  ] as string;
  const [fromMinor, toMinor] =
    policy === 'naive'
      ? NAIVE_STREAM
      : (CORPUS_STREAMS[i % CORPUS_STREAMS.length] as readonly [string, string]);
  const platform = CORPUS_PLATFORMS[Math.floor(i / 7) % CORPUS_PLATFORMS.length] as string;
  // Six weeks of runs, a few minutes apart within a week.
  const epoch = DEFAULT_EPOCH + (i % 6) * WEEK + Math.floor(i / 6) * 7 * 60_000;
  const from = `${fromMinor}.0-0.nightly-${stamp(epoch - 86_400_000)}`;
  const to = `${toMinor}.0-0.nightly-${stamp(epoch - 3_600_000)}`;
  const job = `periodic-ci-openshift-release-master-nightly-${toMinor}-upgrade-from-${fromMinor}-e2e-${platform}-upgrade`;
  const buildId = String(1454000000000000000n + BigInt(i));
  return {
    dir: join(root, 'logs', job, buildId),
    job,
    buildId,
    scenario,
    policy,
    seed: seedBase + i,
    platform,
    stream: `${fromMinor}→${toMinor}`,
    from,
    to,
    epoch,
  };
}

function withVersions(s: Scenario, from: string, to: string): Scenario {
  return { ...s, from: { ...s.from, version: from }, to: { ...s.to, version: to, previous: [from] } };
}

/** Simulate and write run i. */
export async function writeCorpusRun(r: CorpusRun): Promise<void> {
  const base = builtinScenario(r.scenario);
  if (!base) throw new Error(`no scenario ${r.scenario}`);
  const run = runSimulation(withVersions(base, r.from, r.to), r.policy, r.seed, { record: true });
  await mkdir(r.dir, { recursive: true });
  await writeRunFolder(r.dir, renderArtifacts(run, r.epoch));
}

/** Write runs [0, n) under root; returns their descriptions. */
export async function writeCorpus(
  root: string,
  n: number,
  onRun?: (done: number) => void,
): Promise<CorpusRun[]> {
  const runs: CorpusRun[] = [];
  for (let i = 0; i < n; i += 1) {
    const r = corpusRun(root, i);
    await writeCorpusRun(r);
    runs.push(r);
    onRun?.(i + 1);
  }
  return runs;
}

/** The simulator's own account of a written run. */
export async function groundTruth(r: CorpusRun): Promise<GroundTruth> {
  const doc = JSON.parse(await readFile(join(r.dir, GROUND_TRUTH), 'utf8')) as {
    scenario: string;
    policy: PolicyName;
    summary: {
      violated: boolean;
      changedComponents: string[];
      cvoCompletedAt: string | null;
      upgradeRequestedAt: string | null;
      operatorLevelAt: string | null;
      masterUpdatedAt: string | null;
    };
  };
  return {
    scenario: doc.scenario,
    policy: doc.policy,
    violated: doc.summary.violated,
    changedComponents: doc.summary.changedComponents,
    cvoCompleted: doc.summary.cvoCompletedAt !== null,
    updateMs: between(await cvoStarted(r), doc.summary.cvoCompletedAt),
    masterGapMs: between(doc.summary.operatorLevelAt, doc.summary.masterUpdatedAt),
  };
}

async function cvoStarted(r: CorpusRun): Promise<string | null> {
  const cv = JSON.parse(
    await readFile(
      join(r.dir, 'artifacts', 'e2e-upgrade', 'gather-extra', 'artifacts', 'clusterversion.json'),
      'utf8',
    ),
  ) as { items: { status: { history: { startedTime: string }[] } }[] };
  return cv.items[0]?.status.history[0]?.startedTime ?? null;
}

function between(a: string | null, b: string | null): number | null {
  return a === null || b === null ? null : Date.parse(b) - Date.parse(a);
}

/** PostgreSQL's percentile_disc, nearest rank: the ceil(p × n)-th smallest value (the first for p = 0). */
export function percentileDisc(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.max(Math.ceil(p * v.length), 1) - 1] as number;
}
