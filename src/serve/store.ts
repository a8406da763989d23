/**
 * The served objects and their changes. Every change gets the next resourceVersion and goes to a
 * bounded log, so a watch can resume from any resourceVersion still in the log and gets 410 Gone
 * from an older one, as a real API server does after compaction. Objects are never mutated once
 * stored: a list snapshot is an array of references that stays valid while the store moves on.
 */
import { apiVersionOf, type ResourceType, typeKey } from './resources.js';

export type KubeObject = Record<string, unknown> & {
  metadata: Record<string, unknown> & { name: string; namespace?: string };
};

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  readonly rv: number;
  readonly type: ChangeType;
  readonly typeKey: string;
  readonly object: KubeObject;
  /** The object before the change (MODIFIED, DELETED), so a watch with a selector can tell it left. */
  readonly previous?: KubeObject;
  /** A replayed change: the recorded moment it happened at (ms), sent with its watch event. */
  readonly at?: number;
}

export type Listener = (change: Change) => void;

/** One object's place in its type's map: namespace/name (namespace empty for cluster-scoped). */
function objectKeyOf(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

interface TypeEntry {
  readonly type: ResourceType;
  readonly objects: Map<string, KubeObject>;
  /** Sorted by key, rebuilt on the first list after a change. */
  sorted: KubeObject[] | undefined;
}

const DEFAULT_LOG_CAPACITY = 200_000;

export class ServedStore {
  readonly #types = new Map<string, TypeEntry>();
  readonly #log: Change[] = [];
  readonly #listeners = new Set<Listener>();
  readonly #capacity: number;
  #rv = 0;
  /** A watch may resume from this resourceVersion or any later one. */
  #oldestResumable = 0;

  constructor(capacity = DEFAULT_LOG_CAPACITY) {
    this.#capacity = capacity;
  }

  get resourceVersion(): number {
    return this.#rv;
  }

  get oldestResumable(): number {
    return this.#oldestResumable;
  }

  types(): ResourceType[] {
    return [...this.#types.values()].map((e) => e.type);
  }

  type(key: string): ResourceType | undefined {
    return this.#types.get(key)?.type;
  }

  /** Register a type even while it has no objects yet (a replay adds them later). */
  declare(type: ResourceType): void {
    const key = typeKey(type);
    if (!this.#types.has(key)) this.#types.set(key, { type, objects: new Map(), sorted: undefined });
  }

  /**
   * Load the initial state: objects get resourceVersions without entering the change log, and
   * watches may resume only from the resourceVersion after the load (the start of the window).
   */
  load(type: ResourceType, object: KubeObject): void {
    this.#put(type, object);
    this.#oldestResumable = this.#rv;
  }

  /** Apply one change: ADDED/MODIFIED store the object, DELETED removes it. Returns the change. */
  apply(type: ResourceType, kind: ChangeType, object: KubeObject, at?: number): Change {
    const previous = this.get(typeKey(type), object.metadata.namespace, object.metadata.name);
    const stored = kind === 'DELETED' ? this.#remove(type, object) : this.#put(type, object);
    const change: Change = {
      rv: this.#rv,
      type: kind,
      typeKey: typeKey(type),
      object: stored,
      ...(previous ? { previous } : {}),
      ...(at !== undefined ? { at } : {}),
    };
    this.#log.push(change);
    if (this.#log.length > this.#capacity) {
      const dropped = this.#log.splice(0, this.#log.length - this.#capacity);
      const last = dropped[dropped.length - 1];
      if (last) this.#oldestResumable = last.rv;
    }
    for (const l of this.#listeners) l(change);
    return change;
  }

  get(key: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.#types.get(key)?.objects.get(`${namespace ?? ''}/${name}`);
  }

  /** Every object of a type, sorted by namespace then name (the order etcd keys give). */
  list(key: string): readonly KubeObject[] {
    const entry = this.#types.get(key);
    if (!entry) return [];
    if (!entry.sorted) {
      entry.sorted = [...entry.objects.entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([, o]) => o);
    }
    return entry.sorted;
  }

  /**
   * Every object of a type as it was at resourceVersion `rv` (sorted as list() sorts), rebuilt from
   * the current objects by undoing the logged changes after `rv`; undefined when `rv` is older than
   * the log's window (compacted, as etcd answers a read at a compacted revision) or newer than now.
   */
  listAt(key: string, rv: number): readonly KubeObject[] | undefined {
    if (rv < this.#oldestResumable || rv > this.#rv) return undefined;
    if (rv === this.#rv) return this.list(key);
    const objects = new Map(this.#types.get(key)?.objects);
    for (let i = this.#log.length - 1; i >= 0; i--) {
      const c = this.#log[i] as Change;
      if (c.rv <= rv) break;
      if (c.typeKey !== key) continue;
      const k = objectKeyOf(c.object);
      if (c.previous) objects.set(k, c.previous);
      else objects.delete(k);
    }
    return [...objects.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, o]) => o);
  }

  /** Forget the log: any earlier resourceVersion is now too old to watch from (a compaction). */
  compact(): void {
    this.#log.length = 0;
    this.#oldestResumable = this.#rv;
  }

  /** Changes after `rv` (exclusive), or undefined when some of them are no longer in the log. */
  changesSince(rv: number): readonly Change[] | undefined {
    if (rv < this.#oldestResumable) return undefined;
    // The log is sorted by rv: find the first entry after rv.
    let lo = 0;
    let hi = this.#log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#log[mid]?.rv ?? 0) <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.#log.slice(lo);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get watchers(): number {
    return this.#listeners.size;
  }

  #entry(type: ResourceType): TypeEntry {
    this.declare(type);
    return this.#types.get(typeKey(type)) as TypeEntry;
  }

  #put(type: ResourceType, object: KubeObject): KubeObject {
    const entry = this.#entry(type);
    this.#rv++;
    const stored = withServerFields(type, object, this.#rv);
    entry.objects.set(objectKeyOf(stored), stored);
    entry.sorted = undefined;
    return stored;
  }

  #remove(type: ResourceType, object: KubeObject): KubeObject {
    const entry = this.#entry(type);
    this.#rv++;
    const key = objectKeyOf(object);
    const last = entry.objects.get(key) ?? object;
    entry.objects.delete(key);
    entry.sorted = undefined;
    return withServerFields(type, last, this.#rv);
  }
}

/** kind, apiVersion and resourceVersion as this server states them. */
function withServerFields(type: ResourceType, object: KubeObject, rv: number): KubeObject {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = object;
  return {
    apiVersion: apiVersionOf(type),
    kind: type.kind,
    metadata: { ...metadata, resourceVersion: String(rv) },
    ...rest,
  } as KubeObject;
}
