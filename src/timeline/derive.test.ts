import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeEvent, Observed } from '../model/index.js';
import { parseTime } from '../model/index.js';
import { deriveEventIntervals } from './derive.js';

const stamp = fc.constantFrom(
  undefined,
  null,
  '',
  'junk',
  '2021-11-03T03:23:09Z',
  '2021-11-03T03:24:00.5Z',
  '2021-11-03T04:00:00+01:00',
);

const event = fc
  .record({
    firstTimestamp: stamp,
    lastTimestamp: stamp,
    eventTime: stamp,
    creationTimestamp: stamp,
    count: fc.constantFrom(undefined, 1, 3),
  })
  .map(
    ({ firstTimestamp, lastTimestamp, eventTime, creationTimestamp, count }): Observed<KubeEvent> => ({
      object: {
        metadata: { name: 'e', creationTimestamp },
        involvedObject: { kind: 'Node', name: 'n' },
        reason: 'Drain',
        message: 'm',
        firstTimestamp,
        lastTimestamp,
        eventTime,
        count,
      } as unknown as KubeEvent,
      ref: { file: 'events.json' },
    }),
  );

describe('deriveEventIntervals', () => {
  it('parses each stamp once yet gives the times latestTime and the per-event fallbacks gave', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), (events) => {
        const { intervals, latest } = deriveEventIntervals(events);
        let want = Number.NEGATIVE_INFINITY;
        const spans: [number, number][] = [];
        for (const { object: e } of events) {
          for (const v of [e.lastTimestamp, e.eventTime]) {
            const t = parseTime(v);
            if (t !== undefined && t > want) want = t;
          }
          const first =
            parseTime(e.firstTimestamp) ?? parseTime(e.eventTime) ?? parseTime(e.metadata.creationTimestamp);
          if (first === undefined) continue;
          spans.push([first, Math.max(first, parseTime(e.lastTimestamp) ?? first)]);
        }
        expect(latest).toBe(want);
        expect(intervals.map((i) => [i.from, i.to])).toEqual(spans);
      }),
      { numRuns: 2000 },
    );
  });
});
