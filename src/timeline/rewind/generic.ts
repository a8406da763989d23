/**
 * The rewinders of the kinds whose descriptor says how they change without a rewinder of their own
 * (model/kinds/descriptor.ts `changes`): those that only appear, those kept as last seen, and those
 * whose conditions are rewound as every rewinder rewinds them, the rest of their status as last seen.
 */
import { type KnownKind, kindFacts, type Observed, parseTime } from '../../model/index.js';
import type { RewindContext } from './context.js';
import type { KindRewinder } from './kind.js';

interface Loose {
  metadata: { name: string; namespace?: string | undefined; creationTimestamp?: string | null | undefined };
  status?: { conditions?: unknown } | undefined;
}

/** `Kind/name`, or `Kind/namespace/name` for a namespaced kind (timeline/locator.ts objectKey). */
function keyOf(kind: KnownKind, o: Loose): string {
  return kindFacts(kind).api.namespaced
    ? `${kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
    : `${kind}/${o.metadata.name}`;
}

function byConditions(r: RewindContext, kind: KnownKind, seen: Observed<Loose>): Observed<Loose> {
  const o = seen.object;
  const conditions = r.conditions(keyOf(kind, o), o as Parameters<RewindContext['conditions']>[1]);
  if (!conditions) return seen;
  return { object: { ...o, status: { ...o.status, conditions } }, ref: seen.ref };
}

export function genericRewinder(kind: KnownKind): KindRewinder<KnownKind> {
  const changes = kindFacts(kind).changes;
  return {
    create: (r) => ({
      rewind: (list) => {
        const all = list as readonly Observed<Loose>[];
        switch (changes.by) {
          case 'appearing':
            return all.filter((o) => {
              const at = changes.appearsAt
                ? changes.appearsAt(o.object)
                : parseTime(o.object.metadata.creationTimestamp);
              if (at === undefined && changes.untimed !== undefined)
                r.note(keyOf(kind, o.object), 'metadata.creationTimestamp', changes.untimed);
              return at === undefined || at <= r.at;
            }) as never;
          case 'last-seen':
            if (all.length > 0) r.note(kind, '*', changes.why(all.length));
            return all as never;
          case 'conditions': {
            const out = all.filter(r.existed).map((o) => byConditions(r, kind, o));
            // The snapshot describes the end itself; before it, the rest of the status is the end's.
            if (!r.final && out.length > 0)
              for (const field of changes.lastSeen)
                r.note(kind, field, 'the inputs do not record its changes: as last seen');
            return out as never;
          }
          case 'rewinder':
            throw new Error(`${kind} has a rewinder of its own`);
        }
      },
    }),
  };
}
