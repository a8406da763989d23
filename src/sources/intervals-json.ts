/**
 * origin's interval JSON files (`e2e-events*.json`, `e2e-intervals*.json`, `e2e-timelines*.json`),
 * in all three schema generations (docs/domain.md 7.3): 4.10 string locator/message; transitional with
 * `tempStructuredLocator`/`tempStructuredMessage`; current structured `locator`/`message`.
 */

import type { Interval, IntervalLevel, IntervalMessage, Locator } from '../model/index.js';
import { detach, InputError, Interner, parseTime } from '../model/index.js';
import { conditionOwnMessage, parseLocatorText, parseMessageText } from './monitor-text.js';

type Loose = Record<string, unknown>;

const LEVELS = new Set<IntervalLevel>(['Info', 'Warning', 'Error']);

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Does this parsed document look like an interval file (`{items: [{level, locator, from…}]}`)? */
export function looksLikeIntervals(doc: unknown): boolean {
  if (!isObject(doc) || doc.kind !== undefined || !Array.isArray(doc.items)) return false;
  const first = doc.items[0];
  return isObject(first) && 'from' in first && 'level' in first && ('locator' in first || 'message' in first);
}

/** Every interval of an interval file. Throws InputError naming the first malformed item. */
export function parseIntervalsDocument(
  doc: unknown,
  file: string,
  source: string,
  intern: Interner = new Interner(),
): Interval[] {
  if (!isObject(doc) || !Array.isArray(doc.items)) {
    throw new InputError(file, 'not an intervals file: expected {"items": [...]}');
  }
  const out: Interval[] = [];
  doc.items.forEach((item: unknown, index) => {
    out.push(parseIntervalItem(item, index, file, source, intern));
  });
  return out;
}

/** `items[index]` of an interval file. Throws InputError naming it when it is malformed. */
export function parseIntervalItem(
  item: unknown,
  index: number,
  file: string,
  source: string,
  intern: Interner,
): Interval {
  const path = () => `items[${index}]`;
  if (!isObject(item)) throw new InputError(file, `${path()}: expected an object`);
  const from = parseTime(item.from);
  if (from === undefined) throw new InputError(file, `${path()}: from: expected an RFC 3339 time`);
  const to = item.to === null || item.to === undefined || item.to === '' ? from : parseTime(item.to);
  if (to === undefined) throw new InputError(file, `${path()}: to: expected an RFC 3339 time or null`);
  const level = item.level;
  if (typeof level !== 'string' || !LEVELS.has(level as IntervalLevel)) {
    throw new InputError(file, `${path()}: level: expected Info, Warning or Error`);
  }
  return {
    from,
    to: Math.max(from, to),
    level: intern.string(level) as IntervalLevel,
    locator: locatorOf(item, file, path, intern),
    message: messageOf(item, from !== to, file, path, intern),
    source,
    ref: { file, path: path() },
  };
}

/**
 * The fields of a current-schema item whose locator keys and annotations are all strings and whose
 * message has no separate cause: the common case, and the only one a CI run's echoes of its build
 * log take. An item read this way yields exactly the interval parseIntervalItem would make (same
 * times, level, keys in the same order, reason, message and annotations), so the echo check can run
 * on it before any interval, interned locator or reference is built for an item that is then
 * dropped. Undefined for every other item: parseIntervalItem decides those, with its errors.
 */
export interface PlainItem {
  readonly from: number;
  /** Already clamped to `from`, as the interval's `to` is. */
  readonly to: number;
  readonly level: IntervalLevel;
  /** The item's own locator object; only `type` and `keys` are read. */
  readonly locator: Locator;
  readonly reason: string;
  readonly humanMessage: string;
  readonly annotations: Readonly<Record<string, string>>;
}

export function plainItem(item: unknown): PlainItem | undefined {
  if (!isObject(item)) return undefined;
  const level = item.level;
  if (typeof level !== 'string' || !LEVELS.has(level as IntervalLevel)) return undefined;
  const locator = item.locator;
  if (!isStructuredLocator(locator) || !allStrings(locator.keys)) return undefined;
  const m = item.message;
  if (!isObject(m) || !hasContent(m) || (typeof m.cause === 'string' && m.cause !== '')) return undefined;
  if (!allStrings(m.annotations)) return undefined;
  const from = parseTime(item.from);
  if (from === undefined) return undefined;
  const to = item.to === null || item.to === undefined || item.to === '' ? from : parseTime(item.to);
  if (to === undefined) return undefined;
  return {
    from,
    to: Math.max(from, to),
    level: level as IntervalLevel,
    locator: locator as unknown as Locator,
    reason: typeof m.reason === 'string' ? m.reason : '',
    humanMessage:
      typeof m.humanMessage === 'string' ? conditionOwnMessage(m.humanMessage, m.annotations) : '',
    annotations: m.annotations,
  };
}

/** An object whose own keys all hold strings: what internable passes on without a copy. */
function allStrings(v: unknown): v is Readonly<Record<string, string>> {
  if (!isObject(v)) return false;
  for (const k in v) if (k === '__proto__' || !Object.hasOwn(v, k) || typeof v[k] !== 'string') return false;
  return true;
}

function isStructuredLocator(v: unknown): v is Loose & { type: string } {
  return isObject(v) && typeof v.type === 'string' && v.type !== '';
}

function locatorOf(item: Loose, file: string, path: () => string, intern: Interner): Locator {
  const structured = isStructuredLocator(item.locator)
    ? item.locator
    : isStructuredLocator(item.tempStructuredLocator)
      ? item.tempStructuredLocator
      : undefined;
  if (structured) return intern.locator(structured.type, internable(structured.keys));
  if (typeof item.locator === 'string') {
    const parsed = parseLocatorText(item.locator);
    return intern.locator(parsed.type, parsed.keys);
  }
  // A transitional item whose structured locator was left empty and whose string locator is gone.
  if (isObject(item.locator) || isObject(item.tempStructuredLocator)) {
    const keys = stringRecord(isObject(item.locator) ? item.locator.keys : undefined);
    return intern.locator('Unknown', keys);
  }
  throw new InputError(file, `${path()}: locator: expected a string or {type, keys}`);
}

function messageOf(
  item: Loose,
  interval: boolean,
  file: string,
  path: () => string,
  intern: Interner,
): IntervalMessage {
  if (isObject(item.message) && hasContent(item.message)) return structuredMessage(item.message, intern);
  if (isObject(item.tempStructuredMessage) && hasContent(item.tempStructuredMessage))
    return structuredMessage(item.tempStructuredMessage, intern);
  if (typeof item.message === 'string') {
    const parsed = parseMessageText(item.message, interval);
    return {
      reason: intern.string(parsed.reason),
      humanMessage: detach(parsed.humanMessage),
      annotations: intern.record(parsed.annotations),
    };
  }
  if (isObject(item.message)) return structuredMessage(item.message, intern);
  if (item.message === undefined || item.message === null)
    return { reason: '', humanMessage: '', annotations: intern.record({}) };
  throw new InputError(file, `${path()}: message: expected a string or {reason, humanMessage, annotations}`);
}

function hasContent(m: Loose): boolean {
  return (
    (typeof m.reason === 'string' && m.reason !== '') ||
    (typeof m.humanMessage === 'string' && m.humanMessage !== '') ||
    (isObject(m.annotations) && hasOwnKey(m.annotations))
  );
}

function structuredMessage(m: Loose, intern: Interner): IntervalMessage {
  const reason = typeof m.reason === 'string' ? intern.string(m.reason) : '';
  const cause = typeof m.cause === 'string' && m.cause !== '' ? m.cause : undefined;
  let annotations: Readonly<Record<string, string>>;
  if (cause === undefined) annotations = internable(m.annotations);
  else {
    const copy = stringRecord(m.annotations);
    if (copy.cause === undefined) copy.cause = cause;
    annotations = copy;
  }
  return {
    reason,
    humanMessage: typeof m.humanMessage === 'string' ? conditionOwnMessage(m.humanMessage, annotations) : '',
    annotations: intern.record(annotations),
  };
}

function hasOwnKey(o: Loose): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/**
 * `stringRecord(value)` for the interner, which copies what it keeps and only reads what it is
 * given: a record that is already all strings is passed as it is, without a copy per item.
 */
function internable(value: unknown): Readonly<Record<string, string>> {
  if (!isObject(value)) return {};
  return allStrings(value) ? value : stringRecord(value);
}

/** Keys with string (or number/boolean) values; anything else is dropped. */
function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  // for…in with an own-key check: the order of Object.entries, without its arrays.
  for (const k in value) {
    if (k === '__proto__' || !Object.hasOwn(value, k)) continue;
    const v = value[k];
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  }
  return out;
}

/** Identity of an interval for spotting the same one in two files (everything but its file). */
function intervalIdentity(i: Interval): string {
  return JSON.stringify([
    i.from,
    i.to,
    i.level,
    i.locator.type,
    i.locator.keys,
    i.message.reason,
    i.message.humanMessage,
    i.message.annotations,
  ]);
}

/**
 * The same identity, cheaper to compute, for intervals whose locator and annotations `intern` made
 * (equal shared objects mean equal keys in equal order, as JSON.stringify would see them).
 */
export function internedIdentity(i: Interval, intern: Interner): string {
  const locator = intern.id(i.locator);
  const annotations = intern.id(i.message.annotations);
  if (locator === undefined || annotations === undefined) return intervalIdentity(i);
  const { reason, humanMessage } = i.message;
  return `${i.from} ${i.to} ${i.level} ${locator} ${annotations} ${reason.length}:${reason}${humanMessage}`;
}
