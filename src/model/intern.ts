/**
 * One copy of each repeated value across the intervals of a load. A CI run holds hundreds of
 * thousands of intervals about a few hundred objects, with a handful of annotation sets; sharing
 * the locator and annotation objects (and their strings) keeps memory near the size of what is
 * unique. Shared objects are never written to after they are made (the model's types are readonly).
 */
import type { Locator } from './history.js';

type StringRecord = Readonly<Record<string, string>>;

/**
 * A trie over the keys and values of a record, in order: one map lookup per string and no key
 * string to build, so looking up a record that is already there allocates nothing.
 */
class Node<T> {
  value: T | undefined;
  #next: Map<string, Node<T>> | undefined;

  child(s: string): Node<T> {
    this.#next ??= new Map();
    let node = this.#next.get(s);
    if (!node) {
      node = new Node<T>();
      this.#next.set(detach(s), node);
    }
    return node;
  }
}

function nodeOf<T>(start: Node<T>, record: StringRecord): Node<T> {
  let node = start;
  for (const k in record) node = node.child(k).child(record[k] as string);
  return node;
}

export class Interner {
  readonly #strings = new Map<string, string>();
  readonly #locators = new Node<Locator>();
  readonly #records = new Node<StringRecord>();
  /** Identity numbers of shared objects, for cheap equality keys (see `id`). */
  readonly #ids = new Map<object, number>();

  string(s: string): string {
    const hit = this.#strings.get(s);
    if (hit !== undefined) return hit;
    // Its own copy: a slice would keep what it was cut from (a whole decoded chunk of a log) alive.
    const own = detach(s);
    this.#strings.set(own, own);
    return own;
  }

  /** The shared locator equal to `{type, keys}` (same keys in the same order). */
  locator(type: string, keys: StringRecord): Locator {
    const node = nodeOf(this.#locators.child(type), keys);
    if (node.value) return node.value;
    const made: Locator = { type: this.string(type), keys: this.#copy(keys) };
    node.value = made;
    this.#ids.set(made, this.#ids.size);
    return made;
  }

  /** The shared record equal to `record` (same keys in the same order). */
  record(record: StringRecord): StringRecord {
    const node = nodeOf(this.#records, record);
    if (node.value) return node.value;
    const made = this.#copy(record);
    node.value = made;
    this.#ids.set(made, this.#ids.size);
    return made;
  }

  /** A number for an object this interner made, undefined for any other. */
  id(shared: object): number | undefined {
    return this.#ids.get(shared);
  }

  #copy(record: StringRecord): StringRecord {
    const out: Record<string, string> = {};
    for (const k in record) out[this.string(k)] = this.string(detach(record[k] as string));
    return out;
  }
}

/**
 * A table of distinct strings numbered in first-use order: documents that repeat strings (the HTML
 * report's data) store each once and refer to it by number.
 */
export class StringTable {
  readonly #list: string[] = [];
  readonly #ids = new Map<string, number>();

  id(text: string): number {
    let id = this.#ids.get(text);
    if (id === undefined) {
      id = this.#list.length;
      this.#list.push(text);
      this.#ids.set(text, id);
    }
    return id;
  }

  at(id: number): string {
    return this.#list[id] ?? '';
  }

  /** Every string, at its number. */
  all(): string[] {
    return this.#list;
  }
}

/**
 * A flat copy of a string cut out of a longer one. V8 keeps a slice or a regular-expression match
 * as a view that holds its whole parent alive: a kept message would keep its whole log line.
 */
export function detach(s: string): string {
  // Slicing a concatenation makes V8 flatten it into a new string first: the result refers to that
  // copy, not to the parent. One copy, where a JSON round trip made two and scanned for escapes.
  return s.length < 13 ? s : ` ${s}`.slice(1);
}
