/**
 * The workloads an operator manages (its operands) and each one's latest rollout placed in time, as
 * `status` and the HTML report show them under their operator (docs/status.md, docs/report.md).
 *
 * An operator's operands are the Deployments and DaemonSets in the namespaces its ClusterOperator lists
 * among its `relatedObjects` (openshift/cluster-version-operator docs/dev/clusteroperator.md; the same
 * namespaces `oc adm inspect clusteroperator/X` gathers).
 *
 * A snapshot keeps only the pods of the revisions still running, so only the latest rollout can be
 * placed: it begins when its first pod was created (for a Deployment, the `ScalingReplicaSet` event
 * that first scaled its ReplicaSet up, when earlier) and finishes when, with every pod updated and
 * available as last seen, the last of its pods became Ready. In between, the updated count at a moment
 * is the number of its pods created by then (kubernetes pkg/controller/deployment and
 * pkg/controller/daemon create one pod per updated replica). The available count is known only as
 * last seen: the pods of the old revision that were still serving are gone from the snapshot.
 */
import type {
  ClusterHistory,
  ClusterOperator,
  Interval,
  KindObject,
  Millis,
  Observed,
  Pod,
  SourceRef,
} from '../model/index.js';
import { formatClock, parseTime } from '../model/index.js';
import { locatorOf } from './locator.js';

type Deployment = KindObject<'Deployment'>;
type DaemonSet = KindObject<'DaemonSet'>;

export type OperandKind = 'Deployment' | 'DaemonSet';

export interface OperandRollout {
  readonly kind: OperandKind;
  readonly namespace: string;
  readonly name: string;
  /** The object key (`Deployment/ns/name`, timeline/locator.ts objectKey). */
  readonly key: string;
  /** Replicas wanted (spec.replicas, or desiredNumberScheduled), as last seen. */
  readonly desired: number;
  /** Updated and available, as last seen (the object's status). */
  readonly updated: number;
  readonly available: number;
  /** The controller has observed the latest generation, as last seen. */
  readonly observed: boolean;
  /** Done as last seen: latest generation observed, every replica updated and available, no old one left. */
  readonly done: boolean;
  /** The revision (pod-template-hash or controller-revision-hash) of the latest rollout, when pods say it. */
  readonly revision?: string;
  /** When the latest rollout began; undefined when no pod or event of it is in the inputs. */
  readonly from?: Millis;
  /** When it finished (its last pod Ready); undefined when not done, or when no pod says when. */
  readonly to?: Millis;
  /** Creation times of the latest revision's pods, sorted: the updated count at a moment. */
  readonly podsCreated: readonly Millis[];
  readonly ref: SourceRef;
}

/** The namespaces an operator lists among its relatedObjects. */
function relatedNamespaces(co: ClusterOperator): Set<string> {
  const out = new Set<string>();
  for (const r of co.status?.relatedObjects ?? []) if (r.resource === 'namespaces') out.add(r.name);
  return out;
}

/** Operator name → its operands' rollouts, by relatedObjects namespace (an operand listed once, first operator wins). */
export function operandsByOperator(history: ClusterHistory): Map<string, OperandRollout[]> {
  const rollouts = operandRollouts(history);
  const byNamespace = new Map<string, OperandRollout[]>();
  for (const r of rollouts) {
    const list = byNamespace.get(r.namespace) ?? [];
    list.push(r);
    byNamespace.set(r.namespace, list);
  }
  const out = new Map<string, OperandRollout[]>();
  const taken = new Set<string>();
  const operators = [...history.objects.clusterOperators].sort((a, b) =>
    a.object.metadata.name < b.object.metadata.name
      ? -1
      : a.object.metadata.name > b.object.metadata.name
        ? 1
        : 0,
  );
  for (const { object: co } of operators) {
    const mine: OperandRollout[] = [];
    for (const ns of [...relatedNamespaces(co)].sort())
      for (const r of byNamespace.get(ns) ?? []) {
        if (taken.has(r.key)) continue;
        taken.add(r.key);
        mine.push(r);
      }
    if (mine.length > 0) out.set(co.metadata.name, mine);
  }
  return out;
}

/** Every Deployment's and DaemonSet's latest rollout, sorted by kind, namespace and name. */
function operandRollouts(history: ClusterHistory): OperandRollout[] {
  const { deployments, daemonSets, pods, events } = history.objects;
  const podsByOwner = new Map<string, Pod[]>();
  for (const { object: p } of pods) {
    for (const o of p.metadata.ownerReferences ?? []) {
      const key = `${o.kind}/${p.metadata.namespace ?? ''}/${o.name}`;
      const list = podsByOwner.get(key) ?? [];
      list.push(p);
      podsByOwner.set(key, list);
    }
  }
  // The first "Scaled up replica set NAME to N" per ReplicaSet: when the deployment controller began it.
  const scaledUp = new Map<string, Millis>();
  for (const { object: e } of events) {
    const subject = e.involvedObject ?? e.regarding;
    if (e.reason !== 'ScalingReplicaSet' || subject?.kind !== 'Deployment') continue;
    const m = /^Scaled up replica set (\S+) to /.exec(e.message ?? e.note ?? '');
    const at = parseTime(e.firstTimestamp) ?? parseTime(e.eventTime) ?? parseTime(e.lastTimestamp);
    if (!m?.[1] || at === undefined) continue;
    const key = `${subject.namespace ?? e.metadata.namespace ?? ''}/${m[1]}`;
    const known = scaledUp.get(key);
    if (known === undefined || at < known) scaledUp.set(key, at);
  }
  const out: OperandRollout[] = [];
  for (const seen of deployments) out.push(deploymentRollout(seen, podsByOwner, scaledUp));
  for (const seen of daemonSets) out.push(daemonSetRollout(seen, podsByOwner));
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function templateImages(
  spec:
    | {
        template?:
          | { spec?: { containers?: { image?: string | undefined }[] | null | undefined } | undefined }
          | undefined;
      }
    | undefined,
): string {
  return (spec?.template?.spec?.containers ?? []).map((c) => c.image ?? '').join(' ');
}

function podImages(p: Pod): string {
  return (p.spec?.containers ?? []).map((c) => c.image ?? '').join(' ');
}

/**
 * The pods of the latest revision: of the revisions the pods carry, the one whose pods run the
 * template's images (the newest created when several do, or when none does).
 */
function latestRevision(
  pods: readonly Pod[],
  label: string,
  images: string,
): { revision?: string; pods: Pod[] } {
  const byRevision = new Map<string, Pod[]>();
  for (const p of pods) {
    const rev = p.metadata.labels?.[label];
    if (rev === undefined) continue;
    const list = byRevision.get(rev) ?? [];
    list.push(p);
    byRevision.set(rev, list);
  }
  let best: { revision: string; pods: Pod[]; matches: boolean; created: number } | undefined;
  for (const [revision, list] of byRevision) {
    const matches = images !== '' && list.some((p) => podImages(p) === images);
    const created = Math.min(
      ...list.map((p) => parseTime(p.metadata.creationTimestamp) ?? Number.POSITIVE_INFINITY),
    );
    if (!best || (matches && !best.matches) || (matches === best.matches && created > best.created))
      best = { revision, pods: list, matches, created };
  }
  return best ? { revision: best.revision, pods: best.pods } : { pods: [] };
}

/** When a pod last became Ready, if it is Ready. */
function readyAt(p: Pod): Millis | undefined {
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' ? parseTime(ready.lastTransitionTime) : undefined;
}

function placed(
  base: Omit<OperandRollout, 'from' | 'to' | 'podsCreated' | 'revision'>,
  latest: { revision?: string; pods: Pod[] },
  began: Millis | undefined,
): OperandRollout {
  const podsCreated = latest.pods
    .map((p) => parseTime(p.metadata.creationTimestamp))
    .filter((t): t is Millis => t !== undefined)
    .sort((a, b) => a - b);
  const firstPod = podsCreated[0];
  const from = began !== undefined && (firstPod === undefined || began < firstPod) ? began : firstPod;
  let to: Millis | undefined;
  if (base.done && latest.pods.length > 0) {
    const ready = latest.pods.map(readyAt);
    if (ready.every((t) => t !== undefined)) to = Math.max(...(ready as Millis[]));
  }
  return {
    ...base,
    ...(latest.revision !== undefined ? { revision: latest.revision } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined && (from === undefined || to >= from) ? { to } : {}),
    podsCreated,
  };
}

function deploymentRollout(
  seen: Observed<Deployment>,
  podsByOwner: ReadonlyMap<string, Pod[]>,
  scaledUp: ReadonlyMap<string, Millis>,
): OperandRollout {
  const d = seen.object;
  const ns = d.metadata.namespace ?? '';
  const s = d.status ?? {};
  const desired = d.spec?.replicas ?? 1;
  const updated = s.updatedReplicas ?? 0;
  const available = s.availableReplicas ?? 0;
  const observed =
    d.metadata.generation === undefined || (s.observedGeneration ?? -1) >= d.metadata.generation;
  // The deployment's pods are owned by its ReplicaSets, named `<deployment>-<pod-template-hash>`.
  const pods: Pod[] = [];
  for (const [key, list] of podsByOwner)
    if (key.startsWith(`ReplicaSet/${ns}/${d.metadata.name}-`)) pods.push(...list);
  const latest = latestRevision(pods, 'pod-template-hash', templateImages(d.spec));
  const began =
    latest.revision !== undefined ? scaledUp.get(`${ns}/${d.metadata.name}-${latest.revision}`) : undefined;
  return placed(
    {
      kind: 'Deployment',
      namespace: ns,
      name: d.metadata.name,
      key: `Deployment/${ns}/${d.metadata.name}`,
      desired,
      updated,
      available,
      observed,
      done: observed && updated >= desired && available >= desired && (s.replicas ?? updated) <= desired,
      ref: seen.ref,
    },
    latest,
    began,
  );
}

function daemonSetRollout(
  seen: Observed<DaemonSet>,
  podsByOwner: ReadonlyMap<string, Pod[]>,
): OperandRollout {
  const d = seen.object;
  const ns = d.metadata.namespace ?? '';
  const s = d.status ?? {};
  const desired = s.desiredNumberScheduled ?? 0;
  const updated = s.updatedNumberScheduled ?? 0;
  const available = s.numberAvailable ?? 0;
  const observed =
    d.metadata.generation === undefined || (s.observedGeneration ?? -1) >= d.metadata.generation;
  const pods = podsByOwner.get(`DaemonSet/${ns}/${d.metadata.name}`) ?? [];
  const latest = latestRevision(pods, 'controller-revision-hash', templateImages(d.spec));
  return placed(
    {
      kind: 'DaemonSet',
      namespace: ns,
      name: d.metadata.name,
      key: `DaemonSet/${ns}/${d.metadata.name}`,
      desired,
      updated,
      available,
      observed,
      done: observed && updated >= desired && available >= desired,
      ref: seen.ref,
    },
    latest,
    undefined,
  );
}

/**
 * The operand at a past moment (status --at), as far as the inputs place its latest rollout: `rolling`
 * from its start until its last pod was Ready (or to the end of the inputs, when it never finished),
 * with the updated count then (its pods created by then); `settled` before it began or after it
 * finished; `unknown` when the rollout is not placed in time (no pod or event of it, or no Ready time).
 */
export function operandAt(
  r: OperandRollout,
  at: Millis,
): { readonly state: 'rolling' | 'settled' | 'unknown'; readonly updated?: number } {
  if (r.from === undefined) return { state: 'unknown' };
  if (at < r.from) return { state: 'settled' };
  if (r.to !== undefined && at >= r.to) return { state: 'settled' };
  if (r.done && r.to === undefined) return { state: 'unknown' };
  return { state: 'rolling', updated: Math.min(r.desired, r.podsCreated.filter((t) => t <= at).length) };
}

/**
 * The rollouts as intervals on their workload's row: one from its start to its end (or to the end of
 * the inputs when it never finished), and an instant per pod of it created, with the updated count it
 * brought. Inferred, as a pool's rollouts are (rollouts.ts): they carry `inferred: true`.
 */
export function operandRolloutIntervals(
  rollouts: readonly OperandRollout[],
  end: Millis | undefined,
): Interval[] {
  const out: Interval[] = [];
  for (const r of rollouts) {
    if (r.from === undefined) continue;
    const locator = locatorOf(r.kind, r.name, r.namespace);
    const what = `${r.kind} ${r.namespace}/${r.name}`;
    const revision = r.revision !== undefined ? ` (revision ${r.revision})` : '';
    const counts = `${r.updated}/${r.desired} updated, ${r.available}/${r.desired} available as last seen`;
    const to = r.to ?? (r.done ? undefined : end);
    if (to !== undefined && to > r.from) {
      out.push({
        from: r.from,
        to,
        level: r.to !== undefined ? 'Info' : 'Warning',
        locator,
        message: {
          reason: 'Rollout',
          humanMessage:
            r.to !== undefined
              ? `${what} rolled out${revision}: began ${formatClock(r.from)}, every pod Ready at ${formatClock(r.to)}; ${counts} (inferred)`
              : `${what} rolling out${revision}: began ${formatClock(r.from)}, not finished by the end of the inputs; ${counts} (inferred)`,
          annotations: {
            rollout: r.to !== undefined ? 'complete' : 'in-progress',
            updated: `${r.updated}/${r.desired}`,
            inferred: 'true',
          },
        },
        source: 'derived:operand-rollout',
        ref: r.ref,
      });
    }
    r.podsCreated.forEach((at, i) => {
      const updated = Math.min(i + 1, r.desired);
      out.push({
        from: at,
        to: at,
        level: 'Info',
        locator,
        message: {
          reason: 'PodCreated',
          humanMessage: `a pod of ${what}'s latest revision${revision} created: ${updated}/${r.desired} updated (inferred)`,
          annotations: { inferred: 'true' },
        },
        source: 'derived:operand-rollout',
        ref: r.ref,
      });
    });
  }
  return out;
}
