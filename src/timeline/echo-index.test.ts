import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interval, Locator } from '../model/history.js';
import { EchoIndex } from './build.js';
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
});
