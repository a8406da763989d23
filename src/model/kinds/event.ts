/** Event (core/v1 and events.k8s.io/v1): appears at its first time; its intervals are derived in timeline/derive.ts. */
import * as z from 'zod';
import { parseTime } from '../time.js';
import { ObjectMetaSchema, once } from './common.js';
import { kind } from './descriptor.js';
import { normalizeEvent } from './event-normalize.js';
import { col, get, since, str } from './printing.js';

type Loose = Record<string, unknown>;

/** The object an Event is about: core/v1's involvedObject, events.k8s.io/v1's regarding. */
const objectReference = once(() =>
  z
    .looseObject({
      kind: z.string().optional(),
      name: z.string().optional(),
      namespace: z.string().optional(),
    })
    .optional(),
);

/** core/v1 Event and events.k8s.io/v1 Event (which names the object `regarding` and the text `note`). */
const EventSchema = () =>
  z.looseObject({
    kind: z.literal('Event'),
    metadata: ObjectMetaSchema(),
    involvedObject: objectReference(),
    regarding: objectReference(),
    reason: z.string().nullable().optional(),
    message: z.string().nullable().optional(),
    note: z.string().nullable().optional(),
    type: z.string().nullable().optional(),
    count: z.number().nullable().optional(),
    firstTimestamp: z.string().nullable().optional(),
    lastTimestamp: z.string().nullable().optional(),
    eventTime: z.string().nullable().optional(),
    source: z
      .looseObject({ component: z.string().optional(), host: z.string().optional() })
      .nullable()
      .optional(),
  });
export type KubeEvent = z.infer<ReturnType<typeof EventSchema>>;

function isObject(v: unknown): v is Loose {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * FIRST SEEN and LAST SEEN as kubectl's event printer works them out (kubernetes
 * pkg/printers/internalversion/printers.go printEvent), so events written by the events.k8s.io API
 * (eventTime, series, no firstTimestamp) print as on a real server: first seen is firstTimestamp, else
 * eventTime; last seen is lastTimestamp, else first seen, and series.lastObservedTime whenever there
 * is a series.
 */
function eventFirstSeen(o: Loose, now: number): string {
  return str(o.firstTimestamp) !== '' ? since(o.firstTimestamp, now) : since(o.eventTime, now);
}

function eventLastSeen(o: Loose, now: number): string {
  if (isObject(o.series)) return since(o.series.lastObservedTime, now);
  return str(o.lastTimestamp) !== '' ? since(o.lastTimestamp, now) : eventFirstSeen(o, now);
}

/** series.count when there is a series; else count, and 1 for a singleton that has none (printEvent). */
function eventCount(o: Loose): number {
  if (isObject(o.series)) return typeof o.series.count === 'number' ? o.series.count : 0;
  return typeof o.count === 'number' && o.count !== 0 ? o.count : 1;
}

/**
 * formatEventSource: source.component, else reportingComponent (reportingController in Go), then
 * ", " and source.host, else reportingInstance, when there is one.
 */
function eventSource(o: Loose): string {
  const component = str(get(o, 'source', 'component')) || str(o.reportingComponent);
  const instance = str(get(o, 'source', 'host')) || str(o.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

function eventObject(o: Loose): string {
  const k = str(get(o, 'involvedObject', 'kind')).toLowerCase();
  const name = str(get(o, 'involvedObject', 'name'));
  return name === '' ? k : `${k}/${name}`;
}

export const EventKind = kind({
  schema: EventSchema,
  field: 'events',
  label: 'Events',
  api: { group: '', version: 'v1', plural: 'events', namespaced: true, shortNames: ['ev'] },
  // kubectl's event printer.
  columns: [
    col('Last Seen', eventLastSeen),
    col('Type', (o) => str(o.type)),
    col('Reason', (o) => str(o.reason)),
    col('Object', eventObject),
    col('Subobject', (o) => str(get(o, 'involvedObject', 'fieldPath')), { priority: 1 }),
    col('Source', eventSource, { priority: 1 }),
    col('Message', (o) => str(o.message).trim()),
    col('First Seen', eventFirstSeen, { priority: 1 }),
    col('Count', eventCount, { type: 'integer', priority: 1 }),
    col('Name', (o) => str(get(o, 'metadata', 'name')), { priority: 1 }),
  ],
  gatherExtra: 'events.json',
  mustGather: 'events',
  normalize: normalizeEvent,
  changes: {
    by: 'appearing',
    appearsAt: (e) =>
      parseTime(e.firstTimestamp) ?? parseTime(e.eventTime) ?? parseTime(e.metadata.creationTimestamp),
    notRewound: [],
  },
  // Only where the update's controllers and nodes report (docs/domain.md): the CVO, the
  // machine-config operator and its daemons, and node events in `default`.
  live: {
    scope: 'namespaces',
    namespaces: ['openshift-cluster-version', 'openshift-machine-config-operator', 'default'],
  },
});
