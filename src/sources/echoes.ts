/**
 * Dropping, while the interval files are read, the intervals that echo a build-log line: what
 * timeline's dropEchoes would drop from the history anyway. A CI run's interval JSON repeats every
 * monitor line of its build log; reading the log first and dropping the echoes as they come keeps a
 * second copy of every event from ever being held. Whatever the history would have seen of them is
 * kept: how many were read (for the inputs list), how many repeated each other (for the note) and
 * the time they span (for the history's span).
 */
import type { Interval, Locator, Millis } from '../model/index.js';
import type { EchoIndex } from '../timeline/index.js';

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
  const offset = i.from - partner.from + OFFSET_RANGE / 2;
  const length = i.to - i.from;
  if (
    i.level !== partner.level ||
    i.locator !== partner.locator ||
    i.message.reason !== partner.message.reason ||
    i.message.annotations !== partner.message.annotations ||
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
  /** Dropped intervals, by the build-log interval they echo (identical ones echo the same). */
  readonly #dropped = new Map<Interval, Dropped | Dropped[]>();
  /** Undo log of the file being read, so a file read again from the start is not counted twice. */
  #undo: Interval[] = [];
  #undoDuplicates = 0;
  duplicates = 0;
  span: { from: Millis; to: Millis } | undefined;

  constructor(logged: EchoIndex) {
    this.#logged = logged;
  }

  /** True when `i` echoes a build-log line: the caller drops it. */
  drop(i: Interval): boolean {
    const partner = this.#logged.echoOf(i);
    if (partner === undefined) return false;
    if (!this.span) this.span = { from: i.from, to: i.to };
    else {
      if (i.from < this.span.from) this.span.from = i.from;
      if (i.to > this.span.to) this.span.to = i.to;
    }
    // The identity of load.ts's duplicate check. Equal intervals take the same form (packed or
    // not), since the form depends only on the interval and its partner.
    const key = packed(i, partner);
    const dropped: Dropped =
      key ?? new DroppedInterval(i.from, i.to, i.level, i.locator, i.message.reason, i.message.annotations);
    const same = (d: Dropped) => (typeof d === 'number' ? d === key : key === undefined && d.equals(i));
    const seen = this.#dropped.get(partner);
    if (seen !== undefined && (Array.isArray(seen) ? seen.some(same) : same(seen))) {
      this.duplicates++;
      this.#undoDuplicates++;
      return true;
    }
    if (seen === undefined) this.#dropped.set(partner, dropped);
    else if (Array.isArray(seen)) seen.push(dropped);
    else this.#dropped.set(partner, [seen, dropped]);
    this.#undo.push(partner);
    return true;
  }

  /** A file is about to be read (again): what is dropped from now on can be taken back. */
  begin(): void {
    this.#undo = [];
    this.#undoDuplicates = 0;
  }

  /** Forget what was dropped since `begin` (the file is read again from the start). */
  rollback(): void {
    for (let k = this.#undo.length - 1; k >= 0; k--) {
      const partner = this.#undo[k] as Interval;
      const seen = this.#dropped.get(partner);
      if (Array.isArray(seen) && seen.length > 1) seen.pop();
      else this.#dropped.delete(partner);
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
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let k = 0; k < ka.length; k++) {
    const key = ka[k] as string;
    if (key !== kb[k] || a[key] !== b[key]) return false;
  }
  return true;
}
