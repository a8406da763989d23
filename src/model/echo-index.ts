/**
 * The build log's intervals, indexed to answer "is this interval from another source an echo of
 * one of them": same object (objectKey), human message, condition and status, starting within a
 * second (`echoes`). The answer is the first logged interval, in the order they were added, that it
 * echoes.
 *
 * A build log lists its monitor lines in time order, and an echo starts less than a second from
 * its line. The logged intervals that come in time order are searched by time: the only candidates
 * are those that start within a second either side, found by binary search over an array of start
 * times. No map over every message of the log is built; on a large run those maps cost more than
 * reading the intervals file itself. The few that come out of order (a log's closing lines, written
 * after the monitor lines but about earlier times) are kept in maps by object and message. A
 * question about a crowded second (more than CROWDED candidates) uses maps over every logged
 * interval, built the first time one is asked.
 */
import type { Interval, Locator } from './history.js';
import { objectKey } from './locator.js';
import type { Millis } from './time.js';

/** Distinct (kind, namespace, name) triples echoPositionOfItem remembers; past them it makes each key anew. */
const MAX_ITEM_KEYS = 1 << 16;

/** Candidates beyond which a scan costs more than the maps (and a hostile log could make it quadratic). */
const CROWDED = 128;

type Annotations = Readonly<Record<string, string>>;
/** object key → human message → positions of logged intervals, in the order they were added. */
type Groups = Map<string, Map<string, number | number[]>>;

export class EchoIndex {
  readonly #logged: Interval[] = [];
  /** objectKey of each logged interval's locator, by position. */
  readonly #keys: string[] = [];
  /**
   * A number for each distinct object key, and each in-order interval's number, aligned with
   * #starts: the scan of a window compares numbers, and a key that no logged interval has is
   * answered by one lookup.
   */
  readonly #keyNumbers = new Map<string, number>();
  /** Each key by its number (#keyNumbers the other way). */
  readonly #keysByNumber: string[] = [];
  /**
   * The numbers of known keys by kind, namespace ('' for cluster-scoped kinds) and name, for the
   * kinds objectKey keys by those alone: an item checked before it is an interval has a locator
   * object of its own, and making its key string (then hashing it) was most of echoPosition's cost.
   */
  readonly #itemKeys = new Map<string, Map<string, Map<string, number>>>();
  #itemKeyCount = 0;
  #keyNumberOf = new Int32Array(1024);
  /** Positions of the intervals added in time order, and their starts (the binary search reads only these). */
  readonly #inOrder: number[] = [];
  #starts = new Float64Array(1024);
  /** The intervals added out of time order (or with no finite start). */
  readonly #stragglers: Groups = new Map();
  /** Every logged interval, for crowded seconds; built on first need, then kept up to date. */
  #all: Groups | undefined;
  readonly #objectKeys = new Map<Locator, string>();

  get size(): number {
    return this.#logged.length;
  }

  add(logged: Interval): void {
    const at = this.#logged.length;
    this.#logged.push(logged);
    this.#keys.push(this.#objectKey(logged.locator));
    const from = logged.from;
    const count = this.#inOrder.length;
    if (!Number.isFinite(from) || (count > 0 && from < (this.#starts[count - 1] as number))) {
      group(this.#stragglers, this.#keys, this.#logged, at);
    } else {
      if (count === this.#starts.length) {
        const starts = new Float64Array(count * 2);
        starts.set(this.#starts);
        this.#starts = starts;
        const numbers = new Int32Array(count * 2);
        numbers.set(this.#keyNumberOf);
        this.#keyNumberOf = numbers;
      }
      this.#starts[count] = from;
      this.#keyNumberOf[count] = this.#keyNumber(this.#keys[at] as string);
      this.#inOrder.push(at);
    }
    if (this.#all) group(this.#all, this.#keys, this.#logged, at);
  }

  isEcho(i: Interval): boolean {
    return this.echoOf(i) !== undefined;
  }

  /** The first logged interval that `i` echoes, if any. */
  echoOf(i: Interval): Interval | undefined {
    return this.logged(this.echoPositionOf(i));
  }

  /** Where the first logged interval that `i` echoes was added (0 for the first added), or -1. */
  echoPositionOf(i: Interval): number {
    const { humanMessage, annotations } = i.message;
    return this.echoPosition(this.#objectKey(i.locator), humanMessage, annotations, i.from);
  }

  /** The logged interval added at `position` (echoPosition's answer), undefined for -1. */
  logged(position: number): Interval | undefined {
    return this.#logged[position];
  }

  /**
   * echoPositionOf for an interval not built yet (sources check items before making intervals of
   * them): its object key (objectKey of its locator), human message, annotations and start.
   */
  echoPosition(key: string, humanMessage: string, annotations: Annotations, from: Millis): number {
    return this.#position(this.#keyNumbers.get(key), key, humanMessage, annotations, from);
  }

  /**
   * echoPosition for an item's own locator (not an interned one): the same answer, with the key's
   * number found by the strings it is made of when they were seen before.
   */
  echoPositionOfItem(locator: Locator, humanMessage: string, annotations: Annotations, from: Millis): number {
    const k = locator.keys;
    let namespace = '';
    let name: string | undefined;
    // objectKey's kinds whose key is the kind, a name and, for Pod, a namespace.
    switch (locator.type) {
      case 'ClusterOperator':
        name = k.clusteroperator ?? k.name;
        break;
      case 'ClusterVersion':
        name = k.clusterversion ?? k.name;
        break;
      case 'Node':
        name = k.node ?? k.name;
        break;
      case 'MachineConfigPool':
        name = k.machineconfigpool ?? k.name;
        break;
      case 'MachineConfig':
        name = k.machineconfig ?? k.name;
        break;
      case 'Pod':
        namespace = k.namespace ?? '';
        name = k.pod ?? k.name;
        break;
    }
    if (typeof name !== 'string' || typeof namespace !== 'string') {
      const key = objectKey(locator);
      return this.#position(this.#keyNumbers.get(key), key, humanMessage, annotations, from);
    }
    const known = this.#itemKeys.get(locator.type)?.get(namespace)?.get(name);
    if (known !== undefined)
      return this.#position(known, this.#keysByNumber[known] as string, humanMessage, annotations, from);
    const key = objectKey(locator);
    const number = this.#keyNumbers.get(key);
    // Only keys the log has are remembered: one it lacks now may come with a later add.
    if (number !== undefined && this.#itemKeyCount < MAX_ITEM_KEYS) {
      let byNamespace = this.#itemKeys.get(locator.type);
      if (byNamespace === undefined) {
        byNamespace = new Map();
        this.#itemKeys.set(locator.type, byNamespace);
      }
      let byName = byNamespace.get(namespace);
      if (byName === undefined) {
        byName = new Map();
        byNamespace.set(namespace, byName);
      }
      byName.set(name, number);
      this.#itemKeyCount++;
    }
    return this.#position(number, key, humanMessage, annotations, from);
  }

  /** echoPosition, given the key's number (undefined: no logged interval has the key). */
  #position(
    number: number | undefined,
    key: string,
    humanMessage: string,
    annotations: Annotations,
    from: Millis,
  ): number {
    // Every candidate starts in (from - 1000, from + 1000); a millisecond more on each side keeps
    // floating-point rounding at the edges from hiding one (`echoes` has the last word).
    const first = this.#firstStartAbove(from - 1001);
    const end = this.#firstStartAbove(from + 1000);
    if (end - first > CROWDED)
      return this.#firstPosition(this.#allGroups(), key, humanMessage, annotations, from);
    let found = -1;
    if (number !== undefined) {
      for (let n = first; n < end; n++) {
        if (this.#keyNumberOf[n] !== number) continue;
        const at = this.#inOrder[n] as number;
        if (this.#echoes(at, humanMessage, annotations, from)) {
          found = at;
          break;
        }
      }
    }
    if (this.#stragglers.size === 0) return found;
    const straggler = this.#firstPosition(this.#stragglers, key, humanMessage, annotations, from);
    return straggler === -1 ? found : found === -1 ? straggler : Math.min(found, straggler);
  }

  #firstPosition(
    groups: Groups,
    key: string,
    humanMessage: string,
    annotations: Annotations,
    from: Millis,
  ): number {
    const seen = groups.get(key)?.get(humanMessage);
    if (seen === undefined) return -1;
    if (typeof seen === 'number') return this.#echoes(seen, humanMessage, annotations, from) ? seen : -1;
    return seen.find((at) => this.#echoes(at, humanMessage, annotations, from)) ?? -1;
  }

  #echoes(at: number, humanMessage: string, annotations: Annotations, from: Millis): boolean {
    const logged = this.#logged[at] as Interval;
    return logged.message.humanMessage === humanMessage && echoes(logged, annotations, from);
  }

  #keyNumber(key: string): number {
    let number = this.#keyNumbers.get(key);
    if (number === undefined) {
      number = this.#keyNumbers.size;
      this.#keyNumbers.set(key, number);
      this.#keysByNumber.push(key);
    }
    return number;
  }

  /** The first of the in-order positions whose start is above `t` (their count when none is). */
  #firstStartAbove(t: number): number {
    let lo = 0;
    let hi = this.#inOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#starts[mid] as number) > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  #allGroups(): Groups {
    if (this.#all) return this.#all;
    const all: Groups = new Map();
    for (let at = 0; at < this.#logged.length; at++) group(all, this.#keys, this.#logged, at);
    this.#all = all;
    return all;
  }

  /** Locators are shared between intervals (sources intern them), so each key is made once. */
  #objectKey(locator: Locator): string {
    let key = this.#objectKeys.get(locator);
    if (key === undefined) {
      key = objectKey(locator);
      this.#objectKeys.set(locator, key);
    }
    return key;
  }
}

function group(groups: Groups, keys: readonly string[], logged: readonly Interval[], at: number): void {
  const key = keys[at] as string;
  let byMessage = groups.get(key);
  if (!byMessage) {
    byMessage = new Map();
    groups.set(key, byMessage);
  }
  const message = (logged[at] as Interval).message.humanMessage;
  const seen = byMessage.get(message);
  if (seen === undefined) byMessage.set(message, at);
  else if (typeof seen === 'number') byMessage.set(message, [seen, at]);
  else seen.push(at);
}

/** Same condition and status, and a start less than a second away (or in the logged line's second). */
function echoes(logged: Interval, b: Annotations, from: Millis): boolean {
  const a = logged.message.annotations;
  if ((a.condition ?? '') !== (b.condition ?? '') || (a.status ?? '') !== (b.status ?? '')) return false;
  const t = logged.from;
  return Math.floor(t / 1000) * 1000 === from || Math.abs(t - from) < 1000;
}
