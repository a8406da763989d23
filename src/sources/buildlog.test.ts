import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interner } from '../model/index.js';
import { BuildLogReader, MONITOR_LINE, matchMonitorLine, parseBuildLogLine } from './buildlog.js';
import { parseMessageText, splitLocator } from './monitor-text.js';
import { resolveYears, runStartFromName } from './year.js';

const ref = { file: 'build-log.txt', line: 1 };
const T = (iso: string) => Date.parse(iso);

function read(text: string, chunkSize = 7): BuildLogReader {
  const reader = new BuildLogReader('build-log.txt');
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunkSize) reader.write(bytes.subarray(i, i + chunkSize));
  reader.end();
  return reader;
}

describe('parseBuildLogLine', () => {
  it('reads an instant monitor line', () => {
    const e = parseBuildLogLine(
      'Nov 03 03:23:09.856 I clusteroperator/machine-config versions: operator A -> B',
      ref,
    );
    expect(e).toMatchObject({ month: 10, day: 3, msOfDay: ((3 * 60 + 23) * 60 + 9) * 1000 + 856 });
    expect(e?.durationMs).toBe(0);
    const i = e?.interval;
    if (!i) throw new Error('expected an interval');
    expect(i.level).toBe('Info');
    expect(i.locator).toEqual({ type: 'ClusterOperator', keys: { clusteroperator: 'machine-config' } });
    expect(i.message.annotations).toEqual({ versions: 'operator A -> B' });
    expect(i.source).toBe('build-log');
  });

  it('reads interval lines with second and millisecond durations', () => {
    const s = parseBuildLogLine(
      'Nov 03 03:23:03.719 - 6s    W clusteroperator/machine-config condition/Progressing status/True reason/Working towards B',
      ref,
    );
    expect(s?.interval && s.durationMs).toBe(6000);
    const ms = parseBuildLogLine('  Nov 03 03:30:02.500 - 450ms I ns/x pod/y reason/Killing Stopping', ref);
    expect(ms?.interval && ms.durationMs).toBe(450);
  });

  it('reads the test lines, with a space-padded day', () => {
    // Times are filled in later (year.ts); a parsed line carries 0.
    const at = 0;
    const make = (line: string) => parseBuildLogLine(line, ref)?.test;
    expect(make('Nov  3 03:28:35.858: INFO: Completed upgrade to registry/release@sha256:51f2')).toEqual({
      kind: 'upgrade-completed',
      at,
      target: 'registry/release@sha256:51f2',
      ref,
    });
    expect(
      make(
        'Nov  3 03:28:36.063: INFO: Pool master is still reporting (Updated: false, Updating: true, Degraded: false)',
      ),
    ).toEqual({
      kind: 'pool-status',
      at,
      pool: 'master',
      updated: false,
      updating: true,
      degraded: false,
      paused: false,
      ref,
    });
    expect(
      make(
        'Nov  3 03:28:36.063: INFO: Pool infra is paused, treating as up-to-date (Updated: true, Updating: false, Degraded: false)',
      ),
    ).toMatchObject({
      kind: 'pool-status',
      pool: 'infra',
      updated: true,
      paused: true,
    });
    expect(
      make(
        'Nov  3 02:50:00.101: INFO: Starting upgrade to version=4.10.0-b image=reg/release@sha256:1 attempt=abc',
      ),
    ).toMatchObject({
      kind: 'upgrade-started',
      target: '4.10.0-b',
    });
    expect(
      make('Nov  3 02:50:00.101: INFO: Starting upgrade to version= image=reg/release@sha256:1'),
    ).toMatchObject({
      kind: 'upgrade-started',
      target: 'reg/release@sha256:1',
    });
    expect(
      make('Nov  3 03:10:11.404: INFO: cluster upgrade is Progressing: Working towards B: 666 of 745 done'),
    ).toMatchObject({
      kind: 'cluster-upgrade-condition',
      condition: 'Progressing',
      message: 'Working towards B: 666 of 745 done',
    });
    expect(
      make('Nov  3 03:28:36.063: INFO: Invariant violation detected: the "master" pool should be updated'),
    ).toMatchObject({
      kind: 'invariant-violation',
      text: 'the "master" pool should be updated',
    });
    expect(make('Nov  3 03:28:35.931: INFO: Waiting on pools to be upgraded')).toMatchObject({
      kind: 'waiting-on-pools',
    });
    expect(make('Nov  3 03:36:36.324: INFO: All pools completed upgrade')).toMatchObject({
      kind: 'pools-completed',
    });
    expect(make('Nov  3 03:36:36.324: INFO: something else')).toBeUndefined();
  });

  it('ignores other lines', () => {
    for (const line of [
      'INFO[2021-11-03T02:15:30Z] Running step',
      'Nov 03 03:23:09.856 X clusteroperator/x bad level',
      'Nov 33 03:23:09.856 I clusteroperator/x bad day',
      'Nov 03 25:23:09.856 I clusteroperator/x bad hour',
      'Timeline:',
      '',
    ]) {
      expect(parseBuildLogLine(line, ref)).toBeUndefined();
    }
  });
});

describe('matchMonitorLine', () => {
  /** What MONITOR_LINE captures, in matchMonitorLine's terms. */
  function byPattern(line: string) {
    const m = MONITOR_LINE.exec(line);
    if (!m) return undefined;
    const amount = m[7];
    return {
      month: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].indexOf(
        m[1] ?? '',
      ),
      day: Number(m[2]),
      hour: Number(m[3]),
      minute: Number(m[4]),
      second: Number(m[5]),
      milli: Number(m[6]),
      amount,
      millis: m[8] === 'ms',
      level: m[9],
      rest: m[10],
    };
  }
  function byHand(line: string) {
    const m = matchMonitorLine(line);
    if (!m) return undefined;
    const timed = m.amountStart >= 0;
    return {
      month: m.month,
      day: m.day,
      hour: m.hour,
      minute: m.minute,
      second: m.second,
      milli: m.milli,
      amount: timed ? line.slice(m.amountStart, m.amountEnd) : undefined,
      millis: m.millis,
      level: m.level,
      rest: line.slice(m.rest),
    };
  }

  it('reads what the pattern reads', () => {
    for (const line of [
      'Nov 03 03:23:09.856 I clusteroperator/machine-config versions: operator A -> B',
      '  Nov  3 03:23:03.719 - 6s    W clusteroperator/x condition/Progressing status/True',
      'Nov 03 03:30:02.500 - 450ms I ns/x pod/y reason/Killing Stopping',
      'Nov 03 03:30:02.500 - 450mss I x/y',
      'Nov 03 03:30:02.500 - s I x/y',
      'Nov 03 03:30:02.500 -  5s I x/y',
      'Nov 123 03:30:02.500 I x/y',
      'Nov 03 03:30:02.500 I ',
      'Nov 03 03:30:02.500 I a\rb',
      '\u00a0\ufeffDec 31 23:59:60.999 E x',
      'Nov 03 03:30:02.50 I x/y',
      'N\u0100v 03 03:30:02.500 I x/y',
    ]) {
      expect(byHand(line), line).toEqual(byPattern(line));
    }
  });

  it('agrees with the pattern on arbitrary lines', () => {
    const pieces = fc.constantFrom(
      'Nov',
      'Dec',
      'Jan',
      'nov',
      ' ',
      '  ',
      '\t',
      '\u00a0',
      '\u2028',
      '\r',
      '0',
      '3',
      '03',
      '12',
      '123',
      ':',
      '.',
      '03:23:09.856',
      '23:59:60.999',
      ' - ',
      '-',
      '6',
      'ms',
      's',
      'm',
      'I',
      'W',
      'E',
      'X',
      'clusteroperator/x',
      'reason/Y',
      'é',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 14 }), (parts) => {
        const line = parts.join('');
        expect(byHand(line)).toEqual(byPattern(line));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom('', ' ', '\t '),
        fc.constantFrom('Nov', 'Feb'),
        fc.constantFrom(' ', '  '),
        fc.constantFrom('3', '03', '31', '0', '99'),
        fc.constantFrom('03:23:09.856', '24:00:00.000', '03:23:9.856'),
        fc.constantFrom(' ', '  ', ' - 6s ', ' - 450ms   ', ' - 6s', ' - ms '),
        fc.constantFrom('I ', 'W ', 'E', 'Ix'),
        fc.string({ maxLength: 6 }),
        (lead, month, gap, day, time, middle, level, rest) => {
          const line = `${lead}${month}${gap}${day} ${time}${middle}${level}${rest}`;
          expect(byHand(line)).toEqual(byPattern(line));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('parseBuildLogLine against the patterns', () => {
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  /**
   * A monitor line as the regular expressions define it: MONITOR_LINE, splitLocator's tokens and
   * parseMessageText, with no cache and no shortcut.
   */
  function byPatterns(line: string) {
    const m = MONITOR_LINE.exec(line);
    if (!m) return undefined;
    const [day, hour, minute, second, milli] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
    if (day === undefined || hour === undefined || minute === undefined || second === undefined) return;
    if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
    const split = splitLocator(m[10] ?? '');
    if (!split) return undefined;
    const timed = m[7] !== undefined;
    const message = parseMessageText(split.message, timed);
    return {
      month: MONTHS.indexOf(m[1] ?? ''),
      day,
      msOfDay: ((hour * 60 + minute) * 60 + second) * 1000 + (milli ?? 0),
      durationMs: timed ? Number(m[7]) * (m[8] === 'ms' ? 1 : 1000) : 0,
      level: m[9] === 'W' ? 'Warning' : m[9] === 'E' ? 'Error' : 'Info',
      locator: split.locator,
      message,
    };
  }

  /** Lines from few pieces, so that heads repeat with other tails (the shape cache's hits). */
  const stamp = fc.constantFrom(
    'Nov 03 03:23:09.856 ',
    'Nov  3 03:23:09.856 - 6s    ',
    ' Dec 31 23:59:60.999 - 0ms ',
  );
  const level = fc.constantFrom('I ', 'W ', 'E ');
  const locator = fc.constantFrom(
    'clusteroperator/a ',
    'clusteroperator/a  ',
    'clusteroperator/a\t',
    'clusteroperator/a\u00a0',
    'clusteroperator/é ',
    'ns/x pod/y ',
    'e2e-test/"a changed: b" ',
    'e2e-test/"x ',
    'node/n changed: ',
    '',
    'condition/ ',
  );
  const piece = fc.constantFrom(
    'condition/Progressing',
    'condition/',
    'status/True',
    'status/\u2028',
    'reason/R',
    'reason/',
    'x/y',
    ' ',
    '  ',
    '\t',
    '\u00a0',
    '\u2028',
    '\r',
    '\ufeff',
    ' changed:',
    ' changed: ',
    'changed:',
    ' changed:x',
    'text',
    'é',
    '"',
  );
  const line = fc
    .tuple(stamp, level, locator, fc.array(piece, { maxLength: 9 }))
    .map(([s, l, loc, parts]) => `${s}${l}${loc}${parts.join('')}`);
  const conditionLine = fc
    .tuple(
      stamp,
      level,
      fc.constantFrom('clusteroperator/a ', 'clusteroperator/b ', 'ns/x pod/y '),
      fc.constantFrom('condition/Progressing status/True', 'condition/Available status/False'),
      fc.constantFrom('', ' reason/R', ' reason/AsExpected'),
      fc.constantFrom(
        ' changed:',
        ' changed: ',
        ' changed: text',
        ' changed:  two',
        ' changed: a changed: b',
        ' changed:x',
        ' changed:\t',
        ' changed:\u00a0x',
        '  changed: text',
      ),
      fc.constantFrom('', ' ', '\r', '\u2028', '\u3000', ' end'),
    )
    .map((parts) => parts.join(''));

  it('reads every line as the patterns do, whatever lines came before', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(line, conditionLine), { minLength: 1, maxLength: 12 }), (lines) => {
        const locators = new Map();
        const shapes = new Map();
        const intern = new Interner();
        for (const text of lines) {
          const e = parseBuildLogLine(text, ref, intern, locators, shapes);
          const got = e?.interval
            ? {
                month: e.month,
                day: e.day,
                msOfDay: e.msOfDay,
                durationMs: e.durationMs,
                level: e.interval.level,
                locator: e.interval.locator,
                message: e.interval.message,
              }
            : undefined;
          expect(got, JSON.stringify(text)).toEqual(byPatterns(text));
        }
      }),
      { numRuns: 3000 },
    );
  });
  it('reads a long head and a head that finds the cache full as the patterns do', () => {
    const full = new Map(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, null]));
    const lines = [
      'Nov 03 03:23:09.856 I clusteroperator/a condition/Progressing status/True reason/R changed: x',
      `Nov 03 03:23:09.856 I clusteroperator/${'a'.repeat(600)} condition/Available status/False changed: y`,
    ];
    for (const text of lines) {
      const e = parseBuildLogLine(text, ref, new Interner(), new Map(), full)?.interval;
      const expected = byPatterns(text);
      expect([e?.locator, e?.message]).toEqual([expected?.locator, expected?.message]);
    }
    expect(full.size).toBe(10_000);
  });
});

describe('BuildLogReader', () => {
  it('splits lines across chunks, counts lines and drops repeated lines', () => {
    const text =
      'noise\r\nNov 03 03:23:09.856 I clusteroperator/a versions: operator A -> B\r\n' +
      'Nov 03 03:23:09.856 I clusteroperator/a versions: operator A -> B\n' +
      'Nov  3 03:28:35.931: INFO: Waiting on pools to be upgraded';
    const reader = read(text, 5);
    expect(reader.lines).toBe(4);
    expect(reader.duplicates).toBe(1);
    expect(reader.entries.map((e) => (e.interval ? 'interval' : 'test'))).toEqual(['interval', 'test']);
    expect(reader.entries[0]?.interval?.ref).toEqual({ file: 'build-log.txt', line: 2 });
  });

  it('skips an over-long line without keeping it', () => {
    const long = `Nov 03 03:23:09.856 I node/x ${'y'.repeat(2 * 1024 * 1024)}`;
    const reader = read(`${long}\nNov 03 03:23:10.000 I node/z reason/Ok fine\n`, 64 * 1024);
    expect(reader.entries).toHaveLength(1);
    expect(reader.lines).toBe(2);
  });

  it('gives the same entries, lines and repeats whatever the chunking, with any characters', () => {
    const text =
      'é noise ✓\r\nNov 03 03:23:09.856 I ns/é pod/ü reason/Ok naïve “quoted” 😀\r\n\n' +
      'Nov 03 03:23:09.856 I ns/é pod/ü reason/Ok naïve “quoted” 😀\n' +
      'Nov 03 03:23:10.000 - 5s    W e2e-test/"[sig] a test" status/Passed\n\ufeffNov 03 03:23:11.000 I node/x reason/A b';
    const summary = (r: BuildLogReader) =>
      JSON.stringify([
        r.lines,
        r.duplicates,
        r.entries.map((e) => [e.month, e.day, e.msOfDay, e.interval ?? e.test]),
      ]);
    const reference = summary(read(text, 1 << 20));
    expect(read(text, 1 << 20).entries).toHaveLength(2);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), (size) => summary(read(text, size)) === reference),
    );
  });

  it('reads a whole chunk as it reads each line on its own, whatever line terminators it holds', () => {
    // One byte at a time, every line is read on its own and searched for line terminators; a chunk
    // of 1 MiB is read whole, and its lines are spared that search when the chunk holds none.
    const piece = fc.constantFrom(
      'Nov 03 03:23:09.856 I ',
      'Nov 03 03:23:09.856 - 5s    W ',
      'Nov  3 03:28:35.931: INFO: ',
      'clusteroperator/a ',
      'condition/Progressing status/True reason/R changed: x',
      'node/n reason/A b',
      'All pools completed upgrade',
      ' ',
      '\r',
      '\u2028',
      '\u2029',
      '\u0085',
      'é',
    );
    const line = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    const summary = (r: BuildLogReader) => JSON.stringify([r.lines, r.duplicates, r.entries]);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.integer({ min: 2, max: 400 }), (lines, size) => {
        const text = lines.join('\n');
        const byLine = summary(read(text, 1));
        expect(summary(read(text, 1 << 20))).toBe(byLine);
        expect(summary(read(text, size))).toBe(byLine);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the lines of a known condition head in a chunk as it reads each line cut out of it', () => {
    // A chunk's monitor lines whose condition head is already in the cache are read where they are
    // (#knownHeadLine); one byte at a time, every line is cut out and read by parseBuildLogLine.
    // Hostile lines: escapes, CRLF, missing fields, odd stamps and durations, non-ASCII, repeats.
    const stamp = fc.constantFrom(
      'Nov 03 03:23:09.856 ',
      'Nov  3 03:23:09.856 ',
      'Nov 3 03:23:09.856 ',
      '\tNov 03 03:23:09.856 ',
      '\u00a0Nov 03 03:23:09.857 ',
      'Nov 03 03:23:09.856 - 5s    ',
      'Nov 03 03:23:09.856 - 12ms ',
      'Nov 03 03:23:09.856 - 99999999999999999999s ',
      'Nov 03 03:23:09.856 - 007s ',
      'Nov 03 03:23:09.856 - s ',
      'Nov 03 03:23:09.856 -5s ',
      'Nov 03 03:23:09.85 ',
      'Nov 03 24:00:00.000 ',
      'Nov 00 03:23:09.856 ',
      'Feb 30 03:23:09.856 ',
      'Dec 31 23:59:60.999 ',
      'Nov 03 03:23:61.000 ',
      'Nov 03 03:60:00.000 ',
      'Nov 32 03:23:09.856 ',
      'Nov 03 03:23:09.856',
      'Nov 03 03:23:09.856  ',
      'Nov 03 03:23:10.000 ',
      'Nov 03 03:23:08.000 ',
      'Nov 03 03:23:09.856: INFO: ',
      'Növ 03 03:23:09.856 ',
    );
    const level = fc.constantFrom('I ', 'W ', 'E ', 'W', 'X ', 'W  ');
    const head = fc.constantFrom(
      'clusteroperator/a condition/Progressing status/True reason/R',
      'clusteroperator/a condition/Progressing status/False',
      'clusteroperator/é condition/Available status/True reason/É',
      'e2e-test/"a \\"b\\" changed: c" condition/X status/Y',
      'ns/x pod/y condition/Ready status/False reason/\\u00e9',
      'condition/X status/Y',
      'clusteroperator/a  condition/Progressing status/True',
      'node/n\u00a0condition/Ready status/True',
      'clusteroperator/a condition/A status/B reason/C extra/D',
      'clusteroperator/a condition/A',
      '',
    );
    const tail = fc.constantFrom(
      ' changed:',
      ' changed: ',
      ' changed: x',
      ' changed:x',
      ' changed:  two',
      ' changed: \u3000',
      ' changed: a changed: b',
      ' changed: é\\n\\"',
      ' changed: \ufeff',
      ' changed: 😀',
      ' changed',
      '',
    );
    // A line terminator other than \n makes its chunk take the cut-out path: rare, so that most
    // chunks take the other.
    const end = fc.oneof(
      { arbitrary: fc.constantFrom('', ' ', '\t', '\u0085', ' end'), weight: 40 },
      { arbitrary: fc.constantFrom('\r', '\u2028', '\u2029'), weight: 1 },
    );
    const line = fc.oneof(
      fc.tuple(stamp, level, head, tail, end).map((parts) => parts.join('')),
      fc.constantFrom(
        'noise',
        '',
        'INFO[2021-11-03T03:00:00Z] x',
        'Nov  3 03:28:35.931: INFO: All pools completed upgrade',
      ),
    );
    const summary = (r: BuildLogReader) =>
      JSON.stringify([r.lines, r.duplicates, r.dated, r.entries], (_k, v) => (Number.isNaN(v) ? 'NaN' : v));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.integer({ min: 2, max: 600 }), (lines, size) => {
        const text = lines.join('\n');
        const byLine = summary(read(text, 1));
        expect(summary(read(text, 1 << 20))).toBe(byLine);
        expect(summary(read(text, size))).toBe(byLine);
      }),
      { numRuns: 3000 },
    );
  });

  it('drops exactly the lines kept before, as a set of all kept lines would', () => {
    const entry = fc.constantFrom(
      'Nov 03 03:23:09.856 I node/a reason/A x',
      'Nov 03 03:23:09.856 I node/a reason/A y',
      ' Nov 03 03:23:09.856 I node/a reason/A x',
      'Nov 03 03:23:09.856 - 1s    I node/a reason/A x',
      'Nov 03 03:23:09.857 I node/a reason/A x',
      'Nov 04 03:23:09.856 I node/a reason/A x',
      'Dec 03 03:23:09.856 I node/a reason/A x',
      'Nov  3 03:23:09.856: INFO: All pools completed upgrade',
      'Nov 03 03:23:09.856 I node/a reason/A x\r',
      'noise',
    );
    // More lines at one time than the reader lists before it sets them (MAX_KEPT_LIST).
    const sameTime = fc.noBias(fc.nat(12)).map((n) => `Nov 03 03:23:09.856 I node/a reason/A ${n}`);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(entry, sameTime), { maxLength: 60 }),
        fc.oneof(fc.constant(1 << 20), fc.integer({ min: 1, max: 300 })),
        (lines, size) => {
          const seen = new Set<string>();
          const kept: number[] = [];
          let duplicates = 0;
          lines.forEach((text, i) => {
            const line = text.endsWith('\r') ? text.slice(0, -1) : text;
            if (!parseBuildLogLine(line, ref)) return;
            if (seen.has(line)) duplicates++;
            else {
              seen.add(line);
              kept.push(i + 1);
            }
          });
          const reader = read(lines.join('\n'), size);
          expect(reader.duplicates).toBe(duplicates);
          expect(reader.entries.map((e) => (e.interval ?? e.test)?.ref.line)).toEqual(kept);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives the same number of entries whatever the chunking', () => {
    const text =
      'Nov 03 03:23:09.856 I clusteroperator/a versions: operator A -> B\nxx\n' +
      'Nov  3 03:28:36.063: INFO: Pool master is still reporting (Updated: false, Updating: true, Degraded: false)\n';
    const reference = read(text, 1 << 20).entries.length;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), (size) => read(text, size).entries.length === reference),
    );
  });
});

describe('year resolution', () => {
  it('dates every line as Date.UTC and a Date per line do, leap seconds and Feb 29 included', () => {
    /** resolveYears's times and reports, the year taken as there, each line checked on its own. */
    function reference(stamps: { month: number; day: number; msOfDay: number }[], hint: number) {
      const at = (y: number, s: (typeof stamps)[number]) => Date.UTC(y, s.month, s.day) + s.msOfDay;
      const closest = (s: (typeof stamps)[number], from: number) => {
        const y = new Date(from).getUTCFullYear();
        let [best, distance] = [y, Number.POSITIVE_INFINITY];
        for (const c of [y - 1, y, y + 1]) {
          if (Math.abs(at(c, s) - from) < distance) [best, distance] = [c, Math.abs(at(c, s) - from)];
        }
        return best;
      };
      const first = stamps[0];
      let year = first ? closest(first, hint) : 0;
      let previous = first ? at(year, first) : hint;
      let month = first?.month;
      const times: number[] = [];
      let impossible = 0;
      for (const s of stamps) {
        const y = s.month === month ? year : closest(s, previous);
        const t = at(y, s);
        if (new Date(t).getUTCDate() !== s.day) {
          impossible++;
          continue;
        }
        [previous, year, month] = [t, y, s.month];
        times.push(t);
      }
      return { times, impossible };
    }
    const stamp = fc.record({
      month: fc.constantFrom(0, 1, 10, 11),
      day: fc.constantFrom(1, 2, 28, 29, 30, 31),
      msOfDay: fc.constantFrom(0, 1, 43_200_000, 86_399_999, 86_400_000, 86_400_999),
    });
    fc.assert(
      fc.property(
        fc.array(stamp, { maxLength: 30 }),
        fc.constantFrom(T('2021-11-03T00:00:00Z'), T('2024-02-29T12:00:00Z'), T('2020-12-31T23:00:00Z')),
        (stamps, hint) => {
          const pending = stamps.map((s) => ({
            ...s,
            durationMs: 0 as const,
            test: { kind: 'pools-completed' as const, at: 0, ref },
          }));
          const resolved = resolveYears(pending, { at: hint, from: 'test' }, 0);
          expect({ times: resolved.testLog.map((t) => t.at), impossible: resolved.impossibleDates }).toEqual(
            reference(stamps, hint),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('takes the run start from an e2e file name', () => {
    expect(runStartFromName('e2e-events_20211103-021533.json')).toBe(T('2021-11-03T02:15:33Z'));
    expect(runStartFromName('e2e-timelines_spyglass_20211103-021533.json.gz')).toBe(
      T('2021-11-03T02:15:33Z'),
    );
    expect(runStartFromName('e2e-events_20211399-021533.json')).toBeUndefined();
    expect(runStartFromName('events.json')).toBeUndefined();
  });

  it('counts forward across New Year', () => {
    const reader = read(
      'Dec 31 23:59:58.000 I node/a reason/A one\nJan 01 00:00:01.000 I node/a reason/B two\nJan 01 00:00:02.000 I node/a reason/C three\n',
    );
    const resolved = resolveYears(reader.entries, { at: T('2021-12-31T23:00:00Z'), from: 'test' }, 0);
    expect(resolved.year).toBe(2021);
    expect(resolved.intervals.map((i) => i.from)).toEqual([
      T('2021-12-31T23:59:58Z'),
      T('2022-01-01T00:00:01Z'),
      T('2022-01-01T00:00:02Z'),
    ]);
  });

  it('reports a day that does not exist (Feb 30) instead of rolling it over to March', () => {
    const reader = read(
      'Feb 28 10:00:00.000 I node/a reason/A one\nFeb 30 10:00:00.000 I node/a reason/A two\nMar 01 10:00:00.000 I node/a reason/A three\n',
    );
    const resolved = resolveYears(reader.entries, { at: T('2021-03-01T00:00:00Z'), from: 'test' }, 0);
    expect(resolved.intervals.map((i) => i.from)).toEqual([
      T('2021-02-28T10:00:00Z'),
      T('2021-03-01T10:00:00Z'),
    ]);
    expect(resolved.impossibleDates).toBe(1);
    expect(resolved.impossibleExample).toBe('Feb 30 2021');
  });

  it('picks the year nearest the hint, even across a year boundary', () => {
    const reader = read('Dec 31 23:59:58.000 I node/a reason/A one\n');
    // The hint (the gather, just after midnight) is in the next year.
    const resolved = resolveYears(reader.entries, { at: T('2022-01-01T01:00:00Z'), from: 'objects' }, 0);
    expect(resolved.intervals[0]?.from).toBe(T('2021-12-31T23:59:58Z'));
  });

  it("dates the log by its first line with a full date in the logger's prefix", () => {
    const log = (first: string) =>
      read(`${first}\nINFO[2030-01-01T00:00:00Z] later\nNov 03 03:23:09.856 I node/a reason/A one\n`, 5)
        .dated;
    expect(log('INFO[2021-11-03T02:09:52Z] ci-operator version v20211102')).toEqual({
      at: T('2021-11-03T02:09:52Z'),
      line: 1,
    });
    expect(log('WARN[2021-11-03T02:09:52.123Z] slow')?.at).toBe(T('2021-11-03T02:09:52Z'));
    expect(log('2021/11/03 02:49:59 ci-operator version v20211102')?.at).toBe(T('2021-11-03T02:49:59Z'));
    // Not a logger's prefix, or not a date: the next line (2030) is the first dated one.
    for (const first of [
      'the cert expires 2021-11-03T02:09:52Z',
      ' INFO[2021-11-03T02:09:52Z] indented',
      'INFO[2021-02-30T02:09:52Z] no such day',
      'INFO[2021-13-03T02:09:52Z] no such month',
      '2021/11/03 25:00:00 no such hour',
      'INFO[2021-11-03 02:09:52] not RFC 3339',
    ]) {
      expect(log(first), first).toEqual({ at: T('2030-01-01T00:00:00Z'), line: 2 });
    }
    expect(read('Nov 03 03:23:09.856 I node/a reason/A one\n').dated).toBeUndefined();
  });

  it('falls back to the current year and says so', () => {
    const reader = read('Mar 03 10:00:00.000 I node/a reason/A one\n');
    const resolved = resolveYears(reader.entries, undefined, T('2030-03-10T00:00:00Z'));
    expect(resolved.year).toBe(2030);
    expect(resolved.basis).toMatch(/current year/);
  });
});
