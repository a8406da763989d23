/**
 * The objects of a history as they were at one moment, for serving. This is serve's own rewind,
 * built on the last snapshot and the timeline (timeline/query.ts, timeline/pools.ts): condition
 * statuses from their recorded transitions, ClusterVersion history entries by their times,
 * ClusterOperator versions from their recorded changes, pool state and node config annotations from
 * the rollout evidence. Objects created after the moment are left out. What cannot be rewound is
 * served as last seen and named in the `atlevel.io/not-rewound` annotation, so a client is never
 * told more than the evidence shows.
 */
import type { ClusterHistory, Observed } from '../model/history.js';
import { MCO } from '../model/objects.js';
import { type Millis, parseTime } from '../model/time.js';
import { type PoolHistory, poolHistory, poolStateAt } from '../timeline/pools.js';
import { conditionTransitions, intervalsOf, versionChanges } from '../timeline/query.js';

export const NOT_REWOUND = 'atlevel.io/not-rewound';
export const REWOUND_TO = 'atlevel.io/rewound-to';

type Loose = Record<string, unknown>;

export interface KindObject {
  readonly kind: string;
  readonly apiVersion: string | undefined;
  readonly object: Loose & { metadata: Loose & { name: string; namespace?: string } };
}

/** RFC 3339 at second precision, as the API server writes metav1.Time. */
export function kubeTime(ms: Millis): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function createdAt(o: { metadata: Loose }): Millis | undefined {
  return parseTime(o.metadata.creationTimestamp);
}

function annotate(o: Loose & { metadata: Loose }, notRewound: readonly string[]): void {
  if (notRewound.length === 0) return;
  const annotations = { ...((o.metadata.annotations as Loose | undefined) ?? {}) };
  annotations[NOT_REWOUND] = [...new Set(notRewound)].join(', ');
  o.metadata.annotations = annotations;
}

interface Cond {
  type: string;
  status: string;
  lastTransitionTime?: string | null | undefined;
  reason?: string | null | undefined;
  message?: string | null | undefined;
  [k: string]: unknown;
}

/**
 * Rewind each condition to its status at `t`: the last recorded transition at or before `t`; before
 * the first recorded transition of a True/False condition, the other status (a transition is a
 * change), with reason and message unknown.
 */
function rewindConditions(
  history: ClusterHistory,
  key: string,
  conds: Cond[],
  t: Millis,
  missing: string[],
): Cond[] {
  const out: Cond[] = [];
  for (const c of conds) {
    const trs = conditionTransitions(history, key, c.type);
    let before: (typeof trs)[number] | undefined;
    for (const tr of trs) if (tr.at <= t) before = tr;
    if (before) {
      const same = before.status === c.status && parseTime(c.lastTransitionTime) === before.at;
      out.push({
        ...c,
        status: before.status,
        lastTransitionTime: kubeTime(before.at),
        reason: same ? c.reason : before.reason || c.reason,
        message: same ? c.message : before.message || c.message,
      });
      continue;
    }
    const after = trs[0];
    const since = parseTime(c.lastTransitionTime);
    if (
      after &&
      (c.status === 'True' || c.status === 'False' || after.status === 'True' || after.status === 'False')
    ) {
      const status = after.status === 'True' ? 'False' : 'True';
      const { lastTransitionTime: _ltt, reason: _r, message: _m, ...rest } = c;
      out.push({ ...rest, status });
      missing.push(
        `status.conditions[${c.type}].lastTransitionTime`,
        `status.conditions[${c.type}].reason`,
        `status.conditions[${c.type}].message`,
      );
      continue;
    }
    if (since !== undefined && since > t) {
      missing.push(`status.conditions[${c.type}]`);
    }
    out.push(c);
  }
  return out;
}

function conditionsOf(o: Loose): Cond[] {
  const status = o.status as Loose | undefined;
  return Array.isArray(status?.conditions) ? (status.conditions as Cond[]) : [];
}

function setConditions(o: Loose, conds: Cond[]): void {
  if (!o.status || typeof o.status !== 'object') return;
  (o.status as Loose).conditions = conds;
}

function setCondition(
  o: Loose,
  type: string,
  status: string,
  since: Millis | undefined,
  missing: string[],
): void {
  const conds = conditionsOf(o);
  const i = conds.findIndex((c) => c.type === type);
  const old = conds[i];
  if (!old || old.status === status) return;
  const { lastTransitionTime: _l, reason: _r, message: _m, ...rest } = old;
  conds[i] = { ...rest, status, ...(since !== undefined ? { lastTransitionTime: kubeTime(since) } : {}) };
  missing.push(`status.conditions[${type}].reason`, `status.conditions[${type}].message`);
  if (since === undefined) missing.push(`status.conditions[${type}].lastTransitionTime`);
}

function clusterVersionAt(history: ClusterHistory, obs: Observed<unknown>, t: Millis): Loose | undefined {
  const o = clone(obs.object) as Loose & { metadata: Loose & { name: string } };
  const missing: string[] = ['spec', 'status.availableUpdates', 'status.capabilities'];
  const key = `ClusterVersion/${o.metadata.name}`;
  setConditions(o, rewindConditions(history, key, conditionsOf(o), t, missing));
  const status = o.status as Loose | undefined;
  if (status && Array.isArray(status.history)) {
    const kept: Loose[] = [];
    for (const h of status.history as Loose[]) {
      const started = parseTime(h.startedTime);
      if (started !== undefined && started > t) continue;
      const completed = parseTime(h.completionTime);
      if (completed !== undefined && completed > t)
        kept.push({ ...h, state: 'Partial', completionTime: null });
      else kept.push(h);
    }
    status.history = kept;
    const newest = kept[0];
    if (newest && status.desired && typeof status.desired === 'object') {
      status.desired = { ...(status.desired as Loose), version: newest.version, image: newest.image };
    }
  }
  annotate(o, missing);
  return o;
}

function clusterOperatorAt(history: ClusterHistory, obs: Observed<unknown>, t: Millis): Loose | undefined {
  const o = clone(obs.object) as Loose & { metadata: Loose & { name: string } };
  const missing: string[] = ['status.relatedObjects', 'status.extension'];
  const name = o.metadata.name;
  setConditions(o, rewindConditions(history, `ClusterOperator/${name}`, conditionsOf(o), t, missing));
  const status = o.status as Loose | undefined;
  if (status && Array.isArray(status.versions)) {
    const later = versionChanges(history, name).filter((c) => c.at > t);
    const versions = (status.versions as Loose[]).map((v) => ({ ...v }));
    // Undo changes newest first: each one's `from` is the version before it.
    for (const change of [...later].reverse()) {
      const v = versions.find((x) => x.name === change.name);
      if (v && v.version === change.to) v.version = change.from;
    }
    status.versions = versions.filter((v) => v.version !== '');
  }
  annotate(o, missing);
  return o;
}

/** The node's config annotations at `t`, from the daemon's recorded events. */
function nodeConfigAt(
  history: ClusterHistory,
  name: string,
  t: Millis,
): { current?: string; desired?: string; state?: string; later?: string } {
  let current: string | undefined;
  let desired: string | undefined;
  let state: string | undefined;
  let later: string | undefined;
  for (const i of intervalsOf(history, `Node/${name}`)) {
    const config = i.message.annotations.config;
    const reason = i.message.annotations.reason ?? i.message.reason;
    if (!config) continue;
    if (i.from > t) {
      if (reason === 'MachineConfigChange' && later === undefined) later = config;
      continue;
    }
    if (reason === 'MachineConfigChange') {
      desired = config;
      state = 'Working';
    } else if (reason === 'MachineConfigReached') {
      current = config;
      desired = config;
      state = 'Done';
    }
  }
  return {
    ...(current ? { current } : {}),
    ...(desired ? { desired } : {}),
    ...(state ? { state } : {}),
    ...(later ? { later } : {}),
  };
}

function renderedBefore(ph: PoolHistory | undefined, name: string): string | undefined {
  if (!ph) return undefined;
  const i = ph.rendered.findIndex((r) => r.name === name);
  return i > 0 ? ph.rendered[i - 1]?.name : undefined;
}

interface Context {
  readonly history: ClusterHistory;
  readonly pools: Map<string, PoolHistory>;
  readonly configCreated: Map<string, Millis>;
}

function poolOfNode(ctx: Context, labels: Loose): PoolHistory | undefined {
  for (const [name, ph] of ctx.pools) {
    const selector = (ph.pool?.object.spec as Loose | undefined)?.nodeSelector as Loose | undefined;
    const match = selector?.matchLabels as Loose | undefined;
    const wanted =
      match && Object.keys(match).length > 0 ? match : { [`node-role.kubernetes.io/${name}`]: '' };
    if (Object.entries(wanted).every(([k, v]) => Object.hasOwn(labels, k) && (v === '' || labels[k] === v)))
      return ph;
  }
  return undefined;
}

function nodeAt(ctx: Context, obs: Observed<unknown>, t: Millis): Loose | undefined {
  const o = clone(obs.object) as Loose & { metadata: Loose & { name: string } };
  const missing: string[] = ['spec', 'status.images', 'status.nodeInfo', 'status.addresses'];
  const name = o.metadata.name;
  setConditions(o, rewindConditions(ctx.history, `Node/${name}`, conditionsOf(o), t, missing));
  const annotations = { ...((o.metadata.annotations as Loose | undefined) ?? {}) };
  const seen = nodeConfigAt(ctx.history, name, t);
  const snapshotCurrent =
    typeof annotations[MCO.currentConfig] === 'string'
      ? (annotations[MCO.currentConfig] as string)
      : undefined;
  const ph = poolOfNode(ctx, (o.metadata.labels as Loose | undefined) ?? {});
  let current = seen.current;
  let desired = seen.desired;
  let state = seen.state;
  if (current === undefined && desired === undefined) {
    const createdSnapshot = snapshotCurrent ? ctx.configCreated.get(snapshotCurrent) : undefined;
    if (seen.later) {
      // The daemon was told to move to `later` after t: before that it sat on the config before it.
      current = renderedBefore(ph, seen.later);
    } else if (snapshotCurrent && (createdSnapshot === undefined || createdSnapshot <= t)) {
      current = snapshotCurrent;
    } else if (ph) {
      current = poolStateAt(ph, t).current?.name;
    }
    desired = current;
    state = current ? 'Done' : undefined;
    if (current === undefined) missing.push(`metadata.annotations[${MCO.currentConfig}]`);
  }
  if (current) annotations[MCO.currentConfig] = current;
  if (desired) annotations[MCO.desiredConfig] = desired;
  if (state) annotations[MCO.state] = state;
  o.metadata.annotations = annotations;
  annotate(o, missing);
  return o;
}

function poolAt(ctx: Context, obs: Observed<unknown>, t: Millis, nodes: readonly Loose[]): Loose | undefined {
  const o = clone(obs.object) as Loose & { metadata: Loose & { name: string } };
  const missing: string[] = ['spec.paused', 'status.readyMachineCount', 'status.unavailableMachineCount'];
  const name = o.metadata.name;
  setConditions(o, rewindConditions(ctx.history, `MachineConfigPool/${name}`, conditionsOf(o), t, missing));
  const ph = ctx.pools.get(name);
  if (ph) {
    const state = poolStateAt(ph, t);
    const since = state.target?.createdAt;
    if (state.updated !== undefined)
      setCondition(o, 'Updated', state.updated ? 'True' : 'False', since, missing);
    if (state.updating !== undefined)
      setCondition(o, 'Updating', state.updating ? 'True' : 'False', since, missing);
    const status = (o.status as Loose | undefined) ?? {};
    const spec = (o.spec as Loose | undefined) ?? {};
    if (state.target)
      spec.configuration = { ...((spec.configuration as Loose | undefined) ?? {}), name: state.target.name };
    if (state.current)
      status.configuration = {
        ...((status.configuration as Loose | undefined) ?? {}),
        name: state.current.name,
      };
    // Nodes of this pool on the target config count as updated (domain.md 3: updatedMachineCount).
    const mine = nodes.filter(
      (n) => poolOfNode(ctx, ((n.metadata as Loose).labels as Loose | undefined) ?? {}) === ph,
    );
    if (state.target && mine.length > 0) {
      const target = state.target.name;
      const updated = mine.filter((n) => {
        const a = ((n.metadata as Loose).annotations as Loose | undefined) ?? {};
        return a[MCO.currentConfig] === target && a[MCO.desiredConfig] === target && a[MCO.state] === 'Done';
      }).length;
      status.machineCount = mine.length;
      status.updatedMachineCount = updated;
      status.readyMachineCount = updated;
    }
    o.status = status;
    o.spec = spec;
  }
  annotate(o, missing);
  return o;
}

function contextOf(history: ClusterHistory): Context {
  const objs = history.objects;
  const pools = new Map<string, PoolHistory>();
  for (const p of objs.machineConfigPools)
    pools.set(p.object.metadata.name, poolHistory(history, p.object.metadata.name));
  const configCreated = new Map<string, Millis>();
  for (const mc of objs.machineConfigs) {
    const c = createdAt(mc.object);
    if (c !== undefined) configCreated.set(mc.object.metadata.name, c);
  }
  return { history, pools, configCreated };
}

function kindObject(kind: string, o: Loose): KindObject {
  return {
    kind,
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : undefined,
    object: o as KindObject['object'],
  };
}

function alive<T extends { object: { metadata: { creationTimestamp?: string | null | undefined } } }>(
  list: readonly T[],
  t: Millis,
): T[] {
  return list.filter((x) => {
    const c = parseTime(x.object.metadata.creationTimestamp);
    return c === undefined || c <= t;
  });
}

/** The kinds whose state changes over an update: ClusterVersion, ClusterOperators, Nodes, pools. */
export const CHANGING_KINDS: ReadonlySet<string> = new Set([
  'ClusterVersion',
  'ClusterOperator',
  'Node',
  'MachineConfigPool',
]);

/** The changing kinds at `t` (see CHANGING_KINDS). A Rewinder keeps the per-pool indexes between moments. */
export class Rewinder {
  readonly #ctx: Context;
  constructor(readonly history: ClusterHistory) {
    this.#ctx = contextOf(history);
  }

  changingAt(t: Millis): KindObject[] {
    const objs = this.history.objects;
    const out: KindObject[] = [];
    for (const cv of alive(objs.clusterVersions, t)) {
      const o = clusterVersionAt(this.history, cv, t);
      if (o) out.push(kindObject('ClusterVersion', o));
    }
    for (const co of alive(objs.clusterOperators, t)) {
      const o = clusterOperatorAt(this.history, co, t);
      if (o) out.push(kindObject('ClusterOperator', o));
    }
    const nodes: Loose[] = [];
    for (const n of alive(objs.nodes, t)) {
      const o = nodeAt(this.#ctx, n, t);
      if (!o) continue;
      nodes.push(o);
      out.push(kindObject('Node', o));
    }
    for (const p of alive(objs.machineConfigPools, t)) {
      const o = poolAt(this.#ctx, p, t, nodes);
      if (o) out.push(kindObject('MachineConfigPool', o));
    }
    return out;
  }
}

/**
 * The kinds that only appear (MachineConfigs, Events, Pods, ...): each with the moment it appeared,
 * or undefined when the inputs do not say. Served as last seen from that moment on.
 */
export function appearing(
  history: ClusterHistory,
): { readonly at: Millis | undefined; readonly item: KindObject }[] {
  const objs = history.objects;
  const out: { at: Millis | undefined; item: KindObject }[] = [];
  const add = (kind: string, list: readonly Observed<unknown>[], notRewound: string[]) => {
    for (const obs of list) {
      const o = obs.object as Loose & { metadata: Loose };
      const at =
        kind === 'Event'
          ? (parseTime(o.firstTimestamp) ?? parseTime(o.eventTime) ?? createdAt(o))
          : createdAt(o);
      const copy = notRewound.length > 0 ? { ...o, metadata: { ...o.metadata } } : o;
      annotate(copy, notRewound);
      out.push({ at, item: kindObject(kind, copy) });
    }
  };
  add('MachineConfig', objs.machineConfigs, []);
  add('ControllerConfig', objs.controllerConfigs, ['spec', 'status']);
  add('Pod', objs.pods, ['status']);
  add('PodDisruptionBudget', objs.podDisruptionBudgets, ['status']);
  add('Event', objs.events, []);
  return out;
}

/** Every typed object of the history at `t`, each with its kind. Unknown-kind objects go through `extraAt`. */
export function objectsAt(history: ClusterHistory, t: Millis): KindObject[] {
  const out = new Rewinder(history).changingAt(t);
  for (const { at, item } of appearing(history)) {
    if (at !== undefined && at > t) continue;
    if (item.kind === 'Event') {
      const last = parseTime(item.object.lastTimestamp);
      if (last !== undefined && last > t) {
        const copy = { ...item.object, metadata: { ...item.object.metadata } };
        annotate(copy, ['lastTimestamp', 'count']);
        out.push({ ...item, object: copy });
        continue;
      }
    }
    out.push(item);
  }
  return out;
}

/** Objects of kinds atlevel does not model, at `t`: absent when created later, otherwise as last seen. */
export function extraAt(extra: readonly KindObject[], t: Millis): KindObject[] {
  const out: KindObject[] = [];
  for (const x of extra) {
    const created = createdAt(x.object);
    if (created !== undefined && created > t) continue;
    const copy = { ...x.object, metadata: { ...x.object.metadata } };
    annotate(copy, ['spec', 'status']);
    out.push({ ...x, object: copy });
  }
  return out;
}

/** Every typed object as last seen (no rewinding), with its kind. */
export function lastSeen(history: ClusterHistory): KindObject[] {
  const objs = history.objects;
  const out: KindObject[] = [];
  const add = (kind: string, list: readonly Observed<unknown>[]) => {
    for (const { object } of list) {
      const o = object as KindObject['object'];
      out.push({ kind, apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : undefined, object: o });
    }
  };
  add('ClusterVersion', objs.clusterVersions);
  add('ClusterOperator', objs.clusterOperators);
  add('Node', objs.nodes);
  add('MachineConfigPool', objs.machineConfigPools);
  add('MachineConfig', objs.machineConfigs);
  add('ControllerConfig', objs.controllerConfigs);
  add('Pod', objs.pods);
  add('PodDisruptionBudget', objs.podDisruptionBudgets);
  add('Event', objs.events);
  return out;
}
