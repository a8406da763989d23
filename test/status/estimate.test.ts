import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UpdateHistoryEntry } from '../../src/model/objects.js';
import { baselineDuration, estimateTimeLeft, roundTo, timewiseComplete } from '../../src/status/estimate.js';

const MIN = 60_000;
type Entry = UpdateHistoryEntry;

describe('time-left estimate (docs/domain.md 9.4)', () => {
  it('the baseline is the last completed update, skipping the current one and the install', () => {
    const h = (state: string, start: string, end: string): Entry => ({
      state,
      startedTime: start,
      completionTime: end,
    });
    const history = [
      h('Partial', '2023-11-21T15:02:46Z', ''),
      h('Partial', '2023-11-01T11:55:20Z', '2023-11-01T12:29:27Z'),
      h('Completed', '2023-10-25T12:22:06Z', '2023-10-25T13:34:28Z'),
      h('Completed', '2023-09-01T00:00:00Z', '2023-09-01T09:00:00Z'),
    ];
    expect(baselineDuration(history)).toEqual({ duration: 72 * MIN + 22_000, basis: 'previous-update' });
    expect(baselineDuration(history.slice(0, 2))).toEqual({ duration: 60 * MIN, basis: 'default-hour' });
  });

  it('uses the baseline early on: 1m29s into a 1h12m22s baseline leaves 1h25m (oc: 4.15.0-ec2-early)', () => {
    const r = estimateTimeLeft({
      baseline: 72 * MIN + 22_000,
      baselineBasis: 'previous-update',
      toLastProgress: 89_000,
      elapsed: 89_000,
      operatorFraction: 1 / 33,
    });
    expect(r).toEqual({ timeLeft: 85 * MIN, basis: 'previous-update' });
  });

  it('projects from progress after 5 minutes, and goes negative when overdue', () => {
    const r = estimateTimeLeft({
      baseline: 60 * MIN,
      baselineBasis: 'default-hour',
      toLastProgress: 54 * MIN,
      elapsed: 119 * MIN,
      operatorFraction: 32 / 33,
    });
    expect(r.basis).toBe('projection');
    expect(r.timeLeft).toBeLessThan(-10 * MIN);
  });

  it('rounds to minutes above 10 minutes and to seconds below; zero when every operator is done', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 * 60 * MIN }),
        fc.integer({ min: 0, max: 4 * 60 * MIN }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (baseline, elapsed, fraction) => {
          const { timeLeft } = estimateTimeLeft({
            baseline,
            baselineBasis: 'default-hour',
            toLastProgress: elapsed,
            elapsed,
            operatorFraction: fraction,
          });
          expect(Math.abs(timeLeft % (timeLeft > 10 * MIN ? MIN : 1000))).toBe(0);
          expect(Object.is(timeLeft, -0)).toBe(false);
        },
      ),
    );
    expect(
      estimateTimeLeft({
        baseline: MIN,
        baselineBasis: 'default-hour',
        toLastProgress: 0,
        elapsed: 0,
        operatorFraction: 1,
      }),
    ).toEqual({ timeLeft: 0, basis: 'complete' });
  });

  it('maps 97% of operators to about two thirds of the time', () => {
    expect(timewiseComplete(0.97)).toBeGreaterThan(0.6);
    expect(timewiseComplete(0.97)).toBeLessThan(0.75);
    expect(timewiseComplete(0)).toBeLessThan(0);
  });

  it('rounds halves away from zero, like Go', () => {
    expect(roundTo(90_000, MIN)).toBe(2 * MIN);
    expect(roundTo(-90_000, MIN)).toBe(-2 * MIN);
    expect(roundTo(89_999, MIN)).toBe(MIN);
  });
});
