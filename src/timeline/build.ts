import type { ClusterHistory, Interval } from '../model/history.js';
import type { HistoryParts } from '../sources/types.js';
import { deriveIntervals, latestTime } from './derive.js';

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
  const intervals: Interval[] = parts.monitorIntervals.concat(derived);
  intervals.sort(byTime);
  return {
    objects: parts.objects,
    intervals,
    testLog: [...parts.testLog].sort((a, b) => a.at - b.at),
    releases: parts.releases,
    inputs: parts.inputs,
    span: Number.isFinite(from) && Number.isFinite(to) ? { from, to } : undefined,
    notes: parts.notes,
  };
}

function byTime(a: Interval, b: Interval): number {
  return a.from - b.from || a.to - b.to;
}
