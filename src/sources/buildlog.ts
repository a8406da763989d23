/**
 * build-log.txt: the monitor's interval lines (domain.md 7.1) and the upgrade test's own log lines
 * (domain.md 6). The log is streamed line by line; everything else in it is skipped. The lines carry
 * no year, so they are kept as (month, day, time of day) until the year is settled from the other
 * inputs (see year.ts), then turned into intervals and test log entries.
 */
import type { Interval, IntervalLevel, SourceRef, TestLogEntry } from '../model/history.js';
import { parseLocatorText, parseMessageText, splitLocatorAndMessage } from './monitor-text.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_INDEX = new Map(MONTHS.map((m, i) => [m, i]));

/** A time without its year. */
export interface Stamp {
  readonly month: number;
  readonly day: number;
  readonly msOfDay: number;
}

/**
 * A parsed line waiting for its year. The interval or test entry is built once, with times of 0,
 * and given its times by year.ts (one object per line: logs can hold hundreds of thousands).
 */
export type PendingEntry =
  | {
      readonly stamp: Stamp;
      readonly durationMs: number;
      readonly interval: Interval;
      readonly test?: undefined;
    }
  | {
      readonly stamp: Stamp;
      readonly durationMs: 0;
      readonly test: TestLogEntry;
      readonly interval?: undefined;
    };

const STAMP =
  '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2})\\.(\\d{3})';
/** `Nov 03 03:23:03.719 W locator message` and `Nov 03 03:23:03.719 - 6s    W locator message`. */
const MONITOR_LINE = new RegExp(`^\\s*${STAMP}(?: - (\\d+)(ms|s) +| +)([IWE]) (.+)$`);
/** `Nov  3 03:28:35.858: INFO: message` (Go's `Jan _2 15:04:05.000`, as framework.Logf writes it). */
const TEST_LINE = new RegExp(`^\\s*${STAMP}: INFO: (.*)$`);

const LEVELS: Record<string, IntervalLevel> = { I: 'Info', W: 'Warning', E: 'Error' };

function stampOf(m: RegExpExecArray): Stamp | undefined {
  const month = MONTH_INDEX.get(m[1] ?? '');
  const day = Number(m[2]);
  const [h, min, s, ms] = [Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  if (month === undefined || day < 1 || day > 31 || h > 23 || min > 59 || s > 60) return undefined;
  return { month, day, msOfDay: ((h * 60 + min) * 60 + s) * 1000 + ms };
}

/** Parse one line; undefined when it is neither a monitor line nor a test line atlevel reads. */
export function parseBuildLogLine(text: string, ref: SourceRef): PendingEntry | undefined {
  const monitor = MONITOR_LINE.exec(text);
  if (monitor) {
    const stamp = stampOf(monitor);
    if (!stamp) return undefined;
    const amount = monitor[7];
    const durationMs = amount === undefined ? 0 : Number(amount) * (monitor[8] === 'ms' ? 1 : 1000);
    const { locator, message } = splitLocatorAndMessage(monitor[10] ?? '');
    if (locator === '') return undefined;
    const interval: Interval = {
      from: 0,
      to: 0,
      level: LEVELS[monitor[9] ?? 'I'] ?? 'Info',
      locator: parseLocatorText(locator),
      message: parseMessageText(message, amount !== undefined),
      source: 'build-log',
      ref,
    };
    return { stamp, durationMs, interval };
  }
  const testLine = TEST_LINE.exec(text);
  if (testLine) {
    const stamp = stampOf(testLine);
    if (!stamp) return undefined;
    const test = testEntry(testLine[7] ?? '', ref);
    return test ? { stamp, durationMs: 0, test } : undefined;
  }
  return undefined;
}

const BOOL = '(true|false)';
const POOL_FLAGS = `\\(Updated: ${BOOL}, Updating: ${BOOL}, Degraded: ${BOOL}\\)`;
const POOL_STILL = new RegExp(`^Pool (\\S+) is still reporting ${POOL_FLAGS}`);
const POOL_PAUSED = new RegExp(`^Pool (\\S+) is paused, treating as up-to-date ${POOL_FLAGS}`);
/** origin's upgrade test: `Starting upgrade to version=<v> image=<pullspec>[ attempt=<uid>]`. */
const STARTING = /^Starting upgrade to version=(\S*) image=(\S*)/;
const COMPLETED = /^Completed upgrade to (.+)$/;
const INVARIANT = /^Invariant violation detected: (.*)$/;
const CLUSTER_CONDITION = /^cluster upgrade is (\w+): (.*)$/;

/** Builds the entry (time still 0) from a match, or undefined to ignore the line after all. */
type TestRule = (m: RegExpExecArray, ref: SourceRef) => TestLogEntry | undefined;
const at = 0;

/** Each test log line atlevel reads, with what it becomes. First match wins. */
const TEST_RULES: readonly (readonly [RegExp, TestRule])[] = [
  [POOL_STILL, (m, ref) => poolStatus(m, false, ref)],
  [POOL_PAUSED, (m, ref) => poolStatus(m, true, ref)],
  [/^Waiting on pools to be upgraded$/, (_m, ref) => ({ kind: 'waiting-on-pools', at, ref })],
  [/^All pools completed upgrade$/, (_m, ref) => ({ kind: 'pools-completed', at, ref })],
  [
    STARTING,
    (m, ref) => {
      const target = m[1] || m[2] || '';
      return target === '' ? undefined : { kind: 'upgrade-started', at, target, ref };
    },
  ],
  [COMPLETED, (m, ref) => ({ kind: 'upgrade-completed', at, target: (m[1] ?? '').trim(), ref })],
  [INVARIANT, (m, ref) => ({ kind: 'invariant-violation', at, text: m[1] ?? '', ref })],
  [
    CLUSTER_CONDITION,
    (m, ref) => ({ kind: 'cluster-upgrade-condition', at, condition: m[1] ?? '', message: m[2] ?? '', ref }),
  ],
];

function poolStatus(m: RegExpExecArray, paused: boolean, ref: SourceRef): TestLogEntry {
  const [pool, updated, updating, degraded] = [m[1] ?? '', m[2] === 'true', m[3] === 'true', m[4] === 'true'];
  return { kind: 'pool-status', at, pool, updated, updating, degraded, paused, ref };
}

function testEntry(message: string, ref: SourceRef): TestLogEntry | undefined {
  const text = message.trim();
  for (const [re, rule] of TEST_RULES) {
    const m = re.exec(text);
    if (m) return rule(m, ref);
  }
  return undefined;
}

/** Lines longer than this are not monitor or test lines; they are skipped without being decoded. */
const MAX_LINE_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Push-based reader of build-log bytes: feed chunks, then `end()`. Keeps only parsed entries, and
 * drops exact duplicate lines (the monitor prints some lines twice: live and in the final timeline).
 */
export class BuildLogReader {
  readonly entries: PendingEntry[] = [];
  lines = 0;
  duplicates = 0;
  readonly #file: string;
  readonly #seen = new Set<string>();
  #carry: Buffer[] = [];
  #carryLength = 0;
  #skipping = false;

  constructor(file: string) {
    this.#file = file;
  }

  write(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.#keep(chunk.subarray(start));
        return;
      }
      const piece = chunk.subarray(start, nl);
      if (this.#carryLength > 0 || this.#skipping) {
        this.#keep(piece);
        const line = this.#skipping ? undefined : Buffer.concat(this.#carry, this.#carryLength);
        this.#resetCarry();
        this.#line(line);
      } else {
        this.#line(piece);
      }
      start = nl + 1;
    }
  }

  end(): void {
    if (this.#carryLength > 0 && !this.#skipping) this.#line(Buffer.concat(this.#carry, this.#carryLength));
    else if (this.#skipping) this.#line(undefined);
    this.#resetCarry();
  }

  #keep(piece: Buffer): void {
    if (this.#skipping) return;
    if (this.#carryLength + piece.length > MAX_LINE_BYTES) {
      this.#skipping = true;
      this.#carry = [];
      this.#carryLength = 0;
      return;
    }
    // Copy: the chunk's memory may be reused by the stream.
    this.#carry.push(Buffer.from(piece));
    this.#carryLength += piece.length;
  }

  #resetCarry(): void {
    this.#carry = [];
    this.#carryLength = 0;
    this.#skipping = false;
  }

  #line(bytes: Buffer | undefined): void {
    this.lines++;
    if (!bytes || !mayBeStamped(bytes)) return;
    let text = bytes.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    const entry = parseBuildLogLine(text, { file: this.#file, line: this.lines });
    if (!entry) return;
    if (this.#seen.has(text)) {
      this.duplicates++;
      return;
    }
    this.#seen.add(text);
    this.entries.push(entry);
  }
}

/** Cheap pre-filter on raw bytes: the first non-blank character must start a month name. */
function mayBeStamped(bytes: Buffer): boolean {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09)) i++;
  const c = bytes[i];
  // J F M A S O N D
  return (
    c === 0x4a ||
    c === 0x46 ||
    c === 0x4d ||
    c === 0x41 ||
    c === 0x53 ||
    c === 0x4f ||
    c === 0x4e ||
    c === 0x44
  );
}
