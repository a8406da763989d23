/** Times inside atlevel are epoch milliseconds (UTC); strings exist only at the edges. */
export type Millis = number;

/** Parse an RFC 3339 timestamp (Kubernetes style). Returns undefined for null, empty or unparseable input. */
export function parseTime(value: unknown): Millis | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const fast = parseUtcStamp(value);
  if (fast !== undefined) return fast;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * `2021-11-03T03:23:09Z` or `2021-11-03T03:23:09.856Z`, the forms Kubernetes and origin write, read
 * without a Date: a CI run holds hundreds of thousands of them. The result is what Date.parse gives
 * (fraction digits past milliseconds dropped); anything else is left to Date.parse (undefined).
 */
function parseUtcStamp(s: string): Millis | undefined {
  const n = s.length;
  if (n < 20 || s.charCodeAt(n - 1) !== 0x5a) return undefined;
  if (
    s.charCodeAt(4) !== 0x2d ||
    s.charCodeAt(7) !== 0x2d ||
    s.charCodeAt(10) !== 0x54 ||
    s.charCodeAt(13) !== 0x3a ||
    s.charCodeAt(16) !== 0x3a
  )
    return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (
    year < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59
  )
    return undefined;
  let ms = 0;
  if (n > 20) {
    if (s.charCodeAt(19) !== 0x2e || n === 21) return undefined;
    for (let i = 20; i < n - 1; i++) {
      const d = s.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) return undefined;
      if (i < 23) ms += d * (i === 20 ? 100 : i === 21 ? 10 : 1);
    }
  }
  return (((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60 + second) * 1000 + ms;
}

/** `count` decimal digits at `at` as a number, or -1. */
function digits(s: string, at: number, count: number): number {
  let v = 0;
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** Days since 1970-01-01 of a proleptic Gregorian date; a day past the month's end rolls over, as Date.UTC. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * The UTC moment of a date and time read from text as numbers (month 1-based), or undefined when the
 * date does not exist: Date.UTC would roll Feb 30 over to Mar 2, or month 13 into the next year.
 */
export function utcMoment(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): Millis | undefined {
  const at = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(at);
  return check.getUTCMonth() === month - 1 && check.getUTCDate() === day ? at : undefined;
}

/**
 * A moment a user typed (`status --at`, `serve --at`, `diff --at`): an RFC 3339 date-time, and
 * nothing else. parseTime is for the inputs' stamps and leans on Date.parse, which reads `-1` or
 * `foo 1` as 2001-01-01, a date with no time zone as local time, and Feb 30 as Mar 2; a flag that
 * names a moment must not be guessed at, so here every field is checked and the zone is required.
 * RFC 3339's lower-case `t`/`z` and its space separator (section 5.6, note) are accepted; fraction
 * digits past milliseconds are dropped as parseTime drops them; a leap second (`:60`) is refused,
 * as a JavaScript time cannot hold it.
 */
export function parseMoment(text: string): { at: Millis } | { problem: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})?$/.exec(
    text,
  );
  if (!m) return { problem: 'give an RFC 3339 time such as 2021-11-03T03:30:00Z' };
  const frac: string | undefined = m[7];
  const zone: string | undefined = m[8];
  if (zone === undefined) {
    return { problem: 'it has no time zone (end it with Z for UTC, or an offset such as +01:00)' };
  }
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const offset = zone === 'Z' || zone === 'z' ? 0 : offsetMinutes(zone);
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offset === undefined
  ) {
    return { problem: 'there is no such date or time' };
  }
  // daysFromCivil, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const wall = (((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60 + second) * 1000;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  return { at: wall + ms - offset * 60_000 };
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return leap ? 29 : 28;
}

/** `+01:00` → 60, `-05:30` → -330; undefined past 23:59. */
function offsetMinutes(zone: string): number | undefined {
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
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
