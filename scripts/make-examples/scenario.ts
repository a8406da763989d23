/**
 * The run as a timeline: which node rebooted when, how each ClusterOperator's conditions and
 * versions moved, what the CVO said, what the upgrade test logged, which Kubernetes events were
 * recorded. Every artifact (build log, intervals JSON, gather-extra objects) is rendered from this
 * one timeline, so they agree with each other by construction.
 *
 * Two variants: `bug` is the seed's run (the machine-config operator reports level at 03:23:09,
 * before the render controller has even produced the new rendered configs); `fixed` is the same
 * update under MCO PR #2918 (the operator waits until the master pool has rolled out a rendered
 * config stamped with its release version).
 */

import { cvoEvents, mcoEvents, nodeEvents, podNoise, poolEvents, testEvent } from './events.js';
import {
  FROM,
  MASTER_INVARIANT,
  NODES,
  type NodeDef,
  RENDERED,
  TARGET_IMAGE,
  TO,
  UPDATE_STARTED,
  UPGRADE_REQUESTED,
} from './facts.js';
import { eventRecords, operatorRecords } from './monitor.js';
import { OPERATORS, type OperatorDef, REBOOT_PROGRESSING, type Related } from './operators.js';
import { testLog } from './testlog.js';
import type {
  CondChange,
  EventSpec,
  MonitorRecord,
  NodeRollout,
  OperatorRun,
  PoolRun,
  Scenario,
  Variant,
} from './types.js';
import { at, rng, uuid } from './util.js';

export type { Scenario, Variant } from './types.js';

// ---------------------------------------------------------------------------------------------
// Node rollouts: maxUnavailable 1, one node per pool at a time; the next node is targeted once the
// previous one is Done and Ready (docs/domain.md 4.3). Each node takes about 4 minutes: drain, reboot,
// Ready, Done.

interface RolloutTimes {
  readonly targeted: string;
  readonly drain: string;
  readonly reboot: string;
  readonly notReady: string;
  readonly ready: string;
  readonly done: string;
}

const MASTER_TIMES: readonly RolloutTimes[] = [
  {
    targeted: '03:23:21.412',
    drain: '03:23:23.870',
    reboot: '03:24:58.336',
    notReady: '03:25:06.512',
    ready: '03:27:05.207',
    done: '03:27:25.118',
  },
  {
    targeted: '03:27:31.731',
    drain: '03:27:33.944',
    reboot: '03:29:04.069',
    notReady: '03:29:12.640',
    ready: '03:31:15.385',
    done: '03:31:36.554',
  },
  {
    targeted: '03:31:42.209',
    drain: '03:31:44.417',
    reboot: '03:33:16.803',
    notReady: '03:33:25.118',
    ready: '03:35:30.462',
    done: '03:35:51.630',
  },
];

const WORKER_TIMES: readonly RolloutTimes[] = [
  {
    targeted: '03:23:21.688',
    drain: '03:23:24.205',
    reboot: '03:25:02.771',
    notReady: '03:25:10.934',
    ready: '03:27:04.516',
    done: '03:27:22.301',
  },
  {
    targeted: '03:27:27.902',
    drain: '03:27:30.116',
    reboot: '03:29:51.448',
    notReady: '03:29:59.703',
    ready: '03:31:48.260',
    done: '03:32:07.129',
  },
  {
    targeted: '03:32:12.416',
    drain: '03:32:14.633',
    reboot: '03:34:06.290',
    notReady: '03:34:14.881',
    ready: '03:36:08.347',
    done: '03:36:28.402',
  },
];

/**
 * In the fixed run the third worker's drain waits on a PodDisruptionBudget for a few minutes, so the
 * worker pool is still rolling when the CVO completes: the origin invariant allows that.
 */
const WORKER3_FIXED: RolloutTimes = {
  targeted: '03:32:12.416',
  drain: '03:32:14.633',
  reboot: '03:36:47.158',
  notReady: '03:36:55.027',
  ready: '03:38:51.604',
  done: '03:39:12.377',
};

function rollouts(variant: Variant): NodeRollout[] {
  const masters = NODES.filter((n) => n.role === 'master');
  const workers = NODES.filter((n) => n.role === 'worker');
  const make = (node: NodeDef, t: RolloutTimes): NodeRollout => ({
    node,
    from: node.role === 'master' ? RENDERED.masterOld : RENDERED.workerOld,
    to: node.role === 'master' ? RENDERED.masterNew : RENDERED.workerNew,
    targeted: at(t.targeted),
    drainAt: at(t.drain),
    rebootAt: at(t.reboot),
    notReadyAt: at(t.notReady),
    readyAt: at(t.ready),
    doneAt: at(t.done),
    bootId: uuid(`boot:${node.name}:${t.reboot}`),
  });
  const workerTimes = variant === 'fixed' ? [WORKER_TIMES[0], WORKER_TIMES[1], WORKER3_FIXED] : WORKER_TIMES;
  return [
    ...masters.map((n, i) => make(n, MASTER_TIMES[i] as RolloutTimes)),
    ...workers.map((n, i) => make(n, workerTimes[i] as RolloutTimes)),
  ];
}

function pools(variant: Variant): PoolRun[] {
  return [
    {
      name: 'master',
      oldConfig: RENDERED.masterOld,
      newConfig: RENDERED.masterNew,
      renderedAt: at('03:23:11.284'),
      updatingAt: at('03:23:11.702'),
      updatedAt: at('03:35:52.118'),
    },
    {
      name: 'worker',
      oldConfig: RENDERED.workerOld,
      newConfig: RENDERED.workerNew,
      renderedAt: at('03:23:11.497'),
      updatingAt: at('03:23:11.930'),
      updatedAt: variant === 'fixed' ? at('03:39:13.058') : at('03:36:29.213'),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The machine-config ClusterOperator (docs/domain.md 1.5). Both runs start the same way: the new
// operator pod begins its first sync at 03:23:03.719 and goes Progressing.

const MCO_UPDATING =
  'One or more machine config pools are updating, please see `oc get mcp` for further details';

function mcoChanges(
  variant: Variant,
  poolRuns: readonly PoolRun[],
): { changes: CondChange[]; levelAt: number } {
  const worker = poolRuns.find((p) => p.name === 'worker') as PoolRun;
  const started: CondChange = {
    at: at('03:23:03.719'),
    type: 'Progressing',
    status: 'True',
    message: `Working towards ${TO}`,
  };
  const poolUpdating: CondChange = {
    at: at('03:23:16.899'),
    type: 'Upgradeable',
    status: 'False',
    reason: 'PoolUpdating',
    message: MCO_UPDATING,
  };
  if (variant === 'bug') {
    // The seed: versions bumped at 03:23:09.856, Progressing False at the start of the next sync.
    return {
      levelAt: at('03:23:09.856'),
      changes: [
        started,
        { at: at('03:23:10.428'), type: 'Progressing', status: 'False', message: `Cluster version is ${TO}` },
        poolUpdating,
        { at: at('03:36:29.855'), type: 'Upgradeable', status: 'True' },
      ],
    };
  }
  // Fixed: RequiredPools polls for 10 minutes, times out once (the master pool's current rendered
  // config still carries the old release version), then succeeds when the master pool is Updated.
  const timeout =
    'Unable to apply ' +
    `${TO}: timed out waiting for the condition during syncRequiredMachineConfigPools: pool master has not progressed to latest configuration: release image version mismatch for master in ${RENDERED.masterOld} expected: ${TO} got: ${FROM}, retrying`;
  return {
    levelAt: at('03:35:53.461'),
    changes: [
      started,
      poolUpdating,
      {
        at: at('03:33:07.214'),
        type: 'Degraded',
        status: 'True',
        reason: 'RequiredPoolsFailed',
        message: timeout,
      },
      { at: at('03:35:53.461'), type: 'Degraded', status: 'False' },
      { at: at('03:35:54.037'), type: 'Progressing', status: 'False', message: `Cluster version is ${TO}` },
      { at: worker.updatedAt + 644, type: 'Upgradeable', status: 'True' },
    ],
  };
}

const MCO_RELATED: readonly Related[] = [
  ['', 'namespaces', 'openshift-machine-config-operator'],
  ['machineconfiguration.openshift.io', 'machineconfigpools', ''],
  ['machineconfiguration.openshift.io', 'controllerconfigs', ''],
  ['machineconfiguration.openshift.io', 'kubeletconfigs', ''],
  ['machineconfiguration.openshift.io', 'containerruntimeconfigs', ''],
  ['machineconfiguration.openshift.io', 'machineconfigs', ''],
  ['', 'nodes', ''],
  ['', 'namespaces', 'openshift-kni-infra'],
  ['', 'namespaces', 'openshift-openstack-infra'],
  ['', 'namespaces', 'openshift-ovirt-infra'],
  ['', 'namespaces', 'openshift-vsphere-infra'],
];

function machineConfigOperator(
  variant: Variant,
  poolRuns: readonly PoolRun[],
): { run: OperatorRun; levelAt: number } {
  const { changes, levelAt } = mcoChanges(variant, poolRuns);
  return {
    levelAt,
    run: {
      name: 'machine-config',
      versionsFrom: [['operator', FROM]],
      versionsTo: [['operator', TO]],
      versionsAt: levelAt,
      steady: [
        { type: 'Progressing', status: 'False', message: `Cluster version is ${TO}` },
        { type: 'Upgradeable', status: 'True' },
        { type: 'Degraded', status: 'False' },
        { type: 'Available', status: 'True', message: `Cluster has deployed ${TO}` },
      ],
      installedAt: at('02:31:37'),
      changes,
      related: MCO_RELATED,
      extension: {
        master: `all 3 nodes are at latest configuration ${RENDERED.masterNew}`,
        worker: `all 3 nodes are at latest configuration ${RENDERED.workerNew}`,
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The other operators: Progressing while they roll their own operands, then versions; network and
// dns also go Progressing while a node reboots (their daemonset pods are down on it).

function mergeWindows(windows: [number, number][]): [number, number][] {
  const sorted = [...windows].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else out.push([w[0], w[1]]);
  }
  return out;
}

function otherOperator(def: OperatorDef, nodeRollouts: readonly NodeRollout[]): OperatorRun {
  const steady = def.conditions(TO);
  const steadyProgressing = steady.find((c) => c.type === 'Progressing');
  const back = (t: number): CondChange => ({
    at: t,
    type: 'Progressing',
    status: 'False',
    ...(steadyProgressing?.reason ? { reason: steadyProgressing.reason } : {}),
    ...(steadyProgressing?.message ? { message: steadyProgressing.message } : {}),
  });
  const changes: CondChange[] = [];
  const p = def.update.progressing;
  if (p) {
    changes.push({
      at: p.at,
      type: 'Progressing',
      status: 'True',
      ...(p.reason ? { reason: p.reason } : {}),
      message: p.message,
    });
    changes.push(back(def.update.versionsAt));
  }
  const flap = REBOOT_PROGRESSING[def.name];
  if (flap) {
    const r = rng(`flap:${def.name}`);
    const windows = mergeWindows(
      nodeRollouts.map((n) => [
        n.notReadyAt + flap.lead + r.int(0, 900),
        n.readyAt + flap.tail + r.int(0, 900),
      ]),
    );
    for (const [start, end] of windows) {
      changes.push({
        at: start,
        type: 'Progressing',
        status: 'True',
        reason: flap.reason,
        message: flap.message,
      });
      changes.push(back(end));
    }
  }
  return {
    name: def.name,
    versionsFrom: def.versions('from'),
    versionsTo: def.versions('to'),
    versionsAt: def.update.versionsAt,
    steady,
    installedAt: def.installedAt,
    changes: changes.sort((a, b) => a.at - b.at),
    related: def.related,
    extension: null,
  };
}

// ---------------------------------------------------------------------------------------------
// The CVO: its Progressing message over time (what the test's poll logs) and the completion.

const TOTAL_MANIFESTS = 757;
function working(done: number, extra?: string): string {
  const pct = Math.floor((done * 100) / TOTAL_MANIFESTS);
  return `Working towards ${TO}: ${done} of ${TOTAL_MANIFESTS} done (${pct}% complete)${extra ? `, ${extra}` : ''}`;
}

const CV_PROGRESSING_SINCE = at('02:53:05.903');

function cvProgress(variant: Variant): { steps: [number, string][]; completedAt: number } {
  const steps: [number, string][] = [
    [CV_PROGRESSING_SINCE, `Working towards ${TARGET_IMAGE}: downloading update`],
    [UPDATE_STARTED, working(9)],
    [at('02:53:42.516'), working(71)],
    [at('02:54:10.448'), working(97)],
    [at('02:55:31.027'), working(97, 'waiting on kube-apiserver')],
    [at('03:04:53.219'), working(198)],
    [at('03:05:44.062'), working(198, 'waiting on kube-controller-manager, kube-scheduler')],
    [at('03:07:49.118'), working(198, 'waiting on kube-controller-manager')],
    [at('03:08:22.304'), working(222)],
    [at('03:08:50.611'), working(288)],
    [at('03:09:41.035'), working(371)],
    [at('03:10:25.917'), working(540)],
    [at('03:10:52.240'), working(561, 'waiting on console, ingress, monitoring')],
    [at('03:11:50.133'), working(561, 'waiting on ingress, monitoring')],
    [at('03:12:59.421'), working(561, 'waiting on monitoring')],
    [at('03:14:34.608'), working(613)],
    [at('03:15:03.329'), working(631)],
    [at('03:16:02.815'), working(631, 'waiting on network')],
    [at('03:21:31.502'), working(674)],
    [at('03:22:12.004'), working(674, 'waiting on machine-config')],
  ];
  if (variant === 'bug') {
    steps.push([at('03:23:10.733'), working(738)]);
    return { steps, completedAt: at('03:28:27.351') };
  }
  steps.push([at('03:33:19.446'), working(674, 'waiting up to 40 minutes on machine-config')]);
  steps.push([at('03:35:54.912'), working(738)]);
  return { steps, completedAt: at('03:38:14.527') };
}

// ---------------------------------------------------------------------------------------------

export function buildScenario(variant: Variant): Scenario {
  const nodeRollouts = rollouts(variant);
  const poolRuns = pools(variant);
  const mco = machineConfigOperator(variant, poolRuns);
  const operators = [...OPERATORS.map((d) => otherOperator(d, nodeRollouts)), mco.run];
  const progress = cvProgress(variant);
  const log = testLog(variant, progress, poolRuns);
  const monitorEnd = log.end + 2_100;

  const events: EventSpec[] = [
    ...cvoEvents(),
    ...mcoEvents(variant, mco.run),
    ...poolEvents(variant, poolRuns, nodeRollouts),
    ...nodeRollouts.flatMap((r) => nodeEvents(r, variant)),
    ...podNoise(nodeRollouts, variant),
    testEvent(UPGRADE_REQUESTED + 4, 'UpgradeStarted', `version/ image/${TARGET_IMAGE}`),
    testEvent(log.completedLogAt + 2, 'UpgradeVersion', `version/${TO} image/${TARGET_IMAGE}`),
    ...(log.violationAt !== undefined
      ? [
          testEvent(
            log.allPoolsAt + 6,
            'UpgradeFailed',
            `master was updating after cluster version reached level: ${MASTER_INVARIANT}`,
          ),
        ]
      : [testEvent(log.end - 40, 'UpgradeComplete', `version/${TO} image/${TARGET_IMAGE}`)]),
  ];

  const monitor: MonitorRecord[] = [
    ...operators.flatMap((op) => operatorRecords(op, monitorEnd)),
    {
      from: CV_PROGRESSING_SINCE,
      to: CV_PROGRESSING_SINCE,
      level: 'Warning',
      locator: 'clusterversion/version',
      message: `changed Progressing to True: Working towards ${TARGET_IMAGE}: downloading update`,
    },
    {
      from: progress.completedAt,
      to: progress.completedAt,
      level: 'Warning',
      locator: 'clusterversion/version',
      message: `cluster reached ${TO}`,
    },
    {
      from: progress.completedAt,
      to: progress.completedAt,
      level: 'Warning',
      locator: 'clusterversion/version',
      message: `changed Progressing to False: Cluster version is ${TO}`,
    },
    ...nodeRollouts.flatMap((r): MonitorRecord[] => [
      {
        from: r.targeted + 37,
        to: r.targeted + 37,
        level: 'Info',
        locator: `node/${r.node.name}`,
        message: `reason/MachineConfigChange config/${r.to} config change requested`,
      },
      {
        from: r.doneAt + 21,
        to: r.doneAt + 21,
        level: 'Info',
        locator: `node/${r.node.name}`,
        message: `reason/MachineConfigReached config/${r.to} reached desired config`,
      },
    ]),
    ...eventRecords(events),
  ];

  return {
    variant,
    rollouts: nodeRollouts,
    pools: poolRuns,
    operators,
    monitor,
    events,
    testLog: log.lines,
    cv: { completedAt: progress.completedAt, progressingSince: CV_PROGRESSING_SINCE },
    mco: { levelAt: mco.levelAt },
    testEnd: log.end,
    testPassed: log.violationAt === undefined,
    gatherAt: variant === 'bug' ? at('03:37:52.000') : at('03:40:58.000'),
    monitorEnd,
  };
}
