/**
 * The CI clock against the cluster's. A CI run's build log and interval files are stamped by the test
 * pod's clock, the objects (conditions, creation times, Events) by the cluster's. Both see one moment:
 * the CVO writes `completionTime` on the ClusterVersion history entry, and origin's monitor logs
 * `cluster reached <v>` when it sees that write (docs/domain.md 7.2). The monitor comes after the write,
 * by its watch's latency, and `completionTime` has whole seconds only; so when the monitor's line is
 * earlier than the second the CVO wrote, or much later than any watch lags, the two clocks disagree.
 * Left so, a rule would compare the CVO's completion on one clock with the master pool on the other,
 * and a few minutes of skew turn a clean update into a race. The CI side is then moved onto the
 * cluster's clock, and a note says by how much.
 */
import type { ClusterVersion, Interval, Millis, TestLogEntry } from '../model/index.js';
import { formatDuration, parseTime } from '../model/index.js';

/** The monitor's line may precede the second-truncated `completionTime` by under a second (rounding). */
const EARLIEST_MS = -1_500;
/** A monitor watch that lags the CVO's write by more than this is not a watch lag: the clocks differ. */
const LATEST_MS = 30_000;
/** Interval sources stamped by the CI test pod's clock (the monitor and its interval files). */
const CI_SOURCES = /^(build-log|e2e-)/;

const REACHED_RE = /cluster reached (\S+)/;

interface Skew {
  /** How far the CI clock runs ahead of the cluster's (negative: behind). */
  readonly offset: Millis;
  readonly note: string;
}

/**
 * The CI clock's offset from the cluster's, when the inputs show one beyond a watch's lag: the median,
 * over the updates both record, of the monitor's `cluster reached` minus history's `completionTime`.
 */
export function ciClockSkew(
  cv: ClusterVersion | undefined,
  intervals: readonly Interval[],
): Skew | undefined {
  // A version may be in history twice (an update back to it): each line is paired with the nearest.
  const completions = new Map<string, Millis[]>();
  for (const h of cv?.status?.history ?? []) {
    const at = h.state === 'Completed' ? parseTime(h.completionTime) : undefined;
    if (at !== undefined && h.version)
      completions.set(h.version, [...(completions.get(h.version) ?? []), at]);
  }
  if (completions.size === 0) return undefined;
  const pairs: { version: string; monitor: Millis; history: Millis }[] = [];
  for (const i of intervals) {
    if (i.locator.type !== 'ClusterVersion' || !CI_SOURCES.test(i.source)) continue;
    const version = REACHED_RE.exec(i.message.humanMessage)?.[1];
    const candidates = version === undefined ? undefined : completions.get(version);
    if (version === undefined || candidates === undefined) continue;
    const history = candidates.reduce((best, at) =>
      Math.abs(i.from - at) < Math.abs(i.from - best) ? at : best,
    );
    // The same moment in the build log and an intervals file (milliseconds against whole seconds).
    if (pairs.some((p) => p.version === version && Math.abs(p.monitor - i.from) < 2_000)) continue;
    pairs.push({ version, monitor: i.from, history });
  }
  if (pairs.length === 0) return undefined;
  const offsets = pairs.map((p) => p.monitor - p.history).sort((a, b) => a - b);
  const offset = offsets[Math.floor((offsets.length - 1) / 2)] as number;
  if (offset >= EARLIEST_MS && offset <= LATEST_MS) return undefined;
  const example = pairs.find((p) => p.monitor - p.history === offset) ?? pairs[0];
  const way = offset < 0 ? 'behind' : 'ahead of';
  return {
    offset,
    note: `the build log and interval files run ${formatDuration(Math.abs(offset))} ${way} the cluster's clock (the monitor saw "cluster reached ${example?.version}" at ${new Date(example?.monitor ?? 0).toISOString()}, ClusterVersion history completed it at ${new Date(example?.history ?? 0).toISOString()}): their times were moved onto the cluster's clock`,
  };
}

/** The CI-clocked intervals moved by `-offset`; the others unchanged. */
export function onClusterClock(intervals: readonly Interval[], offset: Millis): Interval[] {
  return intervals.map((i) =>
    CI_SOURCES.test(i.source) ? { ...i, from: i.from - offset, to: i.to - offset } : i,
  );
}

/** The upgrade test's log lines (CI clock) moved by `-offset`. */
export function testLogOnClusterClock(entries: readonly TestLogEntry[], offset: Millis): TestLogEntry[] {
  return entries.map((e) => ({ ...e, at: e.at - offset }));
}
