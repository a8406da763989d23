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

interface Entry {
  readonly kind: KnownKind;
  readonly observed: Observed<unknown>;
  readonly resourceVersion: string | undefined;
  /** Order of arrival: files are read in a stable order, so later means "later file". */
  readonly seq: number;
}

export class ObjectStore {
  readonly #entries = new Map<string, Entry>();
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
    const key = `${kind}\u0000${meta.namespace ?? ''}\u0000${meta.name}`;
    const entry: Entry = {
      kind,
      observed: { object, ref },
      resourceVersion: meta.resourceVersion,
      seq: this.#seq++,
    };
    const previous = this.#entries.get(key);
    if (previous) {
      this.duplicates++;
      if (!isNewer(entry, previous)) return;
      // Replacing a key's value keeps the key's place in the Map: the output order (see snapshot) is
      // where the object was first seen, whichever copy won.
      this.#entries.set(key, entry);
      return;
    }
    this.#entries.set(key, entry);
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
    throw new InputError(
      ref.file,
      `its ClusterVersion has clusterID ${printable(id, 80)}, but ${first.ref.file} has clusterID ${printable(first.id, 80)}: the inputs are from two clusters`,
      'give the files of one cluster at a time',
    );
  }

  get size(): number {
    return this.#entries.size;
  }

  snapshot(): ObjectSnapshot {
    const out = emptySnapshot();
    // A Map iterates in first-insertion order, which is the order objects were first seen (see put):
    // no copy of the entries to sort (tens of thousands on a CI run).
    for (const e of this.#entries.values())
      (out[KINDS[e.kind].field] as Observed<unknown>[]).push(e.observed);
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
