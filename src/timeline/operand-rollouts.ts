/**
 * The workloads an operator manages (its operands) and each one's latest rollout placed in time, as
 * the invariant operator-level-before-operands, `status` and the HTML report use them
 * (docs/rules/operator-level-before-operands.md, docs/status.md, docs/report.md). Built on the
 * per-workload rollout histories of workload-rollouts.ts.
 *
 * A snapshot keeps only the pods of the revisions still running, so only the latest rollout can be
 * placed: it begins at the first timed fact of its revision (the ReplicaSet created, the
 * `ScalingReplicaSet` event that scaled it up, a pod of it created) and finishes when, with every
 * replica updated and available as last seen, its last-created pod became Ready (and not before its
 * last step: the old revision's last pod deleted or scaled away). In between, the
 * updated count at a moment is the number of its pods created by then (kubernetes
 * pkg/controller/deployment and pkg/controller/daemon create one pod per updated replica). The
 * available count is known only as last seen: the old revision's pods that still served are gone.
 */
import type {
  ClusterHistory,
  ClusterOperator,
  Interval,
  Millis,
  Observed,
  SourceRef,
} from '../model/index.js';
import { formatClock, locatorOf } from '../model/index.js';
import { type WorkloadKind, type WorkloadRollout, workloadRollouts } from './workload-rollouts.js';

/** The workloads an operator manages, and the shared namespaces whose workloads it was not given. */
export interface ManagedWorkloads {
  readonly workloads: readonly WorkloadRollout[];
  readonly namespaces: readonly string[];
  /** Workloads in a namespace several operators name, that no operator names itself: nobody's. */
  readonly shared: number;
}

/**
 * Which operator answers for which workload. An operator names its namespaces (and sometimes its
 * workloads) in status.relatedObjects. A workload named there belongs to the operator that names it.
 * Otherwise it belongs to the one operator naming its namespace; in a namespace several operators
 * name (openshift-machine-api: machine-api, cluster-autoscaler, control-plane-machine-set, ...) a
 * workload no operator names is nobody's: charging it to one of them could charge an operator for
 * another's workload.
 */
export function operandOwnership(
  operators: readonly Observed<ClusterOperator>[],
  workloads: readonly WorkloadRollout[],
): Map<string, ManagedWorkloads> {
  const nsOwners = new Map<string, Set<string>>();
  const named = new Map<string, Set<string>>();
  for (const co of operators) {
    const name = co.object.metadata.name;
    for (const r of co.object.status?.relatedObjects ?? []) {
      if (r.resource === 'namespaces') addTo(nsOwners, r.name, name);
      const kind =
        r.resource === 'deployments' ? 'Deployment' : r.resource === 'daemonsets' ? 'DaemonSet' : undefined;
      if (kind && r.namespace) addTo(named, `${kind}/${r.namespace}/${r.name}`, name);
    }
  }
  const out = new Map<string, ManagedWorkloads>();
  for (const co of operators) {
    const name = co.object.metadata.name;
    const namespaces = [...nsOwners.entries()].filter(([, o]) => o.has(name)).map(([ns]) => ns);
    const mine: WorkloadRollout[] = [];
    let shared = 0;
    for (const w of workloads) {
      const namers = named.get(w.key);
      if (namers) {
        if (namers.has(name)) mine.push(w);
        continue;
      }
      const owners = nsOwners.get(w.namespace);
      if (!owners?.has(name)) continue;
      if (owners.size === 1) mine.push(w);
      else shared += 1;
    }
    out.set(name, { workloads: mine, namespaces, shared });
  }
  return out;
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/** The updated count from a moment on, and what made it so (a ReplicaSet scaled up, a pod created). */
interface OperandUpdate {
  readonly at: Millis;
  readonly updated: number;
  readonly what: string;
}

/** A pod of the latest revision created this long after the rollout's last scaling replaced one. */
const REPLACEMENT_AFTER = 60_000;

/** One operand's latest rollout, placed in time as far as the inputs allow. */
export interface OperandRollout {
  readonly kind: WorkloadKind;
  readonly namespace: string;
  readonly name: string;
  /** The object key (`Deployment/ns/name`, timeline/locator.ts objectKey). */
  readonly key: string;
  /** Replicas wanted, updated and available, as last seen (the object's status). */
  readonly desired: number;
  readonly updated: number;
  readonly available: number;
  /** Done as last seen: latest generation observed, every replica updated and available, no old one left running. */
  readonly done: boolean;
  /** The latest revision: a Deployment's ReplicaSet, a DaemonSet's controller-revision-hash. */
  readonly revision?: string;
  /** When the latest rollout began; undefined when no timed fact of its revision is in the inputs. */
  readonly from?: Millis;
  /** When it finished (its last pod Ready); undefined when not done, or when no pod says when. */
  readonly to?: Millis;
  /**
   * Done as last seen, and every pod of the latest revision (at least `desired` of them) has been
   * Ready since then: the latest of their Ready conditions' lastTransitionTime. What came before it
   * is unknown (a pod may have been restarted in between).
   */
  readonly readySince?: Millis;
  /** When the updated count rose, in time order: the updated count at a moment. */
  readonly updates: readonly OperandUpdate[];
  readonly ref: SourceRef;
}

/** Operator name → its operands' latest rollouts (operators with none left out), by operandOwnership. */
export function operandsByOperator(history: ClusterHistory): Map<string, OperandRollout[]> {
  const owners = operandOwnership(history.objects.clusterOperators, workloadRollouts(history).workloads);
  const out = new Map<string, OperandRollout[]>();
  for (const [operator, managed] of [...owners].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const list = managed.workloads
      .map(latestRollout)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    if (list.length > 0) out.set(operator, list);
  }
  return out;
}

const sameImages = (a: readonly { image: string }[], b: readonly { image: string }[]): boolean =>
  a.length > 0 && a.length === b.length && a.every((c, i) => c.image === b[i]?.image);

function latestRollout(w: WorkloadRollout): OperandRollout {
  // The latest revision: the one whose template runs the workload's images as last seen (the newest
  // of those), else the newest revision known.
  const revisions = [...w.revisions];
  const matching = revisions.filter((r) => r.images !== undefined && sameImages(r.images, w.images));
  const latest = (matching.length > 0 ? matching : revisions).at(-1);
  const pods = latest === undefined ? [] : w.pods.filter((p) => p.revision === latest.id);
  const updated = w.updated ?? 0;
  const available = w.available ?? 0;
  const oldLeft = revisions.some((r) => r !== latest && (r.replicas ?? 0) > 0);
  const done = w.observed && updated >= w.desired && available >= w.desired && !oldLeft;
  const times: Millis[] = [];
  if (latest?.createdAt !== undefined) times.push(latest.createdAt);
  for (const s of w.steps)
    if (
      s.revision === latest?.id &&
      (s.what === 'scaled-up' || s.what === 'pod-created' || s.what === 'revision-created')
    )
      times.push(s.at);
  const podsCreated = pods
    .map((p) => p.createdAt)
    .filter((t): t is Millis => t !== undefined)
    .sort((a, b) => a - b);
  const from = times.length > 0 || podsCreated.length > 0 ? Math.min(...times, ...podsCreated) : undefined;

  // A Deployment's controller records its rollout itself: each "Scaled up replica set X to N" of the
  // latest ReplicaSet is N updated replicas from then on, and the rollout's last scaling (of it, or of
  // an old one down) bounds it. A pod of the latest revision created well after that replaced one (a
  // drain, an eviction) and is no part of the rollout. Without those events, each pod of the latest
  // revision created is one more updated replica (a DaemonSet's pods are not replaced by a drain).
  const scaleUps = w.steps.filter(
    (s) => s.revision === latest?.id && s.what === 'scaled-up' && s.replicas !== undefined,
  );
  let updates: OperandUpdate[];
  let rolloutPods = pods;
  let lastScale: Millis | undefined;
  if (w.kind === 'Deployment' && scaleUps.length > 0 && from !== undefined) {
    updates = scaleUps.map((s) => ({
      at: s.at,
      updated: Math.min(s.replicas ?? 0, w.desired),
      what: `scaled up to ${s.replicas ?? 0}`,
    }));
    for (const s of w.steps)
      if (
        s.at >= from &&
        ((s.revision === latest?.id && s.what === 'scaled-up') ||
          (s.revision !== latest?.id && s.what === 'scaled-down')) &&
        (lastScale === undefined || s.at > lastScale)
      )
        lastScale = s.at;
    const bound = (lastScale ?? from) + REPLACEMENT_AFTER;
    rolloutPods = pods.filter((p) => p.createdAt !== undefined && p.createdAt <= bound);
  } else {
    updates = podsCreated.map((at, i) => ({
      at,
      updated: Math.min(i + 1, w.desired),
      what: 'a pod of it created',
    }));
  }

  // It finished when its last pod became Ready, and not before the last step of it (the old
  // revision's last pod deleted, scaled to zero). Only the last-created pod's Ready counts: a node's
  // reboot or drain later moves the other pods' last Ready transition past the rollout's end.
  let to: Millis | undefined;
  const last = rolloutPods
    .filter((p) => p.createdAt !== undefined)
    .sort((a, b) => (a.createdAt as Millis) - (b.createdAt as Millis))
    .at(-1);
  const lastReady = last?.present ? last.readySince : undefined;
  if (done && from !== undefined && (lastReady !== undefined || lastScale !== undefined)) {
    to = Math.max(lastReady ?? Number.NEGATIVE_INFINITY, lastScale ?? Number.NEGATIVE_INFINITY);
    if (lastScale === undefined)
      for (const s of w.steps) {
        if (s.at < from) continue;
        const ours = s.revision === latest?.id && s.what === 'pod-created';
        const old = s.revision !== latest?.id && (s.what === 'scaled-down' || s.what === 'pod-deleted');
        if ((ours || old) && s.at > to) to = s.at;
      }
  }
  const present = pods.filter((p) => p.present);
  const readyTimes = present.map((p) => p.readySince).filter((t): t is Millis => t !== undefined);
  const readySince =
    done && present.length > 0 && present.length >= w.desired && readyTimes.length === present.length
      ? Math.max(...readyTimes)
      : undefined;
  return {
    kind: w.kind,
    namespace: w.namespace,
    name: w.name,
    key: w.key,
    desired: w.desired,
    updated,
    available,
    done,
    ...(latest !== undefined ? { revision: latest.id } : {}),
    ...(readySince !== undefined ? { readySince } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined && (from === undefined || to >= from) ? { to } : {}),
    updates,
    ref: w.ref,
  };
}

/**
 * The operand at a past moment (status --at), as far as the inputs place its latest rollout: `rolling`
 * from its start until its last pod was Ready (or to the end of the inputs, when it never finished),
 * with the updated count then (its pods created by then); `settled` before it began or after it
 * finished; `unknown` when the rollout is not placed in time (no timed fact of it, or no Ready time).
 */
export function operandAt(
  r: OperandRollout,
  at: Millis,
): { readonly state: 'rolling' | 'settled' | 'unknown'; readonly updated?: number } {
  if (r.from === undefined) return { state: 'unknown' };
  if (at < r.from) return { state: 'settled' };
  if (r.to !== undefined && at >= r.to) return { state: 'settled' };
  if (r.done && r.to === undefined) return { state: 'unknown' };
  let updated = 0;
  for (const u of r.updates) if (u.at <= at) updated = u.updated;
  return { state: 'rolling', updated };
}

/** `ReplicaSet apiserver-6b7c8d9f5` or `revision 7f6d5c8b9`: how a rollout's revision reads. */
function revisionText(r: OperandRollout): string {
  if (r.revision === undefined) return '';
  return r.kind === 'Deployment' ? ` (ReplicaSet ${r.revision})` : ` (revision ${r.revision})`;
}

/**
 * The rollouts as intervals on their workload's row: one from its start to its end (or to the end of
 * the inputs when it never finished), and an instant per pod of it created, with the updated count it
 * brought. Inferred, as a pool's rollouts are (rollouts.ts): they carry `inferred: true`.
 *
 * A DaemonSet has no status conditions (kubernetes pkg/controller/daemon sets none), so nothing else
 * says how it stood after its rollout: it also gets an interval from the time every pod of its latest
 * revision has been Ready (OperandRollout.readySince) to the end of the inputs. A Deployment's
 * Available condition already says that from its own lastTransitionTime (derive.ts).
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
    const revision = revisionText(r);
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
    const settled = r.readySince === undefined ? undefined : Math.max(r.readySince, r.to ?? r.readySince);
    if (r.kind === 'DaemonSet' && settled !== undefined && end !== undefined && end > settled) {
      out.push({
        from: settled,
        to: end,
        level: 'Info',
        locator,
        message: {
          reason: 'PodsReady',
          humanMessage: `${what}${revision}: every pod Ready since ${formatClock(settled)} (the latest of their Ready conditions' lastTransitionTime; before it unknown); ${counts} (inferred)`,
          annotations: { rollout: 'settled', ready: `${r.available}/${r.desired}`, inferred: 'true' },
        },
        source: 'derived:operand-rollout',
        ref: r.ref,
      });
    }
    for (const u of r.updates) {
      out.push({
        from: u.at,
        to: u.at,
        level: 'Info',
        locator,
        message: {
          reason: 'RolloutStep',
          humanMessage: `${what}${revision}: ${u.what}: ${u.updated}/${r.desired} updated (inferred)`,
          annotations: { inferred: 'true' },
        },
        source: 'derived:operand-rollout',
        ref: r.ref,
      });
    }
  }
  return out;
}
