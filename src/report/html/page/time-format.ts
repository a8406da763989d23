/** Time text for the page. Everything is shown in UTC, as CI logs and Kubernetes timestamps are. */

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `03:23:09.856`, or `03:23:09` when the milliseconds are zero. */
export function clock(ms: number): string {
  const d = new Date(ms);
  const base = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const milli = d.getUTCMilliseconds();
  return milli === 0 ? base : `${base}.${pad(milli, 3)}`;
}

/** `2021-11-03`. */
export function day(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `2021-11-03 03:23:09.856Z`. */
export function dateTime(ms: number): string {
  return `${day(ms)} ${clock(ms)}Z`;
}

/** `12m39s`, `2h05m`, `450ms`, `3d04h`. */
export function duration(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${Math.round(rest)}ms`;
  if (rest < 10_000 && rest % 1000 !== 0) return `${sign}${(rest / 1000).toFixed(1)}s`;
  rest = Math.round(rest / 1000);
  const d = Math.floor(rest / 86_400);
  const h = Math.floor((rest % 86_400) / 3600);
  const m = Math.floor((rest % 3600) / 60);
  const s = rest % 60;
  if (d > 0) return `${sign}${d}d${pad(h)}h`;
  if (h > 0) return `${sign}${h}h${pad(m)}m`;
  if (m > 0) return `${sign}${m}m${pad(s)}s`;
  return `${sign}${s}s`;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Tick steps a reader can count in: 1, 2, 5 of each unit, and the clock's own 15 and 30. */
const STEPS = [
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

export interface Ticks {
  readonly step: number;
  readonly at: readonly number[];
}

/**
 * Ticks for the time axis: the smallest step that keeps labels at least `minPx` apart, aligned to
 * multiples of the step in UTC (so 15-minute ticks fall on :00, :15, :30, :45).
 */
export function ticks(from: number, to: number, widthPx: number, minPx: number): Ticks {
  const span = Math.max(1, to - from);
  const perPx = span / Math.max(1, widthPx);
  const step = STEPS.find((s) => s / perPx >= minPx) ?? Math.ceil((minPx * perPx) / DAY) * DAY;
  const at: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to && at.length < 1000; t += step) at.push(t);
  return { step, at };
}

/** A tick's label, as precise as its step needs. */
export function tickLabel(t: number, step: number): string {
  if (step >= DAY) return day(t).slice(5);
  const d = new Date(t);
  const hm = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  if (step >= MINUTE) return hm;
  const hms = `${hm}:${pad(d.getUTCSeconds())}`;
  if (step >= SECOND) return hms;
  return `${hms}.${pad(d.getUTCMilliseconds(), 3)}`;
}
