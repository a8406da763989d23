import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATHER_DIR, JUNIT_DIR, renderArtifacts } from '../../src/sim/artifacts/write.js';
import { runSimulation } from '../../src/sim/run.js';
import { builtinScenario } from '../../src/sim/scenario.js';
import { writeRunFolder } from '../../src/writer/index.js';
import { loadHistoryParts } from '../helpers/load.js';

const scenario = builtinScenario('pause-image-only');
if (!scenario) throw new Error('missing scenario');

async function hashTree(dir: string): Promise<string> {
  const h = createHash('sha256');
  const walk = async (d: string): Promise<void> => {
    const entries = (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else
        h.update(relative(dir, p))
          .update('\0')
          .update(await readFile(p))
          .update('\0');
    }
  };
  await walk(dir);
  return h.digest('hex');
}

let root: string;
let runDir: string;
let files: Map<string, string>;
const run = runSimulation(scenario, 'pre-fix-2021', 1, { record: true });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'atlevel-sim-'));
  runDir = join(root, 'run');
  files = renderArtifacts(run);
  await writeRunFolder(runDir, files);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const json = (rel: string) => JSON.parse(files.get(rel) as string);

describe('a written run', () => {
  it('has the CI layout', () => {
    expect([...files.keys()].sort()).toEqual(
      [
        'atlevel-revisions.jsonl',
        'atlevel-simulation.json',
        'build-log.txt',
        `${GATHER_DIR}/clusteroperators.json`,
        `${GATHER_DIR}/clusterversion.json`,
        `${GATHER_DIR}/daemonsets.json`,
        `${GATHER_DIR}/deployments.json`,
        `${GATHER_DIR}/events.json`,
        `${GATHER_DIR}/machineconfigpools.json`,
        `${GATHER_DIR}/machineconfigs.json`,
        `${GATHER_DIR}/nodes.json`,
        `${GATHER_DIR}/pods.json`,
        `${GATHER_DIR}/replicasets.json`,
        `${JUNIT_DIR}/e2e-events_20211103-025000.json`,
        `${JUNIT_DIR}/e2e-intervals_20211103-025000.json`,
        'release/release-from.json',
        'release/release-to.json',
      ].sort(),
    );
  });

  it('is byte-identical when the same seed is written again', async () => {
    const again = join(root, 'again');
    await writeRunFolder(
      again,
      renderArtifacts(runSimulation(scenario, 'pre-fix-2021', 1, { record: true })),
    );
    expect(await hashTree(again)).toBe(await hashTree(runDir));
    const other = join(root, 'other');
    await writeRunFolder(
      other,
      renderArtifacts(runSimulation(scenario, 'pre-fix-2021', 2, { record: true })),
    );
    expect(await hashTree(other)).not.toBe(await hashTree(runDir));
  });

  it('build-log.txt carries monitor lines and the upgrade test lines in their exact formats', () => {
    const log = files.get('build-log.txt') as string;
    const from = run.from.version;
    const to = run.to.version;
    expect(log).toMatch(
      new RegExp(
        `^Nov 03 03:\\d\\d:\\d\\d\\.\\d{3} I clusteroperator/machine-config versions: operator ${from} -> ${to}$`,
        'm',
      ),
    );
    expect(log).toMatch(
      /^Nov 03 \d\d:\d\d:\d\d\.\d{3} W clusteroperator\/machine-config condition\/Progressing status\/True changed: Working towards /m,
    );
    expect(log).toMatch(
      /^Nov 03 \d\d:\d\d:\d\d\.\d{3} - \d+s {2,}W clusteroperator\/machine-config condition\/Progressing status\/True reason\/Working towards /m,
    );
    expect(log).toMatch(
      new RegExp(
        `^Nov 03 \\d\\d:\\d\\d:\\d\\d\\.\\d{3} W clusterversion/version cluster reached ${to}$`,
        'm',
      ),
    );
    expect(log).toMatch(
      /^Nov 03 \d\d:\d\d:\d\d\.\d{3} I node\/ip-10-0-\d+-\d+\.us-east-2\.compute\.internal reason\/MachineConfigChange config\/rendered-master-[0-9a-f]{32} config change requested$/m,
    );
    expect(log).toMatch(
      /^Nov 03 \d\d:\d\d:\d\d\.\d{3} I node\/\S+ reason\/MachineConfigReached config\/rendered-master-[0-9a-f]{32} reached desired config$/m,
    );
    expect(log).toContain(`: INFO: Completed upgrade to ${run.to.image}\n`);
    expect(log).toMatch(/^Nov {2}3 03:\d\d:\d\d\.\d{3}: INFO: Waiting on pools to be upgraded$/m);
    expect(log).toMatch(
      /^Nov {2}3 03:\d\d:\d\d\.\d{3}: INFO: Pool master is still reporting \(Updated: false, Updating: true, Degraded: false\)$/m,
    );
    expect(log).toMatch(
      /^Nov {2}3 03:\d\d:\d\d\.\d{3}: INFO: Invariant violation detected: the "master" pool should be updated before the CVO reports available at the new version$/m,
    );
    expect(log).toMatch(/^Nov {2}3 03:\d\d:\d\d\.\d{3}: INFO: All pools completed upgrade$/m);
    // The test's lines come in the order the test logs them.
    const order = [
      'Completed upgrade to',
      'Waiting on pools to be upgraded',
      'Invariant violation detected',
      'All pools completed upgrade',
    ];
    const at = order.map((s) => log.indexOf(s));
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('machineconfigs.json holds both releases’ rendered configs, differing in the pause image', () => {
    const mcs = json(`${GATHER_DIR}/machineconfigs.json`);
    expect(mcs).toMatchObject({
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '', selfLink: '' },
    });
    const masters = mcs.items.filter((i: { metadata: { name: string } }) =>
      i.metadata.name.startsWith('rendered-master-'),
    );
    expect(masters).toHaveLength(2);
    const pods = masters.map(
      (m: { spec: { config: { systemd: { units: { name: string; contents: string }[] } } } }) => {
        const unit = m.spec.config.systemd.units.find((u) => u.name === 'kubelet.service')?.contents ?? '';
        return /--pod-infra-container-image=(\S+)/.exec(unit)?.[1];
      },
    );
    expect(new Set(pods)).toEqual(
      new Set([run.from.byName.get('pod')?.pullSpec, run.to.byName.get('pod')?.pullSpec]),
    );
    for (const m of masters) {
      expect(m.spec.osImageURL).toBe(run.to.byName.get('machine-os-content')?.pullSpec);
      expect(
        m.metadata.annotations['machineconfiguration.openshift.io/generated-by-controller-version'],
      ).toBe(run.to.mcoCommit);
      expect(m.metadata.ownerReferences[0]).toMatchObject({
        kind: 'MachineConfigPool',
        name: 'master',
        controller: true,
      });
      const crio = m.spec.config.storage.files.find(
        (f: { path: string }) => f.path === '/etc/crio/crio.conf.d/00-default',
      );
      expect(decodeURIComponent(crio.contents.source.replace(/^data:,/, ''))).toMatch(
        /pause_image = "quay\.io\/openshift-release-dev\/ocp-v4\.0-art-dev@sha256:[0-9a-f]{64}"/,
      );
    }
  });

  it('nodes.json and events.json carry what the MCO leaves on them', () => {
    const nodes = json(`${GATHER_DIR}/nodes.json`).items;
    expect(nodes).toHaveLength(6);
    for (const n of nodes) {
      const a = n.metadata.annotations;
      expect(a['machineconfiguration.openshift.io/state']).toBe('Done');
      expect(a['machineconfiguration.openshift.io/currentConfig']).toBe(
        a['machineconfiguration.openshift.io/desiredConfig'],
      );
    }
    const reasons = new Set(json(`${GATHER_DIR}/events.json`).items.map((e: { reason: string }) => e.reason));
    for (const r of [
      'RenderedConfigGenerated',
      'SetDesiredConfig',
      'OperatorVersionChanged',
      'UpgradeStarted',
      'UpgradeFailed',
    ]) {
      expect(reasons.has(r)).toBe(true);
    }
  });

  it('the intervals JSON uses the 4.10 schema and keeps only real intervals', () => {
    const items = json(`${JUNIT_DIR}/e2e-intervals_20211103-025000.json`).items;
    expect(items.length).toBeGreaterThan(10);
    for (const i of items) {
      expect(Object.keys(i)).toEqual(['level', 'locator', 'message', 'from', 'to']);
      expect(i.from).toMatch(/^2021-11-03T\d\d:\d\d:\d\dZ$/);
    }
    expect(
      items.some(
        (i: { locator: string; message: string }) =>
          i.locator === 'clusteroperator/machine-config' &&
          i.message.startsWith('condition/Progressing status/True reason/Working towards'),
      ),
    ).toBe(true);
  });

  it('the release info files have oc adm release info -o json shape', () => {
    const to = json('release/release-to.json');
    expect(to.image).toBe(run.to.image);
    expect(to.metadata).toMatchObject({ kind: 'cincinnati-metadata-v0', version: run.to.version });
    const pod = to.references.spec.tags.find((t: { name: string }) => t.name === 'pod');
    expect(pod.from).toEqual({ kind: 'DockerImage', name: run.to.byName.get('pod')?.pullSpec });
    expect(pod.annotations['io.openshift.build.commit.id']).toMatch(/^[0-9a-f]{40}$/);
    expect(to.displayVersions['machine-os'].Version).toBe(run.to.rhcosVersion);
  });

  it('is read back by the sources: pools, rendered configs, test log and both releases', async () => {
    const parts = await loadHistoryParts([runDir]);
    expect(parts.objects.machineConfigPools.map((p) => p.object.metadata.name).sort()).toEqual([
      'master',
      'worker',
    ]);
    const rendered = parts.objects.machineConfigs
      .map((m) => m.object.metadata.name)
      .filter((n) => n.startsWith('rendered-'));
    expect(rendered).toHaveLength(4);
    const kinds = new Set(parts.testLog.map((e) => e.kind));
    for (const k of [
      'upgrade-started',
      'upgrade-completed',
      'waiting-on-pools',
      'pool-status',
      'invariant-violation',
      'pools-completed',
    ]) {
      expect(kinds.has(k as never)).toBe(true);
    }
    const violation = parts.testLog.find((e) => e.kind === 'invariant-violation');
    expect(violation?.at).toBe(Date.UTC(2021, 10, 3, 2, 50) + (run.facts.testDetectedAt as number));
    expect(parts.releases.from?.version).toBe(run.from.version);
    expect(parts.releases.to?.version).toBe(run.to.version);
    expect(parts.monitorIntervals.some((i) => i.message.humanMessage.includes('cluster reached'))).toBe(true);
  });
});
