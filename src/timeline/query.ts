import type { ClusterHistory, Interval, Locator, Millis, SourceRef } from '../model/index.js';
import { objectKey } from '../model/index.js';
import { parseLibraryGoVersionEvent } from './version-events.js';

/** A condition's status from a moment on, as some source recorded it. */
export interface ConditionTransition {
  readonly at: Millis;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly source: string;
  readonly ref: SourceRef;
}

/** A version change reported by a ClusterOperator (`versions: operator A -> B`). */
export interface VersionChange {
  readonly at: Millis;
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly source: string;
  readonly ref: SourceRef;
}

interface Index {
  byObject: Map<string, Interval[]>;
  /** Kube events by reason, for the few reasons analyses look up. */
  eventsByReason: Map<string, Interval[]>;
  /** Every distinct locator object of the intervals, with its object key. */
  locators: Map<Locator, string>;
  /** The earliest and latest time (from or to) of the intervals `watchedOrEvent` takes. */
  reach: Reach;
  /** Answers already given for this history (see `remembered`). */
  answers: Map<string, unknown>;
}

const indexes = new WeakMap<ClusterHistory, Index>();

/** Intervals grouped by object key, built once per history. Each list keeps the history's time order. */
function indexOf(history: ClusterHistory): Index {
  let idx = indexes.get(history);
  if (!idx) {
    const byObject = new Map<string, Interval[]>();
    const eventsByReason = new Map<string, Interval[]>();
    // Intervals share locator objects (sources and derive intern them): make each key once.
    const keys = new Map<Locator, string>();
    const reach = { from: Number.POSITIVE_INFINITY, to: Number.NEGATIVE_INFINITY };
    for (const i of history.intervals) {
      let key = keys.get(i.locator);
      if (key === undefined) {
        key = objectKey(i.locator);
        keys.set(i.locator, key);
      }
      push(byObject, key, i);
      if (i.locator.type === 'KubeEvent') push(eventsByReason, i.message.reason, i);
      if (watchedOrEvent(i)) stretch(reach, i);
    }
    idx = { byObject, eventsByReason, locators: keys, reach, answers: new Map() };
    indexes.set(history, idx);
  }
  return idx;
}

/**
 * Give `next` the index of `base` with `added` merged in, instead of a walk over all of `next`'s
 * intervals: `next.intervals` must be `merge(base.intervals, added)`, where `merge` is a stable merge
 * of two lists sorted by one order that puts `base`'s interval first on a tie (buildHistory's
 * mergeSorted). Such a merge decides the order of any two intervals by comparing those two alone,
 * so each list of the index of `next` is the same merge of the lists of `base` and `added`. The
 * answers are not carried over: they were given about other intervals. Nothing is done when `base`
 * has no index yet (nobody asked it anything); `next` then builds its own when asked.
 */
export function inheritIndex(
  base: ClusterHistory,
  next: ClusterHistory,
  added: readonly Interval[],
  merge: (a: readonly Interval[], b: readonly Interval[]) => Interval[],
): void {
  const from = indexes.get(base);
  if (!from || indexes.has(next)) return;
  const byObject = new Map(from.byObject);
  const eventsByReason = new Map(from.eventsByReason);
  const addedByObject = new Map<string, Interval[]>();
  const addedByReason = new Map<string, Interval[]>();
  const locators = new Map(from.locators);
  const reach = { ...from.reach };
  for (const i of added) {
    const key = objectKey(i.locator);
    push(addedByObject, key, i);
    if (!locators.has(i.locator)) locators.set(i.locator, key);
    if (i.locator.type === 'KubeEvent') push(addedByReason, i.message.reason, i);
    if (watchedOrEvent(i)) stretch(reach, i);
  }
  // The lists of `base` are not written to: each merge makes a new one.
  for (const [key, list] of addedByObject) byObject.set(key, merge(byObject.get(key) ?? [], list));
  for (const [reason, list] of addedByReason)
    eventsByReason.set(reason, merge(eventsByReason.get(reason) ?? [], list));
  indexes.set(next, { byObject, eventsByReason, locators, reach, answers: new Map() });
}

interface Reach {
  from: Millis;
  to: Millis;
}

/**
 * The intervals a monitor or the events recorded, not those derived from the objects' own fields:
 * what the update window spans (window.ts).
 */
function watchedOrEvent(i: Interval): boolean {
  return !i.source.startsWith('derived:') || i.source === 'derived:event';
}

/** Widen `reach` to the interval's from and to (a NaN compares false and widens nothing). */
function stretch(reach: Reach, i: Interval): void {
  if (i.from < reach.from) reach.from = i.from;
  if (i.from > reach.to) reach.to = i.from;
  if (i.to < reach.from) reach.from = i.to;
  if (i.to > reach.to) reach.to = i.to;
}

/**
 * The earliest and the latest time, from or to, of the intervals a monitor or the events recorded
 * (infinite when there are none): what a walk over every interval would find, from the index.
 */
export function watchedReach(history: ClusterHistory): { readonly from: Millis; readonly to: Millis } {
  return indexOf(history).reach;
}

/**
 * Every distinct locator object among the history's intervals (intervals share them), each once,
 * with its object key (intervalsOf that key holds its intervals): what a walk over every interval for
 * the objects they name would find, without the walk.
 */
export function intervalLocators(history: ClusterHistory): ReadonlyMap<Locator, string> {
  return indexOf(history).locators;
}

function push(map: Map<string, Interval[]>, key: string, i: Interval): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/**
 * The answer to one question about a history, computed once. A history never changes after it is
 * built (its fields are readonly, as the index above already relies on), and the rules, the status
 * assessment and the explanations ask the same questions of it again and again: which updates, the
 * transitions of one condition, one operator's version changes, one pool's history. Each walks the
 * intervals, so on a run of 200k intervals the repeats cost more than the first answers. Answers are
 * shared, hence readonly.
 */
export function remembered<T>(history: ClusterHistory, question: string, answer: () => T): T {
  const answers = indexOf(history).answers;
  if (answers.has(question)) return answers.get(question) as T;
  const made = answer();
  answers.set(question, made);
  return made;
}

/** Kube events (as intervals) with this reason, in time order. */
export function eventsWithReason(history: ClusterHistory, reason: string): readonly Interval[] {
  return indexOf(history).eventsByReason.get(reason) ?? [];
}

export function intervalsOf(history: ClusterHistory, key: string): readonly Interval[] {
  return indexOf(history).byObject.get(key) ?? [];
}

/**
 * Every recorded transition of one condition of one object, oldest first. Monitor lines give each
 * change; a snapshot gives only the last one. Duplicates (the same change seen in the build log and
 * in an intervals file, at different precisions) are kept: callers pick the most precise.
 */
export function conditionTransitions(
  history: ClusterHistory,
  key: string,
  type: string,
): readonly ConditionTransition[] {
  return remembered(history, `conditions\u0000${key}\u0000${type}`, () => transitionsOf(history, key, type));
}

function transitionsOf(history: ClusterHistory, key: string, type: string): ConditionTransition[] {
  const out: ConditionTransition[] = [];
  for (const i of intervalsOf(history, key)) {
    const a = i.message.annotations;
    if (a.condition !== type || a.status === undefined) continue;
    out.push({
      at: i.from,
      status: a.status,
      reason: a.reason ?? i.message.reason,
      message: i.message.humanMessage,
      source: i.source,
      ref: i.ref,
    });
  }
  return out.sort((x, y) => x.at - y.at);
}

const VERSIONS_RE = /versions:\s*(.+)$/;
const PAIR_RE = /^\s*(\S+)\s+(\S+)\s+->\s+(\S+)\s*$/;
const EVENT_RE = /version changed from \[(.*)\] to \[(.*)\]/;

/**
 * Version changes of a ClusterOperator, from monitor lines and from `OperatorVersionChanged` events:
 * the machine-config operator's form (about the ClusterOperator, every entry in one message) and
 * library-go's (about the operator's Deployment, one entry a message; version-events.ts).
 */
export function versionChanges(history: ClusterHistory, operator: string): readonly VersionChange[] {
  return remembered(history, `versions\u0000${operator}`, () => versionChangesOf(history, operator));
}

function versionChangesOf(history: ClusterHistory, operator: string): VersionChange[] {
  const out: VersionChange[] = [];
  for (const i of intervalsOf(history, `ClusterOperator/${operator}`)) {
    const text = i.message.annotations.versions
      ? `versions: ${i.message.annotations.versions}`
      : i.message.humanMessage;
    // Most of an operator's intervals are condition changes: a native search rules them out before
    // the pattern, which would otherwise try every position of every message.
    const m = text.includes('versions:') ? VERSIONS_RE.exec(text) : null;
    if (!m?.[1]) continue;
    for (const pair of m[1].split(',')) {
      const p = PAIR_RE.exec(pair);
      if (p?.[1] && p[2] && p[3])
        out.push({ at: i.from, name: p[1], from: p[2], to: p[3], source: i.source, ref: i.ref });
    }
  }
  for (const i of eventsWithReason(history, 'OperatorVersionChanged')) {
    if (i.message.annotations.name !== operator) continue;
    const m = EVENT_RE.exec(i.message.humanMessage);
    // A library-go message whose quoted value holds this form's words is that form's, read below.
    if (!m || parseLibraryGoVersionEvent(i.message.humanMessage)) continue;
    const before = parseVersionList(m[1] ?? '');
    const after = parseVersionList(m[2] ?? '');
    for (const [name, version] of after) {
      const old = before.get(name);
      if (old !== version)
        out.push({ at: i.from, name, from: old ?? '', to: version, source: i.source, ref: i.ref });
    }
  }
  for (const c of libraryGoChanges(history).get(operator) ?? []) out.push(c);
  return out.sort((a, b) => a.at - b.at);
}

/**
 * library-go's `OperatorVersionChanged` Events (version-events.ts), by the ClusterOperator their
 * message names: they are about the operator's Deployment, so they are read once for all operators.
 * Dated as the other form is, by the interval's start (the Event's first time: `firstTimestamp`, else
 * `eventTime`, derive.ts), which an aggregated Event's later repeats do not move. No message is of
 * both forms, so no Event counts twice; an operator witnessed by both (or by a monitor line too) is
 * dated by the most precise and earliest of them (earliestPrecise).
 */
function libraryGoChanges(history: ClusterHistory): ReadonlyMap<string, readonly VersionChange[]> {
  return remembered(history, 'library-go versions', () => {
    const out = new Map<string, VersionChange[]>();
    for (const i of eventsWithReason(history, 'OperatorVersionChanged')) {
      const c = parseLibraryGoVersionEvent(i.message.humanMessage);
      if (!c) continue;
      const list = out.get(c.operator) ?? [];
      list.push({ at: i.from, name: c.name, from: c.from, to: c.to, source: i.source, ref: i.ref });
      out.set(c.operator, list);
    }
    return out;
  });
}

/** `{operator 4.10.0-a} {kube-apiserver 1.23.0}` → map. */
function parseVersionList(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/\{(\S+)\s+([^}\s]+)\}/g)) {
    if (m[1] && m[2]) out.set(m[1], m[2]);
  }
  return out;
}

/**
 * The sources that stamp what they observe to the millisecond: origin's monitor lines in a build log,
 * and `atlevel watch`'s records of the watch events it saw (src/watch/monitor.ts; not `live-relist`,
 * stamped when a relist found a change that happened earlier). Objects' times (metav1.Time) and
 * Events are whole seconds.
 */
const MILLISECOND_SOURCES: ReadonlySet<string> = new Set(['build-log', 'live-watch']);

/** The most precise of several observations of the same moment: prefer millisecond sources, then the earliest. */
export function earliestPrecise<T extends { at: Millis; source: string }>(
  items: readonly T[],
): T | undefined {
  const precise = items.filter((i) => MILLISECOND_SOURCES.has(i.source));
  const pool = precise.length > 0 ? precise : items;
  let best: T | undefined;
  for (const i of pool) if (!best || i.at < best.at) best = i;
  return best;
}
