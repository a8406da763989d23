/**
 * Echo removal, the contract between sources and the history: a CI run's build log and its interval
 * JSON record the same monitor events. Whoever makes a history's parts (sources) drops the JSON's
 * copies, either while reading (sources' EchoFilter, over an EchoIndex of the log) or after
 * (dropEchoes); buildHistory then takes monitor intervals that hold no echoes, and the span the
 * dropped ones covered (HistoryParts.echoSpan). It lives in model so both sides share it without
 * sources importing timeline.
 */
import { EchoIndex } from './echo-index.js';
import type { Interval } from './history.js';
import type { Millis } from './time.js';

/**
 * The build log and the intervals JSON of one run record the same monitor events, the log with
 * milliseconds and the JSON truncated to seconds. Keep the log's copy of each and drop its echo, so
 * every event is counted once.
 */
export function dropEchoes(intervals: Interval[]): {
  intervals: Interval[];
  droppedSpan: { from: Millis; to: Millis } | undefined;
} {
  // Nothing but the log's own intervals (its echoes were dropped as they were read): no index to build.
  if (intervals.every((i) => i.source === 'build-log')) return { intervals, droppedSpan: undefined };
  const logged = new EchoIndex();
  for (const i of intervals) if (i.source === 'build-log') logged.add(i);
  if (logged.size === 0) return { intervals, droppedSpan: undefined };
  let droppedSpan: { from: Millis; to: Millis } | undefined;
  const kept = intervals.filter((i) => {
    if (i.source === 'build-log' || !logged.isEcho(i)) return true;
    if (!droppedSpan) droppedSpan = { from: i.from, to: i.to };
    else {
      if (i.from < droppedSpan.from) droppedSpan.from = i.from;
      if (i.to > droppedSpan.to) droppedSpan.to = i.to;
    }
    return false;
  });
  return { intervals: kept, droppedSpan };
}
