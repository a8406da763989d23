/**
 * The model's workloads as `oc get -o json` prints them at the end of a run (gather-extra's
 * deployments.json, daemonsets.json, replicasets.json and pods.json): the fields the Kubernetes
 * controllers set (status counts, conditions, revision annotations, pod-template-hash and
 * controller-revision-hash labels, ownerReferences) with times taken from each pod's lifecycle.
 */

import { rfc3339 } from '../../artifacts/index.js';
import { uidFor } from '../hash.js';
import { type PodRec, type ReplicaSetRec, scaled, type Workload } from '../workloads.js';
import type { Clock } from './k8s.js';

type Json = Record<string, unknown>;

const at = (clock: Clock, t: number): string => rfc3339(clock.epoch + t);
const uid = (kind: string, w: Workload, name: string): string =>
  uidFor(`${kind}/${w.spec.namespace}/${name}`);

function selector(w: Workload): Record<string, string> {
  return { app: w.spec.name };
}

function template(w: Workload, image: string, labels: Record<string, string>): Json {
  return {
    metadata: { labels: { ...selector(w), ...labels } },
    spec: {
      containers: [
        {
          image,
          imagePullPolicy: 'IfNotPresent',
          name: w.spec.container,
          terminationMessagePolicy: 'FallbackToLogsOnError',
        },
      ],
      ...(w.kind === 'Deployment' ? {} : { nodeSelector: { 'kubernetes.io/os': 'linux' } }),
      priorityClassName: 'system-cluster-critical',
    },
  };
}

function metadata(
  clock: Clock,
  kind: string,
  w: Workload,
  name: string,
  created: number,
  rv: number,
  extra: Json,
): Json {
  return {
    ...(extra.annotations ? { annotations: extra.annotations } : {}),
    creationTimestamp: at(clock, created),
    ...(extra.generateName ? { generateName: extra.generateName } : {}),
    ...(extra.generation !== undefined ? { generation: extra.generation } : {}),
    labels: extra.labels ?? selector(w),
    name,
    namespace: w.spec.namespace,
    ...(extra.ownerReferences ? { ownerReferences: extra.ownerReferences } : {}),
    resourceVersion: String(rv),
    uid: uid(kind, w, name),
    ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}),
  };
}

const owner = (kind: string, w: Workload, name: string): Json[] => [
  {
    apiVersion: 'apps/v1',
    blockOwnerDeletion: true,
    controller: true,
    kind,
    name,
    uid: uid(kind, w, name),
  },
];

function newestReplicaSet(w: Workload): ReplicaSetRec | undefined {
  return w.replicaSets.find((r) => r.hash === w.hash);
}

export function deploymentJson(clock: Clock, w: Workload, rv: number): Json {
  const t = clock.end;
  const s = w.status(t);
  const rs = newestReplicaSet(w);
  const availableSince = w.createdAt + 40_000;
  const progressing = s.rolledOut
    ? {
        lastTransitionTime: at(clock, w.createdAt),
        lastUpdateTime: at(clock, w.rolledOutAt ?? t),
        message: `ReplicaSet "${rs?.name ?? w.spec.name}" has successfully progressed.`,
        reason: 'NewReplicaSetAvailable',
        status: 'True',
        type: 'Progressing',
      }
    : {
        lastTransitionTime: at(clock, w.createdAt),
        lastUpdateTime: at(clock, w.appliedAt),
        message: `ReplicaSet "${rs?.name ?? w.spec.name}" is progressing.`,
        reason: 'ReplicaSetUpdated',
        status: 'True',
        type: 'Progressing',
      };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(clock, 'Deployment', w, w.spec.name, w.createdAt, rv, {
      annotations: { 'deployment.kubernetes.io/revision': String(w.revision) },
      generation: w.generation,
    }),
    spec: {
      progressDeadlineSeconds: 600,
      replicas: w.spec.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: selector(w) },
      strategy: {
        rollingUpdate: { maxSurge: w.spec.maxSurge, maxUnavailable: w.spec.maxUnavailable },
        type: 'RollingUpdate',
      },
      template: template(w, w.image, {}),
    },
    status: {
      availableReplicas: s.available,
      conditions: [
        {
          lastTransitionTime: at(clock, availableSince),
          lastUpdateTime: at(clock, availableSince),
          message: 'Deployment has minimum availability.',
          reason: 'MinimumReplicasAvailable',
          status: 'True',
          type: 'Available',
        },
        progressing,
      ],
      observedGeneration: w.observedGeneration,
      readyReplicas: s.ready,
      replicas: s.current,
      ...(s.desired - s.available > 0 ? { unavailableReplicas: s.desired - s.available } : {}),
      updatedReplicas: s.updated,
    },
  };
}

export function replicaSetJson(clock: Clock, w: Workload, rs: ReplicaSetRec, rv: number): Json {
  const s = w.replicaSetStatus(rs, clock.end);
  const labels = { ...selector(w), 'pod-template-hash': rs.hash };
  const surge = scaled(w.spec.maxSurge, w.spec.replicas, true);
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: metadata(clock, 'ReplicaSet', w, rs.name, rs.createdAt, rv, {
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(w.spec.replicas),
        'deployment.kubernetes.io/max-replicas': String(w.spec.replicas + surge),
        'deployment.kubernetes.io/revision': String(rs.revision),
      },
      generation: rs.replicas === 0 && rs.hash !== w.hash ? 2 : 1,
      labels,
      ownerReferences: owner('Deployment', w, w.spec.name),
    }),
    spec: {
      replicas: rs.replicas,
      selector: { matchLabels: labels },
      template: template(w, rs.image, { 'pod-template-hash': rs.hash }),
    },
    status: {
      ...(s.ready > 0 ? { availableReplicas: s.ready, fullyLabeledReplicas: s.replicas } : {}),
      observedGeneration: rs.replicas === 0 && rs.hash !== w.hash ? 2 : 1,
      ...(s.ready > 0 ? { readyReplicas: s.ready } : {}),
      replicas: s.replicas,
    },
  };
}

export function daemonSetJson(clock: Clock, w: Workload, rv: number): Json {
  const s = w.status(clock.end);
  const scheduled = new Set(w.present(clock.end).map((p) => p.node)).size;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: metadata(clock, 'DaemonSet', w, w.spec.name, w.createdAt, rv, {
      annotations: { 'deprecated.daemonset.template.generation': String(w.generation) },
      generation: w.generation,
    }),
    spec: {
      revisionHistoryLimit: 10,
      selector: { matchLabels: selector(w) },
      template: template(w, w.image, {}),
      updateStrategy: {
        rollingUpdate: { maxSurge: 0, maxUnavailable: w.spec.maxUnavailable },
        type: 'RollingUpdate',
      },
    },
    status: {
      currentNumberScheduled: scheduled,
      desiredNumberScheduled: s.desired,
      numberAvailable: s.available,
      numberMisscheduled: 0,
      numberReady: s.ready,
      ...(s.desired - s.available > 0 ? { numberUnavailable: s.desired - s.available } : {}),
      observedGeneration: w.observedGeneration,
      updatedNumberScheduled: s.updated,
    },
  };
}

/** A pod IP in the cluster network (10.128.0.0/14), stable for the pod's name. */
function podIP(name: string): string {
  let h = 0x811c9dc5;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `10.${128 + (h & 3)}.${(h >>> 2) & 255}.${((h >>> 10) % 250) + 3}`;
}

export function podJson(clock: Clock, w: Workload, pod: PodRec, rv: number): Json {
  const t = clock.end;
  const terminating = pod.terminatingAt !== undefined && pod.terminatingAt <= t;
  const started = pod.startedAt !== undefined && pod.startedAt <= t;
  const ready = !terminating && pod.readyAt !== undefined && pod.readyAt <= t;
  const labels: Record<string, string> =
    w.kind === 'Deployment'
      ? { ...selector(w), 'pod-template-hash': pod.hash }
      : {
          ...selector(w),
          'controller-revision-hash': pod.hash,
          'pod-template-generation': String(pod.generation),
        };
  const ownerKind = w.kind === 'Deployment' ? 'ReplicaSet' : 'DaemonSet';
  const readySince = at(clock, ready ? (pod.readyAt as number) : (pod.terminatingAt ?? pod.createdAt));
  const cond = (type: string, status: boolean, since: string): Json => ({
    lastProbeTime: null,
    lastTransitionTime: since,
    status: status ? 'True' : 'False',
    type,
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata(clock, 'Pod', w, pod.name, pod.createdAt, rv, {
      annotations: { 'openshift.io/scc': w.kind === 'Deployment' ? 'restricted' : 'privileged' },
      generateName: `${pod.owner}-`,
      labels,
      ownerReferences: owner(ownerKind, w, pod.owner),
      ...(terminating ? { deletionTimestamp: at(clock, pod.terminatingAt as number) } : {}),
    }),
    spec: {
      containers: [{ image: pod.image, imagePullPolicy: 'IfNotPresent', name: w.spec.container }],
      nodeName: pod.node,
      priorityClassName: 'system-cluster-critical',
    },
    status: {
      conditions: [
        cond('Initialized', true, at(clock, pod.createdAt)),
        cond('Ready', ready, readySince),
        cond('ContainersReady', ready, readySince),
        cond('PodScheduled', true, at(clock, pod.createdAt)),
      ],
      containerStatuses: [
        {
          containerID: `cri-o://${uidFor(`container:${pod.name}`).replaceAll('-', '')}`,
          image: pod.image,
          imageID: pod.image,
          lastState: {},
          name: w.spec.container,
          ready,
          restartCount: 0,
          started,
          state: started
            ? { running: { startedAt: at(clock, pod.startedAt as number) } }
            : { waiting: { reason: 'ContainerCreating' } },
        },
      ],
      phase: started ? 'Running' : 'Pending',
      podIP: podIP(pod.name),
      qosClass: 'Burstable',
      startTime: at(clock, pod.createdAt),
    },
  };
}

/** The four Lists of a run's workloads, in namespace and name order. */
export function workloadLists(
  clock: Clock,
  workloads: readonly Workload[],
): {
  deployments: Json[];
  daemonSets: Json[];
  replicaSets: Json[];
  pods: Json[];
} {
  const sorted = [...workloads].sort((a, b) =>
    a.spec.namespace !== b.spec.namespace
      ? a.spec.namespace < b.spec.namespace
        ? -1
        : 1
      : a.spec.name < b.spec.name
        ? -1
        : a.spec.name > b.spec.name
          ? 1
          : 0,
  );
  // resourceVersions below the model store's (which start at 20,000) would look older than the
  // objects they were written with; these follow them, in List order.
  let rv = 700_000;
  const deployments: Json[] = [];
  const daemonSets: Json[] = [];
  const replicaSets: Json[] = [];
  const pods: Json[] = [];
  for (const w of sorted) {
    if (w.kind === 'Deployment') {
      deployments.push(deploymentJson(clock, w, rv++));
      const sets = [...w.replicaSets].sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const rs of sets) replicaSets.push(replicaSetJson(clock, w, rs, rv++));
    } else {
      daemonSets.push(daemonSetJson(clock, w, rv++));
    }
    const present = w.present(clock.end).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const p of present) pods.push(podJson(clock, w, p, rv++));
  }
  return { deployments, daemonSets, replicaSets, pods };
}
