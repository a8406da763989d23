import type { ClusterHistory, Interval } from '../model/history.js';
import type { HistoryParts } from '../sources/types.js';
import { deriveIntervals, latestTime } from './derive.js';
import { objectKey } from './locator.js';

/** Merge monitor intervals with intervals derived from objects, sort them, and compute the span. */
export function buildHistory(parts: HistoryParts): ClusterHistory {
  let from = Number.POSITIVE_INFINITY;
  let to = latestTime(parts.objects);
  for (const i of parts.monitorIntervals) {
    if (i.from < from) from = i.from;
    if (i.to > to) to = i.to;
  }
  for (const e of parts.testLog) {
    if (e.at < from) from = e.at;
    if (e.at > to) to = e.at;
  }
  const derived = deriveIntervals(parts.objects, Number.isFinite(to) ? to : undefined);
  for (const i of derived) if (i.from < from) from = i.from;
  const intervals: Interval[] = dropEchoes(parts.monitorIntervals).concat(derived);
  intervals.sort(byTime);
  return {
    objects: parts.objects,
    intervals,
    testLog: [...parts.testLog].sort((a, b) => a.at - b.at),
    releases: parts.releases,
    inputs: parts.inputs,
    span: Number.isFinite(from) && Number.isFinite(to) ? { from, to } : undefined,
    notes: parts.notes,
    ...(parts.alerts ? { alerts: parts.alerts } : {}),
  };
}

/**
 * The build log and the intervals JSON of one run record the same monitor events, the log with
 * milliseconds and the JSON truncated to seconds. Keep the log's copy of each and drop its echo, so
 * every event is counted once.
 */
export function dropEchoes(intervals: readonly Interval[]): Interval[] {
  const logged = new Map<string, number[]>();
  const keyOf = (i: Interval) =>
    `${objectKey(i.locator)}\u0000${i.message.humanMessage}\u0000${i.message.annotations.condition ?? ''}\u0000${i.message.annotations.status ?? ''}`;
  for (const i of intervals) {
    if (i.source !== 'build-log') continue;
    const k = keyOf(i);
    const list = logged.get(k);
    if (list) list.push(i.from);
    else logged.set(k, [i.from]);
  }
  if (logged.size === 0) return [...intervals];
  return intervals.filter((i) => {
    if (i.source === 'build-log') return true;
    const times = logged.get(keyOf(i));
    return !times?.some((t) => Math.floor(t / 1000) * 1000 === i.from || Math.abs(t - i.from) < 1000);
  });
}

function byTime(a: Interval, b: Interval): number {
  return a.from - b.from || a.to - b.to;
}
