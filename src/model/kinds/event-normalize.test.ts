import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeEvent } from './event.js';
import { normalizeEvent } from './event-normalize.js';

type Loose = Record<string, unknown>;

/** The copy-always version this module had before it learned to skip the copy: the oracle. */
function copyAlways(event: KubeEvent): KubeEvent {
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const num = (v: unknown): number | undefined =>
    typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  const field = (o: unknown, k: string): unknown =>
    o !== null && typeof o === 'object' ? (o as Loose)[k] : undefined;
  const raw = event as KubeEvent & Loose;
  const out: Loose = { ...raw };
  if (!out.involvedObject && out.regarding) out.involvedObject = { ...(out.regarding as Loose) };
  if ((out.message === undefined || out.message === null) && typeof out.note === 'string')
    out.message = out.note;
  const first = str(out.firstTimestamp) ?? str(raw.deprecatedFirstTimestamp);
  if (first !== undefined) out.firstTimestamp = first;
  const last =
    str(out.lastTimestamp) ?? str(raw.deprecatedLastTimestamp) ?? str(field(raw.series, 'lastObservedTime'));
  if (last !== undefined) out.lastTimestamp = last;
  if (out.count === undefined || out.count === null) {
    const count = num(raw.deprecatedCount) ?? num(field(raw.series, 'count'));
    if (count !== undefined) out.count = count;
  }
  if (!out.source) {
    const deprecated = raw.deprecatedSource;
    if (deprecated !== null && typeof deprecated === 'object') out.source = { ...(deprecated as Loose) };
    else {
      const component = str(raw.reportingController);
      const host = str(raw.reportingInstance);
      if (component !== undefined) out.source = { component, ...(host !== undefined ? { host } : {}) };
    }
  }
  return out as KubeEvent;
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, fc.constant(undefined)), { nil: null });
const stamp = fc.constantFrom('', '2021-11-03T03:23:09Z', '2021-11-03T03:24:00.5Z');
const obj = fc.record({ kind: fc.constantFrom('Node', 'Pod'), name: fc.constantFrom('a', 'b') });

/** Core/v1, events.k8s.io/v1 and a mix of both, with fields missing, null or empty. */
const event = fc
  .record(
    {
      metadata: fc.record({ name: fc.constantFrom('e1', 'e2') }),
      involvedObject: maybe(obj),
      regarding: maybe(obj),
      message: maybe(fc.constantFrom('', 'drained')),
      note: maybe(fc.constantFrom('', 'noted')),
      firstTimestamp: maybe(stamp),
      deprecatedFirstTimestamp: maybe(stamp),
      lastTimestamp: maybe(stamp),
      deprecatedLastTimestamp: maybe(stamp),
      series: maybe(
        fc.record({ count: maybe(fc.integer()), lastObservedTime: maybe(stamp) }, { requiredKeys: [] }),
      ),
      count: maybe(fc.oneof(fc.integer(), fc.constant(Number.NaN))),
      deprecatedCount: maybe(fc.oneof(fc.integer(), fc.constant(Number.POSITIVE_INFINITY))),
      source: maybe(fc.record({ component: fc.constantFrom('kubelet') })),
      deprecatedSource: maybe(fc.record({ component: fc.constantFrom('old') })),
      reportingController: maybe(fc.constantFrom('', 'ctrl')),
      reportingInstance: maybe(fc.constantFrom('', 'host-1')),
    },
    { requiredKeys: ['metadata'] },
    // fast-check's records have no prototype; the reader's objects (JSON.parse) have Object's.
  )
  .map((e) => structuredClone(e)) as unknown as fc.Arbitrary<KubeEvent>;

describe('normalizeEvent', () => {
  it('gives what copying every event gave, leaves its input alone, and copies only when it writes', () => {
    fc.assert(
      fc.property(event, (e) => {
        const before = structuredClone(e);
        const got = normalizeEvent(e);
        const want = copyAlways(structuredClone(e));
        expect(got).toStrictEqual(want);
        expect(Object.keys(got)).toEqual(Object.keys(want));
        expect(e).toStrictEqual(before);
        // Unchanged means the very same object; changed means a copy.
        const same = JSON.stringify(Object.entries(want)) === JSON.stringify(Object.entries(e));
        if (got === e) expect(same).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('returns a complete core/v1 event as it came', () => {
    const e = {
      metadata: { name: 'x' },
      involvedObject: { kind: 'Node', name: 'n' },
      message: 'm',
      firstTimestamp: '2021-11-03T03:23:09Z',
      lastTimestamp: '2021-11-03T03:23:09Z',
      count: 2,
      source: { component: 'kubelet' },
    } as KubeEvent;
    expect(normalizeEvent(e)).toBe(e);
  });
});
