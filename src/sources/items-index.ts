/**
 * An index of a List's bytes: where each item starts and ends, and where, inside each item, the
 * members on a few dotted paths (`spec.config`) start and end, found without building anything.
 * `atlevel diff` reads a machineconfigs.json this way (quick-configs.ts): hundreds of rendered
 * configs of about 200 KB each, of which it compares two, so every other config stays bytes.
 *
 * Only the levels where keys matter are walked token by token: the top-level object, its `items`
 * array, each item, and the objects on a path (`spec`). Every other value is skipped by following
 * strings (the closing quote is found natively, Buffer.indexOf; it is escaped when an odd run of
 * backslashes precedes it) and brackets (each closing one must match the kind that opened it), and
 * nothing else of its syntax is checked: whoever uses the index parses every byte it keeps (the
 * caller JSON.parses the items with the indexed members cut out), as the ordinary reader checks no
 * more of a member it keeps as bytes (json-items.ts). It answers undefined whenever it cannot be
 * sure of the shape, and the caller then reads the file the ordinary way: not one object with one
 * `items` array of objects, unbalanced brackets, an unterminated string, a key it must compare that
 * holds an escape (`"sp\u0065c"` is `spec`), a path member given twice in one object (JSON.parse
 * keeps the last), or nesting deeper than MAX_DEPTH.
 */

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isSpace,
  nextNonSpace,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  STRUCTURE,
} from './json-bytes.js';

/** Deeper than this, the index gives up (the ordinary reader holds such a file to the tree budget). */
const MAX_DEPTH = 1024;

/** Strings up to this long are searched byte by byte; longer ones by Buffer.indexOf. */
const SHORT_STRING = 48;

/** A value's bytes: `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface IndexedItem extends Span {
  /** The members found on the wanted paths, by path, each an object's or an array's span. */
  readonly members: ReadonlyMap<string, Span>;
  /** The spans of the objects on the way to each found member (`spec` for `spec.config`), by path. */
  readonly parents: ReadonlyMap<string, Span>;
}

export interface ItemsIndex {
  /** Where the text starts (after a UTF-8 byte order mark). */
  readonly begin: number;
  /** The `items` array's span, brackets included. */
  readonly items: Span;
  readonly list: readonly IndexedItem[];
}

/** One level of the path trie: the keys that lead on, and whether a key ends a wanted path. */
interface PathNode {
  readonly next: Map<string, PathNode>;
  readonly path: string;
  wanted: boolean;
}

function trie(paths: readonly string[]): PathNode {
  const root: PathNode = { next: new Map(), path: '', wanted: false };
  for (const p of paths) {
    let node = root;
    for (const key of p.split('.')) {
      let child = node.next.get(key);
      if (!child) {
        child = { next: new Map(), path: node.path === '' ? key : `${node.path}.${key}`, wanted: false };
        node.next.set(key, child);
      }
      node = child;
    }
    node.wanted = true;
  }
  return root;
}

/**
 * The index of `bytes`, a JSON object with an `items` array of objects, and in each item the
 * members on `paths` (dotted member names from the item, `spec.config`) that are objects or arrays;
 * undefined when the bytes are not surely that shape (see the header).
 */
export function indexItems(bytes: Buffer, paths: readonly string[]): ItemsIndex | undefined {
  try {
    return new Walk(bytes, trie(paths)).top();
  } catch (err) {
    if (err instanceof Unsure) return undefined;
    throw err;
  }
}

class Unsure extends Error {}

/**
 * The end (exclusive) of the object or array whose opening bracket is at `at`, or -1 when it does not
 * close, a bracket closes one of the other kind, a string does not end, or it nests deeper than
 * MAX_DEPTH. Nothing else is checked. Nearly every byte of a List of rendered configs is read here,
 * so it is kept small and reads only locals and a typed array: a process reads one file, the loop
 * runs cold, and V8 compiles a small loop early and cheaply (on-stack replacement).
 */
function containerEnd(b: Buffer, at: number, stack: Uint8Array): number {
  const n = b.length;
  let depth = 0;
  let i = at;
  while (i < n) {
    let c = b[i] as number;
    while (STRUCTURE[c] === 0) {
      // Most bytes between strings are indentation (`oc get -o json` indents by 4 spaces a level):
      // after a line feed, spaces are passed by the tightest loop there is.
      if (c === 0x0a) while (b[i + 1] === 0x20) i++;
      if (++i >= n) return -1;
      c = b[i] as number;
    }
    if (c === QUOTE) {
      i = stringEnd(b, i + 1, n);
      if (i < 0) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth >= MAX_DEPTH) return -1;
      stack[++depth] = c;
      i++;
      continue;
    }
    // A closing bracket must match the opening one: `{` 0x7b `}` 0x7d, `[` 0x5b `]` 0x5d (stack[0] is 0).
    if (stack[depth] !== c - 2) return -1;
    i++;
    if (--depth === 0) return i;
  }
  return -1;
}

/**
 * The index after the quote that closes the string whose first byte is at `from`, or -1 if none
 * does: searched byte by byte in a short string, natively in a long one; a quote is escaped when
 * an odd run of backslashes precedes it.
 */
function stringEnd(b: Buffer, from: number, n: number): number {
  const short = Math.min(from + SHORT_STRING, n);
  let j = from;
  for (;;) {
    let q = -1;
    while (j < short) {
      if (b[j] === QUOTE) {
        q = j;
        break;
      }
      j++;
    }
    if (q === -1) {
      q = b.indexOf(QUOTE, j);
      if (q === -1) return -1;
    }
    let k = q;
    while (k > from && b[k - 1] === BACKSLASH) k--;
    if (((q - k) & 1) === 0) return q + 1;
    j = q + 1;
  }
}

/**
 * The few levels where keys matter, walked token by token: the top-level object, the items array,
 * each item, and the objects on a path in it. Every value there that is not on a path is skipped
 * whole (containerEnd, stringEnd, a scalar's bytes). Stricter than JSON on nothing: a List that is
 * valid JSON always walks; whatever the walk accepts outside the path members is parsed later.
 */
class Walk {
  readonly #b: Buffer;
  readonly #root: PathNode;
  readonly #stack = new Uint8Array(MAX_DEPTH + 1);
  #i = 0;

  constructor(bytes: Buffer, root: PathNode) {
    this.#b = bytes;
    this.#root = root;
  }

  top(): ItemsIndex {
    const b = this.#b;
    if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.#i = 3;
    const begin = this.#i;
    let items: { span: Span; list: IndexedItem[] } | undefined;
    this.#expect(OPEN_BRACE);
    if (this.#peek() === CLOSE_BRACE) throw new Unsure();
    for (;;) {
      const key = this.#key();
      if (key === 'items') {
        if (items !== undefined) throw new Unsure();
        items = this.#items();
      } else this.#skipValue();
      if (this.#next() === CLOSE_BRACE) break;
    }
    // Only spaces after the object.
    this.#skipSpace();
    if (this.#i !== b.length || items === undefined) throw new Unsure();
    return { begin, items: items.span, list: items.list };
  }

  #items(): { span: Span; list: IndexedItem[] } {
    const start = this.#i;
    this.#expect(OPEN_BRACKET);
    const list: IndexedItem[] = [];
    if (this.#peek() === CLOSE_BRACKET) this.#i++;
    else {
      for (;;) {
        if (this.#peek() !== OPEN_BRACE) throw new Unsure();
        const members = new Map<string, Span>();
        const parents = new Map<string, Span>();
        const at = this.#i;
        this.#object(this.#root, members, parents);
        list.push({ start: at, end: this.#i, members, parents });
        if (this.#next() === CLOSE_BRACKET) break;
      }
    }
    return { span: { start, end: this.#i }, list };
  }

  /** The object at the cursor, its keys matched against `node`'s. */
  #object(node: PathNode, members: Map<string, Span>, parents: Map<string, Span>): void {
    this.#expect(OPEN_BRACE);
    if (this.#peek() === CLOSE_BRACE) {
      this.#i++;
      return;
    }
    const seen = new Set<string>();
    for (;;) {
      const key = this.#key();
      const next = node.next.get(key);
      if (next === undefined) this.#skipValue();
      else {
        // JSON.parse keeps the last of a key given twice; the index would have to know which.
        if (seen.has(key)) throw new Unsure();
        seen.add(key);
        const c = this.#peek();
        const start = this.#i;
        if (next.wanted && (c === OPEN_BRACE || c === OPEN_BRACKET)) {
          this.#skipValue();
          members.set(next.path, { start, end: this.#i });
        } else if (c === OPEN_BRACE && next.next.size > 0) {
          this.#object(next, members, parents);
          parents.set(next.path, { start, end: this.#i });
        } else this.#skipValue();
      }
      if (this.#next() === CLOSE_BRACE) return;
    }
  }

  /** A key and its colon; the cursor is left at the value. */
  #key(): string {
    this.#skipSpace();
    const b = this.#b;
    const at = this.#i;
    if (b[at] !== QUOTE) throw new Unsure();
    const end = stringEnd(b, at + 1, b.length);
    if (end < 0) throw new Unsure();
    // A key with an escape could be any of the keys that matter.
    for (let k = at + 1; k < end - 1; k++) if (b[k] === BACKSLASH) throw new Unsure();
    this.#i = end;
    this.#expect(COLON);
    this.#skipSpace();
    return b.toString('latin1', at + 1, end - 1);
  }

  #skipValue(): void {
    const b = this.#b;
    const c = this.#peek();
    let end: number;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) end = containerEnd(b, this.#i, this.#stack);
    else if (c === QUOTE) end = stringEnd(b, this.#i + 1, b.length);
    else {
      // A number, true, false or null: its syntax is JSON.parse's to check.
      end = this.#i;
      while (
        end < b.length &&
        STRUCTURE[b[end] as number] === 0 &&
        !isSpace(b[end] as number) &&
        b[end] !== COMMA
      )
        end++;
      if (end === this.#i) end = -1;
    }
    if (end < 0) throw new Unsure();
    this.#i = end;
  }

  /** After a member or an element: a comma (false) or the closing bracket (its byte). */
  #next(): number {
    this.#skipSpace();
    const c = this.#b[this.#i];
    if (c === COMMA) {
      this.#i++;
      return COMMA;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      this.#i++;
      return c;
    }
    throw new Unsure();
  }

  #expect(c: number): void {
    this.#skipSpace();
    if (this.#b[this.#i] !== c) throw new Unsure();
    this.#i++;
  }

  #peek(): number | undefined {
    this.#skipSpace();
    return this.#b[this.#i];
  }

  #skipSpace(): void {
    this.#i = nextNonSpace(this.#b, this.#i);
  }
}
