/**
 * A move to the multi-architecture payload of the same version (`oc adm upgrade --to-multi-arch`),
 * judged by analyze. The version string stays, so every rule that tells level by versions must either
 * find another witness or say it cannot: the machine-config operator's `operator-image` version, which
 * it reports from 4.18 (openshift/machine-config-operator PR 4637; openshift/enhancements
 * update/duration-of-migration-to-multi-arch.md) and the CVO waits for.
 *
 * Fixtures (test/fixtures/README.md): `to-multi-arch-completed/` is oc's `to-multi-arch` example
 * (4.18.0-ec.3, the migration in progress) carried to its end: the master pool Updated at 23:33:40,
 * machine-config's operator-image the Deployment's image, the CVO complete at 23:34:20;
 * `to-multi-arch-mco-reports-late/` and `-early/` are origin's monitor lines of machine-config's
 * operator-image change (at 23:34:02, after the master pool; or at 23:26:10, while it rolled);
 * `to-multi-arch-cvo-early/` is the migration as an MCO before PR 4637 ran it: no operator-image, the
 * CVO complete at 23:23:40 before the pools even had their new configs (OCPBUGS-10300).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AnalysisResult, analyzeHistory } from '../../src/analyze/index.js';
import { renderAnalysisJson } from '../../src/report/analyze-json.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { builtinScenario, renderArtifacts, runSimulation } from '../../src/sim/index.js';
import { assessStatus } from '../../src/status/index.js';
import { writeRunFolder } from '../../src/writer/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const DIR = join(projectRoot, 'test/fixtures/analyze');
const COMPLETED = join(DIR, 'to-multi-arch-completed');
const LATE = join(DIR, 'to-multi-arch-mco-reports-late');
const EARLY = join(DIR, 'to-multi-arch-mco-reports-early');
const CVO_EARLY = join(DIR, 'to-multi-arch-cvo-early');
const MASTER_RULE = 'master-pool-updated-before-cvo-complete';
const POOL_RULE = 'operator-level-before-required-pool-target';

async function analyze(...paths: string[]): Promise<AnalysisResult> {
  return analyzeHistory(await loadHistory(paths));
}

const outcome = (r: AnalysisResult, id: string) => r.outcomes.find((o) => o.rule.id === id);

const text = (r: AnalysisResult) => renderAnalysisText(r, { width: 400, colour: false, brief: true });

/** A copy of COMPLETED with `file` changed by `edit` (or removed when `edit` returns undefined). */
function completedWith(file: string, edit: (s: string) => string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-multi-'));
  cpSync(COMPLETED, dir, { recursive: true });
  const out = edit(readFileSync(join(dir, file), 'utf8'));
  if (out === undefined) rmSync(join(dir, file));
  else writeFileSync(join(dir, file), out);
  return dir;
}

describe('a move to the multi-architecture payload of the same version', () => {
  it('is named as one, never "4.18.0-ec.3 → 4.18.0-ec.3", in the headline, the findings and the JSON', async () => {
    const r = await analyze(CVO_EARLY);
    expect(r.updates[r.updates.length - 1]?.toMultiArch).toBe(true);
    const t = text(r);
    expect(t).toContain(
      'in the update of 4.18.0-ec.3 to the multi-architecture payload (sha256:d2d34aafe0ad…',
    );
    expect(t).not.toContain('4.18.0-ec.3 → 4.18.0-ec.3');
    const json = JSON.parse(renderAnalysisJson(r)) as { updates: { toMultiArch: boolean }[] };
    expect(json.updates.map((u) => u.toMultiArch)).toEqual([true]);
  });

  it('without Multi in the request or the accepted payload, the same version with another image is "another payload"', async () => {
    const dir = completedWith('clusterversion.yaml', (s) =>
      s
        .replace('architecture: Multi', "architecture: ''")
        .replace('architecture="Multi"', 'architecture="amd64"'),
    );
    const r = await analyze(dir);
    expect(r.updates[r.updates.length - 1]?.toMultiArch).toBeUndefined();
    expect(text(r)).toContain('in the update of 4.18.0-ec.3 to another payload (');
  });

  it('completed after the master pool (an MCO with operator-image): the master-pool rule holds', async () => {
    const r = await analyze(COMPLETED);
    expect(outcome(r, MASTER_RULE)?.state).toBe('holds');
    // A snapshot holds no time for the operator-image report, and the version string says nothing.
    const pool = outcome(r, POOL_RULE);
    expect(pool?.state).toBe('not-checked');
    expect(pool?.reason).toContain('keeps the version string 4.18.0-ec.3');
    expect(pool?.reason).toContain('operator-image');
  });

  it("machine-config's operator-image reported after the master pool rolled out: the required-pool rule holds", async () => {
    const r = await analyze(COMPLETED, LATE);
    expect(outcome(r, POOL_RULE)?.state).toBe('holds');
    expect(outcome(r, MASTER_RULE)?.state).toBe('holds');
  });

  it('operator-image reported while the master pool still rolled out its new config: a failure, named by operator-image', async () => {
    const r = await analyze(COMPLETED, EARLY);
    const pool = outcome(r, POOL_RULE);
    expect(pool?.state).toBe('violated');
    const f = r.findings.find((x) => x.rule === POOL_RULE);
    expect(f?.summary).toContain(
      '(its operator-image version: the update keeps the version string) at 23:26:10.118',
    );
    expect(f?.summary).toContain('still rolling out rendered-master-1f718b5bc3667e49797e9a47d9f48725');
    expect(f?.summary).toContain('(in the update of 4.18.0-ec.3 to the multi-architecture payload)');
    expect(f?.evidence[0]).toMatchObject({ field: 'status.versions[operator-image]' });
    // Explained from the operator-image report to the config the pool was still rolling out.
    const steps = (f?.explanation?.steps ?? []).map((c) => c.title);
    expect(steps[0]).toBe(
      'machine-config reported level (operator-image sha256:787a505ca594…) at 23:26:10.118',
    );
    expect(
      steps.some((t) =>
        t.includes('differs from rendered-master-909adc791f502a35c20ba70158c4c582 in 1 place: osImageURL'),
      ),
    ).toBe(true);
    // This MCO does report operator-image: its early report is not the known same-version signature.
    expect(f?.explanation?.signature?.id).not.toBe('same-version-no-operator-image');
    // The CVO itself waited: it completed after the pool.
    expect(outcome(r, MASTER_RULE)?.state).toBe('holds');
  });

  it('the CVO completing before the pools rolled (an MCO before operator-image) is the violation it is', async () => {
    const r = await analyze(CVO_EARLY);
    expect(outcome(r, MASTER_RULE)?.state).toBe('violated');
    const f = r.findings.find((x) => x.rule === MASTER_RULE);
    expect(f?.summary).toContain('the pool finished at 23:33:40, 10m00s later');
    expect(f?.summary).toContain('(in the update of 4.18.0-ec.3 to the multi-architecture payload)');
    // Not "not a known signature": an MCO without operator-image cannot report such an update's level.
    expect(f?.explanation?.signature?.id).toBe('same-version-no-operator-image');
    // The pool's new config came 65 s after the completion: it was not "still rolling out" then.
    const steps = (f?.explanation?.steps ?? []).map((c) => c.title);
    expect(steps).toContain(
      "the CVO saw machine-config at level and completed 4.18.0-ec.3 at 23:23:40 before the render controller had created the pool's new config rendered-master-1f718b5bc3667e49797e9a47d9f48725: the pool had not begun to roll it out",
    );
    expect(f?.explanation?.signature?.references).toContain(
      'https://github.com/openshift/machine-config-operator/pull/4637',
    );
  });

  it('partial data never turns into a pass: without the rendered configs, or without the nodes', async () => {
    const noConfigs = await analyze(completedWith('machineconfigs.yaml', () => undefined));
    expect(noConfigs.verdict).not.toBe('pass');
    expect(outcome(noConfigs, MASTER_RULE)?.state).not.toBe('violated');
    const noNodes = await analyze(
      completedWith('nodes.yaml', () => undefined),
      EARLY,
    );
    expect(outcome(noNodes, POOL_RULE)?.state).toBe('violated');
  });
});

/** history (newest first) replaced by `entries`, and the Multi markers kept or dropped. */
function withHistory(entries: string, multi = true): string {
  return completedWith('clusterversion.yaml', (s) => {
    const start = s.indexOf('  history:\n');
    const end = s.indexOf('  observedGeneration:');
    const out = `${s.slice(0, start)}  history:\n${entries}${s.slice(end)}`;
    return multi
      ? out
      : out.replace('architecture: Multi', "architecture: ''").replace('architecture="Multi"', '');
  });
}

const entry = (version: string, image: string, started: string, completed: string) =>
  `  - completionTime: '${completed}'\n    image: ${image}\n    startedTime: '${started}'\n    state: Completed\n    verified: true\n    version: ${version}\n`;
const SINGLE = (v: string) => `quay.io/openshift-release-dev/ocp-release:${v}-x86_64`;
const MULTI = (v: string) => `quay.io/openshift-release-dev/ocp-release:${v}-multi`;

describe('several updates with the migration between them', () => {
  it('names each: the version updates by their versions, the one same-version entry as the migration', async () => {
    const dir = withHistory(
      entry('4.18.0-ec.4', MULTI('4.18.0-ec.4'), '2024-11-21T08:00:00Z', '2024-11-21T09:10:00Z') +
        entry('4.18.0-ec.3', MULTI('4.18.0-ec.3'), '2024-11-20T23:22:25Z', '2024-11-20T23:34:20Z') +
        entry('4.18.0-ec.3', SINGLE('4.18.0-ec.3'), '2024-11-20T21:00:00Z', '2024-11-20T22:20:00Z') +
        entry('4.18.0-ec.2', SINGLE('4.18.0-ec.2'), '2024-11-20T19:00:00Z', '2024-11-20T19:40:00Z'),
    );
    const r = await analyze(dir);
    expect(r.updates.map((u) => [u.previous, u.target, u.toMultiArch === true])).toEqual([
      ['4.18.0-ec.2', '4.18.0-ec.3', false],
      ['4.18.0-ec.3', '4.18.0-ec.3', true],
      ['4.18.0-ec.3', '4.18.0-ec.4', false],
    ]);
    // The newest update is a version change on the multi payload: named by its versions.
    expect(text(r)).toContain('in the update 4.18.0-ec.3 → 4.18.0-ec.4');
  });

  it('a rebuild besides the migration (two same-version entries): neither is called the migration', async () => {
    const dir = withHistory(
      entry('4.18.0-ec.3', MULTI('4.18.0-ec.3'), '2024-11-20T23:22:25Z', '2024-11-20T23:34:20Z') +
        entry(
          '4.18.0-ec.3',
          `${SINGLE('4.18.0-ec.3')}-rebuild`,
          '2024-11-20T22:40:00Z',
          '2024-11-20T23:00:00Z',
        ) +
        entry('4.18.0-ec.3', SINGLE('4.18.0-ec.3'), '2024-11-20T22:00:00Z', '2024-11-20T22:20:00Z'),
    );
    const r = await analyze(dir);
    expect(r.updates.some((u) => u.toMultiArch)).toBe(false);
    expect(text(r)).toContain('to another payload (');
  });

  it('status.desired.architecture alone marks a multi cluster', async () => {
    const dir = withHistory(
      entry('4.18.0-ec.3', MULTI('4.18.0-ec.3'), '2024-11-20T23:22:25Z', '2024-11-20T23:34:20Z') +
        entry('4.18.0-ec.3', SINGLE('4.18.0-ec.3'), '2024-11-20T22:00:00Z', '2024-11-20T22:20:00Z'),
      false,
    );
    const plain = await analyze(dir);
    expect(plain.updates[0]?.toMultiArch).toBeUndefined();
    const marked = join(dir, 'clusterversion.yaml');
    writeFileSync(
      marked,
      readFileSync(marked, 'utf8').replace('  desired:\n', '  desired:\n    architecture: Multi\n'),
    );
    expect((await analyze(dir)).updates[0]?.toMultiArch).toBe(true);
  });
});

describe('heterogeneous compute: an arm64 worker beside amd64 masters and workers', () => {
  /** COMPLETED with worker ip-10-0-72-40 an arm64 machine (its labels and nodeInfo, as the kubelet reports them). */
  function withArmWorker(): string {
    return completedWith('nodes.yaml', (s) => {
      const at = s.indexOf('kubernetes.io/hostname: ip-10-0-72-40');
      const head = s.slice(0, at);
      const tail = s.slice(at);
      const labelled = head.replace(
        /kubernetes\.io\/arch: amd64\n(?![\s\S]*kubernetes\.io\/arch)/,
        'kubernetes.io/arch: arm64\n',
      );
      return labelled + tail.replace('architecture: amd64', 'architecture: arm64');
    });
  }

  it('the pools and nodes read the same: a pool rolls one rendered config whatever its nodes run on', async () => {
    const dir = withArmWorker();
    expect(readFileSync(join(dir, 'nodes.yaml'), 'utf8').match(/arm64/g)?.length).toBe(2);
    const h = await loadHistory([dir]);
    const status = assessStatus(h);
    const worker = status.pools.find((p) => p.name === 'worker');
    expect(worker?.updated).toBe(3);
    expect(worker?.nodes.find((n) => n.name === 'ip-10-0-72-40.us-east-2.compute.internal')).toMatchObject({
      updated: true,
      currentConfig: 'rendered-worker-a079988a31206987bed827f0242d7b3f',
    });
    const r = analyzeHistory(h);
    const plain = await analyze(COMPLETED);
    expect(r.outcomes.map((o) => [o.rule.id, o.state])).toEqual(
      plain.outcomes.map((o) => [o.rule.id, o.state]),
    );
  });
});

describe("the simulator's migration run, with both payloads' release info (one version, two images)", () => {
  it('takes each payload for its side and names the changed images from both', async () => {
    const scenario = builtinScenario('multi-arch-migration');
    if (!scenario) throw new Error('no built-in scenario multi-arch-migration');
    const run = runSimulation(scenario, 'fixed', 1, { record: true });
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-multi-sim-'));
    await writeRunFolder(dir, renderArtifacts(run));
    const h = await loadHistory([dir]);
    expect(h.releases.to?.ref.file).toMatch(/release-to\.json$/);
    expect(h.releases.from?.ref.file).toMatch(/release-from\.json$/);
    expect(h.notes.some((n) => n.includes('version already read'))).toBe(false);
    const r = analyzeHistory(h);
    const f = r.findings.find((x) => x.rule === MASTER_RULE);
    const named = f?.explanation?.steps.find((c) =>
      c.title.startsWith('the changed images are the release components'),
    );
    expect(named?.title).toContain('machine-os-content');
    const refs = (named?.evidence ?? []).map((e) => e.ref?.file ?? '');
    expect(refs.some((file) => file.endsWith('release-from.json'))).toBe(true);
    expect(refs.some((file) => file.endsWith('release-to.json'))).toBe(true);
  });
});
