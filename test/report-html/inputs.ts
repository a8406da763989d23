/**
 * Hand-made report inputs. `bug2019850Input` mirrors the CI run of bug 2019850 (seed/bug-2019850.txt):
 * machine-config reported level at 03:23:09.856, the new rendered master config appeared at 03:23:11,
 * the CVO declared the update complete at 03:28:35, and the master pool kept updating until 03:35:50.
 * `hostileInput` carries markup and script in every string a report shows.
 */
import type { Finding, RuleInfo } from '../../src/model/finding.js';
import type {
  ClusterHistory,
  Interval,
  IntervalLevel,
  SourceRef,
  TestLogEntry,
} from '../../src/model/history.js';
import { emptySnapshot } from '../../src/model/history.js';
import type { HtmlReportInput } from '../../src/report/html/index.js';

export const T = (clock: string): number => Date.parse(`2021-11-03T${clock}Z`);

export const FROM_VERSION = '4.10.0-0.nightly-2021-11-02-191632';
export const TO_VERSION = '4.10.0-0.nightly-2021-11-03-020416';
export const OLD_MASTER = 'rendered-master-78d48a9fbc8ba6a746040c11f8335d1a';
export const NEW_MASTER = 'rendered-master-ebc4fc8c7b6a155d86684204394e4930';
export const OLD_WORKER = 'rendered-worker-f4fb9dc4bce02415a779f436ccbd258f';
export const NEW_WORKER = 'rendered-worker-80216c83e551170f7d4be028d2c2414b';
const OLD_POD =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639';
const NEW_POD =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb';

const BUILD_LOG = 'examples/bug-2019850/build-log.txt';
const GATHER = 'examples/bug-2019850/gather-extra';

let line = 800;
const logRef = (): SourceRef => ({ file: BUILD_LOG, line: line++ });

interface Spec {
  from: string;
  to?: string;
  level?: IntervalLevel;
  type: string;
  keys: Record<string, string>;
  message: string;
  annotations?: Record<string, string>;
  reason?: string;
  source?: string;
  ref?: SourceRef;
}

function iv(s: Spec): Interval {
  const from = T(s.from);
  return {
    from,
    to: s.to ? T(s.to) : from,
    level: s.level ?? 'Info',
    locator: { type: s.type, keys: s.keys },
    message: {
      reason: s.reason ?? s.annotations?.reason ?? '',
      humanMessage: s.message,
      annotations: s.annotations ?? {},
    },
    source: s.source ?? 'build-log',
    ref: s.ref ?? logRef(),
  };
}

const co = (name: string) => ({ type: 'ClusterOperator', keys: { clusteroperator: name } });
const node = (name: string) => ({ type: 'Node', keys: { node: name } });
const pool = (name: string) => ({ type: 'MachineConfigPool', keys: { machineconfigpool: name } });
const cond = (condition: string, status: string, reason?: string) => ({
  condition,
  status,
  ...(reason ? { reason } : {}),
});

const MASTERS = ['ip-10-0-128-10.ec2.internal', 'ip-10-0-160-21.ec2.internal', 'ip-10-0-190-32.ec2.internal'];
const WORKERS = ['ip-10-0-140-43.ec2.internal', 'ip-10-0-170-54.ec2.internal', 'ip-10-0-200-65.ec2.internal'];
const END = '03:40:00';

function bugIntervals(): Interval[] {
  const out: Interval[] = [];
  const add = (s: Spec): void => {
    out.push(iv(s));
  };

  // ClusterVersion: the update, from status.history and the monitor.
  add({
    from: '02:15:00',
    to: '02:45:10',
    type: 'ClusterVersion',
    keys: { clusterversion: 'version' },
    reason: 'UpdateHistory',
    message: `Completed ${FROM_VERSION}`,
    annotations: { state: 'Completed', version: FROM_VERSION },
    source: 'derived:history',
    ref: { file: `${GATHER}/clusterversion.json`, path: 'items[0].status.history[1]' },
  });
  add({
    from: '02:55:27',
    to: '03:28:35',
    level: 'Warning',
    type: 'ClusterVersion',
    keys: { clusterversion: 'version' },
    reason: 'UpdateHistory',
    message: `Completed ${TO_VERSION}`,
    annotations: { state: 'Completed', version: TO_VERSION },
    source: 'derived:history',
    ref: { file: `${GATHER}/clusterversion.json`, path: 'items[0].status.history[0]' },
  });
  add({
    from: '02:55:27',
    to: '03:28:35',
    level: 'Warning',
    type: 'ClusterVersion',
    keys: { clusterversion: 'version' },
    message: `Working towards ${TO_VERSION}`,
    annotations: cond('Progressing', 'True'),
  });
  add({
    from: '03:28:35.480',
    level: 'Warning',
    type: 'ClusterVersion',
    keys: { clusterversion: 'version' },
    message: `cluster reached ${TO_VERSION}`,
  });

  // Operators: each goes Progressing while it rolls out, then reports its new version.
  const operators: [string, string, string][] = [
    ['etcd', '02:58:10', '03:01:40'],
    ['kube-apiserver', '03:01:50', '03:09:30'],
    ['authentication', '03:10:05', '03:12:20'],
    ['network', '03:13:00', '03:18:45'],
    ['dns', '03:18:50', '03:20:10'],
    ['machine-config', '03:23:03.719', '03:23:09.719'],
  ];
  for (const [name, start, end] of operators) {
    add({
      from: start,
      to: end,
      level: 'Warning',
      type: 'ClusterOperator',
      keys: co(name).keys,
      message: `Working towards ${TO_VERSION}`,
      annotations: cond('Progressing', 'True', 'Working'),
    });
    const level = name === 'machine-config' ? '03:23:09.856' : end;
    add({
      from: level,
      type: 'ClusterOperator',
      keys: co(name).keys,
      message: `versions: operator ${FROM_VERSION} -> ${TO_VERSION}`,
    });
  }
  add({
    from: '03:23:10.428',
    level: 'Warning',
    type: 'ClusterOperator',
    keys: co('machine-config').keys,
    message: `changed: Cluster version is ${TO_VERSION}`,
    annotations: cond('Progressing', 'False'),
  });
  add({
    from: '03:23:16.899',
    to: '03:36:29.855',
    level: 'Warning',
    type: 'ClusterOperator',
    keys: co('machine-config').keys,
    message: 'One or more machine config pools are updating, please see `oc get mcp` for further details',
    annotations: cond('Upgradeable', 'False', 'PoolUpdating'),
  });
  add({
    from: '03:10:12',
    to: '03:10:47',
    level: 'Error',
    type: 'ClusterOperator',
    keys: co('authentication').keys,
    message:
      'OAuthServerRouteEndpointAccessibleControllerAvailable: Get "https://oauth-openshift.apps.example/healthz": EOF',
    annotations: cond(
      'Available',
      'False',
      'OAuthServerRouteEndpointAccessibleController_EndpointUnavailable',
    ),
  });
  for (const name of ['authentication', 'dns', 'etcd', 'kube-apiserver', 'machine-config', 'network']) {
    add({
      from: '02:45:10',
      to: END,
      type: 'ClusterOperator',
      keys: co(name).keys,
      message: 'All is well',
      annotations: cond('Degraded', 'False', 'AsExpected'),
      source: 'derived:condition',
      ref: {
        file: `${GATHER}/clusteroperators.json`,
        path: `items[${name.length % 6}].status.conditions[0]`,
      },
    });
  }

  // Pools: both roll to the configs rendered at 03:23:11; master finishes at 03:35:50.
  for (const [name, done] of [
    ['master', '03:35:50'],
    ['worker', '03:36:20'],
  ] as const) {
    const gatherRef = (i: number): SourceRef => ({
      file: `${GATHER}/machineconfigpools.json`,
      path: `items[${name === 'master' ? 0 : 1}].status.conditions[${i}]`,
    });
    add({
      from: '02:45:10',
      to: '03:23:11',
      type: 'MachineConfigPool',
      keys: pool(name).keys,
      message: '',
      annotations: cond('Updated', 'True'),
      source: 'derived:pool',
      ref: gatherRef(0),
    });
    add({
      from: '03:23:11',
      to: done,
      level: 'Warning',
      type: 'MachineConfigPool',
      keys: pool(name).keys,
      message: `All nodes are updating to rendered-${name}-${name === 'master' ? NEW_MASTER.slice(16) : NEW_WORKER.slice(16)}`,
      annotations: cond('Updating', 'True'),
      source: 'derived:pool',
      ref: gatherRef(1),
    });
    add({
      from: '03:23:11',
      to: done,
      type: 'MachineConfigPool',
      keys: pool(name).keys,
      message: '',
      annotations: cond('Updated', 'False'),
      source: 'derived:pool',
      ref: gatherRef(0),
    });
    add({
      from: done,
      to: END,
      type: 'MachineConfigPool',
      keys: pool(name).keys,
      message: `All nodes are updated with rendered-${name}-${name === 'master' ? NEW_MASTER.slice(16) : NEW_WORKER.slice(16)}`,
      annotations: cond('Updated', 'True'),
      source: 'derived:condition',
      ref: gatherRef(0),
    });
  }

  // Rendered configs: two from the install, two made when the release's pause image changed.
  for (const [name, at, owner] of [
    [OLD_MASTER, '02:30:53', 'master'],
    [OLD_WORKER, '02:30:53', 'worker'],
    [NEW_MASTER, '03:23:11', 'master'],
    [NEW_WORKER, '03:23:11', 'worker'],
  ] as const) {
    add({
      from: at,
      type: 'MachineConfig',
      keys: { machineconfig: name },
      reason: 'Created',
      message: `created ${name}`,
      annotations: { reason: 'Created', pool: owner },
      source: 'derived:creationTimestamp',
      ref: {
        file: `${GATHER}/machineconfigs.json`,
        path: `items[${name.length % 7}].metadata.creationTimestamp`,
      },
    });
  }

  // Nodes: one at a time per pool, drain → OS update → reboot (NotReady) → back on the new config.
  const roll = (names: readonly string[], config: string, role: string, startAt: number): void => {
    let t = startAt;
    for (const n of names) {
      const clockOf = (ms: number): string => new Date(ms).toISOString().slice(11, 23);
      add({
        from: clockOf(t),
        type: 'Node',
        keys: node(n).keys,
        reason: 'MachineConfigChange',
        message: 'config change requested',
        annotations: { reason: 'MachineConfigChange', config, roles: role },
      });
      add({
        from: clockOf(t + 5_000),
        to: clockOf(t + 95_000),
        level: 'Warning',
        type: 'Node',
        keys: node(n).keys,
        message: 'drain',
        annotations: { phase: 'Drain', roles: role },
      });
      add({
        from: clockOf(t + 95_000),
        to: clockOf(t + 150_000),
        level: 'Warning',
        type: 'Node',
        keys: node(n).keys,
        message: 'reboot',
        annotations: { phase: 'Reboot', roles: role },
      });
      add({
        from: clockOf(t + 110_000),
        to: clockOf(t + 175_000),
        level: 'Error',
        type: 'Node',
        keys: node(n).keys,
        message: 'node is not ready',
        annotations: cond('Ready', 'False', 'KubeletNotReady'),
      });
      add({
        from: clockOf(t + 230_000),
        type: 'Node',
        keys: node(n).keys,
        reason: 'MachineConfigReached',
        message: 'reached desired config',
        annotations: { reason: 'MachineConfigReached', config, roles: role },
      });
      t += 250_000;
    }
  };
  roll(MASTERS, NEW_MASTER, 'master', T('03:23:20'));
  roll(WORKERS, NEW_WORKER, 'worker', T('03:23:30'));

  // Events the gather kept.
  add({
    from: '03:23:11',
    type: 'KubeEvent',
    keys: { namespace: 'openshift-machine-config-operator', machineconfigpool: 'master' },
    reason: 'SetDesiredConfig',
    message: `Targeted node ${MASTERS[0]} to config ${NEW_MASTER}`,
    annotations: { reason: 'SetDesiredConfig', kind: 'MachineConfigPool', name: 'master' },
    source: 'derived:event',
    ref: { file: `${GATHER}/events.json`, path: 'items[412]' },
  });
  add({
    from: '03:23:09',
    type: 'KubeEvent',
    keys: { namespace: 'openshift-machine-config-operator', clusteroperator: 'machine-config' },
    reason: 'OperatorVersionChanged',
    message: `clusteroperator/machine-config-operator version changed from [{operator ${FROM_VERSION}}] to [{operator ${TO_VERSION}}]`,
    annotations: { reason: 'OperatorVersionChanged', kind: 'ClusterOperator', name: 'machine-config' },
    source: 'derived:event',
    ref: { file: `${GATHER}/events.json`, path: 'items[398]' },
  });

  return out.sort((a, b) => a.from - b.from || a.to - b.to);
}

/** The upgrade test's own log: it polls the pools every 30 s until they finish (seed: 03:28:36 … 03:36:36). */
function bugTestLog(): TestLogEntry[] {
  const r = (n: number): SourceRef => ({ file: BUILD_LOG, line: n });
  const image =
    'registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f';
  const polls = (pool: string, first: string, count: number, line: number): TestLogEntry[] =>
    Array.from({ length: count }, (_, k) => ({
      kind: 'pool-status' as const,
      at: T(first) + k * 30_000,
      pool,
      updated: false,
      updating: true,
      degraded: false,
      paused: false,
      ref: r(line + 3 * k),
    }));
  const lines: TestLogEntry[] = [
    { kind: 'upgrade-started', at: T('02:55:20.112'), target: image, ref: r(402) },
    { kind: 'upgrade-completed', at: T('03:28:35.858'), target: image, ref: r(2210) },
    { kind: 'waiting-on-pools', at: T('03:28:35.931'), ref: r(2211) },
    {
      kind: 'invariant-violation',
      at: T('03:28:36.063'),
      text: 'the "master" pool should be updated before the CVO reports available at the new version',
      ref: r(2213),
    },
    ...polls('master', '03:28:36.063', 15, 2212),
    ...polls('worker', '03:28:36.128', 16, 2214),
    { kind: 'pools-completed', at: T('03:36:36.324'), ref: r(2262) },
  ];
  return lines.sort((a, b) => a.at - b.at);
}

export const RULES: RuleInfo[] = [
  {
    id: 'master-pool-updated-before-cvo-complete',
    statement:
      'When the CVO reports an update complete, the master pool is Updated=True, Updating=False and on the rendered config made for the new release.',
    doc: 'docs/rules/master-pool-updated-before-cvo-complete.md',
    severityPolicy: 'failure',
  },
  {
    id: 'operator-level-before-required-pool-target',
    statement:
      'machine-config reports the new version only after the master pool targets a rendered config made for that release.',
    doc: 'docs/rules/operator-level-before-required-pool-target.md',
    severityPolicy: 'failure',
  },
  {
    id: 'update-completed',
    statement: 'The update the inputs show reached Completed.',
    doc: 'docs/rules/update-completed.md',
    severityPolicy: 'failure',
  },
];

const KUBELET_DIFF = [
  '--- rendered-master-78d48a9fbc8ba6a746040c11f8335d1a kubelet.service',
  '+++ rendered-master-ebc4fc8c7b6a155d86684204394e4930 kubelet.service',
  '@@ -34 +34 @@',
  `-      --pod-infra-container-image=${OLD_POD} \\`,
  `+      --pod-infra-container-image=${NEW_POD} \\`,
].join('\n');

export function bugFindings(): Finding[] {
  const cvoDone = T('03:28:35');
  const level = T('03:23:09.856');
  const rendered = T('03:23:11');
  const finished = T('03:35:50');
  return [
    {
      rule: 'operator-level-before-required-pool-target',
      severity: 'warning',
      summary: `machine-config reported ${TO_VERSION} at 03:23:09.856, before the master pool targeted a config made for it (created 03:23:11)`,
      at: level,
      evidence: [
        {
          statement: `machine-config reported operator version ${TO_VERSION}`,
          at: level,
          object: 'ClusterOperator/machine-config',
          field: 'status.versions[operator]',
          value: TO_VERSION,
          ref: { file: BUILD_LOG, line: 1880 },
        },
      ],
      moments: [
        { label: 'machine-config reported level', at: level, objects: ['ClusterOperator/machine-config'] },
        {
          label: `${NEW_MASTER} created`,
          at: rendered,
          objects: [`MachineConfig/${NEW_MASTER}`, 'MachineConfigPool/master'],
        },
      ],
    },
    {
      rule: 'master-pool-updated-before-cvo-complete',
      severity: 'failure',
      summary: `the CVO reported ${TO_VERSION} complete at 03:28:35 while the master pool was Updated=False, Updating=True, rolling to ${NEW_MASTER}; the pool finished at 03:35:50, 7m15s later`,
      at: cvoDone,
      evidence: [
        {
          statement: `ClusterVersion history marks ${TO_VERSION} Completed`,
          at: cvoDone,
          object: 'ClusterVersion/version',
          field: 'status.history[].completionTime',
          ref: { file: `${GATHER}/clusterversion.json`, path: 'items[0].status.history[0]' },
        },
        {
          statement: `the pool's target was ${NEW_MASTER}, created at 03:23:11`,
          at: rendered,
          object: `MachineConfig/${NEW_MASTER}`,
          field: 'metadata.creationTimestamp',
          ref: { file: `${GATHER}/machineconfigs.json`, path: 'items[5]' },
        },
        {
          statement: 'the upgrade test saw Updated=false, Updating=true, Degraded=false',
          at: T('03:28:36.063'),
          object: 'MachineConfigPool/master',
          ref: { file: BUILD_LOG, line: 2212 },
        },
      ],
      explanation: {
        steps: [
          {
            title: `machine-config reported level for ${TO_VERSION} while the master pool still sat on ${OLD_MASTER}`,
            at: level,
            evidence: [
              {
                statement: `versions: operator ${FROM_VERSION} -> ${TO_VERSION}`,
                at: level,
                object: 'ClusterOperator/machine-config',
                field: 'status.versions',
                ref: { file: BUILD_LOG, line: 1880 },
              },
            ],
          },
          {
            title: `the render controller made ${NEW_MASTER} 1.1s later`,
            at: rendered,
            evidence: [
              {
                statement: `${NEW_MASTER} created`,
                at: rendered,
                object: `MachineConfig/${NEW_MASTER}`,
                field: 'metadata.creationTimestamp',
                ref: { file: `${GATHER}/machineconfigs.json`, path: 'items[5]' },
              },
            ],
          },
          {
            title: "the new config differs only in kubelet's pause image (release component pod)",
            evidence: [
              {
                statement: 'kubelet.service --pod-infra-container-image changed',
                object: `MachineConfig/${NEW_MASTER}`,
                field: 'spec.config.systemd.units[kubelet.service]',
              },
            ],
          },
          {
            title:
              'the CVO, seeing every operator at level, declared the update complete while the masters rolled',
            at: cvoDone,
            evidence: [
              {
                statement: `cluster reached ${TO_VERSION}`,
                at: T('03:28:35.480'),
                object: 'ClusterVersion/version',
                ref: { file: BUILD_LOG, line: 2205 },
              },
            ],
          },
        ],
        configDiff: {
          from: OLD_MASTER,
          to: NEW_MASTER,
          identical: false,
          changes: [
            {
              part: 'units',
              name: 'kubelet.service',
              change: 'modified',
              textDiff: KUBELET_DIFF,
              changedLines: [
                {
                  before: `--pod-infra-container-image=${OLD_POD} \\`,
                  after: `--pod-infra-container-image=${NEW_POD} \\`,
                },
              ],
              images: [{ before: OLD_POD, after: NEW_POD, component: 'pod' }],
            },
          ],
        },
        signature: {
          id: 'bug-1999556',
          title: 'Rendered config changed while the MCO commit and OS image stayed the same',
          detail:
            'The operator judged the old rendered config valid because its controller version and OS image matched, and reported level before the new config existed.',
          references: [
            'https://bugzilla.redhat.com/show_bug.cgi?id=1999556',
            'https://github.com/openshift/machine-config-operator/pull/2918',
          ],
        },
      },
      moments: [
        { label: 'CVO reported the update complete', at: cvoDone, objects: ['ClusterVersion/version'] },
        { label: 'machine-config reported level', at: level, objects: ['ClusterOperator/machine-config'] },
        {
          label: `${NEW_MASTER} created`,
          at: rendered,
          objects: [`MachineConfig/${NEW_MASTER}`, 'MachineConfigPool/master'],
        },
        { label: 'master pool really finished', at: finished, objects: ['MachineConfigPool/master'] },
      ],
      subject: {
        target: TO_VERSION,
        previous: FROM_VERSION,
        pool: 'master',
        objects: ['MachineConfigPool/master', 'ClusterVersion/version'],
        fromConfig: OLD_MASTER,
        toConfig: NEW_MASTER,
        cvoCompletedAt: cvoDone,
        operatorLevelAt: level,
      },
    },
  ];
}

export function bugHistory(): ClusterHistory {
  line = 800;
  const objects = emptySnapshot();
  objects.nodes = [
    ...MASTERS.map((n) => [n, 'master'] as const),
    ...WORKERS.map((n) => [n, 'worker'] as const),
  ].map(([name, role], i) => ({
    object: { kind: 'Node', metadata: { name, labels: { [`node-role.kubernetes.io/${role}`]: '' } } },
    ref: { file: `${GATHER}/nodes.json`, path: `items[${i}]` },
  }));
  const intervals = bugIntervals();
  return {
    objects,
    intervals,
    testLog: bugTestLog(),
    releases: {},
    inputs: [
      {
        path: BUILD_LOG,
        reader: 'build-log',
        bytes: 5_812_331,
        contributed: `${intervals.filter((i) => i.source === 'build-log').length} intervals, 35 test log lines`,
      },
      {
        path: `${GATHER}/clusterversion.json`,
        reader: 'gather-extra',
        bytes: 9_120,
        contributed: '1 object',
      },
      {
        path: `${GATHER}/machineconfigpools.json`,
        reader: 'gather-extra',
        bytes: 18_004,
        contributed: '2 objects',
      },
      {
        path: `${GATHER}/machineconfigs.json`,
        reader: 'gather-extra',
        bytes: 1_402_551,
        contributed: '30 objects',
      },
    ],
    span: { from: T('02:15:00'), to: T(END) },
    notes: ['build-log.txt: the year was taken from the gather-extra timestamps (2021)'],
  };
}

export function bugInput(): HtmlReportInput {
  return {
    history: bugHistory(),
    findings: bugFindings(),
    rules: RULES,
    title: 'atlevel: examples/bug-2019850 (hand-made)',
    generatedFrom: ['examples/bug-2019850'],
  };
}

/** A payload in every displayed string: if any reaches the DOM as markup, `window.__pwned` gets set. */
export const XSS_IMG = '<img src=x onerror="window.__pwned=1;alert(1)">';
export const XSS_SCRIPT = '</script><script>window.__pwned=2</script>';
export const XSS_NAME = `${XSS_IMG}${XSS_SCRIPT}`;

export function hostileInput(): HtmlReportInput {
  const base = bugInput();
  const evil = (text: string): string => `${text} ${XSS_IMG} <!-- ${XSS_SCRIPT} \u2028\u2029 &amp; &lt;`;
  const intervals: Interval[] = [
    ...base.history.intervals,
    iv({
      from: '03:00:00',
      to: '03:20:00',
      level: 'Error',
      type: 'ClusterOperator',
      keys: { clusteroperator: XSS_NAME },
      message: evil('Degraded because'),
      annotations: cond('Degraded', 'True', XSS_IMG),
    }),
    iv({
      from: '03:05:00',
      type: 'Node',
      keys: { node: XSS_SCRIPT },
      message: evil('rebooted'),
      annotations: { reason: XSS_IMG },
    }),
  ].sort((a, b) => a.from - b.from || a.to - b.to);
  const findings: Finding[] = base.findings.map((f) => ({
    ...f,
    summary: evil(f.summary),
    evidence: f.evidence.map((e) => ({
      ...e,
      statement: evil(e.statement),
      ...(e.value ? { value: XSS_SCRIPT } : {}),
    })),
    ...(f.explanation
      ? {
          explanation: {
            ...f.explanation,
            steps: f.explanation.steps.map((s) => ({ ...s, title: evil(s.title) })),
            ...(f.explanation.configDiff
              ? {
                  configDiff: {
                    ...f.explanation.configDiff,
                    changes: f.explanation.configDiff.changes.map((c) => ({
                      ...c,
                      name: XSS_NAME,
                      textDiff: `${c.textDiff ?? ''}\n+${XSS_SCRIPT}`,
                    })),
                  },
                }
              : {}),
            ...(f.explanation.signature
              ? {
                  signature: {
                    ...f.explanation.signature,
                    references: [
                      'javascript:window.__pwned=3',
                      XSS_IMG,
                      ...f.explanation.signature.references,
                    ],
                  },
                }
              : {}),
          },
        }
      : {}),
    moments: [
      ...(f.moments ?? []),
      { label: evil('moment'), at: T('03:10:00'), objects: [`ClusterOperator/${XSS_NAME}`] },
    ],
  }));
  return {
    history: {
      ...base.history,
      intervals,
      notes: [evil('note')],
      inputs: [{ path: XSS_NAME, reader: XSS_IMG, bytes: 1, contributed: XSS_SCRIPT }],
    },
    findings,
    rules: [
      ...base.rules,
      { id: XSS_IMG, statement: evil('rule'), doc: XSS_SCRIPT, severityPolicy: XSS_IMG },
    ],
    title: `</title>${XSS_NAME}`,
    generatedFrom: [XSS_NAME],
  };
}
