/**
 * The resources a live source reads, with their API paths: every kind whose descriptor says how live
 * lists it (model/kinds/ `live`), which are exactly the kinds docs/live.md's ClusterRole grants
 * get/list/watch on. Events are read only in the namespaces where the update's controllers and nodes
 * report; Pods only in the namespaces a PodDisruptionBudget protects, because the status assessment
 * needs them only to name drain blockers.
 */
import { KINDS, KNOWN_KINDS, type KnownKind, kindFacts, orderedAfter } from '../model/index.js';

export interface LiveResource {
  readonly kind: KnownKind;
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  /** Namespaced kinds are read per namespace (`namespaces`) or across all of them (`all`). */
  readonly scope: 'cluster' | 'namespaces' | 'all';
  /** A refusal to list it is noted, not an error (descriptor.ts LiveFacts.optional). */
  readonly optional?: string;
}

export const EVENT_NAMESPACES: readonly string[] = kindFacts('Event').live?.namespaces ?? [];

const LIVE_KINDS = KNOWN_KINDS.filter((k) => kindFacts(k).live !== undefined);

/** In KINDS order, each after the kinds its `live.after` names (watch keeps the configs nodes name). */
export const RESOURCES: readonly LiveResource[] = orderedAfter(
  LIVE_KINDS,
  (k) => kindFacts(k).live?.after,
).map((kind) => {
  const { group, version, plural } = KINDS[kind].api;
  const live = kindFacts(kind).live;
  return {
    kind,
    group,
    version,
    plural,
    scope: live?.scope ?? 'cluster',
    ...(live?.optional !== undefined ? { optional: live.optional } : {}),
  };
});

/** `/apis/GROUP/VERSION/PLURAL` or `/api/v1/namespaces/NS/PLURAL`. */
export function resourcePath(r: LiveResource, namespace?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return namespace !== undefined
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`
    : `${base}/${r.plural}`;
}

/** `apiVersion` of the kind's objects, which lists leave out of their items. */
export function apiVersionOf(r: LiveResource): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** A rendered config (made by the render controller for a pool) rather than a source MachineConfig. */
export function isRendered(name: string): boolean {
  return name.startsWith('rendered-');
}
