/**
 * The echo check on an interval file's raw items (plainItem + EchoFilter.dropItem, used while
 * streaming) must end exactly where making every item an interval and asking EchoFilter.drop ends:
 * the same intervals kept, the same echoes counted, the same duplicates and span, and the same
 * record of what was dropped (probed by reading everything again, which counts duplicates).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interval, IntervalLevel } from '../model/index.js';
import { EchoIndex, Interner } from '../model/index.js';
import { EchoFilter } from './echoes.js';
import { parseIntervalItem, plainItem } from './intervals-json.js';

const BASE = Date.parse('2021-11-03T03:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

// Small alphabets, so that items and log lines collide often.
const type = fc.constantFrom('ClusterOperator', 'Node', 'Pod', 'Other');
const keyName = fc.constantFrom('clusteroperator', 'node', 'namespace', 'pod', 'name', 'x');
const value = fc.constantFrom('a', 'b');
const keys = fc.dictionary(keyName, value, { maxKeys: 3 });
const annotations = fc.dictionary(
  fc.constantFrom('condition', 'status', 'reason'),
  fc.constantFrom('True', 'A'),
  {
    maxKeys: 3,
  },
);
const human = fc.constantFrom('m1', 'm2', '');
const reason = fc.constantFrom('R', 'S', '');
const offset = fc.constantFrom(0, 1, 500, 999, 1000, 1500, -500, -999, -1000, 5000, 0.5);
const level = fc.constantFrom<IntervalLevel>('Info', 'Warning', 'Error');

const logLine = fc.record({
  type,
  keys,
  annotations,
  human,
  reason,
  level,
  at: fc.integer({ min: 0, max: 4 }),
});
type LogLine = typeof logLine extends fc.Arbitrary<infer T> ? T : never;

/** A raw item: mostly a near copy of a log line, sometimes of another shape altogether. */
const rawItem = (lines: LogLine[]) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({
          of: fc.nat({ max: Math.max(0, lines.length - 1) }),
          from: offset,
          length: fc.constantFrom(0, 1000, -1000, null, '', 2 ** 30),
          level: fc.option(fc.constantFrom('Info', 'Warning', 'Bogus', 3), { freq: 4 }),
          keys: fc.option(fc.oneof(keys, fc.constant({ n: 1 }), fc.constant('x')), { freq: 4 }),
          annotations: fc.option(fc.oneof(annotations, fc.constant({ condition: 1 })), { freq: 4 }),
          reason: fc.option(fc.oneof(reason, fc.constant(7)), { freq: 4 }),
          human: fc.option(fc.oneof(human, fc.constant(null)), { freq: 4 }),
          cause: fc.option(fc.constantFrom('', 'c'), { freq: 4 }),
          reorder: fc.boolean(),
        })
        .map((m) => {
          const line = lines[m.of];
          if (!line) return { level: 'Info', from: iso(BASE), locator: 'node/x', message: 'm1' } as unknown;
          const from = BASE + line.at * 1000 + m.from;
          let k: unknown = m.keys ?? line.keys;
          if (m.reorder && typeof k === 'object' && k !== null)
            k = Object.fromEntries(Object.entries(k).reverse());
          const message: Record<string, unknown> = {
            reason: m.reason ?? line.reason,
            humanMessage: m.human ?? line.human,
            annotations: m.annotations ?? line.annotations,
          };
          if (m.cause !== null) message.cause = m.cause;
          return {
            level: m.level ?? line.level,
            locator: { type: line.type, keys: k },
            message,
            from: iso(Math.floor(from)),
            to: typeof m.length === 'number' ? iso(Math.floor(from) + m.length) : m.length,
          } as unknown;
        }),
    },
    // The 4.10 schema (strings), and items with a transitional or empty message.
    {
      weight: 1,
      arbitrary: fc.record({ at: fc.integer({ min: 0, max: 4 }), human }).map(({ at, human: h }) => ({
        level: 'Info',
        locator: 'clusteroperator/a',
        message: h,
        from: iso(BASE + at * 1000),
        to: null,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ at: fc.integer({ min: 0, max: 4 }), k: keys }).map(({ at, k }) => ({
        level: 'Warning',
        locator: { type: 'Node', keys: k },
        message: {},
        tempStructuredMessage: { reason: 'R', humanMessage: 'm1', annotations: {} },
        from: iso(BASE + at * 1000),
      })),
    },
  );

function logged(lines: LogLine[], intern: Interner): EchoIndex {
  const index = new EchoIndex();
  lines.forEach((l, n) => {
    const from = BASE + l.at * 1000 + n;
    const i: Interval = {
      from,
      to: from + 1000,
      level: l.level,
      locator: intern.locator(l.type, l.keys),
      message: {
        reason: intern.string(l.reason),
        humanMessage: l.human,
        annotations: intern.record(l.annotations),
      },
      source: 'build-log',
      ref: { file: 'build-log.txt', path: `line ${n}` },
    };
    index.add(i);
  });
  return index;
}

/** One pass over `items` the way readers.ts streams them, with (`raw`) or without the raw-item check. */
function read(items: unknown[], filter: EchoFilter, intern: Interner, raw: boolean) {
  const kept: Interval[] = [];
  let echoes = 0;
  items.forEach((item, index) => {
    const plain = raw ? plainItem(item) : undefined;
    const echo = plain ? filter.dropItem(plain) : undefined;
    if (echo === true) echoes++;
    else {
      const interval = parseIntervalItem(item, index, 'f.json', 'e2e-intervals', intern);
      if (echo === false) kept.push(interval);
      else if (filter.drop(interval)) echoes++;
      else kept.push(interval);
    }
  });
  return { kept: JSON.stringify(kept), echoes };
}

describe('the echo check on raw interval items', () => {
  it('drops, keeps and counts what the check on intervals does', () => {
    const scenario = fc
      .array(logLine, { minLength: 0, maxLength: 8 })
      .chain((lines) => fc.tuple(fc.constant(lines), fc.array(rawItem(lines), { maxLength: 12 })));
    fc.assert(
      fc.property(scenario, ([lines, items]) => {
        const valid = items.filter((item) => {
          try {
            parseIntervalItem(item, 0, 'f.json', 'e2e-intervals', new Interner());
            return true;
          } catch {
            return false;
          }
        });
        const outcome = (raw: boolean) => {
          const intern = new Interner();
          const filter = new EchoFilter(logged(lines, intern));
          const first = read(valid, filter, intern, raw);
          const state = { duplicates: filter.duplicates, span: filter.span && { ...filter.span } };
          // Reading it all again counts every dropped echo as a duplicate, if it was recorded alike.
          const again = read(valid, filter, intern, false);
          return { first, state, again, duplicates: filter.duplicates };
        };
        expect(outcome(true)).toEqual(outcome(false));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes only items whose every field it reads as parseIntervalItem does', () => {
    const good = {
      level: 'Info',
      locator: { type: 'Node', keys: { node: 'a' } },
      message: { reason: 'R', humanMessage: 'h', annotations: { condition: 'Ready' } },
      from: '2021-11-03T03:00:00Z',
      to: '2021-11-03T02:00:00Z',
    };
    expect(plainItem(good)).toMatchObject({ from: BASE, to: BASE, level: 'Info', humanMessage: 'h' });
    const bad: unknown[] = [
      { ...good, level: 'Bogus' },
      { ...good, locator: 'node/a' },
      { ...good, locator: { type: 'Node', keys: { n: 1 } } },
      { ...good, message: { ...good.message, cause: 'c' } },
      { ...good, message: { ...good.message, annotations: { condition: true } } },
      { ...good, message: {} },
      { ...good, from: 'yesterday' },
      { ...good, to: 'tomorrow' },
      JSON.parse(
        '{"level":"Info","locator":{"type":"Node","keys":{"__proto__":"x"}},"message":{"reason":"R"},"from":"2021-11-03T03:00:00Z"}',
      ),
    ];
    for (const item of bad) expect(plainItem(item)).toBeUndefined();
  });
});
