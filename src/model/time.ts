/** Times inside atlevel are epoch milliseconds (UTC); strings exist only at the edges. */
export type Millis = number;

/** Parse an RFC 3339 timestamp (Kubernetes style). Returns undefined for null, empty or unparseable input. */
export function parseTime(value: unknown): Millis | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `2021-11-03T03:23:09.856Z` (milliseconds kept only when present). */
export function formatTime(ms: Millis): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** `03:23:09.856` — for compact text output where the date is given once. */
export function formatClock(ms: Millis): string {
  const iso = new Date(ms).toISOString();
  const clock = iso.slice(11, 23);
  return clock.endsWith('.000') ? clock.slice(0, 8) : clock;
}

/** `1m32s`, `2h05m`, `450ms`. */
export function formatDuration(ms: Millis): string {
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${Math.round(rest)}ms`;
  rest = Math.round(rest / 1000);
  const h = Math.floor(rest / 3600);
  const m = Math.floor((rest % 3600) / 60);
  const s = rest % 60;
  if (h > 0) return `${sign}${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${sign}${m}m${String(s).padStart(2, '0')}s`;
  return `${sign}${s}s`;
}

/**
 * How long after `t` something stamped with a whole-second `createdAt` happened: the stamp means
 * "during that second", so the gap is a range when it straddles a second boundary ("1–2s").
 */
export function gapAfter(createdAt: number, t: number): string | undefined {
  const lo = createdAt - t;
  const hi = lo + 999;
  if (hi <= 0) return undefined;
  const a = Math.max(0, Math.round(lo / 1000));
  const b = Math.round(hi / 1000);
  if (b >= 60) return formatDuration(lo + 500);
  return a === b ? `${a}s` : `${a}–${b}s`;
}
