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

describe('deriveEventIntervals, locators and annotations', () => {
  const word = fc.constantFrom(undefined, '', 'a', 'b', 'Namespace', 'namespace', '__proto__');
  const objectEvent = fc
    .record({
      kind: fc.constantFrom(undefined, '', 'Node', 'Pod', 'Namespace', 'NODE', 'object'),
      name: word,
      namespace: word,
      reason: fc.constantFrom(undefined, null, '', 'Drain', 'Killing'),
      regarding: fc.boolean(),
    })
    .map(({ kind, name, namespace, reason, regarding }): Observed<KubeEvent> => {
      const involved = JSON.parse(JSON.stringify({ kind, name, namespace }));
      return {
        object: {
          metadata: { name: 'e' },
          ...(regarding ? { regarding: involved } : { involvedObject: involved }),
          reason,
          firstTimestamp: '2021-11-03T03:23:09Z',
        } as unknown as KubeEvent,
        ref: { file: 'events.json' },
      };
    });

  it('are the ones the event names, one shared object for equal ones', () => {
    fc.assert(
      fc.property(fc.array(objectEvent, { maxLength: 30 }), (events) => {
        const { intervals } = deriveEventIntervals(events);
        expect(intervals.length).toBe(events.length);
        const byLocator = new Map<string, unknown>();
        const byAnnotations = new Map<string, unknown>();
        intervals.forEach((i, n) => {
          const e = events[n]?.object as KubeEvent;
          const involved = e.involvedObject ?? e.regarding ?? {};
          // What the locator and annotations are, built as the derivation built them for each event.
          const keys: Record<string, string> = {};
          if (involved.namespace) keys.namespace = involved.namespace;
          keys[(involved.kind ?? 'object').toLowerCase()] = involved.name ?? '?';
          const reason = e.reason ?? '';
          const annotations = { reason, kind: involved.kind ?? '', name: involved.name ?? '' };
          expect(i.locator).toStrictEqual({ type: 'KubeEvent', keys });
          expect(Object.keys(i.locator.keys)).toEqual(Object.keys(keys));
          expect(i.message.annotations).toStrictEqual(annotations);
          expect(Object.keys(i.message.annotations)).toEqual(Object.keys(annotations));
          // Equal ones are one object (interned), whatever raw strings they came from.
          const lk = JSON.stringify(Object.entries(keys));
          const ak = JSON.stringify(Object.entries(annotations));
          if (byLocator.has(lk)) expect(i.locator).toBe(byLocator.get(lk));
          else byLocator.set(lk, i.locator);
          if (byAnnotations.has(ak)) expect(i.message.annotations).toBe(byAnnotations.get(ak));
          else byAnnotations.set(ak, i.message.annotations);
        });
      }),
      { numRuns: 1000 },
    );
  });
});
