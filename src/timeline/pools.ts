import type { ClusterHistory, MachineConfig, MachineConfigPool, SourceRef } from '../model/index.js';
import { formatClock, MCO, type Millis, parseTime } from '../model/index.js';
import { conditionTransitions, eventsWithReason, remembered } from './query.js';

export interface RenderedConfig {
  readonly name: string;
  readonly createdAt: Millis;
  readonly releaseImageVersion?: string;
  readonly controllerVersion?: string;
  readonly osImageURL?: string;
  readonly object: MachineConfig;
  readonly ref: SourceRef;
}

/** A direct record of the pool's conditions at a moment (a monitor line, a snapshot, the test's poll). */
export interface PoolObservation {
  readonly at: Millis;
  readonly updated?: boolean;
  readonly updating?: boolean;
  readonly degraded?: boolean;
  /** A condition transition: the status changed at this moment, so it was different just before. */
  readonly transition?: boolean;
  readonly text: string;
  readonly ref: SourceRef;
}

/** What can be said of a pool at one moment, and why. */
export interface PoolState {
  readonly updated: boolean | undefined;
  readonly updating: boolean | undefined;
  readonly degraded: boolean | undefined;
  /** spec.configuration: the rendered config the pool was rolling to (or sitting on). */
  readonly target?: RenderedConfig;
  /** status.configuration: the rendered config every node had reached. */
  readonly current?: RenderedConfig;
  /** Sentences saying how this was established. */
  readonly reasoning: readonly string[];
  /** The nearest direct observation at or after the moment (the test's poll, a monitor line). */
  readonly nextObservation?: PoolObservation;
  /**
   * True when `updated` is an assumption, not evidence: no observation near the moment, only a later
   * config that superseded the target. Good enough to draw the pool; never enough to pass a rule.
   */
  readonly assumed?: true;
}

/** Everything known about one MachineConfigPool over time. */
export interface PoolHistory {
  readonly name: string;
  readonly pool?: { readonly object: MachineConfigPool; readonly ref: SourceRef };
  /** rendered-<pool>-* configs, oldest first. */
  readonly rendered: readonly RenderedConfig[];
  readonly observations: readonly PoolObservation[];
  /** Moments the pool became Updated=True, oldest first. */
  readonly finishes: readonly PoolObservation[];
}

export function renderedConfigs(history: ClusterHistory, pool: string): RenderedConfig[] {
  const prefix = `rendered-${pool}-`;
  const out: RenderedConfig[] = [];
  for (const { object, ref } of history.objects.machineConfigs) {
    const name = object.metadata.name;
    const owner = object.metadata.ownerReferences?.find((o) => o.kind === 'MachineConfigPool')?.name;
    if (!(owner === pool || (owner === undefined && name.startsWith(prefix)))) continue;
    if (!name.startsWith('rendered-')) continue;
    const createdAt = parseTime(object.metadata.creationTimestamp);
    if (createdAt === undefined) continue;
    const a = object.metadata.annotations ?? {};
    out.push({
      name,
      createdAt,
      ...(a[MCO.releaseImageVersion] ? { releaseImageVersion: a[MCO.releaseImageVersion] } : {}),
      ...(a[MCO.generatedByControllerVersion]
        ? { controllerVersion: a[MCO.generatedByControllerVersion] }
        : {}),
      ...(object.spec?.osImageURL ? { osImageURL: object.spec.osImageURL } : {}),
      object,
      ref,
    });
  }
  return out.sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
}

export function poolHistory(history: ClusterHistory, name: string): PoolHistory {
  return remembered(history, `pool\u0000${name}`, () => poolHistoryOf(history, name));
}

function poolHistoryOf(history: ClusterHistory, name: string): PoolHistory {
  const pool = history.objects.machineConfigPools.find((p) => p.object.metadata.name === name);
  const key = `MachineConfigPool/${name}`;
  const observations: PoolObservation[] = [];
  for (const type of ['Updated', 'Updating', 'Degraded'] as const) {
    for (const tr of conditionTransitions(history, key, type)) {
      const value = tr.status === 'True';
      observations.push({
        at: tr.at,
        ...(type === 'Updated'
          ? { updated: value }
          : type === 'Updating'
            ? { updating: value }
            : { degraded: value }),
        transition: true,
        text: `${type}=${tr.status}${tr.message ? ` (${tr.message})` : ''}`,
        ref: tr.ref,
      });
    }
  }
  for (const e of history.testLog) {
    if (e.kind === 'pool-status' && e.pool === name) {
      observations.push({
        at: e.at,
        updated: e.updated,
        updating: e.updating,
        degraded: e.degraded,
        text: `the upgrade test saw Updated=${e.updated}, Updating=${e.updating}, Degraded=${e.degraded}${e.paused ? ' (paused)' : ''}`,
        ref: e.ref,
      });
    } else if (e.kind === 'pools-completed') {
      observations.push({
        at: e.at,
        updated: true,
        updating: false,
        degraded: false,
        text: 'the upgrade test saw all pools complete',
        ref: e.ref,
      });
    }
  }
  observations.push(...nodesDone(history, name, pool?.object.status?.machineCount));
  observations.sort((a, b) => a.at - b.at);
  return {
    name,
    ...(pool ? { pool } : {}),
    rendered: renderedConfigs(history, name),
    observations,
    finishes: firstOfRuns(observations),
  };
}

const NODE_DONE_RE = /^Setting node (\S+), currentConfig (\S+) to Done/;
/** The node controller's sync delay plus margin: the pool reports Updated this soon after its last node. */
const POOL_FOLLOWS_NODES_MS = 10_000;

/**
 * The daemon's NodeDone events ("Setting node N, currentConfig C to Done", docs/domain.md 4.2): once
 * every node of the pool reported Done on one of its rendered configs, the node controller turns the
 * pool Updated at its next sync (2.4). One observation per config, placed POOL_FOLLOWS_NODES_MS after
 * the last node's event so it never claims the pool updated before it could have been. A later
 * snapshot may have overwritten the pool's conditions (a day-2 rollout): these events remain.
 */
function nodesDone(
  history: ClusterHistory,
  pool: string,
  machineCount: number | undefined,
): PoolObservation[] {
  if (machineCount === undefined || machineCount <= 0) return [];
  const prefix = `rendered-${pool}-`;
  const byConfig = new Map<string, { nodes: Set<string>; last: Millis; ref: SourceRef }>();
  for (const e of eventsWithReason(history, 'NodeDone')) {
    const m = NODE_DONE_RE.exec(e.message.humanMessage);
    const node = m?.[1];
    const config = m?.[2];
    if (!node || !config?.startsWith(prefix)) continue;
    const seen = byConfig.get(config) ?? { nodes: new Set<string>(), last: e.from, ref: e.ref };
    seen.nodes.add(node);
    if (e.from >= seen.last) {
      seen.last = e.from;
      seen.ref = e.ref;
    }
    byConfig.set(config, seen);
  }
  const out: PoolObservation[] = [];
  for (const [config, seen] of byConfig) {
    if (seen.nodes.size < machineCount) continue;
    out.push({
      at: seen.last + POOL_FOLLOWS_NODES_MS,
      updated: true,
      updating: false,
      text: `every ${pool} node (${seen.nodes.size}) reported Done on ${config} by ${formatClock(seen.last)} (the daemons' NodeDone events)`,
      ref: seen.ref,
    });
  }
  return out;
}

/**
 * The moments the pool finished a rollout: the first "updated" observation of each run of them. A
 * transition to Updated=True starts a new run even inside one, because it proves the pool was not
 * updated just before: an earlier "updated" poll then saw the pool before it noticed its new config.
 */
function firstOfRuns(observations: readonly PoolObservation[]): PoolObservation[] {
  const out: PoolObservation[] = [];
  let inRun = false;
  for (const o of observations) {
    if (o.updated === true && o.updating !== true) {
      if (!inRun || o.transition === true) out.push(o);
      inRun = true;
    } else if (o.updated === false || o.updating === true) {
      inRun = false;
    }
  }
  return out;
}

/** The rendered config the pool targeted at `t`: the newest one created by then. */
export function targetAt(ph: PoolHistory, t: Millis): RenderedConfig | undefined {
  let found: RenderedConfig | undefined;
  for (const r of ph.rendered) {
    if (r.createdAt <= t) found = r;
    else break;
  }
  return found;
}

/**
 * The pool's state at `t`. Direct observations at or before `t` win when they are recent; otherwise
 * the state is inferred from two facts the MCO guarantees (docs/domain.md 2.4): a new rendered config makes
 * the pool Updated=False from the moment it targets it, and Updated=True comes back only when every
 * node runs it.
 */
export function poolStateAt(ph: PoolHistory, t: Millis): PoolState {
  const reasoning: string[] = [];
  const target = targetAt(ph, t);
  const nextObservation = ph.observations.find((o) => o.at >= t);
  const paused = ph.pool?.object.spec?.paused === true;
  const previous = target ? ph.rendered[ph.rendered.indexOf(target) - 1] : undefined;
  // A direct observation made after the target appeared beats any inference.
  const seen = [...ph.observations]
    .reverse()
    .find(
      (o) =>
        o.at <= t &&
        (!target || o.at >= target.createdAt) &&
        (o.updated !== undefined || o.updating !== undefined),
    );
  let updated: boolean | undefined;
  let updating: boolean | undefined;
  let current: RenderedConfig | undefined;
  let assumed = false;
  const finish = target ? finishedRollout(ph, target) : undefined;
  if (seen) {
    // Conditions of one status write share a time (Updated=True and Updating=False at 03:35:52):
    // read them together, or the one listed last hides the other.
    const same = ph.observations.filter((o) => o.at === seen.at);
    const seenUpdated = same.find((o) => o.updated !== undefined)?.updated;
    const seenUpdating = same.find((o) => o.updating !== undefined)?.updating;
    updated = seenUpdated ?? (seenUpdating === true ? false : undefined);
    updating = seenUpdating ?? (seenUpdated === true ? false : undefined);
    reasoning.push(`last observed at ${formatClock(seen.at)}: ${seen.text}`);
  } else if (target && finish && finish.at > t) {
    // The finish proves the pool was not Updated before it only when it is a transition (the
    // condition turned True then). A poll that sees it Updated (the upgrade test's) says nothing of
    // when it got there: the pool may have finished long before. Then only a later observation of
    // it still rolling out places `t` inside the rollout.
    const stillRolling = finish.transition
      ? undefined
      : ph.observations.find(
          (o) => o.at >= t && o.at < finish.at && (o.updated === false || o.updating === true),
        );
    if (finish.transition) {
      updated = false;
      updating = !paused;
      reasoning.push(
        `${target.name} was created at ${formatClock(target.createdAt)} and the pool reported Updated only at ${formatClock(finish.at)}, so it was rolling out in between`,
      );
    } else if (stillRolling) {
      updated = false;
      updating = !paused;
      reasoning.push(
        `${target.name} was created at ${formatClock(target.createdAt)} and the pool was still rolling out at ${formatClock(stillRolling.at)}: ${stillRolling.text}`,
      );
    } else {
      reasoning.push(
        `${target.name} was created at ${formatClock(target.createdAt)} and the pool was first seen Updated at ${formatClock(finish.at)} (${finish.text}); when in between it finished, the inputs do not say`,
      );
    }
  } else if (target && finish) {
    updated = true;
    updating = false;
    reasoning.push(`the pool finished rolling out ${target.name} at ${formatClock(finish.at)}`);
  } else if (target && ph.rendered[ph.rendered.indexOf(target) + 1]) {
    // Superseded before any observation: the inputs only show later rollouts. Rollouts are serial, so
    // assume the earlier one had finished, and say so.
    updated = true;
    updating = false;
    assumed = true;
    reasoning.push(
      `no observation of the pool around ${formatClock(t)}; assuming it was settled on ${target.name}`,
    );
  } else if (target && ph.finishes.some((f) => f.at < target.createdAt)) {
    updated = false;
    updating = !paused;
    reasoning.push(
      `${target.name} was created at ${formatClock(target.createdAt)} and the pool never reported Updated after it`,
    );
  }
  if (updated === true) current = target;
  else if (updated === false) current = previous;
  const degradedObs = [...ph.observations].reverse().find((o) => o.at <= t && o.degraded !== undefined);
  return {
    updated,
    updating,
    degraded: degradedObs?.degraded,
    ...(target ? { target } : {}),
    ...(current ? { current } : {}),
    reasoning,
    ...(nextObservation ? { nextObservation } : {}),
    ...(assumed ? { assumed: true as const } : {}),
  };
}

/**
 * When the pool finished rolling out `config`: the last finish before the next config appeared (an
 * earlier one in the same window was a poll that came before the pool flipped to Updating).
 */
export function finishedRollout(ph: PoolHistory, config: RenderedConfig): PoolObservation | undefined {
  const next = ph.rendered[ph.rendered.indexOf(config) + 1];
  let found: PoolObservation | undefined;
  for (const f of ph.finishes) {
    if (f.at >= config.createdAt && (!next || f.at < next.createdAt)) found = f;
  }
  return found;
}
