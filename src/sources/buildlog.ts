/**
 * build-log.txt: the monitor's interval lines (docs/domain.md 7.1) and the upgrade test's own log lines
 * (docs/domain.md 6). The log is streamed line by line; everything else in it is skipped. The lines carry
 * no year, so they are kept as (month, day, time of day) until the year is settled from the other
 * inputs (see year.ts), then turned into intervals and test log entries.
 */
import type {
  Interval,
  IntervalLevel,
  IntervalMessage,
  Locator,
  SourceRef,
  TestLogEntry,
} from '../model/index.js';
import { detach, Interner, utcMoment } from '../model/index.js';
import { locatorEnd, parseMessageText, splitLocator } from './monitor-text.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_INDEX = new Map(MONTHS.map((m, i) => [m, i]));

/** A time without its year. */
export interface Stamp {
  readonly month: number;
  readonly day: number;
  readonly msOfDay: number;
}

/**
 * A parsed line waiting for its year: its time without the year, and the interval or test entry,
 * built once without its times (NaN for an interval, 0 for a test entry) and given them by year.ts.
 * The time is held in the entry itself, not in an object of its own: logs can hold hundreds of
 * thousands of lines, and every object kept costs the garbage collector a copy or two.
 */
export type PendingEntry = Stamp &
  (
    | {
        readonly durationMs: number;
        readonly interval: Interval;
        readonly test?: undefined;
      }
    | {
        readonly durationMs: 0;
        readonly test: TestLogEntry;
        readonly interval?: undefined;
      }
  );

const STAMP =
  '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2})\\.(\\d{3})';
/**
 * `Nov 03 03:23:03.719 W locator message` and `Nov 03 03:23:03.719 - 6s    W locator message`.
 * matchMonitorLine reads exactly this, by hand: it is the one pattern run on every line.
 */
export const MONITOR_LINE = new RegExp(`^\\s*${STAMP}(?: - (\\d+)(ms|s) +| +)([IWE]) (.+)$`);
/** `Nov  3 03:28:35.858: INFO: message` (Go's `Jan _2 15:04:05.000`, as framework.Logf writes it). */
const TEST_LINE = new RegExp(`^\\s*${STAMP}: INFO: (.*)$`);

/** A switch, not a lookup keyed by the letter: a keyed lookup of three names deoptimises the parser. */
function levelName(letter: 'I' | 'W' | 'E'): IntervalLevel {
  return letter === 'W' ? 'Warning' : letter === 'E' ? 'Error' : 'Info';
}

function stampOf(m: RegExpExecArray): Stamp | undefined {
  const month = MONTH_INDEX.get(m[1] ?? '');
  const day = Number(m[2]);
  const [h, min, s, ms] = [Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  if (month === undefined || day < 1 || day > 31 || h > 23 || min > 59 || s > 60) return undefined;
  return { month, day, msOfDay: ((h * 60 + min) * 60 + s) * 1000 + ms };
}

/** What MONITOR_LINE captures, as numbers and offsets instead of strings. */
export interface MonitorMatch {
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly milli: number;
  /** The duration's digits (`text.slice(amountStart, amountEnd)`), absent on instant lines. */
  readonly amountStart: number;
  readonly amountEnd: number;
  readonly millis: boolean;
  readonly level: 'I' | 'W' | 'E';
  /** Where the locator and message start; they run to the end of the line. */
  readonly rest: number;
}

const MONTH_CODES = new Map(
  MONTHS.map((m, i) => [(m.charCodeAt(0) << 16) | (m.charCodeAt(1) << 8) | m.charCodeAt(2), i]),
);

/** `\s` of a regular expression: WhiteSpace and LineTerminator. */
function isPatternSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Whether `text` holds a LineTerminator at or after `from`. Four native searches, not a loop over
 * the characters: this runs on the rest of every monitor line, and a search for \u2028 in a string of
 * Latin-1 characters (nearly every line) ends at once.
 */
function hasLineTerminator(text: string, from: number): boolean {
  return (
    text.indexOf('\n', from) !== -1 ||
    text.indexOf('\r', from) !== -1 ||
    text.indexOf('\u2028', from) !== -1 ||
    text.indexOf('\u2029', from) !== -1
  );
}

function digit(text: string, at: number): number {
  const d = text.charCodeAt(at) - 0x30;
  return d >= 0 && d <= 9 ? d : -1;
}

/** MONITOR_LINE.exec without its strings: undefined where it finds no match. */
export function matchMonitorLine(text: string): MonitorMatch | undefined {
  const out = emptyScan();
  return scanMonitorLine(text, 0, text.length, true, out) ? out : undefined;
}

/** What scanMonitorLine writes: a MonitorMatch that can be written again. */
type MonitorScan = { -readonly [K in keyof MonitorMatch]: MonitorMatch[K] };

function emptyScan(): MonitorScan {
  return {
    month: 0,
    day: 0,
    hour: 0,
    minute: 0,
    second: 0,
    milli: 0,
    amountStart: -1,
    amountEnd: -1,
    millis: false,
    level: 'I',
    rest: 0,
  };
}

/**
 * The one MonitorScan that parseBuildLogLine has scanMonitorLine write each line's match into, and
 * reads at once: an object a line, given up after a few reads, only kept the collector busy.
 */
const SCAN = emptyScan();

/**
 * matchMonitorLine of the line `text[from, end)` into `out`: whether the line matches (`out` is then
 * its match; else it holds anything). `terminators` false: the caller knows the line holds no line
 * terminator, so the search for one (four native searches of the line's rest) is left out; only
 * then may `end` be short of `text.length`, and `text[end]` must be a newline: every character
 * this reads past a bound it checks is compared with what the pattern wants there, which is never
 * a newline, so the line fails there as it would at the end of a string of its own.
 */
function scanMonitorLine(
  text: string,
  from: number,
  end: number,
  terminators: boolean,
  out: MonitorScan,
): boolean {
  const n = end;
  let i = from;
  while (i < n && isPatternSpace(text.charCodeAt(i))) i++;
  if (i + 3 > n) return false;
  const c0 = text.charCodeAt(i);
  const c1 = text.charCodeAt(i + 1);
  const c2 = text.charCodeAt(i + 2);
  if ((c0 | c1 | c2) > 0x7f) return false;
  const month = MONTH_CODES.get((c0 << 16) | (c1 << 8) | c2);
  if (month === undefined || text.charCodeAt(i + 3) !== 0x20) return false;
  i += 4;
  while (text.charCodeAt(i) === 0x20) i++;
  let day = digit(text, i);
  if (day < 0) return false;
  i++;
  const second = digit(text, i);
  if (second >= 0) {
    day = day * 10 + second;
    i++;
  }
  if (text.charCodeAt(i) !== 0x20) return false;
  i++;
  // `HH:MM:SS.mmm`, read inline: this runs on every line, and a helper call per digit pair is not
  // always inlined (bin/atlevel.js halves V8's inlining budget). Twelve characters within the line,
  // else no match (the pattern needs them all); so each code is a character's, never NaN, and
  // `(code - 0x30) >>> 0 > 9` says it is no digit.
  if (i + 12 > n) return false;
  const h0 = text.charCodeAt(i) - 0x30;
  const h1 = text.charCodeAt(i + 1) - 0x30;
  const m0 = text.charCodeAt(i + 3) - 0x30;
  const m1 = text.charCodeAt(i + 4) - 0x30;
  const s0 = text.charCodeAt(i + 6) - 0x30;
  const s1 = text.charCodeAt(i + 7) - 0x30;
  const f0 = text.charCodeAt(i + 9) - 0x30;
  const f1 = text.charCodeAt(i + 10) - 0x30;
  const f2 = text.charCodeAt(i + 11) - 0x30;
  if (
    h0 >>> 0 > 9 ||
    h1 >>> 0 > 9 ||
    m0 >>> 0 > 9 ||
    m1 >>> 0 > 9 ||
    s0 >>> 0 > 9 ||
    s1 >>> 0 > 9 ||
    f0 >>> 0 > 9 ||
    f1 >>> 0 > 9 ||
    f2 >>> 0 > 9 ||
    text.charCodeAt(i + 2) !== 0x3a ||
    text.charCodeAt(i + 5) !== 0x3a ||
    text.charCodeAt(i + 8) !== 0x2e
  )
    return false;
  const hour = h0 * 10 + h1;
  const minute = m0 * 10 + m1;
  const sec = s0 * 10 + s1;
  const stampEnd = i + 12;
  // `(?: - (\d+)(ms|s) +| +)`: a duration, else spaces; then `([IWE]) (.+)$`.
  let amountStart = -1;
  let amountEnd = -1;
  let millis = false;
  let levelAt = durationEnd(text, stampEnd);
  if (levelAt >= 0 && levelOf(text, levelAt, end, terminators) !== undefined) {
    amountStart = stampEnd + 3;
    amountEnd = amountStart;
    while (digit(text, amountEnd) >= 0) amountEnd++;
    millis = text.charCodeAt(amountEnd) === 0x6d;
  } else {
    levelAt = stampEnd;
    while (text.charCodeAt(levelAt) === 0x20) levelAt++;
    if (levelAt === stampEnd) return false;
  }
  const level = levelOf(text, levelAt, end, terminators);
  if (level === undefined) return false;
  out.month = month;
  out.day = day;
  out.hour = hour;
  out.minute = minute;
  out.second = sec;
  out.milli = (f0 * 10 + f1) * 10 + f2;
  out.amountStart = amountStart;
  out.amountEnd = amountEnd;
  out.millis = millis;
  out.level = level;
  out.rest = levelAt + 2;
  return true;
}

/** After ` - 6s    ` at `at`: where the spaces after the unit end, or -1. */
function durationEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x20 || text.charCodeAt(at + 1) !== 0x2d || text.charCodeAt(at + 2) !== 0x20)
    return -1;
  let i = at + 3;
  while (digit(text, i) >= 0) i++;
  if (i === at + 3) return -1;
  if (text.charCodeAt(i) === 0x6d && text.charCodeAt(i + 1) === 0x73) i += 2;
  else if (text.charCodeAt(i) === 0x73) i++;
  else return -1;
  const spaces = i;
  while (text.charCodeAt(i) === 0x20) i++;
  return i === spaces ? -1 : i;
}

/** `([IWE]) (.+)$` at `at`: the level, when the rest of the line follows as the pattern wants. */
function levelOf(text: string, at: number, end: number, terminators: boolean): 'I' | 'W' | 'E' | undefined {
  const c = text.charCodeAt(at);
  const level = c === 0x49 ? 'I' : c === 0x57 ? 'W' : c === 0x45 ? 'E' : undefined;
  if (!level || text.charCodeAt(at + 1) !== 0x20 || at + 2 >= end) return undefined;
  return terminators && hasLineTerminator(text, at + 2) ? undefined : level;
}

/**
 * Parse one line; undefined when it is neither a monitor line nor a test line atlevel reads.
 * `terminators` false: the caller knows the line holds no line terminator (BuildLogReader checks
 * each decoded chunk once).
 */
export function parseBuildLogLine(
  text: string,
  ref: SourceRef,
  intern: Interner = new Interner(),
  locators: LocatorCache = new Map(),
  shapes: ShapeCache = new Map(),
  terminators = true,
): PendingEntry | undefined {
  return scanMonitorLine(text, 0, text.length, terminators, SCAN)
    ? scannedMonitorLine(text, ref, intern, locators, shapes)
    : testLine(text, ref);
}

/** parseBuildLogLine of the monitor line `text`, whose match scanMonitorLine has just written into SCAN. */
function scannedMonitorLine(
  text: string,
  ref: SourceRef,
  intern: Interner,
  locators: LocatorCache,
  shapes: ShapeCache,
): PendingEntry | undefined {
  const { month, day, hour, minute, second, milli, rest } = SCAN;
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const msOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + milli;
  const timed = SCAN.amountStart >= 0;
  const durationMs = timed
    ? Number(text.slice(SCAN.amountStart, SCAN.amountEnd)) * (SCAN.millis ? 1 : 1000)
    : 0;
  const level = levelName(SCAN.level);
  let locator: Locator;
  let message: IntervalMessage;
  const changed = conditionHead(text, rest);
  const shape = changed < 0 ? undefined : conditionShapeOf(text, rest, changed, intern, locators, shapes);
  if (shape) {
    locator = shape.locator;
    message = {
      reason: shape.reason,
      humanMessage: humanAfter(text, changed),
      annotations: shape.annotations,
    };
  } else {
    const located = locate(text, rest, intern, locators);
    if (!located) return undefined;
    const parsedMessage = parseMessageText(located.message, timed);
    locator = located.locator;
    message = {
      reason: intern.string(parsedMessage.reason),
      // A slice of the line, not a copy: BuildLogReader's repeat check holds the text every kept
      // line is cut from anyway, and a copy would cost a string per line.
      humanMessage: parsedMessage.humanMessage,
      annotations: intern.record(parsedMessage.annotations),
    };
  }
  const interval: Interval = {
    // Settled with the year (year.ts). NaN, not 0: a number field that starts as a small integer
    // and later holds a time changes the objects' shape, which costs V8 dearly on 100k objects.
    from: Number.NaN,
    to: Number.NaN,
    level,
    locator,
    message,
    source: 'build-log',
    ref,
  };
  return { month, day, msOfDay, durationMs, interval };
}

/** parseBuildLogLine of a line that is no monitor line. */
function testLine(text: string, ref: SourceRef): PendingEntry | undefined {
  const testLine = TEST_LINE.exec(text);
  if (testLine) {
    const stamp = stampOf(testLine);
    if (!stamp) return undefined;
    const test = testEntry(testLine[7] ?? '', ref);
    return test ? { ...stamp, durationMs: 0, test } : undefined;
  }
  return undefined;
}

/**
 * The interned locators of a log by their text (with the spaces after it): a log repeats few
 * locators over many lines, and looking one up costs less than tokenising it again.
 */
type LocatorCache = Map<string, Locator>;

/** The interned locator at `from` in a monitor line, and the message after it. */
function locate(
  text: string,
  from: number,
  intern: Interner,
  locators: LocatorCache,
): { locator: Locator; message: string } | undefined {
  const end = locatorEnd(text, from);
  if (end === from) return undefined;
  const key = end < 0 ? undefined : text.slice(from, end);
  const known = key === undefined ? undefined : locators.get(key);
  if (known !== undefined) return { locator: known, message: text.slice(end) };
  const split = splitLocator(text.slice(from));
  if (!split) return undefined;
  const locator = intern.locator(split.locator.type, split.locator.keys);
  if (key !== undefined) locators.set(detach(key), locator);
  return { locator, message: split.message };
}

/**
 * What the text of a condition change line (`clusteroperator/x condition/Progressing status/True
 * reason/R changed: text`) from its locator up to ` changed:` makes: the locator, the message's
 * reason and annotations. Every line that shares that text shares them; only the human message after
 * ` changed: ` is the line's own. A log repeats few such heads over many lines, so each is tokenised
 * and matched once (conditionShape) instead of on every line, where locatorEnd, parseMessageText's
 * pattern and the interning of its captures cost more than all the rest of the line's parsing.
 * null: the head is not one the shortcut reads exactly; its lines take the general path.
 */
interface ConditionShape {
  readonly locator: Locator;
  readonly reason: string;
  readonly annotations: IntervalMessage['annotations'];
}
type ShapeCache = Map<string, ConditionShape | null>;

const CHANGED = ' changed:';
/**
 * Bounds on what the cache copies: a real head is a locator and three short tokens, and a real log
 * has a few thousand of them at most. A longer head takes the general path; a head that finds the
 * cache full has its shape worked out for its line alone.
 */
const MAX_HEAD_CHARS = 512;
const MAX_SHAPES = 10_000;
/** parseMessageText's CONDITION_CHANGED up to ` changed:`. */
const CONDITION_HEAD = /^condition\/\S+ status\/\S+(?: reason\/\S+)?$/;

/**
 * Where ` changed:` starts in a condition change line whose locator starts at `from`, or -1 where
 * the general path (locate, parseMessageText) must read the line. The same as that path:
 * CONDITION_CHANGED's head holds spaces only before `status/` and `reason/`, so the ` changed:` it
 * matches is the first in the message; the message is trimmed, so what follows ` changed:` up to
 * the line's trimmed end is either nothing or a space and the human message (humanAfter).
 */
function conditionHead(text: string, from: number): number {
  const changed = text.indexOf(CHANGED, from);
  if (changed <= from || changed - from > MAX_HEAD_CHARS) return -1;
  const after = changed + CHANGED.length;
  const end = trimmedEnd(text, after);
  return end !== after && text.charCodeAt(after) !== 0x20 ? -1 : changed;
}

/** Where `text[0, to)` ends without the `\s` characters at its end, but not before `from`. */
function trimmedEnd(text: string, from: number, to = text.length): number {
  let end = to;
  while (end > from && isPatternSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

/** The human message of a condition change line whose ` changed:` is at `changed` (conditionHead). */
function humanAfter(text: string, changed: number): string {
  const after = changed + CHANGED.length;
  const end = trimmedEnd(text, after);
  return end === after ? '' : text.slice(after + 1, end);
}

/** The shape of the head `text[from, changed)` (conditionHead), from the cache when it is there. */
function conditionShapeOf(
  text: string,
  from: number,
  changed: number,
  intern: Interner,
  locators: LocatorCache,
  shapes: ShapeCache,
): ConditionShape | undefined {
  const key = text.slice(from, changed);
  let shape = shapes.get(key);
  if (shape === undefined) {
    shape = conditionShape(text, from, changed, intern, locators);
    if (shapes.size < MAX_SHAPES) shapes.set(detach(key), shape);
  }
  return shape ?? undefined;
}

/**
 * The shape of the head `text[from, changed)`, read as the general path reads it, or null. Only a
 * head whose locator locatorEnd reads (ending before the message key `condition/`, which is in the
 * head) is taken: locatorEnd then reads no character beyond the head, so every line with this head
 * has the same locator and the same message start.
 */
function conditionShape(
  text: string,
  from: number,
  changed: number,
  intern: Interner,
  locators: LocatorCache,
): ConditionShape | null {
  const end = locatorEnd(text, from);
  if (end <= from || end >= changed || !CONDITION_HEAD.test(text.slice(end, changed))) return null;
  const located = locate(text, from, intern, locators);
  if (!located) return null;
  const parsed = parseMessageText(text.slice(end, changed + CHANGED.length), false);
  return {
    locator: located.locator,
    reason: intern.string(parsed.reason),
    annotations: intern.record(parsed.annotations),
  };
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

/**
 * The moment of a log line that carries a full date in its logger's prefix: ci-operator's lines
 * (`INFO[2021-11-03T02:09:52Z] …`), or Go's standard log (`2021/11/03 02:09:52 …`). A
 * CI build log opens with ci-operator's own lines, so its monitor lines (which have no year) can be
 * dated from the same file. A date anywhere else in a line is not taken: it may be any moment.
 */
const LOGRUS_STAMP = /^[A-Z]{4}\[(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z\]/;
const GO_LOG_STAMP = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) /;
/** Long enough for either prefix. */
const STAMP_PREFIX_CHARS = 40;

function datedLine(text: string, from: number, end: number): number | undefined {
  const c = text.charCodeAt(from);
  const isDigit = c >= 0x30 && c <= 0x39;
  const isUpper = c >= 0x41 && c <= 0x5a;
  if (!isDigit && !(isUpper && text.charCodeAt(from + 4) === 0x5b)) return undefined;
  const prefix = text.slice(from, Math.min(end, from + STAMP_PREFIX_CHARS));
  const m = (isDigit ? GO_LOG_STAMP : LOGRUS_STAMP).exec(prefix);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (h > 23 || mi > 59 || sec > 60) return undefined;
  return utcMoment(y, mo, d, h, mi, sec);
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
  /** The first line with a full date in its prefix (datedLine), to date the other lines by. */
  dated: { readonly at: number; readonly line: number } | undefined;
  readonly #file: string;
  readonly #intern: Interner;
  /**
   * The kept lines by their time, for the repeat check. Repeated lines are equal, so they parse to
   * the same time; looking them up by the time (a number) instead of in one set of all lines spares
   * hashing every line's whole text, and a table of a hundred thousand strings. A log lists its lines
   * in time order nearly always: a line later than every kept one is simply appended to #times and
   * #timed, which then hold one line per time, in increasing time. A line at a time kept before (a
   * repeat, or another line of the same millisecond), or out of order, is looked up among them by
   * binary search and, when it is not a repeat, kept in #others instead: by day of the year (month *
   * 32 + day), then by time of day, the line or, for lines that share a time, the set of them.
   */
  readonly #times: number[] = [];
  /**
   * Each line in #times as the string it is in and its bounds there: a chunk's lines are not cut
   * out of it for the check (a string per line, kept as long as the log is), only compared when two
   * share a time.
   */
  readonly #timedText: string[] = [];
  readonly #timedFrom: number[] = [];
  readonly #timedEnd: number[] = [];
  readonly #others: (Map<number, string | Set<string>> | undefined)[] = [];
  readonly #locators: LocatorCache = new Map();
  readonly #shapes: ShapeCache = new Map();
  /**
   * In the chunk #lines reads: where the first ` changed:` at or after some earlier line's message
   * is, -1 when there is none, -2 before the chunk is searched. Lines are read in order, so each
   * search starts where the one before could not reach, and a chunk is searched once in all, not
   * once per line up to the next line that has one.
   */
  #changed = -2;
  #carry: Buffer[] = [];
  #carryLength = 0;
  #skipping = false;

  constructor(file: string, intern: Interner = new Interner()) {
    this.#file = file;
    this.#intern = intern;
  }

  write(chunk: Buffer): void {
    let start = 0;
    if (this.#carryLength > 0 || this.#skipping) {
      // The line begun in an earlier chunk: it may be over-long, so it is read on its own.
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.#keep(chunk);
        return;
      }
      this.#keep(chunk.subarray(0, nl));
      const line = this.#skipping ? undefined : Buffer.concat(this.#carry, this.#carryLength);
      this.#resetCarry();
      this.#line(line);
      start = nl + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) {
      this.#lines(chunk.toString('utf8', start, last));
      start = last + 1;
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
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
    if (!bytes) return;
    const text = bytes.toString('utf8');
    this.#text(text, 0, text.length);
  }

  /**
   * The whole lines of a chunk, decoded at once (a newline byte is a newline character, whatever
   * bytes are around it): each line is then a slice of one string, not a buffer and a string of
   * its own, which is what the repeats check keeps.
   */
  #lines(text: string): void {
    const n = text.length;
    // Its lines hold no line terminator but a carriage return or \u2028, \u2029: searched for once
    // here, so that a chunk without them (nearly every one) spares each line the search.
    const terminators =
      text.indexOf('\r') !== -1 || text.indexOf('\u2028') !== -1 || text.indexOf('\u2029') !== -1;
    this.#changed = -2;
    let at = 0;
    for (;;) {
      let nl = text.indexOf('\n', at);
      if (nl === -1) nl = n;
      this.lines++;
      this.#text(text, at, nl, terminators);
      if (nl === n) return;
      at = nl + 1;
    }
  }

  /**
   * The line `text[from, end)`, counted already. `terminators` false: `text` is a chunk #lines
   * reads, holding no line terminator but its newlines.
   */
  #text(text: string, from: number, end: number, terminators = true): void {
    if (this.dated === undefined) {
      const at = datedLine(text, from, end);
      if (at !== undefined) this.dated = { at, line: this.lines };
    }
    if (!mayBeStamped(text, from, end)) return;
    let scanned: typeof NOT_MONITOR | typeof NOT_KNOWN | undefined;
    if (!terminators) {
      const entry = this.#knownHeadLine(text, from, end);
      if (entry === undefined) return;
      if (typeof entry === 'object') {
        this.#keepUnlessRepeated(entry, text, from, end);
        return;
      }
      scanned = entry;
    }
    const lineEnd = text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    const line = text.slice(from, lineEnd);
    const ref = { file: this.#file, line: this.lines };
    let entry: PendingEntry | undefined;
    if (scanned === NOT_KNOWN) {
      // The line is not scanned again: its match is in SCAN, at its place in `text`.
      shiftScan(-from);
      entry = scannedMonitorLine(line, ref, this.#intern, this.#locators, this.#shapes);
    } else if (scanned === NOT_MONITOR) entry = testLine(line, ref);
    else entry = parseBuildLogLine(line, ref, this.#intern, this.#locators, this.#shapes, terminators);
    // The repeat check keeps the line as its bounds in `text`, which it keeps anyway, not as the
    // string cut out for parseBuildLogLine: an object less per line for the collector to copy.
    if (entry) this.#keepUnlessRepeated(entry, text, from, lineEnd);
  }

  /**
   * parseBuildLogLine of the line `text[from, end)` of a chunk holding no line terminator but its
   * newlines, read without cutting the line out of the chunk, for a monitor line whose condition
   * head (conditionHead) is in #shapes with its shape: nearly every line of a long log. Each step is
   * parseBuildLogLine's on the line's bounds. Any other line is left to the caller, which cuts it
   * out and reads it as parseBuildLogLine does (the only path that adds to the caches, so which path
   * reads a line changes nothing in what it makes), told what need not be done again: NOT_MONITOR,
   * the line is no monitor line; NOT_KNOWN, it is one, and SCAN holds its match. Undefined: the
   * line makes no entry.
   */
  #knownHeadLine(
    text: string,
    from: number,
    end: number,
  ): PendingEntry | typeof NOT_MONITOR | typeof NOT_KNOWN | undefined {
    if (!scanMonitorLine(text, from, end, false, SCAN)) return NOT_MONITOR;
    const { month, day, hour, minute, second, milli, rest } = SCAN;
    if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
    // conditionHead: the first ` changed:` at or after `rest`. A match cannot straddle the line's
    // end, which is a newline, so one at or past `end` is not in the line.
    let changed = this.#changed;
    if (changed !== -1 && changed < rest) {
      changed = text.indexOf(CHANGED, rest);
      this.#changed = changed;
    }
    if (changed < 0 || changed >= end || changed === rest || changed - rest > MAX_HEAD_CHARS)
      return NOT_KNOWN;
    const after = changed + CHANGED.length;
    const trimmed = trimmedEnd(text, after, end);
    if (trimmed !== after && text.charCodeAt(after) !== 0x20) return NOT_KNOWN;
    const shape = this.#shapes.get(text.slice(rest, changed));
    if (!shape) return NOT_KNOWN;
    const durationMs =
      SCAN.amountStart >= 0
        ? Number(text.slice(SCAN.amountStart, SCAN.amountEnd)) * (SCAN.millis ? 1 : 1000)
        : 0;
    const interval: Interval = {
      from: Number.NaN,
      to: Number.NaN,
      level: levelName(SCAN.level),
      locator: shape.locator,
      message: {
        reason: shape.reason,
        humanMessage: trimmed === after ? '' : text.slice(after + 1, trimmed),
        annotations: shape.annotations,
      },
      source: 'build-log',
      ref: { file: this.#file, line: this.lines },
    };
    const msOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + milli;
    return { month, day, msOfDay, durationMs, interval };
  }

  /** Keeps the entry of the line `text[from, end)` unless the line was kept before. */
  #keepUnlessRepeated(entry: PendingEntry, text: string, from: number, end: number): void {
    if (this.#repeated(entry, text, from, end)) this.duplicates++;
    else this.entries.push(entry);
  }

  /** Whether the line `text[from, end)` was kept before; if not, it is noted as kept. */
  #repeated(entry: PendingEntry, text: string, from: number, end: number): boolean {
    const day = entry.month * 32 + entry.day;
    // The time as one number, increasing as (day, time of day) does: a time of day is below 2^27 ms.
    const t = day * TIME_OF_DAY_SPAN + entry.msOfDay;
    const times = this.#times;
    const count = times.length;
    if (count === 0 || t > (times[count - 1] as number)) {
      times.push(t);
      this.#timedText.push(text);
      this.#timedFrom.push(from);
      this.#timedEnd.push(end);
      return false;
    }
    const at = t === times[count - 1] ? count - 1 : indexOfTime(times, t);
    if (at >= 0) {
      const keptFrom = this.#timedFrom[at] as number;
      const keptEnd = this.#timedEnd[at] as number;
      if (keptEnd - keptFrom === end - from) {
        const kept = this.#timedText[at] as string;
        if ((kept === text && keptFrom === from) || kept.slice(keptFrom, keptEnd) === text.slice(from, end))
          return true;
      }
    }
    return this.#repeatedOther(day, entry.msOfDay, text.slice(from, end));
  }

  /** #repeated among the lines kept in #others. */
  #repeatedOther(day: number, msOfDay: number, line: string): boolean {
    let times = this.#others[day];
    if (times === undefined) {
      times = new Map();
      this.#others[day] = times;
    }
    const kept = times.get(msOfDay);
    if (kept === undefined) {
      times.set(msOfDay, line);
      return false;
    }
    if (typeof kept === 'string') {
      if (kept === line) return true;
      times.set(msOfDay, new Set([kept, line]));
      return false;
    }
    if (kept.has(line)) return true;
    kept.add(line);
    return false;
  }
}

/** What BuildLogReader's #knownHeadLine returns for a line it does not read. */
const NOT_MONITOR = 0;
const NOT_KNOWN = 1;

/** Moves SCAN's positions by `by`: the match of a line of a chunk, for the line cut out of it. */
function shiftScan(by: number): void {
  if (SCAN.amountStart >= 0) {
    SCAN.amountStart += by;
    SCAN.amountEnd += by;
  }
  SCAN.rest += by;
}

/** Above every time of day in milliseconds (a leap second's included): BuildLogReader's day unit. */
const TIME_OF_DAY_SPAN = 2 ** 27;

/** Where `t` is in the increasing `times`, or -1. */
function indexOfTime(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo < times.length && times[lo] === t ? lo : -1;
}

/** Cheap pre-filter: the first character after spaces and tabs must start a month name. */
function mayBeStamped(text: string, from: number, end: number): boolean {
  let i = from;
  while (i < end && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  if (i >= end) return false;
  const c = text.charCodeAt(i);
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
