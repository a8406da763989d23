/**
 * Each input layout on small hand-made fixtures (test/fixtures/sources/), and archives of them built
 * on the fly: a tar.gz of a folder must load to the same parts as the folder.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryParts } from '../../src/model/history.js';
import { loadHistory, loadHistoryParts } from '../helpers/load.js';

const HERE = 'test/fixtures/sources';
const CI = `${HERE}/ci-run`;
const GA = `${CI}/artifacts/e2e-aws-upgrade/gather-extra/artifacts`;
const JUNIT = `${CI}/artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit`;
const MG = `${HERE}/must-gather`;
const MG_ROOT = `${MG}/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123`;
const A = '4.10.0-0.nightly-2021-11-02-191632';
const B = '4.10.0-0.nightly-2021-11-03-020416';
const T = (iso: string) => Date.parse(iso);

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'atlevel-sources-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const names = <T extends { object: { metadata: { name: string } } }>(list: T[]) =>
  list.map((o) => o.object.metadata.name);

describe('CI run folder', () => {
  let parts: HistoryParts;
  beforeAll(async () => {
    parts = await loadHistoryParts([CI]);
  });

  it('reads the gather-extra Lists', () => {
    const o = parts.objects;
    expect(names(o.clusterVersions)).toEqual(['version']);
    expect(names(o.clusterOperators)).toEqual(['machine-config', 'kube-apiserver']);
    expect(names(o.machineConfigPools)).toEqual(['master', 'worker']);
    expect(names(o.machineConfigs)).toHaveLength(4);
    expect(names(o.nodes)).toEqual(['ip-10-0-140-81.ec2.internal', 'ip-10-0-150-12.ec2.internal']);
    expect(o.events).toHaveLength(3);
    expect(o.machineConfigPools[1]?.ref).toEqual({ file: `${GA}/machineconfigpools.json`, path: 'items[1]' });
  });

  it('normalises events.k8s.io/v1 Events to the core/v1 names', () => {
    const upgrade = parts.objects.events.find((e) => e.object.reason === 'UpgradeStarted')?.object;
    expect(upgrade?.involvedObject).toEqual({
      kind: 'ClusterVersion',
      name: 'cluster',
      namespace: 'openshift-cluster-version',
    });
    expect(upgrade?.message).toBe(
      `version/${B} image/registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f`,
    );
    expect(upgrade?.firstTimestamp).toBe('2021-11-03T02:50:00Z');
    expect(upgrade?.count).toBe(1);
    expect(upgrade?.source).toEqual({
      component: 'openshift-tests.openshift.io/upgrade',
      host: 'openshift-tests',
    });
  });

  it('reads build-log lines with the year of the run and millisecond times', () => {
    const fromLog = parts.monitorIntervals.filter((i) => i.source === 'build-log');
    expect(fromLog).toHaveLength(11);
    const versions = fromLog.find((i) => i.message.annotations.versions !== undefined);
    expect(versions?.from).toBe(T('2021-11-03T03:23:09.856Z'));
    expect(versions?.ref).toEqual({ file: `${CI}/build-log.txt`, line: 20 });
    const progressing = fromLog.filter(
      (i) => i.message.annotations.condition === 'Progressing' && i.locator.type === 'ClusterOperator',
    );
    expect(progressing.map((i) => [i.message.annotations.status, i.to - i.from])).toEqual([
      ['True', 0],
      ['True', 6000],
      ['False', 0],
    ]);
    expect(parts.notes).toContain(
      `${CI}/build-log.txt: lines carry no year; used 2021, from the time stamp on line 1 of build-log.txt`,
    );
  });

  it('reads the upgrade test log', () => {
    expect(parts.testLog.map((e) => e.kind)).toEqual([
      'upgrade-started',
      'cluster-upgrade-condition',
      'upgrade-completed',
      'waiting-on-pools',
      'pool-status',
      'invariant-violation',
      'pool-status',
      'pool-status',
      'pools-completed',
    ]);
    expect(parts.testLog[4]).toEqual({
      kind: 'pool-status',
      at: T('2021-11-03T03:28:36.063Z'),
      pool: 'master',
      updated: false,
      updating: true,
      degraded: false,
      paused: false,
      ref: { file: `${CI}/build-log.txt`, line: 8 },
    });
  });

  it('reads all three interval JSON generations and keeps one copy of a repeated interval', async () => {
    // The parts hold each monitor event once: interval-file copies of build-log lines are dropped.
    const kept = parts.monitorIntervals.filter((i) => i.source !== 'build-log');
    expect(kept.map((i) => i.source)).toEqual(['e2e-events', 'e2e-timelines']);
    expect(parts.echoSpan).toBeDefined();
    const json = (await loadHistoryParts([CI], {}, { streamEchoes: false })).monitorIntervals.filter(
      (i) => i.source !== 'build-log',
    );
    expect(json).toEqual(kept);
    const backOff = json.find((i) => i.source === 'e2e-timelines');
    expect(backOff?.locator).toEqual({
      type: 'Pod',
      keys: { namespace: 'openshift-machine-config-operator', pod: 'machine-config-daemon-x7k2p' },
    });
    expect(backOff?.ref).toEqual({
      file: `${JUNIT}/e2e-timelines_spyglass_20211103-021533.json`,
      path: 'items[1]',
    });
    const reached = json.find((i) => i.message.humanMessage === `cluster reached ${B}`);
    expect(reached?.to).toBe(reached?.from);
    expect(parts.notes).toContain('1 interval appeared in more than one intervals file; kept one copy');
  });

  it('finds the release payloads and tells from and to apart by the ClusterVersion history', () => {
    expect(parts.releases.to?.version).toBe(B);
    expect(parts.releases.to?.ref.file).toBe(`${CI}/releases/image-references`);
    expect(parts.releases.from?.version).toBe(A);
    expect(parts.releases.from?.components.find((c) => c.name === 'pod')?.digest).toBe(
      'sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639',
    );
    expect(parts.notes.filter((n) => n.startsWith('release payload'))).toHaveLength(2);
  });

  it('lists every file it used with what it gave, and counts the rest', () => {
    const byPath = new Map(parts.inputs.map((i) => [i.path.slice(CI.length + 1), i]));
    expect(byPath.get('build-log.txt')).toMatchObject({
      reader: 'build-log',
      contributed: '11 intervals, 9 test log lines',
    });
    expect(byPath.get('artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json')).toMatchObject({
      reader: 'gather-extra',
      contributed: '4 objects',
    });
    expect(byPath.get('releases/release-info.json')?.contributed).toBe(`release ${A} (3 components)`);
    expect(byPath.has('artifacts/e2e-aws-upgrade/gather-extra/artifacts/configmaps.json')).toBe(false);
    expect(parts.inputs).toHaveLength(12);
    expect(parts.notes.find((n) => n.includes('ignored 3 files'))).toBeDefined();
  });

  it('builds a history from the parts', async () => {
    const history = await loadHistory([CI]);
    expect(history.intervals.length).toBeGreaterThan(parts.monitorIntervals.length);
    // The first thing known: the install's history entry.
    expect(history.span?.from).toBe(T('2021-11-03T01:55:30Z'));
    expect(history.releases.to?.version).toBe(B);
  });
});

describe('archives', () => {
  /** Archive paths (`run.tar.gz!ci-run/x`, and `run.tar.gz` in notes) written as the folder's. */
  const normalise = (parts: HistoryParts, archive: string) =>
    JSON.parse(
      JSON.stringify(parts).replaceAll(`${archive}!ci-run`, CI).replaceAll(`${archive}:`, `${CI}:`),
    ) as HistoryParts;

  it.each([
    ['tar.gz', { gzip: true }],
    ['tgz', { gzip: true }],
    ['tar', {}],
  ])('a .%s of the CI run loads to the same parts as the folder', async (ext, options) => {
    const archive = join(tmp, `run.${ext}`);
    await tar.c({ ...options, file: archive, cwd: HERE, portable: true }, ['ci-run']);
    const fromArchive = await loadHistoryParts([archive]);
    const fromFolder = await loadHistoryParts([CI]);
    expect(normalise(fromArchive, archive)).toEqual(fromFolder);
    expect(fromArchive.objects.machineConfigPools[0]?.ref.file).toBe(
      `${archive}!ci-run/artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigpools.json`,
    );
  });

  it('reads gzip members inside an archive', async () => {
    const dir = join(tmp, 'gz-inside');
    const { mkdir, copyFile, readFile } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'nodes.json.gz'), gzipSync(await readFile(`${GA}/nodes.json`)));
    await writeFile(join(dir, 'build-log.txt.gz'), gzipSync(await readFile(`${CI}/build-log.txt`)));
    await copyFile(`${JUNIT}/e2e-events_20211103-021533.json`, join(dir, 'e2e-events_20211103-021533.json'));
    const archive = join(tmp, 'gz-inside.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: dir, portable: true }, ['.']);
    const parts = await loadHistoryParts([archive]);
    expect(parts.objects.nodes).toHaveLength(2);
    expect(parts.testLog).toHaveLength(9);
    expect(parts.objects.nodes[0]?.ref.file).toBe(`${archive}!nodes.json.gz`);
    const folderParts = await loadHistoryParts([dir]);
    expect(folderParts.testLog.map((e) => e.at)).toEqual(parts.testLog.map((e) => e.at));
  });

  it('reads a must-gather archive', async () => {
    const archive = join(tmp, 'mg.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: HERE, portable: true }, ['must-gather']);
    const parts = await loadHistoryParts([archive]);
    expect(names(parts.objects.machineConfigPools)).toEqual(['master']);
    expect(parts.alerts).toHaveLength(1);
  });
});

describe('must-gather', () => {
  let parts: HistoryParts;
  beforeAll(async () => {
    parts = await loadHistoryParts([MG]);
  });

  it('keeps one copy of an object seen in a List file and its own file, the newer one', () => {
    expect(parts.objects.clusterVersions).toHaveLength(1);
    const cv = parts.objects.clusterVersions[0];
    // The List (read first) holds resourceVersion 700; the per-object file 612. The newer wins.
    expect(cv?.object.metadata.resourceVersion).toBe('700');
    expect(cv?.object.status?.history?.[0]?.state).toBe('Completed');
    expect(cv?.ref).toEqual({
      file: `${MG_ROOT}/cluster-scoped-resources/config.openshift.io/clusterversions.yaml`,
      line: 1,
      path: 'items[0]',
    });
    expect(parts.notes).toContain('1 object was seen more than once; kept the newest snapshot of each');
  });

  it('reads per-object files, namespaced Lists, PDBs and alerts', () => {
    expect(names(parts.objects.clusterOperators)).toEqual(['machine-config']);
    expect(names(parts.objects.nodes)).toEqual(['master-0']);
    expect(parts.objects.nodes[0]?.ref).toEqual({
      file: `${MG_ROOT}/cluster-scoped-resources/core/nodes/master-0.yaml`,
      line: 1,
    });
    expect(names(parts.objects.podDisruptionBudgets)).toEqual(['etcd-guard-pdb']);
    expect(parts.alerts).toEqual([
      expect.objectContaining({ labels: expect.objectContaining({ alertname: 'MCDDrainError' }) }),
    ]);
  });

  it('normalises an events.k8s.io Event with a series', () => {
    const os = parts.objects.events.find((e) => e.object.reason === 'OSUpdateStarted')?.object;
    expect(os).toMatchObject({
      involvedObject: { kind: 'Node', name: 'master-0' },
      message: 'Upgrading OS',
      count: 2,
      lastTimestamp: '2021-11-03T03:31:30.000000Z',
      source: { component: 'machineconfigdaemon', host: 'master-0' },
    });
  });

  it('ignores resources it does not read', () => {
    expect(parts.notes).toContain(`${MG}: read as must-gather`);
    expect(parts.notes.find((n) => n.startsWith(`${MG}: ignored 3 files`))).toBeDefined();
  });
});

describe('folder of oc get output', () => {
  it('reads multi-document YAML, Lists and single objects by kind, skipping other kinds', async () => {
    const parts = await loadHistoryParts([`${HERE}/oc-get`]);
    expect(names(parts.objects.clusterVersions)).toEqual(['version']);
    expect(names(parts.objects.clusterOperators)).toEqual(['etcd', 'dns']);
    expect(names(parts.objects.nodes)).toEqual(['worker-0']);
    expect(parts.objects.machineConfigPools[0]?.ref).toEqual({
      file: `${HERE}/oc-get/cluster.yaml`,
      line: 28,
    });
    expect(parts.objects.clusterVersions[0]?.ref).toEqual({ file: `${HERE}/oc-get/cluster.yaml`, line: 2 });
    expect(parts.notes).toContain('skipped 1 object of kinds atlevel does not read (Secret)');
    expect(parts.notes).toContain(`${HERE}/oc-get: read as oc get files`);
  });

  it('reads a single YAML file given directly', async () => {
    const parts = await loadHistoryParts([`${HERE}/oc-get/node-worker-0.yml`]);
    expect(names(parts.objects.nodes)).toEqual(['worker-0']);
    expect(parts.objects.nodes[0]?.ref).toEqual({ file: `${HERE}/oc-get/node-worker-0.yml`, line: 1 });
  });
});

describe('oc examples case', () => {
  it('reads CASE-{cv,co,mcp,mc,node}.yaml and CASE-alerts.json from the prefix', async () => {
    const prefix = `${HERE}/oc-example/case`;
    const parts = await loadHistoryParts([prefix]);
    expect(parts.objects.clusterVersions[0]?.object.status?.desired?.version).toBe('4.15.0');
    expect(parts.objects.clusterVersions[0]?.ref).toEqual({
      file: `${prefix}-cv.yaml`,
      line: 1,
      path: 'items[0]',
    });
    expect(names(parts.objects.clusterOperators)).toEqual(['machine-config']);
    expect(names(parts.objects.machineConfigPools)).toEqual(['master', 'worker']);
    expect(names(parts.objects.nodes)).toEqual(['worker-a', 'worker-b']);
    expect(parts.alerts?.map((a) => (a as { labels: { alertname: string } }).labels.alertname)).toEqual([
      'PodDisruptionBudgetAtLimit',
      'Watchdog',
    ]);
    expect(parts.inputs.map((i) => [i.path.slice(prefix.length), i.reader])).toEqual([
      ['-cv.yaml', 'oc-example'],
      ['-co.yaml', 'oc-example'],
      ['-mcp.yaml', 'oc-example'],
      ['-mc.yaml', 'oc-example'],
      ['-node.yaml', 'oc-example'],
      ['-alerts.json', 'alerts'],
    ]);
  });
});

describe('several inputs and explicit release files', () => {
  it('merges inputs; the same object from two inputs keeps the newest snapshot', async () => {
    const parts = await loadHistoryParts([MG, CI]);
    expect(parts.objects.clusterVersions).toHaveLength(1);
    // gather-extra's ClusterVersion has resourceVersion 91234, the must-gather's 700.
    expect(parts.objects.clusterVersions[0]?.object.metadata.resourceVersion).toBe('91234');
    expect(names(parts.objects.nodes)).toEqual([
      'master-0',
      'ip-10-0-140-81.ec2.internal',
      'ip-10-0-150-12.ec2.internal',
    ]);
  });

  it('uses --release-from/--release-to over what the folder holds', async () => {
    const parts = await loadHistoryParts([`${HERE}/oc-get`], {
      releaseFrom: `${CI}/releases/release-info.json`,
      releaseTo: `${CI}/releases/image-references`,
    });
    expect(parts.releases.from?.version).toBe(A);
    expect(parts.releases.to?.version).toBe(B);
    expect(parts.inputs.filter((i) => i.reader === 'release').map((i) => i.contributed)).toEqual([
      `release ${A} (3 components), given as --release-from`,
      `release ${B} (3 components), given as --release-to`,
    ]);
  });

  it("reads a build log alone, dated by ci-operator's own time stamps", async () => {
    const parts = await loadHistoryParts([`${CI}/build-log.txt`]);
    expect(parts.testLog).toHaveLength(9);
    expect(new Date(parts.testLog[0]?.at ?? 0).toISOString()).toMatch(/^2021-11-03T/);
    expect(parts.notes).toContain(
      `${CI}/build-log.txt: lines carry no year; used 2021, from the time stamp on line 1 of build-log.txt`,
    );
  });

  it('reads a build log with no dated line alone, with the current year, and says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlevel-log-alone-'));
    try {
      const file = join(dir, 'build-log.txt');
      await writeFile(
        file,
        'Nov 03 03:23:09.856 I clusteroperator/machine-config versions: operator A -> B\n',
      );
      const parts = await loadHistoryParts([file]);
      const year = new Date().getUTCFullYear();
      const at = parts.monitorIntervals[0]?.from ?? 0;
      expect(new Date(at).getUTCFullYear()).toBeGreaterThanOrEqual(year - 1);
      expect(parts.notes.some((n) => n.includes('the current year'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
