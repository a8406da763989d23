/**
 * Wall-clock formats of the artifacts. A run's virtual time 0 is a fixed epoch (by default
 * 2021-11-03T02:50:00Z, so runs read like the CI job of bug 2019850); nothing reads the real clock.
 */

export const DEFAULT_EPOCH = Date.UTC(2021, 10, 3, 2, 50, 0);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parts(ms: number) {
  const d = new Date(ms);
  return {
    mon: MONTHS[d.getUTCMonth()] as string,
    day: d.getUTCDate(),
    hms: `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`,
    milli: String(d.getUTCMilliseconds()).padStart(3, '0'),
  };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Kubernetes metav1.Time: RFC 3339, whole seconds, UTC (`2021-11-03T03:23:11Z`). */
export function rfc3339(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** metav1.MicroTime (`2021-11-03T03:23:11.123000Z`). */
export function microTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
}

/** origin's monitor stamp, Go layout `Jan 02 15:04:05.000` (`Nov 03 03:23:09.856`). */
export function monitorStamp(ms: number): string {
  const p = parts(ms);
  return `${p.mon} ${pad2(p.day)} ${p.hms}.${p.milli}`;
}

/** framework.Logf's stamp, Go layout `Jan _2 15:04:05.000` (`Nov  3 03:28:35.858`). */
export function logfStamp(ms: number): string {
  const p = parts(ms);
  return `${p.mon} ${String(p.day).padStart(2, ' ')} ${p.hms}.${p.milli}`;
}

/** An interval's length as the monitor prints it: whole seconds, or milliseconds under one second. */
export function monitorDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Math.floor(ms / 1000)}s`;
}

/** The run-start suffix of origin's artifact names, Go layout `20060102-150405`. */
export function fileStamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}
