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
import {
  type ClusterHistory,
  KINDS,
  KNOWN_KINDS,
  type KnownKind,
  kindFacts,
  type Millis,
  type Observed,
  parseTime,
} from '../model/index.js';
import { REWIND_ORDER, objectsAt as rewind, type Unrewound } from '../timeline/index.js';

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

/** The kinds whose state changes over an update, each rewound at every moment (model/kinds/ `changes`). */
const CHANGING: readonly KnownKind[] = REWIND_ORDER.filter((k) => {
  const by = kindFacts(k).changes.by;
  return by === 'rewinder' || by === 'conditions';
});
export const CHANGING_KINDS: ReadonlySet<string> = new Set(CHANGING);

/** The objects of `kind` in a snapshot, as loose objects. */
function listOf(objects: ClusterHistory['objects'], kind: KnownKind): readonly Observed<unknown>[] {
  return objects[KINDS[kind].field];
}

/** The order serve loads the kinds in: the changing ones first, as they are rewound, then the others. */
const SERVED: readonly KnownKind[] = [...CHANGING, ...KNOWN_KINDS.filter((k) => !CHANGING.includes(k))];

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
  for (const kind of CHANGING) add(kind, listOf(o, kind));
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
  for (const kind of KNOWN_KINDS) {
    const changes = kindFacts(kind).changes;
    if (changes.by !== 'appearing' && changes.by !== 'last-seen') continue;
    const appearsAt = changes.by === 'appearing' ? changes.appearsAt : undefined;
    for (const obs of listOf(objs, kind)) {
      const o = obs.object as Loose & { metadata: Loose };
      const at = appearsAt ? appearsAt(o as never) : createdAt(o);
      const copy = changes.notRewound.length > 0 ? { ...o, metadata: { ...o.metadata } } : o;
      annotate(copy, changes.notRewound);
      out.push({ at, item: kindObject(kind, copy) });
    }
  }
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
  for (const kind of SERVED) if (kind !== 'Event') add(kind, listOf(o, kind));
  // An Event's count and last time grow after it appears: later than `t`, they are not the moment's.
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
  for (const kind of SERVED) add(kind, listOf(objs, kind));
  return out;
}
