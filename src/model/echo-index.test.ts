import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EchoIndex } from './echo-index.js';
import type { Interval, Locator } from './history.js';
import { objectKey } from './locator.js';

const locators: Locator[] = [
  { type: 'ClusterOperator', keys: { clusteroperator: 'a' } },
  { type: 'ClusterOperator', keys: { clusteroperator: 'b' } },
  { type: 'Pod', keys: { namespace: 'n', pod: 'p' } },
];

const interval = (source: string) =>
  fc
    .record({
      locator: fc.constantFrom(...locators),
      from: fc.oneof(
        fc.integer({ min: 0, max: 6000 }),
        fc.integer({ min: 0, max: 6 }).map((s) => s * 1000),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0.5, 999.5),
      ),
      message: fc.constantFrom('m1', 'm2'),
      condition: fc.constantFrom(undefined, 'Available'),
      status: fc.constantFrom(undefined, 'True', 'False'),
    })
    .map(
      ({ locator, from, message, condition, status }): Interval => ({
        from,
        to: from,
        level: 'Info',
        locator,
        message: {
          reason: '',
          humanMessage: message,
          annotations: {
            ...(condition ? { condition } : {}),
            ...(status ? { status } : {}),
          },
        },
        source,
        ref: { file: source },
      }),
    );

/** The rule, said plainly: the first logged interval of the same object, message, condition and status, in the same second. */
function reference(logged: Interval[], i: Interval): Interval | undefined {
  return logged.find((l) => {
    const a = l.message.annotations;
    const b = i.message.annotations;
    return (
      objectKey(l.locator) === objectKey(i.locator) &&
      l.message.humanMessage === i.message.humanMessage &&
      (a.condition ?? '') === (b.condition ?? '') &&
      (a.status ?? '') === (b.status ?? '') &&
      (Math.floor(l.from / 1000) * 1000 === i.from || Math.abs(l.from - i.from) < 1000)
    );
  });
}

describe('EchoIndex', () => {
  it('answers the first logged interval an interval echoes, as the plain rule does', () => {
    fc.assert(
      fc.property(
        fc.array(interval('build-log'), { maxLength: 30 }),
        fc.array(interval('intervals'), { maxLength: 30 }),
        (logged, others) => {
          const index = new EchoIndex();
          for (const l of logged) index.add(l);
          expect(index.size).toBe(logged.length);
          for (const i of others) expect(index.echoOf(i)).toBe(reference(logged, i));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('answers alike when the log is in time order (the window search), however crowded a second', () => {
    // Sorted as a build log is; a few runs repeat one logged interval past the crowding limit.
    const log = fc
      .tuple(
        fc.array(interval('build-log'), { maxLength: 40 }),
        fc.nat({ max: 300 }),
        fc.boolean(),
        // Lines out of time order: a log's closing lines, and stray ones anywhere.
        fc.array(fc.tuple(interval('build-log'), fc.nat()), { maxLength: 4 }),
      )
      .map(([logged, crowd, crowded, strays]) => {
        const sorted = logged.filter((l) => Number.isFinite(l.from)).sort((a, b) => a.from - b.from);
        const first = sorted[0];
        const copies = crowded && first ? Array.from({ length: crowd }, () => ({ ...first })) : [];
        const all = [...copies, ...sorted].sort((a, b) => a.from - b.from);
        for (const [stray, at] of strays) all.splice(at % (all.length + 1), 0, stray);
        return all;
      });
    fc.assert(
      fc.property(
        log,
        fc.array(interval('intervals'), { maxLength: 30 }),
        fc.nat({ max: 340 }),
        (logged, others, askAfter) => {
          const index = new EchoIndex();
          // Questions between additions: the maps, once built for a crowded second, must keep up.
          logged.forEach((l, n) => {
            index.add(l);
            if (n === askAfter)
              for (const i of others) expect(index.echoOf(i)).toBe(reference(logged.slice(0, n + 1), i));
          });
          for (const i of others) expect(index.echoOf(i)).toBe(reference(logged, i));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("answers for an item's own locator what it answers for the locator's key", () => {
    // Locators of every kind echoPositionOfItem reads by name, with the name key or `name` or
    // neither, and copies of them (an interval file's items each have their own locator object).
    const word = fc.constantFrom('', 'a', 'b', '__proto__');
    const itemLocator: fc.Arbitrary<Locator> = fc
      .tuple(
        fc.constantFrom(
          'ClusterOperator',
          'ClusterVersion',
          'Node',
          'MachineConfigPool',
          'MachineConfig',
          'Pod',
          'Deployment',
          'KubeEvent',
        ),
        fc.array(
          fc.tuple(
            fc.constantFrom(
              'clusteroperator',
              'clusterversion',
              'node',
              'machineconfigpool',
              'machineconfig',
              'pod',
              'namespace',
              'name',
              'deployment',
            ),
            word,
          ),
          { maxLength: 3 },
        ),
      )
      .map(([type, pairs]) => ({ type, keys: JSON.parse(JSON.stringify(Object.fromEntries(pairs))) }));
    const logLine = fc.tuple(itemLocator, fc.integer({ min: 0, max: 4000 }), fc.constantFrom('m1', 'm2')).map(
      ([locator, from, message]): Interval => ({
        from,
        to: from,
        level: 'Info',
        locator,
        message: { reason: '', humanMessage: message, annotations: {} },
        source: 'build-log',
        ref: { file: 'build-log.txt' },
      }),
    );
    fc.assert(
      fc.property(
        fc.array(logLine, { maxLength: 40 }),
        fc.array(logLine, { maxLength: 40 }),
        fc.nat({ max: 40 }),
        (logged, items, askAfter) => {
          const index = new EchoIndex();
          const ask = () => {
            for (const i of items) {
              const own: Locator = { type: i.locator.type, keys: { ...i.locator.keys } };
              const m = i.message;
              expect(index.echoPositionOfItem(own, m.humanMessage, m.annotations, i.from)).toBe(
                index.echoPosition(objectKey(i.locator), m.humanMessage, m.annotations, i.from),
              );
            }
          };
          // Asked between additions too: a key the log lacks at first may come later.
          logged.forEach((l, n) => {
            index.add(l);
            if (n === askAfter) ask();
          });
          ask();
        },
      ),
      { numRuns: 1000 },
    );
  });

  const at = (from: number, message: string, key = 'a'): Interval => ({
    from,
    to: from,
    level: 'Info',
    locator: { type: 'ClusterOperator', keys: { clusteroperator: key } },
    message: { reason: '', humanMessage: message, annotations: {} },
    source: 'build-log',
    ref: { file: 'build-log.txt' },
  });

  it('answers a line added out of time order before a later one in time order', () => {
    const index = new EchoIndex();
    const straggler = at(4500, 'm2');
    for (const l of [at(5000, 'm1'), straggler, at(5000, 'm2')]) index.add(l);
    expect(index.echoOf(at(4600, 'm2'))).toBe(straggler);
  });

  it('keeps the maps of a crowded second up to date with lines added after they were built', () => {
    const index = new EchoIndex();
    for (let n = 0; n < 200; n++) index.add(at(7000, 'm1'));
    expect(index.echoOf(at(7000, 'm2'))).toBeUndefined();
    const late = at(7000, 'm2');
    index.add(late);
    expect(index.echoOf(at(7000, 'm2'))).toBe(late);
  });
});
