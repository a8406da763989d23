import type { ClusterHistory, Interval, KindObject, Millis, Observed, SourceRef } from '../model/index.js';
import { parseTime } from '../model/index.js';
import { eventsWithReason, remembered } from './query.js';

/**
 * The rollout history of every Deployment and DaemonSet the inputs hold: which revisions of its pod
 * template existed and with which images, which pods ran which images, and the timed facts that place
 * its rollouts (docs/rules/operator-level-before-operands.md, "Sources of rollout times"). Nothing here
 * knows a release: which revision is "old" or "new" for an update is the rule's question
 * (invariants/operator-level-before-operands.ts). Every fact keeps the file it came from.
 */

/** One container's image, as a pod template or a pod names it (`container` is '' when only an event named it). */
export interface ContainerImage {
  readonly container: string;
  readonly image: string;
  /** An init container's (`initContainers`): the release's image all the same, run before the others. */
  readonly init?: true;
}

/** One revision of a workload's pod template: a Deployment's ReplicaSet, or a DaemonSet's controller-revision-hash. */
interface WorkloadRevision {
  /** The ReplicaSet's name, or the DaemonSet pods' `controller-revision-hash`. */
  readonly id: string;
  /** Its template's images (a ReplicaSet's template, else those of a pod of the revision); absent when unknown. */
  readonly images?: readonly ContainerImage[];
  /** A ReplicaSet's creationTimestamp: when the template first existed. Unknown for a DaemonSet's revision. */
  readonly createdAt?: Millis;
  /** Its pods as last seen (a ReplicaSet's status.replicas, else its pods in the snapshot). */
  readonly replicas?: number;
  readonly ref?: SourceRef;
}

/** One pod of a workload, as the snapshot and the events show it. */
interface WorkloadPod {
  readonly name: string;
  /** Its revision: the ReplicaSet that owns it, or its `controller-revision-hash`. */
  readonly revision?: string;
  readonly node?: string;
  /** Its containers' images (the snapshot), or the images kubelet pulled for it (`Pulled` events). */
  readonly images: readonly ContainerImage[];
  readonly createdAt?: Millis;
  /** In the last snapshot, and not being deleted. */
  readonly present: boolean;
  /** Its Ready condition's last transition to True, when it is Ready. */
  readonly readySince?: Millis;
  readonly ref?: SourceRef;
}

/**
 * A timed fact about a rollout:
 * - `revision-created`: a ReplicaSet's creationTimestamp;
 * - `scaled-up`, `scaled-down`: the Deployment controller's `ScalingReplicaSet` event (`replicas`: to how many);
 * - `pod-created`, `pod-deleted`: a controller's `SuccessfulCreate`/`SuccessfulDelete` event, origin's
 *   pod lifecycle interval (`Created`, `GracefulDelete`, `Deleted`), or a pod's creationTimestamp;
 * - `pulled`: kubelet's `Pulled` event for a pod, with the image;
 * - `killing`: kubelet's `Killing` event (a container stopped);
 * - `complete`: a Deployment's Progressing condition at `NewReplicaSetAvailable`, its lastUpdateTime
 *   (the last time the controller found the rollout complete: a later drain moves it later).
 */
type RolloutStepKind =
  | 'revision-created'
  | 'scaled-up'
  | 'scaled-down'
  | 'pod-created'
  | 'pod-deleted'
  | 'pulled'
  | 'killing'
  | 'complete';

export interface RolloutStep {
  /** When it first happened (an Event's firstTimestamp); `until` is its last occurrence. */
  readonly at: Millis;
  readonly until: Millis;
  readonly what: RolloutStepKind;
  readonly revision?: string;
  readonly pod?: string;
  readonly replicas?: number;
  readonly image?: string;
  readonly text: string;
  /** `derived:event`, `e2e-intervals`, `snapshot`, ... (the interval's source, or `snapshot`). */
  readonly source: string;
  readonly ref: SourceRef;
}

export type WorkloadKind = 'Deployment' | 'DaemonSet';

/** One workload's rollout history: its template as last seen, its revisions and pods, and its timed steps. */
export interface WorkloadRollout {
  readonly kind: WorkloadKind;
  readonly namespace: string;
  readonly name: string;
  /** `Deployment/ns/name`, the object key intervals and findings use. */
  readonly key: string;
  /** The pod template's images as last seen. */
  readonly images: readonly ContainerImage[];
  /** Applied by the CVO from the release payload (it carries `include.release.openshift.io/` annotations). */
  readonly cvoManaged: boolean;
  /** Replicas wanted, updated and available as last seen (a DaemonSet's desired/updated/available number scheduled). */
  readonly desired: number;
  readonly updated?: number;
  readonly available?: number;
  /** The controller had observed the latest generation when last seen. */
  readonly observed: boolean;
  /** Its rolling update's maxUnavailable (an int or a percentage), when the spec gives one. */
  readonly maxUnavailable?: number | string;
  /** Oldest first where the creation times say so. */
  readonly revisions: readonly WorkloadRevision[];
  readonly pods: readonly WorkloadPod[];
  /** In time order. */
  readonly steps: readonly RolloutStep[];
  readonly ref: SourceRef;
}

/** Which kinds of rollout data the inputs hold at all (what the rule names as missing). */
export interface WorkloadData {
  readonly deployments: boolean;
  readonly daemonSets: boolean;
  readonly replicaSets: boolean;
  readonly pods: boolean;
  /** Events about workloads or their pods (events.json, a must-gather's events, origin's event intervals). */
  readonly events: boolean;
  /** origin's pod lifecycle intervals (e2e-intervals JSON, build-log monitor lines). */
  readonly podIntervals: boolean;
}

export interface WorkloadRollouts {
  readonly workloads: readonly WorkloadRollout[];
  readonly data: WorkloadData;
}

/** Every Deployment's and DaemonSet's rollout history, built once per history. */
export function workloadRollouts(history: ClusterHistory): WorkloadRollouts {
  return remembered(history, 'workload-rollouts', () => build(history));
}

type Deployment = KindObject<'Deployment'>;
type DaemonSet = KindObject<'DaemonSet'>;
type ReplicaSet = KindObject<'ReplicaSet'>;
type Pod = KindObject<'Pod'>;

interface Draft {
  readonly rollout: Omit<WorkloadRollout, 'revisions' | 'pods' | 'steps'>;
  readonly revisions: Map<string, WorkloadRevision>;
  readonly pods: Map<string, PodDraft>;
  readonly steps: RolloutStep[];
}

interface PodDraft {
  name: string;
  revision?: string;
  node?: string;
  images: ContainerImage[];
  createdAt?: Millis;
  present: boolean;
  readySince?: Millis;
  ref?: SourceRef;
}

const CVO_ANNOTATION = 'include.release.openshift.io/';
const SCALED_RE = /Scaled (up|down) replica set (\S+) (?:to|from \d+ to) (\d+)/;
const CREATED_POD_RE = /Created pod: (\S+)/;
const DELETED_POD_RE = /Deleted pod: (\S+)/;
const PULLED_RE = /image "([^"]+)"/;
const PROGRESSED_RE = /ReplicaSet "([^"]+)" has successfully progressed/;
/** A DaemonSet's pod is `<daemonset>-<5 characters>`; a Deployment's `<deployment>-<hash>-<5 characters>`. */
const POD_SUFFIX_RE = /^[a-z0-9]{5}$/;
const HASH_RE = /^[a-z0-9]{1,12}$/;

function build(history: ClusterHistory): WorkloadRollouts {
  const o = history.objects;
  // No workload at all: nothing to join the events and intervals to (and no walk over them).
  if (o.deployments.length === 0 && o.daemonSets.length === 0)
    return {
      workloads: [],
      data: {
        deployments: false,
        daemonSets: false,
        replicaSets: o.replicaSets.length > 0,
        pods: o.pods.length > 0,
        events: false,
        podIntervals: false,
      },
    };
  const drafts = new Map<string, Draft>();
  for (const d of o.deployments) add(drafts, deploymentDraft(d));
  for (const d of o.daemonSets) add(drafts, daemonSetDraft(d));
  const byNamespace = new Map<string, Draft[]>();
  for (const d of drafts.values()) {
    const list = byNamespace.get(d.rollout.namespace);
    if (list) list.push(d);
    else byNamespace.set(d.rollout.namespace, [d]);
  }

  // ReplicaSets: a Deployment's revisions.
  for (const rs of o.replicaSets) {
    const draft = ownerOfReplicaSet(drafts, byNamespace, rs.object);
    if (!draft) continue;
    const createdAt = parseTime(rs.object.metadata.creationTimestamp);
    const images = templateImages(rs.object.spec?.template);
    draft.revisions.set(rs.object.metadata.name, {
      id: rs.object.metadata.name,
      ...(images.length > 0 ? { images } : {}),
      ...(createdAt !== undefined ? { createdAt } : {}),
      replicas: rs.object.status?.replicas ?? 0,
      ref: rs.ref,
    });
    if (createdAt !== undefined)
      draft.steps.push({
        at: createdAt,
        until: createdAt,
        what: 'revision-created',
        revision: rs.object.metadata.name,
        text: `ReplicaSet ${rs.object.metadata.name} created`,
        source: 'snapshot',
        ref: withPath(rs.ref, 'metadata.creationTimestamp'),
      });
  }

  // Pods in the snapshot.
  for (const p of o.pods) {
    const found = ownerOfPod(drafts, byNamespace, p.object);
    if (!found) continue;
    podFromSnapshot(found.draft, found.revision, p);
  }

  // Events (events.json, a must-gather's, origin's event intervals): every source is an interval by now.
  let events = false;
  for (const i of eventsWithReason(history, 'ScalingReplicaSet')) {
    const m = SCALED_RE.exec(i.message.humanMessage);
    const draft = drafts.get(
      `Deployment/${i.locator.keys.namespace ?? ''}/${i.locator.keys.deployment ?? ''}`,
    );
    if (!m?.[2] || !draft) continue;
    events = true;
    draft.steps.push(
      step(i, m[1] === 'up' ? 'scaled-up' : 'scaled-down', { revision: m[2], replicas: Number(m[3]) }),
    );
    if (!draft.revisions.has(m[2])) draft.revisions.set(m[2], { id: m[2] });
  }
  for (const [reason, re, what] of [
    ['SuccessfulCreate', CREATED_POD_RE, 'pod-created'],
    ['SuccessfulDelete', DELETED_POD_RE, 'pod-deleted'],
  ] as const) {
    for (const i of eventsWithReason(history, reason)) {
      const m = re.exec(i.message.humanMessage);
      if (!m?.[1]) continue;
      const ns = i.locator.keys.namespace ?? '';
      const ds = i.locator.keys.daemonset;
      const rs = i.locator.keys.replicaset;
      let draft: Draft | undefined;
      let revision: string | undefined;
      if (ds !== undefined) draft = drafts.get(`DaemonSet/${ns}/${ds}`);
      else if (rs !== undefined) {
        draft = deploymentOfReplicaSetName(byNamespace, ns, rs);
        revision = rs;
      }
      if (!draft) continue;
      events = true;
      const pod = podDraft(draft, m[1]);
      if (revision !== undefined) pod.revision ??= revision;
      if (what === 'pod-created' && pod.createdAt === undefined) pod.createdAt = i.from;
      draft.steps.push(
        step(i, what, { pod: m[1], ...(pod.revision !== undefined ? { revision: pod.revision } : {}) }),
      );
    }
  }
  for (const [reason, what] of [
    ['Pulled', 'pulled'],
    ['Killing', 'killing'],
  ] as const) {
    for (const i of eventsWithReason(history, reason)) {
      const name = i.locator.keys.pod;
      if (name === undefined) continue;
      const found = ownerOfPodName(drafts, byNamespace, i.locator.keys.namespace ?? '', name);
      if (!found) continue;
      events = true;
      const pod = podDraft(found.draft, name);
      if (found.revision !== undefined) pod.revision ??= found.revision;
      let image: string | undefined;
      if (what === 'pulled') {
        image = PULLED_RE.exec(i.message.humanMessage)?.[1];
        if (image !== undefined && !pod.images.some((c) => c.image === image))
          pod.images.push({ container: '', image });
      }
      found.draft.steps.push(
        step(i, what, {
          pod: name,
          ...(pod.revision !== undefined ? { revision: pod.revision } : {}),
          ...(image !== undefined ? { image } : {}),
        }),
      );
    }
  }

  // origin's pod lifecycle intervals (locator type Pod): created, graceful delete, deleted.
  let podIntervals = false;
  for (const i of history.intervals) {
    if (i.locator.type !== 'Pod' || i.source.startsWith('derived:')) continue;
    const reason = i.message.reason || i.message.annotations.reason || '';
    const what =
      reason === 'Created'
        ? 'pod-created'
        : reason === 'GracefulDelete' || reason === 'Deleted'
          ? 'pod-deleted'
          : undefined;
    if (!what) continue;
    const name = i.locator.keys.pod;
    if (name === undefined) continue;
    const found = ownerOfPodName(drafts, byNamespace, i.locator.keys.namespace ?? '', name);
    if (!found) continue;
    podIntervals = true;
    const pod = podDraft(found.draft, name);
    if (found.revision !== undefined) pod.revision ??= found.revision;
    if (what === 'pod-created' && pod.createdAt === undefined) pod.createdAt = i.from;
    found.draft.steps.push(
      step(i, what, { pod: name, ...(pod.revision !== undefined ? { revision: pod.revision } : {}) }),
    );
  }

  // A DaemonSet's revisions are its pods' hashes, with the images of a pod of each.
  for (const d of drafts.values()) {
    if (d.rollout.kind !== 'DaemonSet') continue;
    for (const p of d.pods.values()) {
      if (p.revision === undefined) continue;
      const rev = d.revisions.get(p.revision);
      const images = p.images.length > 0 ? p.images : undefined;
      d.revisions.set(p.revision, {
        id: p.revision,
        ...(rev?.images ? { images: rev.images } : images ? { images } : {}),
        replicas: (rev?.replicas ?? 0) + (p.present ? 1 : 0),
        ...(p.ref ? { ref: p.ref } : {}),
      });
    }
  }

  const workloads: WorkloadRollout[] = [];
  for (const d of drafts.values()) {
    const revisions = [...d.revisions.values()].sort(
      (a, b) => (a.createdAt ?? Number.POSITIVE_INFINITY) - (b.createdAt ?? Number.POSITIVE_INFINITY),
    );
    const pods: WorkloadPod[] = [...d.pods.values()].map((p) => ({
      name: p.name,
      ...(p.revision !== undefined ? { revision: p.revision } : {}),
      ...(p.node !== undefined ? { node: p.node } : {}),
      images: p.images,
      ...(p.createdAt !== undefined ? { createdAt: p.createdAt } : {}),
      present: p.present,
      ...(p.readySince !== undefined ? { readySince: p.readySince } : {}),
      ...(p.ref ? { ref: p.ref } : {}),
    }));
    workloads.push({ ...d.rollout, revisions, pods, steps: d.steps.sort((a, b) => a.at - b.at) });
  }
  return {
    workloads,
    data: {
      deployments: o.deployments.length > 0,
      daemonSets: o.daemonSets.length > 0,
      replicaSets: o.replicaSets.length > 0,
      pods: o.pods.length > 0,
      events,
      podIntervals,
    },
  };
}

function add(drafts: Map<string, Draft>, draft: Draft): void {
  drafts.set(draft.rollout.key, draft);
}

function deploymentDraft(d: Observed<Deployment>): Draft {
  const o = d.object;
  const ns = o.metadata.namespace ?? '';
  const s = o.status ?? {};
  const steps: RolloutStep[] = [];
  const revisions = new Map<string, WorkloadRevision>();
  (s.conditions ?? []).forEach((c, index) => {
    if (c.type !== 'Progressing' || c.status !== 'True' || c.reason !== 'NewReplicaSetAvailable') return;
    const updated = (c as { lastUpdateTime?: unknown }).lastUpdateTime;
    const at = parseTime(updated) ?? parseTime(c.lastTransitionTime);
    const rs = PROGRESSED_RE.exec(c.message ?? '')?.[1];
    if (at === undefined) return;
    steps.push({
      at,
      until: at,
      what: 'complete',
      ...(rs !== undefined ? { revision: rs } : {}),
      text: c.message || 'Progressing NewReplicaSetAvailable',
      source: 'snapshot',
      ref: withPath(d.ref, `status.conditions[${index}]`),
    });
    if (rs !== undefined) revisions.set(rs, { id: rs });
  });
  return {
    rollout: {
      kind: 'Deployment',
      namespace: ns,
      name: o.metadata.name,
      key: `Deployment/${ns}/${o.metadata.name}`,
      images: templateImages(o.spec?.template),
      cvoManaged: cvoManaged(o.metadata.annotations),
      desired: o.spec?.replicas ?? 1,
      ...(s.updatedReplicas !== undefined ? { updated: s.updatedReplicas } : {}),
      ...(s.availableReplicas !== undefined ? { available: s.availableReplicas } : {}),
      observed: o.metadata.generation === undefined || (s.observedGeneration ?? 0) >= o.metadata.generation,
      ...maxUnavailableOf(o.spec?.strategy),
      ref: d.ref,
    },
    revisions,
    pods: new Map(),
    steps,
  };
}

function daemonSetDraft(d: Observed<DaemonSet>): Draft {
  const o = d.object;
  const ns = o.metadata.namespace ?? '';
  const s = o.status ?? {};
  return {
    rollout: {
      kind: 'DaemonSet',
      namespace: ns,
      name: o.metadata.name,
      key: `DaemonSet/${ns}/${o.metadata.name}`,
      images: templateImages(o.spec?.template),
      cvoManaged: cvoManaged(o.metadata.annotations),
      desired: s.desiredNumberScheduled ?? 0,
      ...(s.updatedNumberScheduled !== undefined ? { updated: s.updatedNumberScheduled } : {}),
      ...(s.numberAvailable !== undefined ? { available: s.numberAvailable } : {}),
      observed: o.metadata.generation === undefined || (s.observedGeneration ?? 0) >= o.metadata.generation,
      ...maxUnavailableOf(o.spec?.updateStrategy),
      ref: d.ref,
    },
    revisions: new Map(),
    pods: new Map(),
    steps: [],
  };
}

function maxUnavailableOf(
  strategy:
    | { rollingUpdate?: { maxUnavailable?: number | string | undefined } | null | undefined }
    | undefined,
): { maxUnavailable?: number | string } {
  const v = strategy?.rollingUpdate?.maxUnavailable;
  return v !== undefined ? { maxUnavailable: v } : {};
}

function cvoManaged(annotations: Readonly<Record<string, string>> | null | undefined): boolean {
  return Object.keys(annotations ?? {}).some((k) => k.startsWith(CVO_ANNOTATION));
}

type Containers = readonly { name: string; image?: string | undefined }[] | null | undefined;

/**
 * A pod spec's images: its containers', then its init containers' (an operand whose only change is an
 * init container's image, such as multus-additional-cni-plugins' CNI binaries, still rolls out).
 */
function specImages(
  spec: { containers?: Containers; initContainers?: Containers } | undefined,
): ContainerImage[] {
  const out: ContainerImage[] = [];
  for (const c of spec?.containers ?? []) if (c.image) out.push({ container: c.name, image: c.image });
  for (const c of spec?.initContainers ?? [])
    if (c.image) out.push({ container: c.name, image: c.image, init: true });
  return out;
}

function templateImages(
  template: { spec?: { containers?: Containers; initContainers?: Containers } | undefined } | undefined,
): ContainerImage[] {
  return specImages(template?.spec);
}

/** The Deployment that owns a ReplicaSet: its owner reference, else its name (`<deployment>-<hash>`). */
function ownerOfReplicaSet(
  drafts: Map<string, Draft>,
  byNamespace: Map<string, Draft[]>,
  rs: ReplicaSet,
): Draft | undefined {
  const ns = rs.metadata.namespace ?? '';
  const owner = rs.metadata.ownerReferences?.find((r) => r.kind === 'Deployment');
  if (owner) return drafts.get(`Deployment/${ns}/${owner.name}`);
  return deploymentOfReplicaSetName(byNamespace, ns, rs.metadata.name);
}

function deploymentOfReplicaSetName(
  byNamespace: Map<string, Draft[]>,
  ns: string,
  rs: string,
): Draft | undefined {
  for (const d of byNamespace.get(ns) ?? []) {
    if (d.rollout.kind !== 'Deployment') continue;
    const prefix = `${d.rollout.name}-`;
    if (rs.startsWith(prefix) && HASH_RE.test(rs.slice(prefix.length))) return d;
  }
  return undefined;
}

/** The workload of a pod in the snapshot: its owner references, else its name. */
function ownerOfPod(
  drafts: Map<string, Draft>,
  byNamespace: Map<string, Draft[]>,
  pod: Pod,
): { draft: Draft; revision?: string } | undefined {
  const ns = pod.metadata.namespace ?? '';
  const labels = pod.metadata.labels ?? {};
  for (const r of pod.metadata.ownerReferences ?? []) {
    if (r.kind === 'DaemonSet') {
      const draft = drafts.get(`DaemonSet/${ns}/${r.name}`);
      const hash = labels['controller-revision-hash'];
      if (draft) return hash !== undefined ? { draft, revision: hash } : { draft };
    }
    if (r.kind === 'ReplicaSet') {
      const draft = deploymentOfReplicaSetName(byNamespace, ns, r.name);
      if (draft) return { draft, revision: r.name };
    }
  }
  if ((pod.metadata.ownerReferences ?? []).length > 0) return undefined;
  return ownerOfPodName(drafts, byNamespace, ns, pod.metadata.name);
}

/** The workload of a pod known only by name (an event's): `<daemonset>-xxxxx` or `<deployment>-<hash>-xxxxx`. */
function ownerOfPodName(
  drafts: Map<string, Draft>,
  byNamespace: Map<string, Draft[]>,
  ns: string,
  name: string,
): { draft: Draft; revision?: string } | undefined {
  const cut = name.lastIndexOf('-');
  if (cut <= 0 || !POD_SUFFIX_RE.test(name.slice(cut + 1))) return undefined;
  const head = name.slice(0, cut);
  const known = drafts.get(`DaemonSet/${ns}/${head}`);
  if (known) {
    const pod = known.pods.get(name);
    return pod?.revision !== undefined ? { draft: known, revision: pod.revision } : { draft: known };
  }
  const deployment = deploymentOfReplicaSetName(byNamespace, ns, head);
  return deployment ? { draft: deployment, revision: head } : undefined;
}

function podDraft(draft: Draft, name: string): PodDraft {
  let pod = draft.pods.get(name);
  if (!pod) {
    pod = { name, images: [], present: false };
    draft.pods.set(name, pod);
  }
  return pod;
}

function podFromSnapshot(draft: Draft, revision: string | undefined, p: Observed<Pod>): void {
  const o = p.object;
  const pod = podDraft(draft, o.metadata.name);
  if (revision !== undefined) pod.revision = revision;
  if (o.spec?.nodeName) pod.node = o.spec.nodeName;
  pod.images = specImages(o.spec);
  const created = parseTime(o.metadata.creationTimestamp);
  if (created !== undefined) pod.createdAt = created;
  pod.present =
    !o.metadata.deletionTimestamp && o.status?.phase !== 'Failed' && o.status?.phase !== 'Succeeded';
  const ready = o.status?.conditions?.find((c) => c.type === 'Ready');
  const since = ready?.status === 'True' ? parseTime(ready.lastTransitionTime) : undefined;
  if (since !== undefined) pod.readySince = since;
  pod.ref = p.ref;
  if (created !== undefined)
    draft.steps.push({
      at: created,
      until: created,
      what: 'pod-created',
      pod: o.metadata.name,
      ...(revision !== undefined ? { revision } : {}),
      text: `pod ${o.metadata.name} created${pod.node ? ` on ${pod.node}` : ''}`,
      source: 'snapshot',
      ref: withPath(p.ref, 'metadata.creationTimestamp'),
    });
}

function step(
  i: Interval,
  what: RolloutStepKind,
  extra: { revision?: string; pod?: string; replicas?: number; image?: string },
): RolloutStep {
  return {
    at: i.from,
    until: i.to,
    what,
    ...extra,
    text: i.message.humanMessage || i.message.reason,
    source: i.source,
    ref: i.ref,
  };
}

function withPath(ref: SourceRef, path: string): SourceRef {
  return { ...ref, path: ref.path ? `${ref.path}.${path}` : path };
}
