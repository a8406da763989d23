/**
 * The object snapshot under construction: every object validated once, keyed by kind and
 * namespace/name, so that the same object seen twice (a must-gather List file and its per-object
 * file, or two gathers) is kept once, the newest snapshot winning.
 *
 * Every input of one command goes through one store, so it is also where inputs that do not belong
 * together are caught: ClusterVersions with different `spec.clusterID` are snapshots of two clusters
 * (oc's upgrade-status examples keep seven in one folder), and keeping "the newest" of them would
 * report one cluster that does not exist, with the nodes and configs of all of them.
 */
import {
  emptySnapshot,
  InputError,
  KINDS,
  type KindFacts,
  type KnownKind,
  type ObjectSnapshot,
  type Observed,
  printable,
  type SourceRef,
} from '../model/index.js';

/**
 * Two ClusterVersions with different clusterIDs: the inputs are from two clusters. Which files they
 * are lets the loader say it in the input's words (a folder of several runs: runs.ts).
 */
export class TwoClustersError extends InputError {
  constructor(
    /** The file read last, and its clusterID. */
    readonly second: { readonly file: string; readonly id: string },
    /** The file that named the first cluster, and its clusterID. */
    readonly first: { readonly file: string; readonly id: string },
  ) {
    super(
      second.file,
      `its ClusterVersion has clusterID ${printable(second.id, 80)}, but ${first.file} has clusterID ${printable(first.id, 80)}: the inputs are from two clusters`,
      'give the files of one cluster at a time',
    );
  }
}

interface Entry {
  readonly kind: KnownKind;
  readonly observed: Observed<unknown>;
  readonly resourceVersion: string | undefined;
  /** Order of arrival: files are read in a stable order, so later means "later file". */
  readonly seq: number;
}

export class ObjectStore {
  /** Every object kept, in the order each was first seen (see snapshot). */
  readonly #entries: Entry[] = [];
  /**
   * Where each object's entry is, by kind, namespace ('' for none) and name. Looked up by the
   * object's own strings, not by a key string made of them: a run keeps tens of thousands of
   * Events, and each such key would be a new string to build, hash and keep alive with the store.
   */
  readonly #where = new Map<KnownKind, Map<string, Map<string, number>>>();
  #seq = 0;
  /** How many objects were dropped in favour of a newer snapshot of the same object. */
  duplicates = 0;
  /** The first ClusterVersion's cluster, and where it was read. */
  #cluster: { readonly id: string; readonly ref: SourceRef } | undefined;

  /**
   * Keep an object already validated against its kind's schema (see validate.ts). Throws InputError
   * when a ClusterVersion names another cluster than the one before it.
   */
  put(kind: KnownKind, validated: unknown, ref: SourceRef): void {
    if (kind === 'ClusterVersion') this.#sameCluster(validated, ref);
    const facts: KindFacts = KINDS[kind];
    const object = facts.normalize ? facts.normalize(validated) : validated;
    const meta = (object as { metadata: { name: string; namespace?: string; resourceVersion?: string } })
      .metadata;
    const entry: Entry = {
      kind,
      observed: { object, ref },
      resourceVersion: meta.resourceVersion,
      seq: this.#seq++,
    };
    let namespaces = this.#where.get(kind);
    if (namespaces === undefined) {
      namespaces = new Map();
      this.#where.set(kind, namespaces);
    }
    const namespace = meta.namespace ?? '';
    let names = namespaces.get(namespace);
    if (names === undefined) {
      names = new Map();
      namespaces.set(namespace, names);
    }
    const at = names.get(meta.name);
    if (at !== undefined) {
      this.duplicates++;
      if (!isNewer(entry, this.#entries[at] as Entry)) return;
      // The winner takes the place of the copy it replaces: the output order (see snapshot) is
      // where the object was first seen, whichever copy won.
      this.#entries[at] = entry;
      return;
    }
    names.set(meta.name, this.#entries.length);
    this.#entries.push(entry);
  }

  #sameCluster(cv: unknown, ref: SourceRef): void {
    const id: unknown = (cv as { spec?: { clusterID?: unknown } }).spec?.clusterID;
    if (typeof id !== 'string' || id === '') return;
    const first = this.#cluster;
    if (first === undefined) {
      this.#cluster = { id, ref };
      return;
    }
    if (first.id === id) return;
    throw new TwoClustersError({ file: ref.file, id }, { file: first.ref.file, id: first.id });
  }

  get size(): number {
    return this.#entries.length;
  }

  snapshot(): ObjectSnapshot {
    const out = emptySnapshot();
    // The entries are in the order objects were first seen (see put): no copy of them to sort (tens
    // of thousands on a CI run).
    for (const e of this.#entries) (out[KINDS[e.kind].field] as Observed<unknown>[]).push(e.observed);
    return out;
  }
}

/** resourceVersions compare as numbers when both are decimal; otherwise the later file wins. */
function isNewer(candidate: Entry, current: Entry): boolean {
  const a = candidate.resourceVersion;
  const b = current.resourceVersion;
  if (a !== undefined && b !== undefined && /^\d+$/.test(a) && /^\d+$/.test(b)) {
    const x = a.replace(/^0+(?=\d)/, '');
    const y = b.replace(/^0+(?=\d)/, '');
    if (x.length !== y.length) return x.length > y.length;
    if (x !== y) return x > y;
  }
  return candidate.seq > current.seq;
}
