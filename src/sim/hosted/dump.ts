/**
 * Writes a hosted run as `hypershift dump cluster --dump-guest-cluster` lays it out (oc adm inspect's
 * layout, docs/simulate.md "Hosted control planes"): the HostedCluster and NodePool in the
 * management namespace, the control-plane namespace `<ns>-<name>` with the HostedControlPlane, its
 * ControlPlaneComponents and the Cluster API MachineDeployment, MachineSets and Machines, and the
 * guest cluster under `hostedcluster-<name>/` (ClusterVersion, ClusterOperators, Nodes). No Secrets.
 * The dump is the e2e test's: taken a few seconds after it saw the NodePool at level. Beside it: the
 * ground truth (`atlevel-simulation.json`) and every revision of the management objects until the dump
 * (`atlevel-revisions.jsonl`), as the CI-layout writer does. Every byte follows from the run.
 */
import yaml from 'js-yaml';
import { uidFor } from '../hash.js';
import type { Cond } from '../objects.js';
import type {
  GuestNodeObj,
  HObj,
  MachineDeploymentObj,
  MachineObj,
  MachineSetObj,
  NodePoolObj,
  ReplicaStatus,
} from './objects.js';
import { ANN, type HostedRunResult } from './run.js';
import { HOSTED_EPOCH, HOSTED_POLICY_SUMMARIES, type HostedScenario } from './scenario.js';
import { summarizeHosted } from './summary.js';

type Json = Record<string, unknown>;

const CAPI = 'cluster.x-k8s.io/v1beta1';
const HS = 'hypershift.openshift.io/v1beta1';
/** The control-plane components a HostedControlPlane reports (a representative subset). */
const COMPONENTS = [
  'cluster-version-operator',
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'openshift-apiserver',
  'openshift-controller-manager',
  'openshift-oauth-apiserver',
];
/** The guest's ClusterOperators (a hosted cluster runs no control-plane operators of its own). */
const GUEST_OPERATORS = [
  'console',
  'dns',
  'image-registry',
  'ingress',
  'insights',
  'kube-apiserver',
  'monitoring',
  'network',
  'node-tuning',
  'openshift-apiserver',
  'service-ca',
  'storage',
];

const time = (epoch: number, t: number): string =>
  `${new Date(Math.floor((epoch + t) / 1000) * 1000).toISOString().slice(0, 19)}Z`;

function sortedMap(m: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k] as string;
  return out;
}

function meta(epoch: number, kind: string, o: HObj, extra: Json = {}): Json {
  const m = o.meta;
  const out: Json = {};
  if (Object.keys(m.annotations).length > 0) out.annotations = sortedMap(m.annotations);
  out.creationTimestamp = time(epoch, m.createdAt);
  if (m.deletedAt !== undefined) out.deletionTimestamp = time(epoch, m.deletedAt);
  Object.assign(out, extra);
  out.generation = m.generation;
  if (Object.keys(m.labels).length > 0) out.labels = sortedMap(m.labels);
  out.name = m.name;
  if (m.namespace !== '') out.namespace = m.namespace;
  out.resourceVersion = String(m.rv);
  out.uid = uidFor(`${kind}/${m.namespace}/${m.name}`);
  return out;
}

function conditions(epoch: number, conds: readonly Cond[], observedGeneration?: number): Json[] {
  return conds.map((c) => ({
    lastTransitionTime: time(epoch, c.lastTransitionTime),
    message: c.message,
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
    reason: c.reason,
    status: c.status,
    type: c.type,
  }));
}

function owner(kind: string, ns: string, name: string): Json {
  return {
    apiVersion: CAPI,
    blockOwnerDeletion: true,
    controller: true,
    kind,
    name,
    uid: uidFor(`${kind}/${ns}/${name}`),
  };
}

function replicaStatus(st: ReplicaStatus, desired: number, deployment: boolean): Json {
  return {
    availableReplicas: st.availableReplicas,
    ...(deployment ? {} : { fullyLabeledReplicas: st.replicas }),
    observedGeneration: st.observedGeneration,
    ...(deployment
      ? { phase: st.replicas > desired ? 'ScalingDown' : st.replicas < desired ? 'ScalingUp' : 'Running' }
      : {}),
    readyReplicas: st.readyReplicas,
    replicas: st.replicas,
    ...(deployment
      ? {
          unavailableReplicas: Math.max(desired - st.availableReplicas, 0),
          updatedReplicas: st.updatedReplicas,
        }
      : {}),
    v1beta2: {
      availableReplicas: st.v1beta2.availableReplicas,
      readyReplicas: st.v1beta2.readyReplicas,
      replicas: st.v1beta2.replicas,
      upToDateReplicas: st.v1beta2.upToDateReplicas,
    },
  };
}

interface Ctx {
  readonly epoch: number;
  readonly s: HostedScenario;
  readonly infraID: string;
}

function templateJson(c: Ctx, t: MachineObj['spec'], labels: Json): Json {
  return {
    metadata: { annotations: { [ANN.releaseVersion]: t.release }, labels },
    spec: {
      bootstrap: { dataSecretName: t.dataSecretName },
      clusterName: c.infraID,
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        name: `${c.s.nodePool}-${t.dataSecretName.slice(-8)}`,
        namespace: `${c.s.namespace}-${c.s.hostedCluster}`,
      },
      version: t.release,
    },
  };
}

function nodePoolJson(c: Ctx, np: NodePoolObj): Json {
  const s = c.s;
  return {
    apiVersion: HS,
    kind: 'NodePool',
    metadata: meta(c.epoch, 'NodePool', np),
    spec: {
      arch: 'amd64',
      clusterName: s.hostedCluster,
      management: {
        autoRepair: false,
        upgradeType: np.spec.upgradeType,
        ...(np.spec.upgradeType === 'Replace'
          ? {
              replace: {
                rollingUpdate: { maxSurge: s.maxSurge, maxUnavailable: s.maxUnavailable },
                strategy: 'RollingUpdate',
              },
            }
          : { inPlace: { maxUnavailable: s.maxUnavailable } }),
      },
      platform: { aws: { instanceType: 'm6i.xlarge' }, type: 'AWS' },
      release: { image: np.spec.releaseImage },
      replicas: np.spec.replicas,
    },
    status: {
      conditions: conditions(c.epoch, np.status.conditions, np.status.observedGeneration),
      replicas: np.status.replicas,
      version: np.status.version,
    },
  };
}

function machineDeploymentJson(c: Ctx, md: MachineDeploymentObj): Json {
  const sel = {
    'cluster.x-k8s.io/cluster-name': c.infraID,
    'hypershift.openshift.io/nodePool': c.s.nodePool,
  };
  return {
    apiVersion: CAPI,
    kind: 'MachineDeployment',
    metadata: meta(c.epoch, 'MachineDeployment', md),
    spec: {
      clusterName: c.infraID,
      minReadySeconds: 0,
      replicas: md.spec.replicas,
      selector: { matchLabels: sel },
      strategy: {
        rollingUpdate: { maxSurge: c.s.maxSurge, maxUnavailable: c.s.maxUnavailable },
        type: 'RollingUpdate',
      },
      template: templateJson(c, md.spec.template, sel),
    },
    status: withConditions(
      replicaStatus(md.status, md.spec.replicas, true),
      conditions(c.epoch, md.conditions),
    ),
  };
}

function withConditions(status: Json, conds: Json[]): Json {
  const v2 = status.v1beta2 as Json;
  return { ...status, v1beta2: { ...v2, conditions: conds } };
}

/** Cluster API's labels: the cluster, and the MachineDeployment and MachineSet an object belongs to. */
function capiLabels(c: Ctx, deployment: string | undefined, set: string | undefined): Record<string, string> {
  return {
    'cluster.x-k8s.io/cluster-name': c.infraID,
    ...(deployment !== undefined ? { 'cluster.x-k8s.io/deployment-name': deployment } : {}),
    ...(set !== undefined ? { 'cluster.x-k8s.io/set-name': set } : {}),
  };
}

function withLabels<T extends HObj>(o: T, labels: Record<string, string>): T {
  return { ...o, meta: { ...o.meta, labels: { ...o.meta.labels, ...labels } } };
}

function machineSetJson(c: Ctx, ms: MachineSetObj): Json {
  const ns = `${c.s.namespace}-${c.s.hostedCluster}`;
  const sel = {
    'cluster.x-k8s.io/cluster-name': c.infraID,
    'cluster.x-k8s.io/set-name': ms.meta.name,
    'hypershift.openshift.io/nodePool': c.s.nodePool,
  };
  return {
    apiVersion: CAPI,
    kind: 'MachineSet',
    metadata: meta(c.epoch, 'MachineSet', withLabels(ms, capiLabels(c, ms.meta.owner, undefined)), {
      ...(ms.meta.owner ? { ownerReferences: [owner('MachineDeployment', ns, ms.meta.owner)] } : {}),
    }),
    spec: {
      clusterName: c.infraID,
      replicas: ms.spec.replicas,
      selector: { matchLabels: sel },
      template: templateJson(c, ms.spec.template, sel),
    },
    status: replicaStatus(ms.status, ms.spec.replicas, false),
  };
}

function machineJson(c: Ctx, m: MachineObj): Json {
  const ns = `${c.s.namespace}-${c.s.hostedCluster}`;
  const v2 = conditions(c.epoch, m.status.conditions);
  return {
    apiVersion: CAPI,
    kind: 'Machine',
    metadata: meta(
      c.epoch,
      'Machine',
      withLabels(m, capiLabels(c, c.s.upgradeType === 'Replace' ? c.s.nodePool : undefined, m.meta.owner)),
      {
        finalizers: ['machine.cluster.x-k8s.io'],
        ...(m.meta.owner ? { ownerReferences: [owner('MachineSet', ns, m.meta.owner)] } : {}),
      },
    ),
    spec: {
      bootstrap: { dataSecretName: m.spec.dataSecretName },
      clusterName: c.infraID,
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachine',
        name: m.meta.name,
        namespace: ns,
      },
      version: m.spec.release,
    },
    status: {
      ...(m.status.nodeName ? { nodeRef: { apiVersion: 'v1', kind: 'Node', name: m.status.nodeName } } : {}),
      phase: m.status.phase,
      v1beta2: { conditions: v2 },
    },
  };
}

function nodeJson(c: Ctx, n: GuestNodeObj, end: number): Json {
  const ready = { lastHeartbeatTime: time(c.epoch, end), lastTransitionTime: time(c.epoch, n.readySince) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: meta(c.epoch, 'Node', {
      ...n,
      meta: {
        ...n.meta,
        annotations: {
          ...n.meta.annotations,
          'cluster.x-k8s.io/cluster-namespace': `${c.s.namespace}-${c.s.hostedCluster}`,
          'cluster.x-k8s.io/machine': n.machine,
          'cluster.x-k8s.io/owner-kind': 'MachineSet',
        },
      },
    }),
    spec: {
      providerID: `aws:///us-east-1a/i-0${uidFor(n.machine).replaceAll('-', '').slice(0, 16)}`,
      ...(n.unschedulable
        ? { taints: [{ effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable' }], unschedulable: true }
        : {}),
    },
    status: {
      conditions: [
        {
          ...ready,
          message: n.ready ? 'kubelet is posting ready status' : 'container runtime network not ready',
          reason: n.ready ? 'KubeletReady' : 'KubeletNotReady',
          status: n.ready ? 'True' : 'False',
          type: 'Ready',
        },
      ],
      nodeInfo: {
        architecture: 'amd64',
        containerRuntimeVersion: 'cri-o://1.34.1',
        kubeletVersion: n.kubeletVersion,
        operatingSystem: 'linux',
        osImage: `Red Hat Enterprise Linux CoreOS ${n.release.split('.').slice(0, 2).join('')}.9.6 (Plow)`,
      },
    },
  };
}

/** The HostedCluster, its control plane and the guest's ClusterVersion: all at the target since before the run. */
function controlPlane(c: Ctx): { hc: Json; hcp: Json; components: Json[]; cv: Json; cos: Json[] } {
  const { s, epoch } = c;
  const ns = `${s.namespace}-${s.hostedCluster}`;
  const t0 = -3 * 24 * 3600_000;
  const started = -45 * 60_000;
  const done = -12 * 60_000;
  const history = [
    {
      completionTime: time(epoch, done),
      image: s.to.image,
      startedTime: time(epoch, started),
      state: 'Completed',
      verified: true,
      version: s.to.version,
    },
    {
      completionTime: time(epoch, t0 + 40 * 60_000),
      image: s.from.image,
      startedTime: time(epoch, t0),
      state: 'Completed',
      verified: false,
      version: s.from.version,
    },
  ];
  const cond = (type: string, status: string, reason: string, message: string, at: number): Json => ({
    lastTransitionTime: time(epoch, at),
    message,
    reason,
    status,
    type,
  });
  const metaOf = (kind: string, name: string, namespace: string, created: number): Json => ({
    creationTimestamp: time(epoch, created),
    generation: 2,
    name,
    ...(namespace !== '' ? { namespace } : {}),
    resourceVersion: '39000',
    uid: uidFor(`${kind}/${namespace}/${name}`),
  });
  const hc: Json = {
    apiVersion: HS,
    kind: 'HostedCluster',
    metadata: metaOf('HostedCluster', s.hostedCluster, s.namespace, t0),
    spec: {
      clusterID: uidFor(`cluster/${s.hostedCluster}`),
      infraID: c.infraID,
      platform: { aws: { region: 'us-east-1' }, type: 'AWS' },
      release: { image: s.to.image },
    },
    status: {
      conditions: [
        cond('Available', 'True', 'AsExpected', 'The hosted control plane is available', t0 + 600_000),
        cond('Progressing', 'False', 'AsExpected', 'HostedCluster is at expected version', done),
        cond('Degraded', 'False', 'AsExpected', 'The hosted cluster is not degraded', t0 + 600_000),
        cond('ClusterVersionSucceeding', 'True', 'FromClusterVersion', '', done),
        cond(
          'ClusterVersionProgressing',
          'False',
          'FromClusterVersion',
          `Cluster version is ${s.to.version}`,
          done,
        ),
        cond('ClusterVersionFailing', 'False', 'FromClusterVersion', '', t0 + 600_000),
        cond(
          'ClusterVersionAvailable',
          'True',
          'FromClusterVersion',
          `Done applying ${s.to.version}`,
          t0 + 2_400_000,
        ),
        cond('ClusterVersionUpgradeable', 'True', 'FromClusterVersion', '', t0 + 600_000),
        cond(
          'ClusterVersionReleaseAccepted',
          'True',
          'PayloadLoaded',
          `Payload loaded version="${s.to.version}" image="${s.to.image}"`,
          started,
        ),
      ],
      controlPlaneVersion: {
        desired: { image: s.to.image, version: s.to.version },
        history: history.map(({ verified: _v, ...h }) => h),
        observedGeneration: 2,
      },
      version: { desired: { image: s.to.image, version: s.to.version }, history, observedGeneration: 2 },
    },
  };
  const hcp: Json = {
    apiVersion: HS,
    kind: 'HostedControlPlane',
    metadata: metaOf('HostedControlPlane', s.hostedCluster, ns, t0),
    spec: { infraID: c.infraID, releaseImage: s.to.image },
    status: {
      conditions: [cond('Available', 'True', 'AsExpected', '', t0 + 600_000)],
      ready: true,
      versionStatus: {
        desired: { image: s.to.image, version: s.to.version },
        history,
        observedGeneration: 2,
      },
    },
  };
  const components = COMPONENTS.map((name, i) => ({
    apiVersion: HS,
    kind: 'ControlPlaneComponent',
    metadata: metaOf('ControlPlaneComponent', name, ns, t0),
    status: {
      conditions: [
        cond('Available', 'True', 'AsExpected', '', t0 + 300_000),
        cond(
          'RolloutComplete',
          'True',
          'AsExpected',
          `${name} Deployment has successfully rolled out`,
          started + (i + 1) * 3 * 60_000,
        ),
      ],
      version: s.to.version,
    },
  }));
  const cv: Json = {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: metaOf('ClusterVersion', 'version', '', t0),
    spec: { clusterID: uidFor(`cluster/${s.hostedCluster}`) },
    status: {
      availableUpdates: null,
      conditions: [
        cond('Available', 'True', '', `Done applying ${s.to.version}`, t0 + 2_400_000),
        cond('Failing', 'False', '', '', t0 + 600_000),
        cond('Progressing', 'False', '', `Cluster version is ${s.to.version}`, done),
      ],
      desired: { image: s.to.image, version: s.to.version },
      history,
      observedGeneration: 2,
    },
  };
  const cos = GUEST_OPERATORS.map((name) => ({
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: metaOf('ClusterOperator', name, '', t0),
    spec: {},
    status: {
      conditions: [
        cond('Available', 'True', 'AsExpected', '', t0 + 1_200_000),
        cond('Degraded', 'False', 'AsExpected', '', t0 + 1_200_000),
        cond('Progressing', 'False', 'AsExpected', '', done - 5 * 60_000),
      ],
      versions: [{ name: 'operator', version: s.to.version }],
    },
  }));
  return { hc, hcp, components, cv, cos };
}

const yamlOf = (o: Json): string => yaml.dump(o, { lineWidth: -1, noRefs: true });

function toJson(c: Ctx, o: HObj, end: number): Json {
  switch (o.kind) {
    case 'NodePool':
      return nodePoolJson(c, o);
    case 'MachineDeployment':
      return machineDeploymentJson(c, o);
    case 'MachineSet':
      return machineSetJson(c, o);
    case 'Machine':
      return machineJson(c, o);
    case 'Node':
      return nodeJson(c, o, end);
  }
}

/** An `oc adm inspect` List of one resource type in one namespace. */
function listOf(apiVersion: string, kind: string, items: Json[]): Json {
  return { apiVersion, items, kind: `${kind}List`, metadata: { resourceVersion: '' } };
}

function ofKind<T extends HObj>(objs: ReadonlyMap<string, HObj>, kind: T['kind']): T[] {
  const out: T[] = [];
  for (const o of objs.values()) if (o.kind === kind) out.push(o as T);
  return out.sort((a, b) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0));
}

/**
 * Every file of a hosted run, path (relative to the dump folder) → content: the objects as the e2e
 * test's dump read them, in the layout docs/hosted.md describes (the HostedCluster and NodePools one
 * object a file, the control-plane namespace's kinds as Lists, the guest under `hostedcluster-NAME/`).
 */
export function renderHostedDump(run: HostedRunResult, epoch = HOSTED_EPOCH): Map<string, string> {
  const s = run.scenario;
  const c: Ctx = { epoch, s, infraID: `${s.hostedCluster}-${uidFor(s.hostedCluster).slice(0, 5)}` };
  const at = run.facts.dumpAt ?? run.endAt;
  const files = new Map<string, string>();
  const ns = s.namespace;
  const cpns = `${s.namespace}-${s.hostedCluster}`;
  const guest = `hostedcluster-${s.hostedCluster}`;
  const cp = controlPlane(c);
  const objs = run.dump;
  files.set(`namespaces/${ns}/hypershift.openshift.io/hostedclusters/${s.hostedCluster}.yaml`, yamlOf(cp.hc));
  for (const np of ofKind<NodePoolObj>(objs, 'NodePool'))
    files.set(
      `namespaces/${ns}/hypershift.openshift.io/nodepools/${np.meta.name}.yaml`,
      yamlOf(nodePoolJson(c, np)),
    );
  files.set(
    `namespaces/${cpns}/hypershift.openshift.io/hostedcontrolplanes.yaml`,
    yamlOf(listOf(HS, 'HostedControlPlane', [cp.hcp])),
  );
  files.set(
    `namespaces/${cpns}/hypershift.openshift.io/controlplanecomponents.yaml`,
    yamlOf(listOf(HS, 'ControlPlaneComponent', cp.components)),
  );
  files.set(
    `namespaces/${cpns}/cluster.x-k8s.io/machinedeployments.yaml`,
    yamlOf(
      listOf(
        CAPI,
        'MachineDeployment',
        ofKind<MachineDeploymentObj>(objs, 'MachineDeployment').map((o) => machineDeploymentJson(c, o)),
      ),
    ),
  );
  files.set(
    `namespaces/${cpns}/cluster.x-k8s.io/machinesets.yaml`,
    yamlOf(
      listOf(
        CAPI,
        'MachineSet',
        ofKind<MachineSetObj>(objs, 'MachineSet').map((o) => machineSetJson(c, o)),
      ),
    ),
  );
  files.set(
    `namespaces/${cpns}/cluster.x-k8s.io/machines.yaml`,
    yamlOf(
      listOf(
        CAPI,
        'Machine',
        ofKind<MachineObj>(objs, 'Machine').map((o) => machineJson(c, o)),
      ),
    ),
  );
  files.set(
    `${guest}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml`,
    yamlOf(cp.cv),
  );
  for (const co of cp.cos) {
    const name = (co.metadata as { name: string }).name;
    files.set(
      `${guest}/cluster-scoped-resources/config.openshift.io/clusteroperators/${name}.yaml`,
      yamlOf(co),
    );
  }
  for (const n of ofKind<GuestNodeObj>(objs, 'Node'))
    files.set(`${guest}/cluster-scoped-resources/core/nodes/${n.meta.name}.yaml`, yamlOf(nodeJson(c, n, at)));
  files.set('atlevel-revisions.jsonl', revisionsJsonl(c, run));
  files.set(
    'atlevel-simulation.json',
    `${JSON.stringify(
      {
        kind: 'AtlevelSimulation',
        note: 'A simulated hypershift dump written by `atlevel simulate`; not from a real cluster.',
        scenario: s.name,
        policy: run.policy,
        policySummary: HOSTED_POLICY_SUMMARIES[run.policy],
        seed: run.seed,
        epoch: new Date(epoch).toISOString(),
        summary: summarizeHosted(run, epoch),
      },
      null,
      4,
    )}\n`,
  );
  return new Map([...files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/**
 * The management cluster's objects of the rollout (NodePool, MachineDeployment, MachineSets, Machines),
 * every revision, oldest first, in the format of docs/simulate.md (`namespace` set, `DELETED` when a
 * Machine's finalizer let go). The guest's Nodes are left out: one revisions file describes one cluster.
 */
function revisionsJsonl(c: Ctx, run: HostedRunResult): string {
  const revs = run.revisions;
  if (!revs) throw new Error('renderHostedDump needs a run made with { record: true }');
  const lines: string[] = [];
  const line = (type: string, at: number, o: HObj): void => {
    if (o.kind === 'Node') return;
    lines.push(
      JSON.stringify({
        type,
        at: new Date(Math.floor(c.epoch + at)).toISOString(),
        kind: o.kind,
        namespace: o.meta.namespace,
        name: o.meta.name,
        object: toJson(c, o, at),
      }),
    );
  };
  for (const o of run.seeded) line('ADDED', 0, o);
  for (const r of revs) line(r.type, r.at, r.obj);
  return `${lines.join('\n')}\n`;
}
