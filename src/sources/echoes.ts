/**
 * Dropping, while the interval files are read, the intervals that echo a build-log line: what
 * timeline's dropEchoes would drop from the history anyway. A CI run's interval JSON repeats every
 * monitor line of its build log; reading the log first and dropping the echoes as they come keeps a
 * second copy of every event from ever being held. Whatever the history would have seen of them is
 * kept: how many were read (for the inputs list), how many repeated each other (for the note) and
 * the time they span (for the history's span).
 */
import type { EchoIndex, Interval, Locator, Millis } from '../model/index.js';
import type { PlainItem } from './intervals-json.js';

/**
 * A dropped interval, as much of it as its identity needs beyond what its partner (the build-log
 * interval it echoes) pins down. Most echoes share the partner's level, locator, reason and
 * annotations and start within a second of it: those are packed into one small integer.
 */
type Dropped = number | DroppedInterval;

class DroppedInterval {
  constructor(
    readonly from: Millis,
    readonly to: Millis,
    readonly level: string,
    readonly locator: Locator,
    readonly reason: string,
    readonly annotations: Readonly<Record<string, string>>,
  ) {}

  equals(i: Interval): boolean {
    const m = i.message;
    return (
      this.from === i.from &&
      this.to === i.to &&
      this.level === i.level &&
      sameLocator(this.locator, i.locator) &&
      this.reason === m.reason &&
      sameRecord(this.annotations, m.annotations)
    );
  }
}

const OFFSET_RANGE = 4096;
const MAX_PACKED_LENGTH = 2 ** 18;

/** The packed form (a small integer) when `i` differs from `partner` only in its times, else undefined. */
function packed(i: Interval, partner: Interval): number | undefined {
  if (
    i.level !== partner.level ||
    i.locator !== partner.locator ||
    i.message.reason !== partner.message.reason ||
    i.message.annotations !== partner.message.annotations
  )
    return undefined;
  return packedTimes(i.from, i.to, partner);
}

/** The packed form of an item not made an interval yet: its fields are compared, not shared objects. */
function packedItem(p: PlainItem, partner: Interval): number | undefined {
  if (
    p.level !== partner.level ||
    !sameLocator(p.locator, partner.locator) ||
    p.reason !== partner.message.reason ||
    !sameRecord(p.annotations, partner.message.annotations)
  )
    return undefined;
  return packedTimes(p.from, p.to, partner);
}

function packedTimes(from: Millis, to: Millis, partner: Interval): number | undefined {
  const offset = from - partner.from + OFFSET_RANGE / 2;
  const length = to - from;
  if (
    !Number.isInteger(offset) ||
    offset < 0 ||
    offset >= OFFSET_RANGE ||
    !Number.isInteger(length) ||
    length >= MAX_PACKED_LENGTH
  )
    return undefined;
  return length * OFFSET_RANGE + offset;
}

export class EchoFilter {
  readonly #logged: EchoIndex;
  /**
   * Dropped intervals, by the position (in the echo index) of the build-log interval they echo:
   * identical ones echo the same. An array, not a map: positions are small and dense.
   */
  readonly #dropped: (Dropped | Dropped[] | undefined)[] = [];
  /** Undo log of the file being read (positions), so a file read again from the start is not counted twice. */
  #undo: number[] = [];
  #undoDuplicates = 0;
  duplicates = 0;
  span: { from: Millis; to: Millis } | undefined;

  constructor(logged: EchoIndex) {
    this.#logged = logged;
  }

  /** True when `i` echoes a build-log line: the caller drops it. */
  drop(i: Interval): boolean {
    const at = this.#logged.echoPositionOf(i);
    const partner = this.#logged.logged(at);
    if (partner === undefined) return false;
    // The identity of load.ts's duplicate check. Equal intervals take the same form (packed or
    // not), since the form depends only on the interval and its partner.
    const key = packed(i, partner);
    if (key !== undefined) this.#keep(at, i.from, i.to, key);
    else {
      const m = i.message;
      const d = new DroppedInterval(i.from, i.to, i.level, i.locator, m.reason, m.annotations);
      this.#keep(at, i.from, i.to, d, (seen) => typeof seen !== 'number' && seen.equals(i));
    }
    return true;
  }

  /**
   * drop for an interval file's item before it is made an interval (see plainItem): true when it
   * echoes a build-log line and was dropped as drop would have; false when it echoes none (the
   * caller keeps it without asking drop again); undefined when only drop can tell (an echo that
   * differs from its partner in more than its times).
   */
  dropItem(p: PlainItem): boolean | undefined {
    const at = this.#logged.echoPositionOfItem(p.locator, p.humanMessage, p.annotations, p.from);
    const partner = this.#logged.logged(at);
    if (partner === undefined) return false;
    const packedKey = packedItem(p, partner);
    if (packedKey === undefined) return undefined;
    this.#keep(at, p.from, p.to, packedKey);
    return true;
  }

  /** Record a dropped echo of the logged interval at `partner`, or count it as a duplicate of one dropped before. */
  #keep(
    partner: number,
    from: Millis,
    to: Millis,
    dropped: Dropped,
    same: (seen: Dropped) => boolean = (seen) => seen === dropped,
  ): void {
    if (!this.span) this.span = { from, to };
    else {
      if (from < this.span.from) this.span.from = from;
      if (to > this.span.to) this.span.to = to;
    }
    const seen = this.#dropped[partner];
    if (seen !== undefined && (Array.isArray(seen) ? seen.some(same) : same(seen))) {
      this.duplicates++;
      this.#undoDuplicates++;
      return;
    }
    if (seen === undefined) this.#dropped[partner] = dropped;
    else if (Array.isArray(seen)) seen.push(dropped);
    else this.#dropped[partner] = [seen, dropped];
    this.#undo.push(partner);
  }

  /** A file is about to be read (again): what is dropped from now on can be taken back. */
  begin(): void {
    this.#undo = [];
    this.#undoDuplicates = 0;
  }

  /** Forget what was dropped since `begin` (the file is read again from the start). */
  rollback(): void {
    for (let k = this.#undo.length - 1; k >= 0; k--) {
      const partner = this.#undo[k] as number;
      const seen = this.#dropped[partner];
      if (Array.isArray(seen) && seen.length > 1) seen.pop();
      else this.#dropped[partner] = undefined;
    }
    this.duplicates -= this.#undoDuplicates;
    this.begin();
  }
}

/** Equal as JSON.stringify sees them: same type, same keys in the same order, same values. */
function sameLocator(a: Locator, b: Locator): boolean {
  return a === b || (a.type === b.type && sameRecord(a.keys, b.keys));
}

function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  // Called for nearly every item of an interval file, with `b` one of the few records the interner
  // made: its keys are listed once, and `a`'s are walked without making an array of them. for…in
  // lists an object's own keys in Object.keys order, then inherited enumerable ones, which plain
  // records and null-prototype ones do not have (nothing in atlevel adds any to Object.prototype).
  const kb = keysOf(b);
  let n = 0;
  for (const key in a) {
    if (key !== kb[n] || a[key] !== b[key]) return false;
    n++;
  }
  return n === kb.length;
}

const KEYS = new WeakMap<object, readonly string[]>();

function keysOf(record: Readonly<Record<string, string>>): readonly string[] {
  let keys = KEYS.get(record);
  if (keys === undefined) {
    keys = Object.keys(record);
    KEYS.set(record, keys);
  }
  return keys;
}
