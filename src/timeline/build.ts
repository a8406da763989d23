import type { ClusterHistory, HistoryParts, Interval } from '../model/index.js';
import { formatDuration } from '../model/index.js';
import { deriveEventIntervals, deriveIntervals, latestObjectTime } from './derive.js';
import { inheritIndex } from './query.js';
import { rolloutIntervals } from './rollouts.js';

/**
 * Merge monitor intervals with intervals derived from objects, sort them, and compute the span. The
 * parts' monitor intervals hold no echoes (whoever made the parts dropped them, see dropEchoes).
 */
export function buildHistory(parts: HistoryParts): ClusterHistory {
  let from = Number.POSITIVE_INFINITY;
  // latestTime(parts.objects), with the Events' part taken from the pass that makes their intervals.
  const events = deriveEventIntervals(parts.objects.events);
  let to = Math.max(latestObjectTime(parts.objects), events.latest);
  for (const i of parts.monitorIntervals) {
    if (i.from < from) from = i.from;
    if (i.to > to) to = i.to;
  }
  if (parts.echoSpan) {
    if (parts.echoSpan.from < from) from = parts.echoSpan.from;
    if (parts.echoSpan.to > to) to = parts.echoSpan.to;
  }
  for (const e of parts.testLog) {
    if (e.at < from) from = e.at;
    if (e.at > to) to = e.at;
  }
  const derived = deriveIntervals(parts.objects, Number.isFinite(to) ? to : undefined, events.intervals);
  for (const i of derived) if (i.from < from) from = i.from;
  const intervals: Interval[] = parts.monitorIntervals.concat(derived);
  intervals.sort(byTime);
  const history: ClusterHistory = {
    objects: parts.objects,
    intervals,
    testLog: [...parts.testLog].sort((a, b) => a.at - b.at),
    releases: parts.releases,
    inputs: parts.inputs,
    span: Number.isFinite(from) && Number.isFinite(to) ? { from, to } : undefined,
    notes: events.skews.length === 0 ? parts.notes : [...parts.notes, ...events.skews.map(skewNote)],
    ...(parts.alerts ? { alerts: parts.alerts } : {}),
    ...(parts.mcoImage ? { mcoImage: parts.mcoImage } : {}),
    ...(parts.revisions ? { revisions: parts.revisions } : {}),
    ...(parts.guests
      ? { guests: parts.guests.map((g) => ({ name: g.name, history: buildHistory(g.parts) })) }
      : {}),
  };
  // Rollouts are inferred from the pools' observations, so they need the merged history first.
  const rollouts = rolloutIntervals(history);
  if (rollouts.length === 0) return history;
  rollouts.sort(byTime);
  const final: ClusterHistory = { ...history, intervals: mergeSorted(intervals, rollouts) };
  // Finding the rollouts indexed every interval of the first history; the final one has only the
  // rollouts more, so its index is that one with them merged in, not a second walk over all.
  inheritIndex(history, final, rollouts, mergeSorted);
  return final;
}

/** A node's Events moved onto the API server's clock (docs/domain.md 4.2). */
function skewNote(s: { host: string; offset: number; events: number }): string {
  const way = s.offset < 0 ? 'behind' : 'ahead of';
  return `the Events recorded on ${s.host} run ${formatDuration(Math.abs(s.offset))} ${way} the API server's clock (their own time stamps against the creationTimestamp the API server gave them, median of ${s.events}): their times were moved onto the cluster's clock`;
}

/**
 * `a.concat(b).sort(byTime)` for `a` and `b` already sorted, in one pass: on a tie `a`'s interval
 * comes first, as the stable sort keeps it.
 */
function mergeSorted(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Interval;
    const y = b[j] as Interval;
    if (byTime(y, x) < 0) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
    }
  }
  while (i < a.length) out.push(a[i++] as Interval);
  while (j < b.length) out.push(b[j++] as Interval);
  return out;
}

function byTime(a: Interval, b: Interval): number {
  return a.from - b.from || a.to - b.to;
}
