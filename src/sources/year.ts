/**
 * build-log times have no year (docs/domain.md 7.1). The year comes from the log's own dated lines
 * (buildlog.ts datedLine) or else from the other inputs: the run start in an e2e file name
 * (`_20211103-021533`), interval JSON times, object timestamps (docs/inputs.md). Each line
 * takes the year that puts it closest to the line before it, so a log that crosses New Year
 * (Dec 31 → Jan 1) keeps counting forward.
 */
import { type Interval, type Millis, type TestLogEntry, utcMoment } from '../model/index.js';
import type { PendingEntry, Stamp } from './buildlog.js';

/** A moment known from another input, and where it came from (for the note). */
export interface YearHint {
  readonly at: Millis;
  readonly from: string;
}

/** `e2e-events_20211103-021533.json` → 2021-11-03T02:15:33Z. */
export function runStartFromName(name: string): Millis | undefined {
  const m = /_(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:\.|$)/.exec(name);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return utcMoment(y, mo, d, h, mi, s);
}

function at(year: number, stamp: Stamp): Millis {
  return Date.UTC(year, stamp.month, stamp.day) + stamp.msOfDay;
}

function closestYear(stamp: Stamp, reference: Millis): number {
  const y = new Date(reference).getUTCFullYear();
  let best = y;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of [y - 1, y, y + 1]) {
    const distance = Math.abs(at(candidate, stamp) - reference);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

export interface Resolved {
  readonly intervals: Interval[];
  readonly testLog: TestLogEntry[];
  /** The year of the first line, and where it was taken from. */
  readonly year: number;
  readonly basis: string;
  /** Lines dated on a day their year does not have (Feb 30, Feb 29 of 2021): not read, reported. */
  readonly impossibleDates: number;
  readonly impossibleExample?: string;
}

const DAY_MS = 86_400_000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Give every pending build-log entry its year, in file order. */
export function resolveYears(
  entries: readonly PendingEntry[],
  hint: YearHint | undefined,
  now: Millis,
): Resolved {
  const intervals: Interval[] = [];
  const testLog: TestLogEntry[] = [];
  const first = entries[0];
  const reference = hint?.at ?? now;
  const year = first ? closestYear(first, reference) : new Date(reference).getUTCFullYear();
  let previous = first ? at(year, first) : reference;
  let previousYear = year;
  let previousMonth = first?.month;
  let impossibleDates = 0;
  let impossibleExample: string | undefined;
  // The midnight of the last line's date and whether that date exists: a log's lines come day by
  // day, so Date.UTC and the check below (a Date object) are needed once per day, not per line.
  let dayYear = Number.NaN;
  let dayMonth = Number.NaN;
  let dayOfMonth = Number.NaN;
  let midnight = 0;
  let dayExists = false;
  for (const e of entries) {
    // Within one month the year cannot change; only a month change can cross New Year.
    const y = e.month === previousMonth ? previousYear : closestYear(e, previous);
    if (y !== dayYear || e.month !== dayMonth || e.day !== dayOfMonth) {
      dayYear = y;
      dayMonth = e.month;
      dayOfMonth = e.day;
      midnight = Date.UTC(y, e.month, e.day);
      dayExists = new Date(midnight).getUTCDate() === e.day;
    }
    const t = midnight + e.msOfDay;
    // Date.UTC rolls Feb 30 over to Mar 2: such a line is reported, never read at another date. A
    // time of day within the day has its midnight's date; a leap second at 23:59:60 runs into the
    // next day, and is checked on its own.
    const exists = e.msOfDay < DAY_MS ? dayExists : new Date(t).getUTCDate() === e.day;
    if (!exists) {
      impossibleDates++;
      impossibleExample ??= `${MONTHS[e.month] ?? '?'} ${e.day} ${y}`;
      continue;
    }
    previous = t;
    previousYear = y;
    previousMonth = e.month;
    // The entries were built without their times (see buildlog.ts); this is where they get them.
    if (e.interval) {
      const interval = e.interval as { from: Millis; to: Millis };
      interval.from = t;
      interval.to = t + e.durationMs;
      intervals.push(e.interval);
    } else {
      (e.test as { at: Millis }).at = t;
      testLog.push(e.test);
    }
  }
  return {
    intervals,
    testLog,
    year,
    basis: hint ? hint.from : 'the current year (no other input carries a date)',
    impossibleDates,
    ...(impossibleExample !== undefined ? { impossibleExample } : {}),
  };
}
