/**
 * The Kubernetes events of the run (core/v1, or events.k8s.io/v1 for the upgrade test's own):
 * node drain/reboot/ready, pool render and targeting, the machine-config operator's, the CVO's.
 */
import { FROM, MCO_COMMIT, type NodeDef, type Role, TARGET_IMAGE, TO } from './facts.js';
import type { EventSpec, NodeRollout, OperatorRun, PoolRun, Variant } from './types.js';
import { at, rng, suffix, uuid } from './util.js';

const NODE_REF = (n: NodeDef) => ({ kind: 'Node', name: n.name, uid: n.name });
const POOL_UID: Record<Role, string> = { master: uuid('pool:master'), worker: uuid('pool:worker') };
const POOL_REF = (pool: Role) => ({
  kind: 'MachineConfigPool',
  name: pool,
  uid: POOL_UID[pool],
  apiVersion: 'machineconfiguration.openshift.io/v1',
});
export const POOL_UIDS = POOL_UID;

export function nodeEvents(r: NodeRollout, variant: Variant): EventSpec[] {
  const n = r.node;
  const j = rng(`node-events:${variant}:${n.name}`);
  const kubelet = { component: 'kubelet', host: n.name };
  const mcd = { component: 'machineconfigdaemon', host: n.name };
  const ev = (
    at: number,
    reason: string,
    message: string,
    source: EventSpec['source'],
    opts: { type?: 'Normal' | 'Warning'; first?: number; count?: number; inTimeline?: boolean } = {},
  ): EventSpec => ({
    namespace: 'default',
    involved: NODE_REF(n),
    reason,
    message,
    type: opts.type ?? 'Normal',
    ...(source ? { source } : {}),
    first: opts.first ?? at,
    last: at,
    count: opts.count ?? 1,
    inTimeline: opts.inTimeline ?? false,
  });
  const kubeletStart = r.readyAt - 12_000 - j.int(0, 900);
  const installBoot = n.createdAt + 1_000;
  return [
    ev(
      r.drainAt + j.int(300, 700),
      'NodeNotSchedulable',
      `Node ${n.name} status is now: NodeNotSchedulable`,
      kubelet,
    ),
    ev(r.drainAt, 'Drain', 'Draining node to update config.', mcd, { inTimeline: true }),
    ev(r.rebootAt - 1_200 - j.int(0, 300), 'PendingConfig', `Written pending config ${r.to}`, mcd),
    ev(r.rebootAt, 'Reboot', `Node will reboot into config ${r.to}`, mcd, { inTimeline: true }),
    ev(
      r.notReadyAt,
      'NodeNotReady',
      `Node ${n.name} status is now: NodeNotReady`,
      { component: 'node-controller' },
      { inTimeline: true },
    ),
    ev(kubeletStart, 'Starting', 'Starting kubelet.', kubelet, { first: installBoot, count: 2 }),
    ev(
      kubeletStart + 310,
      'NodeHasSufficientMemory',
      `Node ${n.name} status is now: NodeHasSufficientMemory`,
      kubelet,
      {
        first: installBoot + 310,
        count: 9,
      },
    ),
    ev(
      kubeletStart + 310,
      'NodeHasNoDiskPressure',
      `Node ${n.name} status is now: NodeHasNoDiskPressure`,
      kubelet,
      {
        first: installBoot + 310,
        count: 9,
      },
    ),
    ev(
      kubeletStart + 310,
      'NodeHasSufficientPID',
      `Node ${n.name} status is now: NodeHasSufficientPID`,
      kubelet,
      {
        first: installBoot + 310,
        count: 9,
      },
    ),
    ev(kubeletStart + 420, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', kubelet, {
      first: installBoot + 420,
      count: 2,
    }),
    ev(kubeletStart + 460, 'Rebooted', `Node ${n.name} has been rebooted, boot id: ${r.bootId}`, kubelet, {
      type: 'Warning',
      inTimeline: true,
    }),
    ev(r.readyAt, 'NodeReady', `Node ${n.name} status is now: NodeReady`, kubelet, {
      first: installBoot + 40_000,
      count: 2,
      inTimeline: true,
    }),
    ev(r.doneAt - 180, 'NodeDone', `Setting node ${n.name}, currentConfig ${r.to} to Done`, mcd),
    ev(
      r.doneAt + j.int(300, 800),
      'NodeSchedulable',
      `Node ${n.name} status is now: NodeSchedulable`,
      kubelet,
    ),
  ];
}

export function poolEvents(
  variant: Variant,
  poolRuns: readonly PoolRun[],
  nodeRollouts: readonly NodeRollout[],
): EventSpec[] {
  const out: EventSpec[] = [];
  const render = { component: 'machineconfigcontroller-rendercontroller' };
  const nodes = { component: 'machineconfigcontroller-nodecontroller' };
  for (const p of poolRuns) {
    const generated = (name: string, release: string) =>
      variant === 'fixed'
        ? `${name} successfully generated (release version: ${release}, controller version: ${MCO_COMMIT})`
        : `${name} successfully generated`;
    out.push({
      namespace: 'default',
      involved: POOL_REF(p.name),
      reason: 'RenderedConfigGenerated',
      message: generated(p.oldConfig, FROM),
      type: 'Normal',
      source: render,
      first: at(p.name === 'master' ? '02:30:53.214' : '02:30:53.390'),
      last: at(p.name === 'master' ? '02:30:53.214' : '02:30:53.390'),
      count: 1,
      inTimeline: false,
    });
    out.push({
      namespace: 'default',
      involved: POOL_REF(p.name),
      reason: 'RenderedConfigGenerated',
      message: generated(p.newConfig, TO),
      type: 'Normal',
      source: render,
      first: p.renderedAt,
      last: p.renderedAt,
      count: 1,
      inTimeline: true,
    });
  }
  for (const r of nodeRollouts) {
    out.push({
      namespace: 'default',
      involved: POOL_REF(r.node.role),
      reason: 'SetDesiredConfig',
      message: `Targeted node ${r.node.name} to config ${r.to}`,
      type: 'Normal',
      source: nodes,
      first: r.targeted,
      last: r.targeted,
      count: 1,
      inTimeline: true,
    });
  }
  return out;
}

const CO_REF = {
  kind: 'ClusterOperator',
  name: 'machine-config',
  uid: uuid('co:machine-config'),
  apiVersion: 'config.openshift.io/v1',
};

export function mcoEvents(variant: Variant, mco: OperatorRun): EventSpec[] {
  const op = { component: 'machine-config-operator' };
  const ns = 'openshift-machine-config-operator';
  const out: EventSpec[] = [
    {
      namespace: ns,
      involved: {
        kind: 'Deployment',
        name: 'machine-config-operator',
        namespace: ns,
        uid: uuid('deploy:mco'),
        apiVersion: 'apps/v1',
      },
      reason: 'ScalingReplicaSet',
      message: 'Scaled down replica set machine-config-operator-6b8f9c5d47 to 0',
      type: 'Normal',
      source: { component: 'deployment-controller' },
      first: at('03:21:47.330'),
      last: at('03:21:47.330'),
      count: 1,
      inTimeline: false,
    },
    {
      namespace: ns,
      involved: {
        kind: 'Deployment',
        name: 'machine-config-operator',
        namespace: ns,
        uid: uuid('deploy:mco'),
        apiVersion: 'apps/v1',
      },
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set machine-config-operator-7d5c4f8b96 to 1',
      type: 'Normal',
      source: { component: 'deployment-controller' },
      first: at('03:21:47.512'),
      last: at('03:21:47.512'),
      count: 1,
      inTimeline: false,
    },
    {
      namespace: ns,
      involved: {
        kind: 'ConfigMap',
        name: 'machine-config',
        namespace: ns,
        uid: uuid('cm:mco-lock'),
        apiVersion: 'v1',
      },
      reason: 'LeaderElection',
      message: `machine-config-operator-7d5c4f8b96-h2x9q_${uuid('mco-leader')} became leader`,
      type: 'Normal',
      source: { component: 'machine-config-operator-7d5c4f8b96-h2x9q_' },
      first: at('03:23:02.806'),
      last: at('03:23:02.806'),
      count: 1,
      inTimeline: false,
    },
    {
      namespace: 'default',
      involved: CO_REF,
      reason: 'OperatorVersionChanged',
      message: `clusteroperator/machine-config-operator started a version change from [{operator ${FROM}}] to [{operator ${TO}}]`,
      type: 'Normal',
      source: op,
      first: at('03:23:03.719'),
      last: at('03:23:03.719'),
      count: 1,
      inTimeline: false,
    },
    {
      namespace: 'default',
      involved: CO_REF,
      reason: 'OperatorVersionChanged',
      message: `clusteroperator/machine-config-operator version changed from [{operator ${FROM}}] to [{operator ${TO}}]`,
      type: 'Normal',
      source: op,
      first: mco.versionsAt,
      last: mco.versionsAt,
      count: 1,
      inTimeline: false,
    },
  ];
  const degraded = mco.changes.find((c) => c.type === 'Degraded' && c.status === 'True');
  if (variant === 'fixed' && degraded) {
    out.push({
      namespace: 'default',
      involved: CO_REF,
      reason: 'OperatorDegraded: RequiredPoolsFailed',
      message: degraded.message ?? '',
      type: 'Warning',
      source: op,
      first: degraded.at,
      last: degraded.at,
      count: 1,
      inTimeline: false,
    });
  }
  return out;
}

const CV_REF = {
  kind: 'ClusterVersion',
  name: 'version',
  namespace: 'openshift-cluster-version',
  uid: uuid('cv'),
};

export function cvoEvents(): EventSpec[] {
  const cvo = { component: 'openshift-cluster-version' };
  const base = (t: number, reason: string, message: string): EventSpec => ({
    namespace: 'openshift-cluster-version',
    involved: CV_REF,
    reason,
    message,
    type: 'Normal',
    source: cvo,
    first: t,
    last: t,
    count: 1,
    inTimeline: false,
  });
  return [
    base(
      at('02:53:06.118'),
      'RetrievePayload',
      `Retrieving and verifying payload version="" image="${TARGET_IMAGE}"`,
    ),
    base(at('02:53:19.872'), 'LoadPayload', `Loading payload version="${TO}" image="${TARGET_IMAGE}"`),
    base(at('02:53:21.204'), 'PayloadLoaded', `Payload loaded version="${TO}" image="${TARGET_IMAGE}"`),
  ];
}

export function testEvent(t: number, reason: string, message: string): EventSpec {
  return {
    namespace: 'openshift-cluster-version',
    involved: { kind: 'ClusterVersion', name: 'cluster', namespace: 'openshift-cluster-version' },
    reason,
    message,
    type: reason === 'UpgradeFailed' ? 'Warning' : 'Normal',
    first: t,
    last: t,
    count: 0,
    reporting: {
      controller: 'openshift-tests.openshift.io/upgrade',
      instance: 'openshift-tests',
      action: reason,
    },
    inTimeline: false,
  };
}

/** Pod churn on a rebooting node, so the timeline has the noise a real one has. */
export function podNoise(nodeRollouts: readonly NodeRollout[], variant: Variant): EventSpec[] {
  const out: EventSpec[] = [];
  for (const r of nodeRollouts) {
    const j = rng(`pods:${variant}:${r.node.name}`);
    const dns = `dns-default-${suffix(j, 5)}`;
    const multus = `multus-${suffix(j, 5)}`;
    out.push({
      namespace: 'openshift-dns',
      involved: {
        kind: 'Pod',
        name: dns,
        namespace: 'openshift-dns',
        uid: uuid(`pod:${dns}`),
        apiVersion: 'v1',
        fieldPath: 'spec.containers{dns}',
      },
      reason: 'Killing',
      message: 'Stopping container dns',
      type: 'Normal',
      source: { component: 'kubelet', host: r.node.name },
      first: r.rebootAt - 2_600 - j.int(0, 400),
      last: r.rebootAt - 2_600 - j.int(0, 400),
      count: 1,
      inTimeline: true,
    });
    out.push({
      namespace: 'openshift-multus',
      involved: {
        kind: 'Pod',
        name: multus,
        namespace: 'openshift-multus',
        uid: uuid(`pod:${multus}`),
        apiVersion: 'v1',
        fieldPath: 'spec.containers{kube-multus}',
      },
      reason: 'Started',
      message: 'Started container kube-multus',
      type: 'Normal',
      source: { component: 'kubelet', host: r.node.name },
      first: r.readyAt - 5_000 - j.int(0, 800),
      last: r.readyAt - 5_000 - j.int(0, 800),
      count: 1,
      inTimeline: true,
    });
  }
  return out;
}
