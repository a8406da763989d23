/**
 * The large run's workloads (bench/large-run.ts), so that analyze's operator-level-before-operands
 * rule is checked there and the bench measures its cost: Deployments with their ReplicaSets (two or
 * three revisions each), DaemonSets with a pod on every node, their pods, the rollout Events
 * (ScalingReplicaSet, SuccessfulCreate, SuccessfulDelete, Pulled), the namespaces each operator names
 * in relatedObjects, and the two releases whose component images the workloads run. Shaped as
 * `oc get -o json` prints them and as src/sim/artifacts/workloads-json.ts writes them for the
 * simulator. Every rollout of an operator that reports level ends before its report, so the rule holds.
 * Deterministic: its own PRNG, so the rest of the run is the same bytes with or without it.
 */
import type { ReleaseInfoSpec } from '../src/artifacts/index.js';
import { rng } from './rng.js';

type Json = Record<string, unknown>;

interface WorkloadOperator {
  readonly name: string;
  /** When its new `operator` version shows in the inputs; its rollouts end before it. */
  readonly levelAt?: number;
}

interface LargeWorkloads {
  readonly deployments: Json[];
  readonly replicaSets: Json[];
  readonly daemonSets: Json[];
  readonly pods: Json[];
  readonly events: Json[];
  /** relatedObjects per ClusterOperator name. */
  readonly related: Map<string, Json[]>;
  readonly from: ReleaseInfoSpec;
  readonly to: ReleaseInfoSpec;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function hex(r: () => number, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(r() * 16).toString(16);
  return s;
}
const uidOf = (r: () => number) => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`;
const podSuffix = (r: () => number) => {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let s = '';
  for (let i = 0; i < 5; i++) s += alphabet[Math.floor(r() * alphabet.length)];
  return s;
};

const DAEMONSETS: readonly { ns: string; name: string; container: string }[] = [
  { ns: 'openshift-dns', name: 'dns-default', container: 'dns' },
  { ns: 'openshift-image-registry', name: 'node-ca', container: 'node-ca' },
  { ns: 'openshift-cluster-node-tuning-operator', name: 'tuned', container: 'tuned' },
  {
    ns: 'openshift-machine-config-operator',
    name: 'machine-config-daemon',
    container: 'machine-config-daemon',
  },
  { ns: 'openshift-multus', name: 'multus', container: 'kube-multus' },
  { ns: 'openshift-ovn-kubernetes', name: 'ovnkube-node', container: 'ovnkube-node' },
  { ns: 'openshift-monitoring', name: 'node-exporter', container: 'node-exporter' },
  { ns: 'openshift-cluster-csi-drivers', name: 'aws-ebs-csi-driver-node', container: 'csi-driver' },
];
/** Which operator names each DaemonSet's namespace (machine-config's is the one that reports level). */
const DS_OWNER = [
  'operator-1',
  'operator-2',
  'operator-3',
  'machine-config',
  'operator-4',
  'operator-5',
  'operator-6',
  'operator-7',
];

export function largeWorkloads(
  operators: readonly WorkloadOperator[],
  nodes: readonly string[],
  times: { start: number; versionA: string; versionB: string; imageA: string; imageB: string },
): LargeWorkloads {
  const r = rng(4040);
  const deployments: Json[] = [];
  const replicaSets: Json[] = [];
  const daemonSets: Json[] = [];
  const pods: Json[] = [];
  const events: Json[] = [];
  const related = new Map<string, Json[]>();
  const components: { name: string; from: string; to: string; commit: string }[] = [];
  const art = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:';
  const component = (name: string) => {
    const c = { name, from: `${art}${hex(r, 64)}`, to: `${art}${hex(r, 64)}`, commit: hex(r, 40) };
    components.push(c);
    return c;
  };
  let rv = 900_000;
  let ev = 0;
  const event = (
    at: number,
    ns: string,
    involved: Json,
    reason: string,
    message: string,
    component: string,
  ) => {
    events.push({
      apiVersion: 'v1',
      count: 1,
      eventTime: null,
      firstTimestamp: iso(at),
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.name,
        namespace: ns,
        uid: involved.uid,
      },
      kind: 'Event',
      lastTimestamp: iso(at),
      message,
      metadata: {
        creationTimestamp: iso(at),
        name: `${String(involved.name)}.${hex(r, 16)}`,
        namespace: ns,
        resourceVersion: String(800_000 + ev++),
        uid: uidOf(r),
      },
      reason,
      reportingComponent: '',
      reportingInstance: '',
      source: { component },
      type: 'Normal',
    });
  };
  const addRelated = (co: string, ns: string) => {
    const list = related.get(co) ?? [
      { group: 'operator.openshift.io', name: 'cluster', resource: co.replace(/^operator-/, 'operator') },
    ];
    list.push({ group: '', name: ns, resource: 'namespaces' });
    related.set(co, list);
  };
  const cond = (type: string, status: boolean, since: number): Json => ({
    lastProbeTime: null,
    lastTransitionTime: iso(since),
    status: status ? 'True' : 'False',
    type,
  });
  const pod = (
    ns: string,
    name: string,
    generateName: string,
    labels: Record<string, string>,
    owner: Json,
    container: string,
    image: string,
    node: string,
    created: number,
    ready: number,
  ): Json => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      annotations: { 'openshift.io/scc': owner.kind === 'DaemonSet' ? 'privileged' : 'restricted' },
      creationTimestamp: iso(created),
      generateName,
      labels,
      name,
      namespace: ns,
      ownerReferences: [owner],
      resourceVersion: String(rv++),
      uid: uidOf(r),
    },
    spec: {
      containers: [{ image, imagePullPolicy: 'IfNotPresent', name: container }],
      nodeName: node,
      priorityClassName: 'system-cluster-critical',
    },
    status: {
      conditions: [
        cond('Initialized', true, created + 1000),
        cond('Ready', true, ready),
        cond('ContainersReady', true, ready),
        cond('PodScheduled', true, created),
      ],
      containerStatuses: [
        {
          containerID: `cri-o://${hex(r, 64)}`,
          image,
          imageID: image,
          lastState: {},
          name: container,
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt: iso(created + 4000) } },
        },
      ],
      hostIP: '10.0.0.1',
      phase: 'Running',
      podIP: `10.${128 + Math.floor(r() * 4)}.${Math.floor(r() * 256)}.${3 + Math.floor(r() * 250)}`,
      qosClass: 'Burstable',
      startTime: iso(created),
    },
  });
  const template = (labels: Record<string, string>, container: string, image: string, ds: boolean): Json => ({
    metadata: { labels },
    spec: {
      containers: [
        {
          image,
          imagePullPolicy: 'IfNotPresent',
          name: container,
          terminationMessagePolicy: 'FallbackToLogsOnError',
        },
      ],
      ...(ds ? { nodeSelector: { 'kubernetes.io/os': 'linux' } } : {}),
      priorityClassName: 'system-cluster-critical',
    },
  });
  /** When a workload of this operator rolls out: before its level report, else anywhere in the update. */
  const rolloutAt = (co: WorkloadOperator, length: number) =>
    co.levelAt !== undefined
      ? co.levelAt - length - 60_000 - Math.floor(r() * 300_000)
      : times.start + 120_000 + Math.floor(r() * 3_000_000);

  // Deployments: two or three per operator namespace, with ReplicaSets of two or three revisions.
  const masters = nodes.slice(0, 3);
  for (const co of operators) {
    const ns = co.name === 'machine-config' ? 'openshift-machine-config-operator' : `openshift-${co.name}`;
    addRelated(co.name, ns);
    const count = co.name === 'machine-config' ? 2 : 2 + Math.floor(r() * 2);
    for (let d = 0; d < count; d++) {
      const name =
        co.name === 'machine-config'
          ? (['machine-config-controller', 'machine-os-images'][d] ?? 'mc')
          : `${co.name}-operand-${d}`;
      const comp = component(name);
      const replicas = 1 + Math.floor(r() * 3);
      const revisions = 2 + Math.floor(r() * 2);
      const duid = uidOf(r);
      const created = times.start - 86_400_000 * (3 + Math.floor(r() * 5));
      const t = rolloutAt(co, 120_000);
      const sel = { app: name };
      const rsOwner = {
        apiVersion: 'apps/v1',
        blockOwnerDeletion: true,
        controller: true,
        kind: 'Deployment',
        name,
        uid: duid,
      };
      const involvedD = { apiVersion: 'apps/v1', kind: 'Deployment', name, uid: duid };
      let prev: string | undefined;
      let newest = name;
      for (let v = 1; v <= revisions; v++) {
        const hash = hex(r, 10).replace(/[0-3]/g, 'b');
        const rsName = `${name}-${hash}`;
        const latest = v === revisions;
        const image = latest ? comp.to : comp.from;
        const rsCreated = latest ? t : created + (v - 1) * 3_600_000;
        const rsUid = uidOf(r);
        const labels = { ...sel, 'pod-template-hash': hash };
        replicaSets.push({
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            annotations: {
              'deployment.kubernetes.io/desired-replicas': String(replicas),
              'deployment.kubernetes.io/max-replicas': String(replicas + 1),
              'deployment.kubernetes.io/revision': String(v),
            },
            creationTimestamp: iso(rsCreated),
            generation: latest ? 1 : 2,
            labels,
            name: rsName,
            namespace: ns,
            ownerReferences: [rsOwner],
            resourceVersion: String(rv++),
            uid: rsUid,
          },
          spec: {
            replicas: latest ? replicas : 0,
            selector: { matchLabels: labels },
            template: template(labels, name, image, false),
          },
          status: latest
            ? {
                availableReplicas: replicas,
                fullyLabeledReplicas: replicas,
                observedGeneration: 1,
                readyReplicas: replicas,
                replicas,
              }
            : { observedGeneration: 2, replicas: 0 },
        });
        if (!latest) {
          prev = rsName;
          continue;
        }
        // The rollout: the new ReplicaSet scaled up pod by pod, the old one down (maxSurge 1, maxUnavailable 0).
        newest = rsName;
        const involvedRs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: rsUid };
        for (let i = 0; i < replicas; i++) {
          const at = t + i * 30_000;
          event(
            at,
            ns,
            involvedD,
            'ScalingReplicaSet',
            `Scaled up replica set ${rsName} to ${i + 1}`,
            'deployment-controller',
          );
          const podName = `${rsName}-${podSuffix(r)}`;
          const podUid = uidOf(r);
          event(at, ns, involvedRs, 'SuccessfulCreate', `Created pod: ${podName}`, 'replicaset-controller');
          event(
            at + 3000,
            ns,
            { apiVersion: 'v1', kind: 'Pod', name: podName, uid: podUid },
            'Pulled',
            `Container image "${image}" already present on machine`,
            'kubelet',
          );
          const p = pod(
            ns,
            podName,
            `${rsName}-`,
            labels,
            {
              apiVersion: 'apps/v1',
              blockOwnerDeletion: true,
              controller: true,
              kind: 'ReplicaSet',
              name: rsName,
              uid: rsUid,
            },
            name,
            image,
            masters[i % masters.length] ?? 'm',
            at,
            at + 20_000,
          );
          (p.metadata as Json).uid = podUid;
          pods.push(p);
          if (prev !== undefined)
            event(
              at + 25_000,
              ns,
              involvedD,
              'ScalingReplicaSet',
              `Scaled down replica set ${prev} to ${replicas - i - 1}`,
              'deployment-controller',
            );
        }
      }
      const done = t + replicas * 30_000;
      deployments.push({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          annotations: { 'deployment.kubernetes.io/revision': String(revisions) },
          creationTimestamp: iso(created),
          generation: revisions,
          labels: sel,
          name,
          namespace: ns,
          resourceVersion: String(rv++),
          uid: duid,
        },
        spec: {
          progressDeadlineSeconds: 600,
          replicas,
          revisionHistoryLimit: 10,
          selector: { matchLabels: sel },
          strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }, type: 'RollingUpdate' },
          template: template(sel, name, comp.to, false),
        },
        status: {
          availableReplicas: replicas,
          conditions: [
            {
              lastTransitionTime: iso(created + 40_000),
              lastUpdateTime: iso(created + 40_000),
              message: 'Deployment has minimum availability.',
              reason: 'MinimumReplicasAvailable',
              status: 'True',
              type: 'Available',
            },
            {
              lastTransitionTime: iso(created),
              lastUpdateTime: iso(done),
              message: `ReplicaSet "${newest}" has successfully progressed.`,
              reason: 'NewReplicaSetAvailable',
              status: 'True',
              type: 'Progressing',
            },
          ],
          observedGeneration: revisions,
          readyReplicas: replicas,
          replicas,
          updatedReplicas: replicas,
        },
      });
    }
  }

  // DaemonSets: one pod per node, replaced 10% of the nodes at a time.
  DAEMONSETS.forEach((ds, i) => {
    const coName = DS_OWNER[i] ?? 'operator-1';
    const co = operators.find((o) => o.name === coName) ?? { name: coName };
    if (ds.ns !== 'openshift-machine-config-operator') addRelated(coName, ds.ns);
    const comp = component(ds.name);
    const dsUid = uidOf(r);
    const batch = Math.ceil(nodes.length / 10);
    const length = Math.ceil(nodes.length / batch) * 20_000;
    const t = rolloutAt(co, length);
    const created = times.start - 86_400_000 * (3 + Math.floor(r() * 5));
    const newHash = hex(r, 10).replace(/[0-3]/g, 'c');
    const sel = { app: ds.name };
    const involved = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.name, uid: dsUid };
    nodes.forEach((node, n) => {
      const at = t + Math.floor(n / batch) * 20_000;
      const oldName = `${ds.name}-${podSuffix(r)}`;
      const name = `${ds.name}-${podSuffix(r)}`;
      const podUid = uidOf(r);
      event(at, ds.ns, involved, 'SuccessfulDelete', `Deleted pod: ${oldName}`, 'daemonset-controller');
      event(at + 2000, ds.ns, involved, 'SuccessfulCreate', `Created pod: ${name}`, 'daemonset-controller');
      event(
        at + 5000,
        ds.ns,
        { apiVersion: 'v1', kind: 'Pod', name, uid: podUid },
        'Pulled',
        `Container image "${comp.to}" already present on machine`,
        'kubelet',
      );
      const p = pod(
        ds.ns,
        name,
        `${ds.name}-`,
        { ...sel, 'controller-revision-hash': newHash, 'pod-template-generation': '2' },
        {
          apiVersion: 'apps/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'DaemonSet',
          name: ds.name,
          uid: dsUid,
        },
        ds.container,
        comp.to,
        node,
        at + 2000,
        at + 14_000,
      );
      (p.metadata as Json).uid = podUid;
      pods.push(p);
    });
    daemonSets.push({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        annotations: { 'deprecated.daemonset.template.generation': '2' },
        creationTimestamp: iso(created),
        generation: 2,
        labels: sel,
        name: ds.name,
        namespace: ds.ns,
        resourceVersion: String(rv++),
        uid: dsUid,
      },
      spec: {
        revisionHistoryLimit: 10,
        selector: { matchLabels: sel },
        template: template(sel, ds.container, comp.to, true),
        updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: '10%' }, type: 'RollingUpdate' },
      },
      status: {
        currentNumberScheduled: nodes.length,
        desiredNumberScheduled: nodes.length,
        numberAvailable: nodes.length,
        numberMisscheduled: 0,
        numberReady: nodes.length,
        observedGeneration: 2,
        updatedNumberScheduled: nodes.length,
      },
    });
  });

  const release = (
    version: string,
    image: string,
    side: 'from' | 'to',
    created: number,
  ): ReleaseInfoSpec => ({
    image,
    version,
    digest: `sha256:${hex(r, 64)}`,
    created,
    referencesCreated: created - 600_000,
    baseImageDigest: `sha256:${hex(r, 64)}`,
    previous: [],
    fromImageStream: 'ocp/4.10-art-latest',
    fromRelease: image,
    generation: 2,
    tags: [...components]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((c) => ({
        name: c.name,
        pullSpec: side === 'from' ? c.from : c.to,
        commit: c.commit,
        sourceLocation: `https://github.com/openshift/${c.name}`,
      })),
  });
  return {
    deployments,
    replicaSets,
    daemonSets,
    pods,
    events,
    related,
    from: release(times.versionA, times.imageA, 'from', times.start - 30 * 3_600_000),
    to: release(times.versionB, times.imageB, 'to', times.start - 3 * 3_600_000),
  };
}
