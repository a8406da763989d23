/**
 * origin's interval JSON files (`e2e-events*.json`, `e2e-intervals*.json`, `e2e-timelines*.json`),
 * in all three schema generations (domain.md 7.3): 4.10 string locator/message; transitional with
 * `tempStructuredLocator`/`tempStructuredMessage`; current structured `locator`/`message`.
 */
import { InputError } from '../model/errors.js';
import type { Interval, IntervalLevel, IntervalMessage, Locator } from '../model/history.js';
import { parseTime } from '../model/time.js';
import { parseLocatorText, parseMessageText } from './monitor-text.js';

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

/** Which writer produced a file, from its name (`e2e-timelines_spyglass_…json` → `e2e-timelines`). */
export function intervalSourceOf(name: string): string {
  const m = /^(e2e-events|e2e-intervals|e2e-timelines)/.exec(name);
  return m?.[1] ?? 'intervals-json';
}

/** Every interval of an interval file. Throws InputError naming the first malformed item. */
export function parseIntervalsDocument(doc: unknown, file: string, source: string): Interval[] {
  if (!isObject(doc) || !Array.isArray(doc.items)) {
    throw new InputError(file, 'not an intervals file: expected {"items": [...]}');
  }
  const out: Interval[] = [];
  doc.items.forEach((item: unknown, index) => {
    const path = `items[${index}]`;
    if (!isObject(item)) throw new InputError(file, `${path}: expected an object`);
    const from = parseTime(item.from);
    if (from === undefined) throw new InputError(file, `${path}: from: expected an RFC 3339 time`);
    const to = item.to === null || item.to === undefined || item.to === '' ? from : parseTime(item.to);
    if (to === undefined) throw new InputError(file, `${path}: to: expected an RFC 3339 time or null`);
    const level = item.level;
    if (typeof level !== 'string' || !LEVELS.has(level as IntervalLevel)) {
      throw new InputError(file, `${path}: level: expected Info, Warning or Error`);
    }
    out.push({
      from,
      to: Math.max(from, to),
      level: level as IntervalLevel,
      locator: locatorOf(item, file, path),
      message: messageOf(item, from !== to, file, path),
      source,
      ref: { file, path },
    });
  });
  return out;
}

function locatorOf(item: Loose, file: string, path: string): Locator {
  for (const candidate of [item.locator, item.tempStructuredLocator]) {
    if (isObject(candidate) && typeof candidate.type === 'string' && candidate.type !== '') {
      return { type: candidate.type, keys: stringRecord(candidate.keys) };
    }
  }
  if (typeof item.locator === 'string') return parseLocatorText(item.locator);
  // A transitional item whose structured locator was left empty and whose string locator is gone.
  if (isObject(item.locator) || isObject(item.tempStructuredLocator)) {
    const keys = stringRecord(isObject(item.locator) ? item.locator.keys : undefined);
    return { type: 'Unknown', keys };
  }
  throw new InputError(file, `${path}: locator: expected a string or {type, keys}`);
}

function messageOf(item: Loose, interval: boolean, file: string, path: string): IntervalMessage {
  for (const candidate of [item.message, item.tempStructuredMessage]) {
    if (isObject(candidate) && hasContent(candidate)) return structuredMessage(candidate);
  }
  if (typeof item.message === 'string') return parseMessageText(item.message, interval);
  if (isObject(item.message)) return structuredMessage(item.message);
  if (item.message === undefined || item.message === null)
    return { reason: '', humanMessage: '', annotations: {} };
  throw new InputError(file, `${path}: message: expected a string or {reason, humanMessage, annotations}`);
}

function hasContent(m: Loose): boolean {
  return (
    (typeof m.reason === 'string' && m.reason !== '') ||
    (typeof m.humanMessage === 'string' && m.humanMessage !== '') ||
    (isObject(m.annotations) && Object.keys(m.annotations).length > 0)
  );
}

function structuredMessage(m: Loose): IntervalMessage {
  const annotations = stringRecord(m.annotations);
  const reason = typeof m.reason === 'string' ? m.reason : '';
  if (typeof m.cause === 'string' && m.cause !== '' && annotations.cause === undefined) {
    annotations.cause = m.cause;
  }
  return { reason, humanMessage: typeof m.humanMessage === 'string' ? m.humanMessage : '', annotations };
}

/** Keys with string (or number/boolean) values; anything else is dropped. */
function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') continue;
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  }
  return out;
}

/** Identity of an interval for spotting the same one in two files (everything but its file). */
export function intervalIdentity(i: Interval): string {
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
