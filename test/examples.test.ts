/**
 * The bundled examples: the seed's facts (https://bugzilla.redhat.com/show_bug.cgi?id=2019850) must hold in the checked-in
 * files exactly, the files must agree with each other, and they must be what the generator writes.
 * Everything is read straight from the JSON and text; no atlevel code is involved.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleFiles, FOLDERS, GATHER_DIR, JUNIT_DIR } from '../scripts/make-examples/files.js';
import { projectRoot } from './helpers/fixtures.js';

const FROM = '4.10.0-0.nightly-2021-11-02-191632';
const TO = '4.10.0-0.nightly-2021-11-03-020416';
const TARGET =
  'registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f';
const ART = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev';
const POD_FROM = `${ART}@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639`;
const POD_TO = `${ART}@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb`;
const R = {
  masterOld: 'rendered-master-78d48a9fbc8ba6a746040c11f8335d1a',
  workerOld: 'rendered-worker-f4fb9dc4bce02415a779f436ccbd258f',
  masterNew: 'rendered-master-ebc4fc8c7b6a155d86684204394e4930',
  workerNew: 'rendered-worker-80216c83e551170f7d4be028d2c2414b',
};
const INTERVALS = 'e2e-intervals_20211103-025021.json';

const SEED_MCO_LINES = [
  `Nov 03 03:23:03.719 W clusteroperator/machine-config condition/Progressing status/True changed: Working towards ${TO}`,
  `Nov 03 03:23:03.719 - 6s    W clusteroperator/machine-config condition/Progressing status/True reason/Working towards ${TO}`,
  `Nov 03 03:23:09.856 I clusteroperator/machine-config versions: operator ${FROM} -> ${TO}`,
  `Nov 03 03:23:10.428 W clusteroperator/machine-config condition/Progressing status/False changed: Cluster version is ${TO}`,
  'Nov 03 03:23:16.899 W clusteroperator/machine-config condition/Upgradeable status/False reason/PoolUpdating changed: One or more machine config pools are updating, please see `oc get mcp` for further details',
  'Nov 03 03:36:29.855 W clusteroperator/machine-config condition/Upgradeable status/True changed: ',
];

const SEED_TEST_LINES = [
  `Nov  3 03:28:35.858: INFO: Completed upgrade to ${TARGET}`,
  'Nov  3 03:28:35.931: INFO: Waiting on pools to be upgraded',
  'Nov  3 03:28:36.063: INFO: Pool master is still reporting (Updated: false, Updating: true, Degraded: false)',
  'Nov  3 03:28:36.063: INFO: Invariant violation detected: the "master" pool should be updated before the CVO reports available at the new version',
  'Nov  3 03:28:36.128: INFO: Pool worker is still reporting (Updated: false, Updating: true, Degraded: false)',
  'Nov  3 03:36:36.324: INFO: All pools completed upgrade',
];

// ---- small readers, local to this test ----

interface K8sObject {
  metadata: {
    name: string;
    creationTimestamp?: string;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string }[];
  };
  [key: string]: unknown;
}
interface List {
  kind: string;
  items: K8sObject[];
}
interface IgnFile {
  path: string;
  contents: { source: string };
}
interface IgnUnit {
  name: string;
  contents?: string;
  [key: string]: unknown;
}
interface MachineConfig extends K8sObject {
  spec: {
    osImageURL: string;
    config: { storage?: { files: IgnFile[] }; systemd?: { units: IgnUnit[] } };
  };
}
interface Tag {
  name: string;
  from: { name: string };
  annotations: Record<string, string>;
}

function dir(variant: 'bug' | 'fixed'): string {
  return join(projectRoot, 'examples', FOLDERS[variant]);
}
function text(variant: 'bug' | 'fixed', path: string): string {
  return readFileSync(join(dir(variant), path), 'utf8');
}
function gather(variant: 'bug' | 'fixed', file: string): List {
  return JSON.parse(text(variant, `${GATHER_DIR}/${file}`)) as List;
}
function machineConfig(variant: 'bug' | 'fixed', name: string): MachineConfig {
  const mc = gather(variant, 'machineconfigs.json').items.find((i) => i.metadata.name === name);
  if (!mc) throw new Error(`no MachineConfig ${name}`);
  return mc as MachineConfig;
}
/** What `jq -r '.spec.config.systemd.units[] | select(.name == "kubelet.service").contents'` prints, split as `echo "$(…)"` would count it. */
function kubeletLines(mc: MachineConfig): string[] {
  const unit = mc.spec.config.systemd?.units.find((u) => u.name === 'kubelet.service');
  return (unit?.contents ?? '').replace(/\n+$/, '').split('\n');
}
function decodeDataUrl(source: string): string {
  expect(source.startsWith('data:,')).toBe(true);
  return decodeURIComponent(source.slice('data:,'.length));
}
function tags(side: 'from' | 'to'): Map<string, Tag> {
  const info = JSON.parse(text('bug', `release/release-${side}.json`)) as {
    references: { spec: { tags: Tag[] } };
  };
  return new Map(info.references.spec.tags.map((t) => [t.name, t]));
}
const COMMIT = 'io.openshift.build.commit.id';

const MONITOR_LINE =
  /^(\w{3}) (\d\d) (\d\d:\d\d:\d\d\.\d{3}) (?:- (\S+)\s+)?([IWE]) (.+?) ((?:reason|condition|versions|changed|cluster)\b.*)$/;
const TEST_LINE = /^(\w{3}) ([ \d]\d) (\d\d:\d\d:\d\d\.\d{3}): INFO: (.*)$/;
function clockMs(clock: string): number {
  const [h = 0, m = 0, s = 0] = clock.split(':').map(Number);
  return Date.UTC(2021, 10, 3, h, m, 0) + s * 1000;
}
function monitorLines(variant: 'bug' | 'fixed') {
  return text(variant, 'build-log.txt')
    .split('\n')
    .map((line) => ({ line, m: MONITOR_LINE.exec(line) }))
    .filter((x): x is { line: string; m: RegExpExecArray } => x.m !== null)
    .map(({ line, m }) => ({
      line,
      at: clockMs(m[3] ?? ''),
      locator: m[6] ?? '',
      message: m[7] ?? '',
      interval: m[4],
    }));
}
function testLines(variant: 'bug' | 'fixed') {
  return text(variant, 'build-log.txt')
    .split('\n')
    .map((line) => TEST_LINE.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ at: clockMs(m[3] ?? ''), text: m[4] ?? '' }));
}
function condition(obj: K8sObject, type: string): { status: string; lastTransitionTime: string } | undefined {
  const status = obj.status as
    | { conditions?: { type: string; status: string; lastTransitionTime: string }[] }
    | undefined;
  return status?.conditions?.find((c) => c.type === type);
}

// ---- the seed's facts ----

describe('examples/bug-2019850 reproduces the seed', () => {
  it('names the job and the target image', () => {
    const readme = text('bug', 'README.md');
    expect(readme).toContain('periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade');
    expect(readme).toContain('1455719487931158528');
    const log = text('bug', 'build-log.txt');
    expect(log).toContain(`openshift-tests run-upgrade all --to-image ${TARGET} `);
    expect(log).toContain(
      `fail [github.com/openshift/origin/test/e2e/upgrade/upgrade.go:160]: during upgrade to ${TARGET}`,
    );
    expect(log).toContain('failed: (43m33s) ');
  });

  it("has exactly the six machine-config monitor lines of the seed's grep, in order", () => {
    const grepped = text('bug', 'build-log.txt')
      .split('\n')
      .filter((l) => l.includes('clusteroperator/machine-config '));
    expect(grepped).toEqual(SEED_MCO_LINES);
  });

  it("has the seed's test log lines, in order, with 10 s polls between them", () => {
    const lines = text('bug', 'build-log.txt').split('\n');
    const positions = SEED_TEST_LINES.map((l) => lines.indexOf(l));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const polls = testLines('bug').filter((l) => l.at > clockMs('03:28:36.2') && l.text.startsWith('Pool '));
    const master = polls.filter((l) => l.text.startsWith('Pool master'));
    const worker = polls.filter((l) => l.text.startsWith('Pool worker'));
    // polled every 10 s until 03:36:26, master done a little before the worker
    expect(worker).toHaveLength(47);
    expect(master.length).toBeGreaterThan(40);
    expect(master.length).toBeLessThan(worker.length);
    for (const group of [master, worker]) {
      for (let i = 1; i < group.length; i += 1) {
        const gap = (group[i]?.at ?? 0) - (group[i - 1]?.at ?? 0);
        expect(gap).toBeGreaterThan(9_800);
        expect(gap).toBeLessThan(10_200);
      }
    }
    expect(master.at(-1)?.at).toBeLessThan(clockMs('03:35:52'));
    expect(worker.at(-1)?.at).toBeGreaterThan(clockMs('03:36:20'));
    // the invariant violation is reported once
    expect(testLines('bug').filter((l) => l.text.startsWith('Invariant violation detected'))).toHaveLength(1);
  });

  it("lists the four rendered configs with the seed's names and creation times", () => {
    const rows = gather('bug', 'machineconfigs.json')
      .items.map((i) => `${i.metadata.creationTimestamp} ${i.metadata.name}`)
      .sort();
    expect(rows.slice(-4)).toEqual([
      `2021-11-03T02:30:53Z ${R.masterOld}`,
      `2021-11-03T02:30:53Z ${R.workerOld}`,
      `2021-11-03T03:23:11Z ${R.masterNew}`,
      `2021-11-03T03:23:11Z ${R.workerNew}`,
    ]);
  });

  it('has rendered-master kubelet.service units of 42 lines that differ only at line 34, the pause image', () => {
    for (const variant of ['bug', 'fixed'] as const) {
      const a = kubeletLines(machineConfig(variant, R.masterOld));
      const b = kubeletLines(machineConfig(variant, R.masterNew));
      expect(a).toHaveLength(42);
      expect(b).toHaveLength(42);
      const differing = a.flatMap((line, i) => (line === b[i] ? [] : [i + 1]));
      expect(differing).toEqual([34]);
      expect(a[33]).toBe(`      --pod-infra-container-image=${POD_FROM} \\`);
      expect(b[33]).toBe(`      --pod-infra-container-image=${POD_TO} \\`);
    }
  });

  it('differs between the rendered masters only in kubelet.service and CRI-O 00-default, both the pod image', () => {
    const oldMc = machineConfig('bug', R.masterOld);
    const newMc = machineConfig('bug', R.masterNew);
    const files = (mc: MachineConfig) =>
      new Map((mc.spec.config.storage?.files ?? []).map((f) => [f.path, decodeDataUrl(f.contents.source)]));
    const units = (mc: MachineConfig) =>
      new Map((mc.spec.config.systemd?.units ?? []).map((u) => [u.name, JSON.stringify(u)]));
    const diff = (a: Map<string, string>, b: Map<string, string>) =>
      [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
    expect(diff(files(oldMc), files(newMc))).toEqual(['/etc/crio/crio.conf.d/00-default']);
    expect(diff(units(oldMc), units(newMc))).toEqual(['kubelet.service']);
    expect(oldMc.spec.osImageURL).toBe(newMc.spec.osImageURL);
    const crio = (mc: MachineConfig) => files(mc).get('/etc/crio/crio.conf.d/00-default') ?? '';
    expect(crio(oldMc)).toContain(`pause_image = "${POD_FROM}"`);
    expect(crio(newMc)).toContain(`pause_image = "${POD_TO}"`);
    expect(crio(oldMc).replace(POD_FROM, POD_TO)).toBe(crio(newMc));
  });

  it('has pod ef66… → 0ada… and identical machine-config-operator and machine-os-content in the releases', () => {
    const from = tags('from');
    const to = tags('to');
    expect(from.size).toBeGreaterThanOrEqual(20);
    expect(from.get('pod')?.from.name).toBe(POD_FROM);
    expect(to.get('pod')?.from.name).toBe(POD_TO);
    for (const name of ['machine-config-operator', 'machine-os-content', 'baremetal-runtimecfg']) {
      expect(to.get(name)?.from.name).toBe(from.get(name)?.from.name);
      expect(to.get(name)?.annotations[COMMIT]).toBe(from.get(name)?.annotations[COMMIT]);
    }
    const changed = [...from.keys()].filter((k) => from.get(k)?.from.name !== to.get(k)?.from.name);
    expect(changed).toContain('pod');
    expect(changed).toContain('hyperkube');
    expect(changed.length).toBeLessThan(from.size / 2);
    for (const t of from.values()) {
      expect(t.annotations[COMMIT]).toMatch(/^[0-9a-f]{40}$/);
      expect(t.annotations['io.openshift.build.source-location']).toMatch(/^https:\/\/github\.com\//);
    }
    const info = JSON.parse(text('bug', 'release/release-to.json')) as { digest: string };
    expect(`registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@${info.digest}`).toBe(TARGET);
  });

  it('stamps rendered configs with the MCO commit of the release and the OS of machine-os-content', () => {
    const mco = tags('to').get('machine-config-operator')?.annotations[COMMIT];
    const os = tags('to').get('machine-os-content')?.from.name;
    for (const name of Object.values(R)) {
      const mc = machineConfig('bug', name);
      expect(
        mc.metadata.annotations?.['machineconfiguration.openshift.io/generated-by-controller-version'],
      ).toBe(mco);
      expect(
        mc.metadata.annotations?.['machineconfiguration.openshift.io/release-image-version'],
      ).toBeUndefined();
      expect(mc.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'MachineConfigPool',
        name: name.split('-')[1],
      });
      expect(mc.spec.osImageURL).toBe(os);
    }
  });

  it('reports the CVO completion between the last progressing poll and "Completed upgrade"', () => {
    const cv = gather('bug', 'clusterversion.json').items[0] as K8sObject & {
      status: {
        desired: { image: string; version: string };
        history: { state: string; version: string; startedTime: string; completionTime: string }[];
      };
    };
    expect(cv.status.desired).toEqual({ image: TARGET, version: TO });
    const [latest, install] = cv.status.history;
    expect(latest).toMatchObject({ state: 'Completed', version: TO, image: TARGET });
    expect(install).toMatchObject({ state: 'Completed', version: FROM });
    const done = Date.parse(latest?.completionTime ?? '');
    expect(done).toBeGreaterThan(clockMs('03:28:25.742'));
    expect(done).toBeLessThan(clockMs('03:28:35.858'));
    expect(monitorLines('bug').find((l) => l.message === `cluster reached ${TO}`)?.at).toBe(
      clockMs('03:28:27.351'),
    );
  });
});

// ---- internal consistency, both examples ----

describe.each(['bug', 'fixed'] as const)('examples/%s is consistent', (variant) => {
  const names = new Set(gather(variant, 'machineconfigs.json').items.map((i) => i.metadata.name));

  it('is a set of Kubernetes Lists under the CI layout, under 1.5 MB', () => {
    for (const file of [
      'clusterversion',
      'clusteroperators',
      'machineconfigpools',
      'machineconfigs',
      'nodes',
      'events',
    ]) {
      expect(gather(variant, `${file}.json`).kind).toBe('List');
    }
    expect(gather(variant, 'clusteroperators.json').items.length).toBeGreaterThanOrEqual(30);
    const total = Object.keys(exampleFiles(variant)).reduce(
      (n, p) => n + statSync(join(dir(variant), p)).size,
      0,
    );
    expect(total).toBeLessThan(1_500_000);
  });

  it('points every node and pool at MachineConfigs that exist, all Done on the new configs', () => {
    for (const node of gather(variant, 'nodes.json').items) {
      const a = node.metadata.annotations ?? {};
      const role =
        (node.metadata as { labels?: Record<string, string> }).labels?.['node-role.kubernetes.io/master'] !==
        undefined
          ? 'master'
          : 'worker';
      expect(names.has(a['machineconfiguration.openshift.io/desiredConfig'] ?? '')).toBe(true);
      expect(a['machineconfiguration.openshift.io/currentConfig']).toBe(
        role === 'master' ? R.masterNew : R.workerNew,
      );
      expect(a['machineconfiguration.openshift.io/desiredConfig']).toBe(
        a['machineconfiguration.openshift.io/currentConfig'],
      );
      expect(a['machineconfiguration.openshift.io/state']).toBe('Done');
    }
    for (const pool of gather(variant, 'machineconfigpools.json').items) {
      const p = pool as K8sObject & {
        spec: { configuration: { name: string; source: { name: string }[] } };
        status: { configuration: { name: string } };
      };
      expect(names.has(p.spec.configuration.name)).toBe(true);
      expect(p.status.configuration.name).toBe(p.spec.configuration.name);
      for (const s of p.spec.configuration.source) expect(names.has(s.name)).toBe(true);
    }
  });

  it('has time-ordered monitor lines and test log lines, and the same records in the intervals JSON', () => {
    const monitor = monitorLines(variant);
    const tests = testLines(variant);
    expect(monitor.length).toBeGreaterThan(100);
    for (const seq of [monitor, tests]) {
      for (let i = 1; i < seq.length; i += 1)
        expect(seq[i]?.at ?? 0).toBeGreaterThanOrEqual(seq[i - 1]?.at ?? 0);
    }
    const json = JSON.parse(text(variant, `${JUNIT_DIR}/${INTERVALS}`)) as {
      items: { level: string; locator: string; message: string; from: string; to: string }[];
    };
    expect(json.items).toHaveLength(monitor.length);
    json.items.forEach((item, i) => {
      const line = monitor[i];
      expect(item.locator).toBe(line?.locator);
      expect(item.message.replace(/\n/g, '\\n')).toBe(line?.message);
      expect(Date.parse(item.from)).toBe(Math.floor((line?.at ?? 0) / 1000) * 1000);
      expect(Object.keys(item)).toEqual(['level', 'locator', 'message', 'from', 'to']);
    });
  });

  it('orders the ClusterVersion history newest first, each entry ending after it started', () => {
    const cv = gather(variant, 'clusterversion.json').items[0] as K8sObject & {
      status: { history: { startedTime: string; completionTime: string }[] };
    };
    const h = cv.status.history;
    for (const entry of h)
      expect(Date.parse(entry.completionTime)).toBeGreaterThan(Date.parse(entry.startedTime));
    for (let i = 1; i < h.length; i += 1) {
      expect(Date.parse(h[i - 1]?.startedTime ?? '')).toBeGreaterThanOrEqual(
        Date.parse(h[i]?.completionTime ?? ''),
      );
    }
  });

  it('records the new rendered configs and every node targeted, one node per pool at a time', () => {
    const events = gather(variant, 'events.json').items as (K8sObject & {
      reason: string;
      message: string;
      involvedObject: { kind: string; name: string };
      lastTimestamp: string | null;
    })[];
    const rendered = events.filter(
      (e) => e.reason === 'RenderedConfigGenerated' && e.lastTimestamp === '2021-11-03T03:23:11Z',
    );
    expect(rendered.map((e) => e.involvedObject.name).sort()).toEqual(['master', 'worker']);
    const master = rendered.find((e) => e.involvedObject.name === 'master');
    expect(master?.message.startsWith(`${R.masterNew} successfully generated`)).toBe(true);
    const targeted = events.filter((e) => e.reason === 'SetDesiredConfig');
    expect(targeted).toHaveLength(6);
    // A node is targeted only after the previous one of its pool reached its config.
    const reached = new Map(
      monitorLines(variant)
        .filter((l) => l.message.startsWith('reason/MachineConfigReached'))
        .map((l) => [l.locator.replace('node/', ''), l.at]),
    );
    for (const pool of ['master', 'worker']) {
      const order = targeted
        .filter((e) => e.involvedObject.name === pool)
        .map((e) => ({
          node: /Targeted node (\S+) to config/.exec(e.message)?.[1] ?? '',
          at: Date.parse(e.lastTimestamp ?? ''),
        }))
        .sort((a, b) => a.at - b.at);
      expect(order).toHaveLength(3);
      for (let i = 1; i < order.length; i += 1) {
        expect(order[i]?.at).toBeGreaterThan(
          reached.get(order[i - 1]?.node ?? '') ?? Number.POSITIVE_INFINITY,
        );
      }
    }
  });

  it('is exactly what scripts/make-examples.ts generates', () => {
    for (const [path, content] of Object.entries(exampleFiles(variant))) {
      expect(text(variant, path), path).toBe(content);
    }
  });
});

// ---- what the fix changes ----

describe('examples/bug-2019850-fixed shows the fixed operator', () => {
  it('stamps rendered configs with the release that produced them', () => {
    const release = (name: string) =>
      machineConfig('fixed', name).metadata.annotations?.[
        'machineconfiguration.openshift.io/release-image-version'
      ];
    expect([release(R.masterOld), release(R.workerOld)]).toEqual([FROM, FROM]);
    expect([release(R.masterNew), release(R.workerNew)]).toEqual([TO, TO]);
  });

  it('reports the operator version only after the master pool is Updated, and the CVO completes after that', () => {
    const pools = gather('fixed', 'machineconfigpools.json').items;
    const masterUpdated = Date.parse(
      condition(pools.find((p) => p.metadata.name === 'master') as K8sObject, 'Updated')
        ?.lastTransitionTime ?? '',
    );
    const workerUpdated = Date.parse(
      condition(pools.find((p) => p.metadata.name === 'worker') as K8sObject, 'Updated')
        ?.lastTransitionTime ?? '',
    );
    const mco = monitorLines('fixed').filter((l) => l.locator === 'clusteroperator/machine-config');
    const level = mco.find((l) => l.message.startsWith('versions: operator'));
    expect(level?.message).toBe(`versions: operator ${FROM} -> ${TO}`);
    expect(level?.at).toBeGreaterThan(masterUpdated);
    // Progressing from 03:23:03.719 until after the level report, as one interval
    const progressing = mco.find(
      (l) => l.interval !== undefined && l.message.startsWith('condition/Progressing status/True'),
    );
    expect(progressing?.at).toBe(clockMs('03:23:03.719'));
    const reached = monitorLines('fixed').find((l) => l.message === `cluster reached ${TO}`);
    expect(reached?.at).toBeGreaterThan(level?.at ?? Number.POSITIVE_INFINITY);
    const tests = testLines('fixed');
    const completed = tests.find((l) => l.text.startsWith('Completed upgrade to'));
    expect(completed?.at).toBeGreaterThan(masterUpdated);
    expect(tests.some((l) => l.text.startsWith('Invariant violation'))).toBe(false);
    expect(tests.some((l) => l.text.startsWith('Pool master'))).toBe(false);
    // the worker pool is still rolling when the CVO completes, which the invariant allows
    expect(tests.filter((l) => l.text.startsWith('Pool worker')).length).toBeGreaterThan(0);
    expect(workerUpdated).toBeGreaterThan(completed?.at ?? Number.POSITIVE_INFINITY);
    expect(text('fixed', 'build-log.txt')).toContain('passed: (');
  });
});
