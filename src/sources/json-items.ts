/**
 * Streaming reader of the JSON files that hold one top-level object with an `items` array (a
 * Kubernetes List, origin's interval files). The items are handed over in batches, each batch
 * parsed by JSON.parse, so neither the whole text nor the whole parsed tree is ever in memory: the
 * largest CI files (intervals, events, rendered configs) are 50–100 MB of text each.
 *
 * The scanner only finds where items and top-level members start and end; JSON.parse checks the
 * syntax of every piece. Most batches are not even scanned: a cut that looks like the end of an
 * item is tried, and JSON.parse accepting the batch proves it right (#speculate). Anything the
 * scanner does not expect (another shape, a syntax error, a second `items` key) throws
 * NotStreamable, and the caller parses the whole text instead, so errors and edge cases behave
 * exactly as on that path.
 */

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isSpace,
  LARGE_ITEM_BYTES,
  nextNonSpace,
  OPEN_BRACE,
  OPEN_BRACKET,
  PIECE_BYTES,
  QUOTE,
  STRUCTURE,
} from './json-bytes.js';

/**
 * The bytes are not a plain `{…, "items": […], …}` JSON object, or not valid JSON. `invalid` says
 * the bytes cannot be JSON at all, whatever their shape (the text ends inside the object, a
 * separator is missing): a caller may then report that rather than parse the whole text to find it.
 */
export class NotStreamable extends Error {
  constructor(
    message: string,
    readonly invalid = false,
  ) {
    super(message);
  }
}

/** The top-level members other than `items`, and how many items there were. */
export interface ItemsDocument {
  readonly members: ReadonlyMap<string, unknown>;
  readonly items: number;
}

/** Called with consecutive items; `firstIndex` is the index of `batch[0]` in the `items` array. */
export type ItemsSink = (batch: unknown[], firstIndex: number) => void;

enum State {
  Begin,
  KeyOrClose,
  NextKey,
  Key,
  Colon,
  Value,
  MemberContainer,
  MemberString,
  MemberScalar,
  AfterMember,
  ItemOrClose,
  NextItem,
  Item,
  AfterItem,
  Done,
}

function isItemObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * After this many speculative batches that were not whole items (an item with `},{` in a nested
 * array, say), a document is scanned item by item: each miss costs a parse of a batch.
 */
const MAX_SPECULATION_MISSES = 4;

/**
 * Items are parsed a batch of about this many bytes at a time. Below V8's large-object size
 * (128 KiB), so each batch's text and tree are made in the young generation, whose memory is
 * reused: large strings each take fresh pages from the system, which costs more than parsing them.
 */
const DEFAULT_BATCH_BYTES = 48 * 1024;

/** Sizes, in bytes, that tests make small to reach every path with small documents. */
export interface ItemsReaderSizes {
  readonly batchBytes?: number;
  readonly largeItemBytes?: number;
  readonly pieceBytes?: number;
}

/**
 * Members of large items to keep unparsed (model/deferred-json.ts): `paths` are dotted member paths
 * inside an item (`spec.config`); a member on one of them that is larger than a piece is handed to
 * `make` as its bytes (a copy) and whatever `make` returns takes its place in the item.
 */
export interface DeferredMembers {
  readonly paths: ReadonlySet<string>;
  readonly make: (bytes: Buffer, itemIndex: number, path: string) => unknown;
}

export class JsonItemsReader {
  readonly #sink: ItemsSink;
  readonly #batchBytes: number;
  readonly #largeItemBytes: number;
  readonly #pieceBytes: number;
  readonly #deferred: DeferredMembers | undefined;
  readonly #members = new Map<string, unknown>();
  #state = State.Begin;
  #started = false;
  /** Inside a container value: nesting depth, and string/escape state. */
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** The piece being collected (a key, a member value, a batch of items): earlier chunks' slices… */
  #parts: Buffer[] = [];
  #partsBytes = 0;
  /** …and where it starts in the current chunk (0 when it began in an earlier one); -1: none open. */
  #openAt = -1;
  #key = '';
  #sawItems = false;
  #itemCount = 0;
  #batchFirst = 0;
  /** Where the current item starts, in bytes from the start of the open batch. */
  #itemAt = 0;
  /** Batches #speculate tried that were not whole items. */
  #misses = 0;

  constructor(sink: ItemsSink, sizes: ItemsReaderSizes = {}, deferred?: DeferredMembers) {
    this.#sink = sink;
    this.#deferred = deferred;
    this.#batchBytes = sizes.batchBytes ?? DEFAULT_BATCH_BYTES;
    this.#largeItemBytes = sizes.largeItemBytes ?? LARGE_ITEM_BYTES;
    this.#pieceBytes = sizes.pieceBytes ?? PIECE_BYTES;
  }

  write(chunk: Buffer): void {
    let i = 0;
    const n = chunk.length;
    if (!this.#started && n > 0) {
      this.#started = true;
      // A UTF-8 byte order mark, as the whole-text reader strips it.
      if (n >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
      else if (chunk[0] === 0xef) throw new NotStreamable('byte order mark split across chunks');
    }
    if (this.#openAt !== -1) this.#openAt = 0;
    while (i < n) {
      switch (this.#state) {
        case State.Item: {
          i = this.#scanContainer(chunk, i);
          if (this.#depth === 0) {
            this.#itemCount++;
            this.#state = State.AfterItem;
            const batchBytes = this.#partsBytes + (i - this.#openAt);
            if (batchBytes - this.#itemAt > this.#largeItemBytes) this.#flushLarge(chunk, i);
            // A batch begun in an earlier chunk ends with its first item that ends in this one, so
            // that the rest of this chunk is cut ahead (#speculate) rather than scanned.
            else if (batchBytes >= this.#batchBytes || this.#parts.length > 0) this.#flushBatch(chunk, i);
          }
          break;
        }
        case State.AfterItem: {
          const c = chunk[i++]!;
          if (c === COMMA) this.#state = State.NextItem;
          else if (c === CLOSE_BRACKET) {
            if (this.#openAt !== -1) this.#flushBatch(chunk, i - 1);
            this.#state = State.AfterMember;
          } else if (!isSpace(c)) throw new NotStreamable('expected , or ] after an item', true);
          break;
        }
        case State.NextItem:
        case State.ItemOrClose: {
          const c = chunk[i]!;
          if (c === OPEN_BRACE) {
            if (this.#openAt === -1) {
              const end = this.#speculate(chunk, i);
              if (end !== -1) {
                i = end;
                break;
              }
              this.#open(i);
              this.#batchFirst = this.#itemCount;
            }
            this.#itemAt = this.#partsBytes + (i - this.#openAt);
            this.#depth = 0;
            this.#state = State.Item;
          } else if (c === CLOSE_BRACKET && this.#state === State.ItemOrClose) {
            i++;
            this.#state = State.AfterMember;
          } else if (isSpace(c)) i++;
          else throw new NotStreamable('an item is not an object');
          break;
        }
        default:
          i = this.#structure(chunk, i);
      }
    }
    if (this.#openAt !== -1) {
      this.#parts.push(chunk.subarray(this.#openAt));
      this.#partsBytes += n - this.#openAt;
    }
  }

  /**
   * A batch of whole items that starts at `at` (an item's `{`) and lies in this chunk, cut without
   * scanning each item: the first `}` at or past a batch's size that looks like an item's end (a
   * comma and an item's `{` follow, or the array's `]`) is tried (the last such `}` when the chunk
   * ends before a batch's size), and JSON.parse decides. Parsing
   * `[` + the slice + `]` succeeds only if the slice is whole values separated by commas: a cut inside
   * a string leaves the string open, and one inside a nested object leaves brackets open, and either
   * makes JSON.parse throw. So a batch it returns holds exactly the items the scan would have found.
   * The cut must come within LARGE_ITEM_BYTES of the start, so no item in it is one the scan would
   * have parsed in pieces. Returns where the batch ends (the state is then AfterItem), or -1 to
   * scan this batch item by item; after a few misses it stops trying for this document.
   */
  #speculate(chunk: Buffer, at: number): number {
    if (this.#misses >= MAX_SPECULATION_MISSES) return -1;
    const n = chunk.length;
    const last = Math.min(n, at + this.#largeItemBytes);
    // In indented text an item closes at the column it opened at, where the objects nested in it
    // (a pod's containers, `},{` in an array) close further right: only such a `}` is tried.
    const column = columnOf(chunk, at);
    let close = chunk.indexOf(CLOSE_BRACE, at + this.#batchBytes - 1);
    while (close !== -1 && close < last) {
      if (looksLikeItemEnd(chunk, close, column))
        return this.#tryBatch(chunk, at, close + 1) ? close + 1 : -1;
      close = chunk.indexOf(CLOSE_BRACE, close + 1);
    }
    if (last < n) return -1;
    // The chunk ends before a batch's size: a shorter batch, up to the last item that ends in it.
    // Only the item cut by the chunk's end is then scanned (a batch of its own, flushed in the next
    // chunk), not a whole batch's worth of items on either side of the chunk boundary.
    close = n > at ? chunk.lastIndexOf(CLOSE_BRACE, n - 1) : -1;
    while (close > at) {
      if (looksLikeItemEnd(chunk, close, column))
        return this.#tryBatch(chunk, at, close + 1) ? close + 1 : -1;
      close = chunk.lastIndexOf(CLOSE_BRACE, close - 1);
    }
    return -1;
  }

  /** Parse `chunk[at, end)` as a batch of items and hand it on; false (a miss) if it is not one. */
  #tryBatch(chunk: Buffer, at: number, end: number): boolean {
    let batch: unknown;
    try {
      batch = JSON.parse(arrayText(chunk, at, end));
    } catch {
      this.#misses++;
      return false;
    }
    if (!Array.isArray(batch) || !batch.every(isItemObject)) {
      this.#misses++;
      return false;
    }
    const first = this.#itemCount;
    this.#itemCount += batch.length;
    this.#state = State.AfterItem;
    this.#sink(batch, first);
    return true;
  }

  /** Everything outside the items: the object's braces, keys and other members. */
  #structure(chunk: Buffer, at: number): number {
    let i = at;
    const c = chunk[i]!;
    switch (this.#state) {
      case State.Begin:
        if (c === OPEN_BRACE) this.#state = State.KeyOrClose;
        else if (!isSpace(c)) throw new NotStreamable('not a JSON object');
        return i + 1;
      case State.KeyOrClose:
      case State.NextKey:
        if (c === QUOTE) {
          this.#open(i);
          this.#inString = true;
          this.#escaped = false;
          this.#state = State.Key;
        } else if (c === CLOSE_BRACE && this.#state === State.KeyOrClose) this.#state = State.Done;
        else if (!isSpace(c)) throw new NotStreamable('expected a key');
        return i + 1;
      case State.Key:
        i = this.#scanString(chunk, i);
        if (!this.#inString) {
          const key = parse(this.#take(chunk, i));
          this.#key = typeof key === 'string' ? key : '';
          this.#state = State.Colon;
        }
        return i;
      case State.Colon:
        if (c === COLON) this.#state = State.Value;
        else if (!isSpace(c)) throw new NotStreamable('expected :');
        return i + 1;
      case State.Value:
        if (isSpace(c)) return i + 1;
        if (this.#key === 'items') {
          if (this.#sawItems) throw new NotStreamable('two items keys');
          this.#sawItems = true;
          if (c !== OPEN_BRACKET) throw new NotStreamable('items is not an array');
          this.#state = State.ItemOrClose;
          return i + 1;
        }
        this.#open(i);
        if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          this.#depth = 0;
          this.#state = State.MemberContainer;
          return i;
        }
        if (c === QUOTE) {
          this.#inString = true;
          this.#escaped = false;
          this.#state = State.MemberString;
          return i + 1;
        }
        this.#state = State.MemberScalar;
        return i + 1;
      case State.MemberContainer:
        i = this.#scanContainer(chunk, i);
        if (this.#depth === 0) this.#endMember(chunk, i);
        return i;
      case State.MemberString:
        i = this.#scanString(chunk, i);
        if (!this.#inString) this.#endMember(chunk, i);
        return i;
      case State.MemberScalar:
        if (isSpace(c) || c === COMMA || c === CLOSE_BRACE) {
          this.#endMember(chunk, i);
          return i;
        }
        return i + 1;
      case State.AfterMember:
        if (c === COMMA) this.#state = State.NextKey;
        else if (c === CLOSE_BRACE) this.#state = State.Done;
        else if (!isSpace(c)) throw new NotStreamable('expected , or }', true);
        return i + 1;
      default:
        if (!isSpace(c)) throw new NotStreamable('text after the top-level object', true);
        return i + 1;
    }
  }

  /** Advance through a container value; `#depth` is 0 again when it has closed. */
  #scanContainer(chunk: Buffer, at: number): number {
    let depth = this.#depth;
    let inString = this.#inString;
    const n = chunk.length;
    let i = at;
    if (this.#escaped) {
      // The byte after a backslash that ended the last chunk.
      this.#escaped = false;
      i++;
    }
    while (i < n) {
      if (inString) {
        // Most of a file's bytes are inside strings: jump to the closing quote natively.
        const close = closingQuote(chunk, i, n);
        if (close < 0) {
          this.#escaped = close === ESCAPED_AT_END;
          i = n;
          break;
        }
        inString = false;
        i = close + 1;
        continue;
      }
      while (i < n && STRUCTURE[chunk[i]!] === 0) i++;
      if (i >= n) break;
      const c = chunk[i++]!;
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (--depth <= 0) break;
    }
    if (depth < 0) throw new NotStreamable('unbalanced brackets', true);
    this.#depth = depth;
    this.#inString = inString;
    return i;
  }

  /** Advance through a string whose opening quote is behind; `#inString` turns false at its end. */
  #scanString(chunk: Uint8Array, at: number): number {
    let escaped = this.#escaped;
    const n = chunk.length;
    for (let i = at; i < n; i++) {
      const c = chunk[i]!;
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) {
        this.#inString = false;
        this.#escaped = false;
        return i + 1;
      }
    }
    this.#escaped = escaped;
    return n;
  }

  #open(at: number): void {
    this.#openAt = at;
    this.#parts = [];
    this.#partsBytes = 0;
  }

  /**
   * The text of the open piece up to `end` in `chunk`; closes the piece. Decoded straight from the
   * chunk when it lies in one; bytes are joined first only when it spans chunks (so a character
   * split between two chunks decodes whole).
   */
  #take(chunk: Buffer, end: number): string {
    const start = this.#openAt;
    const parts = this.#parts;
    this.#parts = [];
    this.#partsBytes = 0;
    this.#openAt = -1;
    if (parts.length === 0) return chunk.toString('utf8', start, end);
    parts.push(chunk.subarray(start, end));
    return Buffer.concat(parts).toString('utf8');
  }

  #endMember(chunk: Buffer, end: number): void {
    const value = parse(this.#take(chunk, end));
    // Duplicate keys: the last one wins, as with JSON.parse.
    this.#members.set(this.#key, value);
    this.#state = State.AfterMember;
  }

  /**
   * The batch ends with a large item: parse the items before it as a batch, and the item itself in
   * pieces, so that no string or tree of its size is made at once.
   */
  #flushLarge(chunk: Buffer, end: number): void {
    const itemAt = this.#itemAt;
    const parts = this.#parts;
    parts.push(chunk.subarray(this.#openAt, end));
    this.#parts = [];
    this.#partsBytes = 0;
    this.#openAt = -1;
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    const first = this.#batchFirst;
    if (itemAt > 0) {
      // The items before it, up to the comma that separates them from it.
      let comma = itemAt - 1;
      while (comma > 0 && isSpace(bytes[comma]!)) comma--;
      if (bytes[comma] !== COMMA) throw new NotStreamable('expected , between items');
      const batch = parse(`[${bytes.toString('utf8', 0, comma)}]`);
      if (!Array.isArray(batch)) throw new NotStreamable('items batch is not an array');
      this.#sink(batch, first);
    }
    const index = this.#itemCount - 1;
    const item = parseLarge(bytes, itemAt, bytes.length, this.#pieceBytes, this.#deferOf(index));
    this.#sink([item], index);
  }

  #deferOf(index: number): Defer | undefined {
    const d = this.#deferred;
    if (d === undefined || d.paths.size === 0) return undefined;
    return { paths: d.paths, make: (bytes, path) => d.make(bytes, index, path) };
  }

  #flushBatch(chunk: Buffer, end: number): void {
    const batch = parse(`[${this.#take(chunk, end)}]`);
    if (!Array.isArray(batch)) throw new NotStreamable('items batch is not an array');
    this.#sink(batch, this.#batchFirst);
  }

  /** The document's other members; throws NotStreamable unless the whole object was read. */
  end(): ItemsDocument {
    if (this.#state !== State.Done) throw new NotStreamable('the object does not end', this.#started);
    if (!this.#sawItems) throw new NotStreamable('no items');
    return { members: this.#members, items: this.#itemCount };
  }
}

/**
 * Whether the `}` at `close` is followed, within the chunk, by what follows an item (a comma and the
 * next item's `{`, or the array's `]`), and stands at `column` if that is not -1.
 */
function looksLikeItemEnd(chunk: Buffer, close: number, column: number): boolean {
  if (column !== -1 && columnOf(chunk, close) !== column) return false;
  const next = nextNonSpace(chunk, close + 1);
  const c = chunk[next];
  return c === CLOSE_BRACKET || (c === COMMA && chunk[nextNonSpace(chunk, next + 1)] === OPEN_BRACE);
}

/**
 * The column of the byte at `at` when only spaces and tabs precede it on its line and the line
 * starts in the chunk; -1 otherwise (text that is not indented, or a line begun in an earlier chunk).
 */
function columnOf(chunk: Buffer, at: number): number {
  let k = at - 1;
  while (k >= 0 && (chunk[k] === 0x20 || chunk[k] === 0x09)) k--;
  return k >= 0 && chunk[k] === 0x0a ? at - k - 1 : -1;
}

/** closingQuote found no closing quote, and the range ends in the middle of an escape. */
const ESCAPED_AT_END = -2;

/**
 * The index of the quote that closes a string, searching `bytes[from, end)` where `from` is inside
 * the string and not just after an unpaired backslash: -1 if the string does not close in the range,
 * ESCAPED_AT_END if besides it ends on an unpaired backslash. Buffer.indexOf (memchr) finds each
 * quote; a quote is escaped when an odd run of backslashes precedes it.
 */
function closingQuote(bytes: Buffer, from: number, end: number): number {
  let i = from;
  for (;;) {
    const q = bytes.indexOf(QUOTE, i);
    if (q < 0 || q >= end) return backslashesBefore(bytes, end, from) % 2 === 1 ? ESCAPED_AT_END : -1;
    if (backslashesBefore(bytes, q, from) % 2 === 0) return q;
    i = q + 1;
  }
}

/** How many backslashes come straight before `at`, not looking before `from`. */
function backslashesBefore(bytes: Uint8Array, at: number, from: number): number {
  let k = at;
  while (k > from && bytes[k - 1] === BACKSLASH) k--;
  return at - k;
}

/** The end (exclusive) of the string whose opening quote is at `at`, within `bytes[…, end)`. */
function stringEnd(bytes: Buffer, at: number, end: number): number {
  const close = closingQuote(bytes, at + 1, end);
  if (close < 0) throw new NotStreamable('unterminated string', true);
  return close + 1;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NotStreamable('a piece is not valid JSON', true);
  }
}

/**
 * The JSON value in `bytes[start, end)`, built from pieces of at most PIECE_BYTES each parsed by
 * JSON.parse: objects and arrays larger than that are split into their members. The result is what
 * JSON.parse of the whole would give (members in order, the last of duplicate keys winning).
 */
export function parseLarge(
  bytes: Buffer,
  start: number,
  end: number,
  pieceBytes = PIECE_BYTES,
  defer?: Defer,
): unknown {
  try {
    return new LargeValue(bytes, start, end, pieceBytes, defer).value(start, end, '');
  } catch (err) {
    if (err instanceof NotStreamable) throw err;
    // A RangeError from a deep nesting of large containers, for one: the whole-text reader decides.
    throw new NotStreamable('a large item could not be parsed in pieces');
  }
}

/** DeferredMembers for one item. */
interface Defer {
  readonly paths: ReadonlySet<string>;
  readonly make: (bytes: Buffer, path: string) => unknown;
}

class LargeValue {
  readonly #bytes: Buffer;
  readonly #pieceBytes: number;
  readonly #defer: Defer | undefined;
  /** Where each container that starts in the range ends (exclusive), by its start. */
  readonly #ends = new Map<number, number>();

  constructor(bytes: Buffer, start: number, end: number, pieceBytes: number, defer: Defer | undefined) {
    this.#bytes = bytes;
    this.#pieceBytes = pieceBytes;
    this.#defer = defer;
    const opens: number[] = [];
    let i = start;
    while (i < end) {
      while (i < end && STRUCTURE[bytes[i]!] === 0) i++;
      if (i >= end) break;
      const c = bytes[i]!;
      if (c === QUOTE) {
        i = stringEnd(bytes, i, end);
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) opens.push(i);
      else {
        const open = opens.pop();
        // `{` closes with `}` (0x7b, 0x7d) and `[` with `]` (0x5b, 0x5d).
        if (open === undefined || bytes[open] !== c - 2) throw new NotStreamable('unbalanced brackets');
        this.#ends.set(open, i + 1);
      }
      i++;
    }
    if (opens.length > 0) throw new NotStreamable('unbalanced brackets');
  }

  /** The value in `[start, end)`, at `path` (dotted member names; '' at the item, undefined in an array). */
  value(start: number, end: number, path: string | undefined): unknown {
    const c = this.#bytes[start];
    if (end - start <= this.#pieceBytes || (c !== OPEN_BRACE && c !== OPEN_BRACKET))
      return parse(this.#bytes.toString('utf8', start, end));
    if (this.#ends.get(start) !== end) throw new NotStreamable('not one value');
    if (path !== undefined && this.#defer?.paths.has(path)) {
      // A copy of its own (memcpy), so that it holds neither the item's nor a decoder's buffer.
      const own = Buffer.allocUnsafeSlow(end - start);
      this.#bytes.copy(own, 0, start, end);
      return this.#defer.make(own, path);
    }
    return c === OPEN_BRACE ? this.#object(start, end, path) : this.#array(start, end);
  }

  #object(start: number, end: number, path: string | undefined): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let i = this.#skipSpace(start + 1);
    if (this.#bytes[i] === CLOSE_BRACE) return this.#closes(i, end, out);
    for (;;) {
      if (this.#bytes[i] !== QUOTE) throw new NotStreamable('expected a key');
      const keyEnd = this.#stringEnd(i);
      const key = parse(this.#bytes.toString('utf8', i, keyEnd)) as string;
      i = this.#skipSpace(keyEnd);
      if (this.#bytes[i] !== COLON) throw new NotStreamable('expected :');
      i = this.#skipSpace(i + 1);
      const valueEnd = this.#valueEnd(i, end);
      const value = this.value(
        i,
        valueEnd,
        this.#defer === undefined || path === undefined ? undefined : path === '' ? key : `${path}.${key}`,
      );
      // As JSON.parse: an own `__proto__` property, not the prototype.
      if (key === '__proto__')
        Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
      else out[key] = value;
      i = this.#skipSpace(valueEnd);
      if (this.#bytes[i] === COMMA) i = this.#skipSpace(i + 1);
      else return this.#closes(i, end, out);
    }
  }

  #array(start: number, end: number): unknown[] {
    const out: unknown[] = [];
    let i = this.#skipSpace(start + 1);
    if (this.#bytes[i] === CLOSE_BRACKET) return this.#closes(i, end, out);
    for (;;) {
      const valueEnd = this.#valueEnd(i, end);
      out.push(this.value(i, valueEnd, undefined));
      i = this.#skipSpace(valueEnd);
      if (this.#bytes[i] === COMMA) i = this.#skipSpace(i + 1);
      else return this.#closes(i, end, out);
    }
  }

  /** `value`, if `at` is the closing bracket that ends the container at `end`. */
  #closes<T>(at: number, end: number, value: T): T {
    if (at !== end - 1) throw new NotStreamable('expected , or a closing bracket');
    return value;
  }

  #valueEnd(at: number, end: number): number {
    const c = this.#bytes[at];
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const close = this.#ends.get(at);
      if (close === undefined || close > end) throw new NotStreamable('unbalanced brackets');
      return close;
    }
    if (c === QUOTE) return this.#stringEnd(at);
    let i = at;
    while (i < end) {
      const d = this.#bytes[i]!;
      if (isSpace(d) || d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) break;
      i++;
    }
    if (i === at) throw new NotStreamable('expected a value');
    return i;
  }

  #stringEnd(at: number): number {
    return stringEnd(this.#bytes, at, this.#bytes.length);
  }

  #skipSpace(at: number): number {
    return nextNonSpace(this.#bytes, at);
  }
}

/**
 * `[${chunk.toString('utf8', at, end)}]` without the concatenation, which V8 flattens into a second
 * copy of the whole batch before parsing it: the bytes on either side are swapped for the brackets
 * while the text is decoded, and put back at once (nothing else runs meanwhile).
 */
function arrayText(chunk: Buffer, at: number, end: number): string {
  if (at < 1 || end >= chunk.length) return `[${chunk.toString('utf8', at, end)}]`;
  const before = chunk[at - 1] as number;
  const after = chunk[end] as number;
  chunk[at - 1] = OPEN_BRACKET;
  chunk[end] = CLOSE_BRACKET;
  try {
    return chunk.toString('utf8', at - 1, end + 1);
  } finally {
    chunk[at - 1] = before;
    chunk[end] = after;
  }
}
