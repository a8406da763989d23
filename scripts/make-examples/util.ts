/**
 * Deterministic building blocks for the example generator: clock arithmetic on the day of the run,
 * the time formats each artifact uses, seeded pseudo-random numbers and stable ids. Nothing here reads the wall clock or Math.random, so the
 * generator's output is byte-identical on every run.
 */
import { createHash } from 'node:crypto';

const DAY = Date.UTC(2021, 10, 3);

/** `03:23:03.719` (or `03:23:03`) on 2021-11-03, the day of the run, as epoch ms (UTC). */
export function at(clock: string): number {
  const m = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?$/.exec(clock);
  if (!m) throw new Error(`bad clock ${clock}`);
  const [, h, min, s, ms] = m;
  return DAY + ((Number(h) * 60 + Number(min)) * 60 + Number(s)) * 1000 + Number((ms ?? '0').padEnd(3, '0'));
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

/**
 * The CI artifact time formats are shared with the simulator, which writes the same files:
 * monitor interval stamps (`Nov 03 03:23:03.719`), the e2e framework's `Nov  3 03:28:35.858`, and
 * Kubernetes whole-second RFC 3339.
 */
export {
  logfStamp as testLogTime,
  monitorStamp as monitorTime,
  rfc3339 as k8sTime,
} from '../../src/artifacts/index.js';

function parts(ms: number) {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    hms: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
    ms: String(d.getUTCMilliseconds()).padStart(3, '0'),
    iso: d.toISOString(),
  };
}

/** metav1.MicroTime (`eventTime`): six fractional digits; `micros` supplies the sub-millisecond part. */
export function microTime(ms: number, micros: number): string {
  return `${parts(ms).iso.slice(0, 23)}${String(micros % 1000).padStart(3, '0')}Z`;
}

/** klog header time: `I1103 02:50:21.123456`. */
export function klogTime(ms: number, micros: number): string {
  const p = parts(ms);
  return `I1103 ${p.hms}.${p.ms}${String(micros % 1000).padStart(3, '0')}`;
}

/** A seeded stream of numbers in [0, 1); each purpose gets its own stream so edits stay local. */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function rng(label: string): Rng {
  let a = createHash('sha256').update(label).digest().readUInt32LE(0);
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
  };
}

/** 64 hex digits derived from a label: a stand-in sha256 digest that is stable across runs. */
export function digest(label: string): string {
  return createHash('sha256').update(`digest:${label}`).digest('hex');
}

/** 40 hex digits derived from a label: a stand-in git commit id. */
export function commitId(label: string): string {
  return createHash('sha1').update(`commit:${label}`).digest('hex');
}

/** A version-4-shaped UUID derived from a label. */
export function uuid(label: string): string {
  const h = createHash('sha256').update(`uuid:${label}`).digest('hex');
  const variant = ((Number.parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Base64 text derived from a label, for placeholder keys and certificates. */
export function base64Blob(label: string, bytes: number): string {
  const chunks: Buffer[] = [];
  for (let i = 0; chunks.length * 32 < bytes; i += 1) {
    chunks.push(createHash('sha256').update(`blob:${label}:${i}`).digest());
  }
  return Buffer.concat(chunks).subarray(0, bytes).toString('base64');
}

/** A lowercase alphanumeric suffix like the ones Kubernetes generates for pod and machine names. */
export function suffix(r: Rng, length: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < length; i += 1) out += r.pick([...alphabet]);
  return out;
}
