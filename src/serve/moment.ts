/**
 * The objects of a history as they were at one moment, for serving. This is serve's own rewind,
 * built on the last snapshot and the timeline (timeline/query.ts, timeline/pools.ts): condition
 * statuses from their recorded transitions, ClusterVersion history entries by their times,
 * ClusterOperator versions from their recorded changes, pool state and node config annotations from
 * the rollout evidence. Objects created after the moment are left out. What cannot be rewound is
 * left out, served as last seen, or (a condition's status, reason and message) served as saying it is
 * not known, and named in the `atlevel.io/not-rewound` annotation, so a client is never told more
 * than the evidence shows (docs/serve.md "At a moment").
 */
import { type ClusterHistory, type Millis, type Observed, parseTime } from '../model/index.js';
import { objectsAt as rewind, type Unrewound } from '../timeline/index.js';

export const NOT_REWOUND = 'atlevel.io/not-rewound';
export const REWOUND_TO = 'atlevel.io/rewound-to';
/**
 * On every watch event of a replayed change, beside `type` and `object`: the recorded moment of the
 * change (RFC 3339, milliseconds). A client sees a change a little after its moment (the replay's lag
 * behind its schedule); live mode's watch can date what it sees by this. It is a field of the event,
 * not of the object, so objects stay as the inputs have them (clients ignore fields they do not know).
 */
export const REPLAYED_AT = 'replayedAt';

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

function createdAt(o: { metadata: Loose }): Millis | undefined {
  return parseTime(o.metadata.creationTimestamp);
}

function annotate(o: Loose & { metadata: Loose }, notRewound: readonly string[]): void {
  if (notRewound.length === 0) return;
  const annotations = { ...((o.metadata.annotations as Loose | undefined) ?? {}) };
  annotations[NOT_REWOUND] = [...new Set(notRewound)].join(', ');
  o.metadata.annotations = annotations;
}

function kindObject(kind: string, o: Loose): KindObject {
  return {
    kind,
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : undefined,
    object: o as KindObject['object'],
  };
}

/** The kinds whose state changes over an update: ClusterVersion, ClusterOperators, Nodes, pools. */
export const CHANGING_KINDS: ReadonlySet<string> = new Set([
  'ClusterVersion',
  'ClusterOperator',
  'Node',
  'MachineConfigPool',
]);

/** `Kind/name` (or a whole kind) → the fields timeline/rewind.ts could not rewind. */
function unrewoundBy(notes: readonly Unrewound[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of notes) {
    const list = out.get(n.object) ?? [];
    list.push(n.field);
    out.set(n.object, list);
  }
  return out;
}

function rewoundItem(kind: string, o: Loose & { metadata: Loose }, notes: Map<string, string[]>): KindObject {
  const fields = [...(notes.get(`${kind}/${String(o.metadata.name)}`) ?? []), ...(notes.get(kind) ?? [])];
  if (fields.length === 0) return kindObject(kind, o);
  const copy = { ...o, metadata: { ...o.metadata } };
  annotate(copy, fields);
  return kindObject(kind, copy);
}

/**
 * The changing kinds at `t`, rewound by timeline/rewind.ts (the same rebuild `status --at` uses);
 * what it could not rewind is named in each object's NOT_REWOUND annotation.
 */
export function changingAt(history: ClusterHistory, t: Millis): KindObject[] {
  const r = rewind(history, t);
  const notes = unrewoundBy(r.unrewound);
  const o = r.objects;
  const out: KindObject[] = [];
  const add = (kind: string, list: readonly Observed<unknown>[]) => {
    for (const x of list) out.push(rewoundItem(kind, x.object as Loose & { metadata: Loose }, notes));
  };
  add('ClusterVersion', o.clusterVersions);
  add('ClusterOperator', o.clusterOperators);
  add('Node', o.nodes);
  add('MachineConfigPool', o.machineConfigPools);
  return out;
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

/** Every typed object of the history at `t` (timeline/rewind.ts), each with its kind. */
export function objectsAt(history: ClusterHistory, t: Millis): KindObject[] {
  const r = rewind(history, t);
  const notes = unrewoundBy(r.unrewound);
  const o = r.objects;
  const out: KindObject[] = [];
  const add = (kind: string, list: readonly Observed<unknown>[]) => {
    for (const x of list) out.push(rewoundItem(kind, x.object as Loose & { metadata: Loose }, notes));
  };
  add('ClusterVersion', o.clusterVersions);
  add('ClusterOperator', o.clusterOperators);
  add('Node', o.nodes);
  add('MachineConfigPool', o.machineConfigPools);
  add('MachineConfig', o.machineConfigs);
  add('ControllerConfig', o.controllerConfigs);
  add('Pod', o.pods);
  add('PodDisruptionBudget', o.podDisruptionBudgets);
  for (const e of o.events) {
    const last = parseTime(e.object.lastTimestamp);
    const item = rewoundItem('Event', e.object as Loose & { metadata: Loose }, notes);
    if (last !== undefined && last > t) annotate(item.object, ['lastTimestamp', 'count']);
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
