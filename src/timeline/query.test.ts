import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClusterHistory, Interval, Locator } from '../model/history.js';
import { objectKey } from '../model/index.js';
import { eventsWithReason, inheritIndex, intervalLocators, intervalsOf, watchedReach } from './query.js';

const locators: Locator[] = [
  { type: 'MachineConfigPool', keys: { machineconfigpool: 'worker' } },
  { type: 'MachineConfigPool', keys: { machineconfigpool: 'master' } },
  { type: 'Node', keys: { node: 'n1' } },
  { type: 'KubeEvent', keys: { namespace: 'ns', pod: 'p' } },
  { type: 'KubeEvent', keys: { node: 'n1' } },
];
const reasons = ['Drain', 'Rollout', 'OperatorVersionChanged'];

/** Few distinct times, so that ties (and their order) are common. */
const interval = fc
  .record({
    locator: fc.constantFrom(...locators),
    from: fc.integer({ min: 0, max: 5 }),
    length: fc.integer({ min: 0, max: 2 }),
    reason: fc.constantFrom(...reasons),
    tag: fc.nat(),
  })
  .map(
    ({ locator, from, length, reason, tag }): Interval => ({
      from,
      to: from + length,
      level: 'Info',
      locator,
      message: { reason, humanMessage: String(tag), annotations: {} },
      source: 'test',
      ref: { file: 'f' },
    }),
  );

const byTime = (a: Interval, b: Interval): number => a.from - b.from || a.to - b.to;
/** What buildHistory's merge gives for two sorted lists: their concatenation, stably sorted. */
const merge = (a: readonly Interval[], b: readonly Interval[]): Interval[] => [...a, ...b].sort(byTime);
const history = (intervals: Interval[]): ClusterHistory => ({ intervals }) as unknown as ClusterHistory;

describe('inheritIndex', () => {
  it('gives the merged history the index a walk over all its intervals would give', () => {
    fc.assert(
      fc.property(fc.array(interval, { maxLength: 40 }), fc.array(interval, { maxLength: 8 }), (a, b) => {
        a.sort(byTime);
        b.sort(byTime);
        const base = history(a);
        intervalsOf(base, 'Node/n1'); // the base is asked first, so it has an index to pass on
        const next = history(merge(a, b));
        inheritIndex(base, next, b, merge);
        const fresh = history([...next.intervals]);
        for (const key of new Set(locators.map(objectKey))) {
          expect(intervalsOf(next, key)).toStrictEqual(intervalsOf(fresh, key));
          // Same objects in the same order, not merely equal ones.
          intervalsOf(next, key).forEach((i, n) => {
            expect(i).toBe(intervalsOf(fresh, key)[n]);
          });
        }
        for (const reason of reasons) {
          const got = eventsWithReason(next, reason);
          const want = eventsWithReason(fresh, reason);
          expect(got.length).toBe(want.length);
          got.forEach((i, n) => {
            expect(i).toBe(want[n]);
          });
        }
        // The base's own lists are left as they were.
        expect(intervalsOf(base, 'Node/n1')).toStrictEqual(
          a.filter((i) => objectKey(i.locator) === 'Node/n1'),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves a history whose base was never indexed to build its own', () => {
    const i: Interval = {
      from: 1,
      to: 1,
      level: 'Info',
      locator: { type: 'Node', keys: { node: 'n1' } },
      message: { reason: '', humanMessage: '', annotations: {} },
      source: 'test',
      ref: { file: 'f' },
    };
    const base = history([]);
    const next = history([i]);
    inheritIndex(base, next, [i], merge);
    expect(intervalsOf(next, 'Node/n1')).toEqual([i]);
  });
});

describe('watchedReach and intervalLocators', () => {
  /** Times with NaN among them, sources watched and derived, locators shared and copied. */
  const anyInterval = fc
    .record({
      locator: fc.constantFrom(...locators),
      copy: fc.boolean(),
      from: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(Number.NaN)),
      to: fc.oneof(fc.integer({ min: -5, max: 9 }), fc.constant(Number.NaN)),
      source: fc.constantFrom(
        'build-log',
        'e2e-events',
        'derived:event',
        'derived:condition',
        'derived:rollout',
      ),
    })
    .map(
      ({ locator, copy, from, to, source }): Interval => ({
        from,
        to,
        level: 'Info',
        locator: copy ? { type: locator.type, keys: { ...locator.keys } } : locator,
        message: { reason: 'r', humanMessage: '', annotations: {} },
        source,
        ref: { file: 'f' },
      }),
    );

  /** The walk window.ts made over every interval before the index kept its answer. */
  const walked = (intervals: readonly Interval[]) => {
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const i of intervals) {
      if (i.source.startsWith('derived:') && i.source !== 'derived:event') continue;
      for (const t of [i.from, i.to]) {
        if (t < from) from = t;
        if (t > to) to = t;
      }
    }
    return { from, to };
  };

  /** Each locator object of `intervals` once, by identity (copies are other objects), with its key. */
  const sameObjects = (got: ReadonlyMap<Locator, string>, intervals: readonly Interval[]): boolean => {
    const list = [...got];
    const want = new Set(intervals.map((i) => i.locator));
    return list.length === want.size && list.every(([l, key]) => want.has(l) && key === objectKey(l));
  };

  it('answer what a walk over every interval finds, for a history indexed anew or inherited', () => {
    fc.assert(
      fc.property(
        fc.array(anyInterval, { maxLength: 30 }),
        fc.array(anyInterval, { maxLength: 6 }),
        (a, b) => {
          const base = history(a);
          expect(watchedReach(base)).toEqual(walked(a));
          expect(sameObjects(intervalLocators(base), a)).toBe(true);
          const next = history([...a, ...b]);
          inheritIndex(base, next, b, (x, y) => [...x, ...y]);
          expect(watchedReach(next)).toEqual(walked(next.intervals));
          expect(sameObjects(intervalLocators(next), next.intervals)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
