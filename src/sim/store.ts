/**
 * The API server of the model: the latest version of every object, a resourceVersion counter, and
 * watches. A watch delivers each write to its watcher after a latency drawn from the watcher's
 * distribution, in write order (a watch stream never reorders). Watchers keep their own cache, so a
 * controller acts on what it last observed, which may be stale.
 */
import type { Actor, Engine } from './engine.js';
import type { AnyObj, Kind, KindMap } from './objects.js';
import { KINDS } from './objects.js';
import type { Dist } from './rng.js';

export type WriteHook = (prev: AnyObj | undefined, next: AnyObj, at: number) => void;

interface Watch {
  readonly actor: Actor;
  readonly latency: Dist;
  readonly kinds: ReadonlySet<Kind>;
  /** Only objects with this name (a daemon watches its own node). */
  readonly name: string | undefined;
  readonly deliver: (obj: AnyObj) => void;
  /** Virtual time of the last scheduled delivery; later writes are never delivered before it. */
  lastAt: number;
}

const WATCH_LABEL: Readonly<Record<Kind, string>> = {
  ClusterVersion: 'watch ClusterVersion',
  ClusterOperator: 'watch ClusterOperator',
  MachineConfigPool: 'watch MachineConfigPool',
  MachineConfig: 'watch MachineConfig',
  Node: 'watch Node',
  ControllerConfig: 'watch ControllerConfig',
  ConfigMap: 'watch ConfigMap',
};

class ObjectMap {
  private readonly maps: { [K in Kind]: Map<string, KindMap[K]> } = {
    ClusterVersion: new Map(),
    ClusterOperator: new Map(),
    MachineConfigPool: new Map(),
    MachineConfig: new Map(),
    Node: new Map(),
    ControllerConfig: new Map(),
    ConfigMap: new Map(),
  };

  get<K extends Kind>(kind: K, name: string): KindMap[K] | undefined {
    return this.maps[kind].get(name);
  }

  list<K extends Kind>(kind: K): IterableIterator<KindMap[K]> {
    return this.maps[kind].values();
  }

  count(kind: Kind): number {
    return this.maps[kind].size;
  }

  set(obj: AnyObj): void {
    (this.maps[obj.kind] as Map<string, AnyObj>).set(obj.meta.name, obj);
  }

  /** Copy every map (an informer's initial list). */
  copyFrom(other: ObjectMap, kinds: Iterable<Kind> = KINDS): void {
    for (const kind of kinds) {
      const src = other.maps[kind] as Map<string, AnyObj>;
      const dst = this.maps[kind] as Map<string, AnyObj>;
      for (const [name, obj] of src) dst.set(name, obj);
    }
  }
}

export class Store {
  readonly objects = new ObjectMap();
  private rv = 20_000;
  private readonly watches: Watch[] = [];
  onWrite: WriteHook | undefined;

  constructor(private readonly engine: Engine) {}

  get<K extends Kind>(kind: K, name: string): KindMap[K] | undefined {
    return this.objects.get(kind, name);
  }

  list<K extends Kind>(kind: K): IterableIterator<KindMap[K]> {
    return this.objects.list(kind);
  }

  /** Store an object as part of the cluster's starting state: no watch events, no hook. */
  seed(obj: AnyObj): void {
    obj.meta.rv = ++this.rv;
    this.objects.set(obj);
  }

  /**
   * Create or replace `obj` (a new object built by the writer; the store stamps its resourceVersion)
   * and notify every watcher of its kind.
   */
  write<T extends AnyObj>(obj: T): T {
    const prev = this.objects.get(obj.kind, obj.meta.name);
    obj.meta.rv = ++this.rv;
    this.objects.set(obj);
    const engine = this.engine;
    if (engine.footprint) engine.footprint.writes.add(`${obj.kind}/${obj.meta.name}`);
    if (this.onWrite) this.onWrite(prev, obj, engine.now);
    for (const w of this.watches) {
      if (!w.kinds.has(obj.kind) || (w.name !== undefined && w.name !== obj.meta.name)) continue;
      let at = engine.now + engine.rng.sample(w.latency);
      if (at < w.lastAt) at = w.lastAt;
      w.lastAt = at;
      const deliver = w.deliver;
      engine.scheduleAt(at, w.actor, WATCH_LABEL[obj.kind], () => deliver(obj));
    }
    return obj;
  }

  watch(
    actor: Actor,
    kinds: readonly Kind[],
    latency: Dist,
    deliver: (obj: AnyObj) => void,
    name?: string,
  ): void {
    this.watches.push({ actor, latency, kinds: new Set(kinds), name, deliver, lastAt: 0 });
  }
}

/**
 * A controller's informer: a cache filled by an initial list and then by watch deliveries, and a
 * handler called after each delivery with the object and the cached version it replaced.
 */
export class Informer {
  readonly cache = new ObjectMap();

  constructor(
    private readonly store: Store,
    actor: Actor,
    private readonly kinds: readonly Kind[],
    latency: Dist,
    onEvent: (obj: AnyObj, old: AnyObj | undefined) => void,
  ) {
    this.cache.copyFrom(store.objects, kinds);
    store.watch(actor, kinds, latency, (obj) => {
      const old = this.cache.get(obj.kind, obj.meta.name);
      // A re-list after a restart may already hold a newer version than a delivery in flight.
      if (old && old.meta.rv >= obj.meta.rv) return;
      this.cache.set(obj);
      onEvent(obj, old);
    });
  }

  /** Re-list (a restarted controller's informer): the cache jumps to the store's current state. */
  relist(): void {
    this.cache.copyFrom(this.store.objects, this.kinds);
  }
}
