import type { ClusterHistory } from '../model/index.js';
import { formatTime, type Millis, parseTime } from '../model/index.js';
import { remembered, watchedReach } from './query.js';
import { findUpdates } from './updates.js';

/** An object whose own timestamp falls outside the update window: context, never part of the span. */
interface OutsideWindow {
  /** `MachineConfig/rendered-master-…`. */
  readonly object: string;
  readonly at: Millis;
  /** `metadata.creationTimestamp`, `status.conditions[Updated]`. */
  readonly field: string;
}

export interface UpdateWindow {
  readonly from: Millis;
  readonly to: Millis;
  /** The objects dated outside [from, to], oldest first. */
  readonly outside: readonly OutsideWindow[];
}

/**
 * The window the inputs speak of, from ClusterVersion history and what was watched while it ran: from
 * the newest update's start (the installation's, when history holds no update) or the first monitor
 * or test-log line, whichever is earlier, to the latest of its completion, the snapshot's latest
 * ClusterVersion or ClusterOperator condition change, and the last monitor, event or test-log line.
 * On a hosted cluster's management side, from the HostedCluster's newest version entry and what dates
 * its NodePools' latest rollouts (after the previous entry completed): a NodePool is updated on its
 * own, often after the guest's version completed. A MachineConfig created a year later (an example
 * assembled from two clusters' files) does not stretch it; it is listed in `outside`. Undefined when nothing in the inputs dates the update;
 * callers then fall back to the history's span.
 */
export function updateWindow(history: ClusterHistory): UpdateWindow | undefined {
  return remembered(history, 'update window', () => windowOf(history));
}

function windowOf(history: ClusterHistory): UpdateWindow | undefined {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  const see = (t: Millis | undefined, end = true): void => {
    if (t === undefined) return;
    if (t < from) from = t;
    if (end && t > to) to = t;
  };
  const updates = findUpdates(history);
  const newest = updates[updates.length - 1];
  const cv = history.objects.clusterVersions[0]?.object;
  const entries = cv?.status?.history ?? [];
  const install = entries[entries.length - 1];
  if (newest) {
    see(newest.startedAt);
    see(newest.completedAt);
  } else if (install) {
    see(parseTime(install.startedTime));
    see(parseTime(install.completionTime));
  } else {
    // A hosted cluster has no ClusterVersion on the management side: its HostedCluster's newest
    // version entry is the update (docs/hosted.md).
    let before = Number.NEGATIVE_INFINITY;
    for (const hc of history.objects.hostedClusters) {
      const [entry, previous] = hc.object.status?.version?.history ?? [];
      see(parseTime(entry?.startedTime));
      see(parseTime(entry?.completionTime));
      const done = parseTime(previous?.completionTime);
      if (done !== undefined && done > before) before = done;
    }
    // The NodePools roll out on their own (a NodePool's release is bumped apart from the control
    // plane's, often after the guest CVO completed): what dates their latest rollouts, after the
    // previous update completed, is part of the window, so a NodePool finding is inside it.
    for (const t of nodePoolRolloutTimes(history)) if (t > before) see(t);
  }
  // Every monitor and event interval's from and to (not those derived from the objects' fields):
  // their earliest and latest, which the history's index keeps.
  const reach = watchedReach(history);
  if (reach.from < from) from = reach.from;
  if (reach.to > to) to = reach.to;
  for (const e of history.testLog) see(e.at);
  // The snapshot's own moment: the latest condition change of the ClusterVersion and operators.
  // A hosted cluster's management side: its HostedClusters' and ControlPlaneComponents' (the
  // ClusterVersion's and operators' counterparts there), so an update in progress reaches the snapshot.
  const conditions = [
    ...(cv?.status?.conditions ?? []),
    ...history.objects.clusterOperators.flatMap((o) => o.object.status?.conditions ?? []),
    ...(cv
      ? []
      : [
          ...history.objects.hostedClusters.flatMap((o) => o.object.status?.conditions ?? []),
          ...history.objects.controlPlaneComponents.flatMap((o) => o.object.status?.conditions ?? []),
        ]),
  ];
  let latestCondition: Millis | undefined;
  for (const c of conditions) {
    const t = parseTime(c.lastTransitionTime);
    if (t !== undefined && (latestCondition === undefined || t > latestCondition)) latestCondition = t;
  }
  if (latestCondition !== undefined && latestCondition > to) to = latestCondition;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return undefined;
  if (to < from) to = from;

  const outside: OutsideWindow[] = [];
  const check = (object: string, field: string, value: unknown): void => {
    const t = parseTime(value);
    if (t !== undefined && (t < from || t > to)) outside.push({ object, at: t, field });
  };
  for (const mc of history.objects.machineConfigs) {
    check(
      `MachineConfig/${mc.object.metadata.name}`,
      'metadata.creationTimestamp',
      mc.object.metadata.creationTimestamp,
    );
  }
  for (const p of history.objects.machineConfigPools) {
    for (const c of p.object.status?.conditions ?? [])
      check(
        `MachineConfigPool/${p.object.metadata.name}`,
        `status.conditions[${c.type}]`,
        c.lastTransitionTime,
      );
  }
  for (const n of history.objects.nodes) {
    for (const c of n.object.status?.conditions ?? [])
      check(`Node/${n.object.metadata.name}`, `status.conditions[${c.type}]`, c.lastTransitionTime);
  }
  outside.sort((a, b) => a.at - b.at);
  return { from, to, outside };
}

/**
 * What dates a NodePool's rollout on the management side: its conditions' transitions (UpdatingVersion,
 * UpdatingConfig, ...), its Machines' creation and condition transitions, its MachineSets' creation.
 */
function nodePoolRolloutTimes(history: ClusterHistory): Millis[] {
  const out: Millis[] = [];
  const add = (v: string | null | undefined) => {
    const t = parseTime(v);
    if (t !== undefined) out.push(t);
  };
  const objs = history.objects;
  for (const np of objs.nodePools)
    for (const c of np.object.status?.conditions ?? []) add(c.lastTransitionTime);
  for (const m of objs.machines) {
    add(m.object.metadata.creationTimestamp);
    for (const c of m.object.status?.conditions ?? []) add(c.lastTransitionTime);
  }
  for (const ms of objs.machineSets) add(ms.object.metadata.creationTimestamp);
  return out;
}

/** One note for the objects dated after the window (those before it are the install's, and expected). */
export function windowNote(w: UpdateWindow): string | undefined {
  const after = w.outside.filter((o) => o.at > w.to);
  const first = after[0];
  if (!first) return undefined;
  const objects = new Set(after.map((o) => o.object));
  return `${objects.size} object${objects.size === 1 ? ' is' : 's are'} dated after the update window (${formatTime(w.from)} to ${formatTime(w.to)}, from ClusterVersion history and the monitored run), e.g. ${first.object} ${first.field} ${formatTime(first.at)}: kept as context; they do not stretch the analysed span`;
}
