/**
 * A crit-bit tree of strings, looked up by a slice of a longer string without cutting the slice out.
 * A Map keyed by the slice must first make it a string of its own and hash every character of it;
 * for the condition heads of a build log (buildlog.ts), 60 characters on every one of 100k lines,
 * that cost more than all the rest of a line's parsing. The tree instead reads the few characters
 * where the strings it holds differ, then compares the one string they lead to with the slice.
 *
 * Every answer is checked against the whole string found, so a wrong turn can only miss, never find
 * the wrong string. Lookups give up after MAX_DEPTH turns and adds are refused past it: strings made
 * to differ one bit at a time (hostile input) cost at most that many steps a line, then a miss.
 */

/** A leaf holds a string (`at` -1); a branch the character and bit where its two sides differ. */
class Node<T> {
  constructor(
    /** Index of the character this branch tests; -1 for a leaf. */
    readonly at: number,
    /** The bit of that character's code (plus one, see code) that sends a string to `one`. */
    readonly bit: number,
    public zero: Node<T> | undefined,
    public one: Node<T> | undefined,
    readonly key: string,
    readonly value: T | undefined,
  ) {}
}

/** Turns a lookup may take; far more than a tree of a few thousand distinct heads needs. */
export const MAX_DEPTH = 64;

/** The character of `text[from, to)` at `i` plus one, and 0 past its end (so `ab` and `abc` differ). */
function code(text: string, from: number, to: number, i: number): number {
  return from + i < to ? text.charCodeAt(from + i) + 1 : 0;
}

export class HeadTree<T> {
  #root: Node<T> | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The value of the string equal to `text[from, to)`, or undefined when it is not found. */
  get(text: string, from: number, to: number): T | undefined {
    const leaf = this.#leaf(text, from, to);
    // A slice compared whole (natively, without hashing it), not startsWith: V8's startsWith at an
    // offset of a slice reads character by character, ten times slower here.
    if (leaf === undefined || leaf.key.length !== to - from || text.slice(from, to) !== leaf.key)
      return undefined;
    return leaf.value;
  }

  /**
   * Add `key` with `value` (a key already held keeps its value). False when it is not added: the
   * place for it is deeper than MAX_DEPTH.
   */
  add(key: string, value: T): boolean {
    const n = key.length;
    const near = this.#leaf(key, 0, n);
    if (near === undefined) {
      if (this.#root !== undefined) return false;
      this.#root = new Node<T>(-1, 0, undefined, undefined, key, value);
      this.#size++;
      return true;
    }
    const other = near.key;
    let at = 0;
    while (at <= n && code(key, 0, n, at) === code(other, 0, other.length, at)) at++;
    if (at > n) return true;
    const differ = code(key, 0, n, at) ^ code(other, 0, other.length, at);
    const bit = 1 << (31 - Math.clz32(differ));
    return this.#insert(key, value, at, bit);
  }

  /** The leaf `text[from, to)` leads to, or undefined (an empty tree, or more than MAX_DEPTH turns). */
  #leaf(text: string, from: number, to: number): Node<T> | undefined {
    let node = this.#root;
    for (let depth = 0; node !== undefined && node.at >= 0; depth++) {
      if (depth === MAX_DEPTH) return undefined;
      node = (code(text, from, to, node.at) & node.bit) === 0 ? node.zero : node.one;
    }
    return node;
  }

  /** Put a branch on (`at`, `bit`) where it belongs on the key's path, with the key's leaf under it. */
  #insert(key: string, value: T, at: number, bit: number): boolean {
    const n = key.length;
    let parent: Node<T> | undefined;
    let node = this.#root as Node<T>;
    for (let depth = 0; node.at >= 0 && (node.at < at || (node.at === at && node.bit > bit)); depth++) {
      if (depth === MAX_DEPTH) return false;
      parent = node;
      node = ((code(key, 0, n, node.at) & node.bit) === 0 ? node.zero : node.one) as Node<T>;
    }
    const leaf = new Node<T>(-1, 0, undefined, undefined, key, value);
    const one = (code(key, 0, n, at) & bit) !== 0;
    const branch = new Node<T>(at, bit, one ? node : leaf, one ? leaf : node, '', undefined);
    if (parent === undefined) this.#root = branch;
    else if (parent.zero === node) parent.zero = branch;
    else parent.one = branch;
    this.#size++;
    return true;
  }
}
