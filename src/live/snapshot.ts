/**
 * One snapshot of a live cluster: list every resource of RESOURCES (resources.ts) once, page by page,
 * into a LiveState, and say plainly what a snapshot cannot know (docs/live.md): a condition shows
 * only its last transition, an operator's versions carry no time, and Events expire.
 */
import { InputError } from '../model/index.js';
import { ApiError, type LiveClient } from './client.js';
import { EVENT_NAMESPACES, type LiveResource, RESOURCES, resourcePath } from './resources.js';
import { LiveState } from './state.js';

/** One list+watch unit: a resource, cluster-wide or in one namespace. */
export interface Stream {
  readonly resource: LiveResource;
  readonly namespace?: string;
  readonly path: string;
}

export function streamId(s: Stream): string {
  return `${s.resource.kind}${s.namespace !== undefined ? `@${s.namespace}` : ''}`;
}

/** The streams of RESOURCES; Pods in the namespaces of `pdbNamespaces` (and the operators' namespaces). */
function streamsFor(pdbNamespaces: Iterable<string>): Stream[] {
  const out: Stream[] = [];
  for (const r of RESOURCES) {
    if (r.scope === 'cluster' || r.scope === 'all') out.push({ resource: r, path: resourcePath(r) });
    else {
      const namespaces = r.kind === 'Event' ? EVENT_NAMESPACES : [...new Set(pdbNamespaces)].sort();
      for (const ns of namespaces) out.push({ resource: r, namespace: ns, path: resourcePath(r, ns) });
    }
  }
  return out;
}

interface Listed {
  readonly resourceVersion: string;
  readonly items: number;
}

/**
 * List one stream into the state. A resource type the server does not serve (404: not an OpenShift
 * cluster, or an older one) is noted, not fatal; a refusal (401/403) is a clear error saying which
 * permission is missing.
 */
async function listStream(
  client: LiveClient,
  state: LiveState,
  s: Stream,
  notes: string[],
): Promise<Listed | undefined> {
  try {
    let items = 0;
    const list = await client.list(s.path, {}, (item) => {
      items++;
      state.put(s.resource.kind, item, JSON.stringify(item).length);
    });
    return { resourceVersion: list.resourceVersion, items };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      notes.push(
        `${client.server}${s.path}: not served by this cluster (404); no ${s.resource.kind} objects read`,
      );
      return undefined;
    }
    if (err instanceof ApiError && err.status === 403 && s.resource.optional !== undefined) {
      notes.push(
        `${client.server}${s.path}: not permitted (HTTP 403); no ${s.resource.kind} objects read (${s.resource.optional})`,
      );
      return undefined;
    }
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      throw new InputError(
        client.server + s.path,
        `the API server refused to list ${s.resource.plural} (HTTP ${err.status})`,
        'grant get/list/watch on it (docs/live.md has the ClusterRole) or use another --context',
      );
    }
    if (err instanceof ApiError) {
      throw new InputError(client.server + s.path, `listing failed: HTTP ${err.status} ${err.reason}`);
    }
    throw err;
  }
}

/** What a snapshot of a live cluster cannot know, said in every analysis of one (docs/live.md). */
export const SNAPSHOT_LIMITS = [
  'live snapshot: each condition shows only its last transition (earlier transitions were overwritten); operator versions carry no time, so when an operator reported level is known only from Events that have not expired; use `atlevel watch --record DIR` during an update to keep every transition',
];

/** List everything once: the state plus the list resourceVersion of each stream. */
export async function snapshot(
  client: LiveClient,
  keepContent?: (name: string, state: LiveState) => boolean,
): Promise<{ state: LiveState; notes: string[]; versions: Map<string, string>; streams: Stream[] }> {
  const state = new LiveState(client.server, RESOURCES, client.reading.validate, keepContent);
  const notes: string[] = [];
  const versions = new Map<string, string>();
  const first = streamsFor([]).filter((s) => s.resource.kind !== 'Pod');
  for (const s of first) {
    const listed = await listStream(client, state, s, notes);
    if (listed) versions.set(streamId(s), listed.resourceVersion);
  }
  const pdbNamespaces = [...state.all('PodDisruptionBudget')].map((p) => p.metadata?.namespace ?? '');
  // And the operators' own namespaces (status.relatedObjects) that hold a Deployment or DaemonSet:
  // operator-level-before-operands reads their workloads' pods, the images each runs.
  const workloadNamespaces = new Set(
    [...state.all('Deployment'), ...state.all('DaemonSet')].map((w) => w.metadata?.namespace ?? ''),
  );
  const operatorNamespaces = [...state.all('ClusterOperator')].flatMap((co) => {
    const related = (co.status as { relatedObjects?: unknown } | undefined)?.relatedObjects;
    return Array.isArray(related)
      ? related.flatMap((r: { resource?: unknown; name?: unknown }) =>
          r?.resource === 'namespaces' && typeof r.name === 'string' && workloadNamespaces.has(r.name)
            ? [r.name]
            : [],
        )
      : [];
  });
  const pods = streamsFor([...pdbNamespaces, ...operatorNamespaces].filter((n) => n !== '')).filter(
    (s) => s.resource.kind === 'Pod',
  );
  // Events in the operators' namespaces too: ScalingReplicaSet, SuccessfulDelete and Pulled date
  // their workloads' rollouts (docs/rules/operator-level-before-operands.md).
  const eventResource = RESOURCES.find((r) => r.kind === 'Event');
  if (eventResource)
    for (const ns of [...new Set(operatorNamespaces)].sort())
      if (ns !== '' && !EVENT_NAMESPACES.includes(ns))
        pods.push({ resource: eventResource, namespace: ns, path: resourcePath(eventResource, ns) });
  for (const s of pods) {
    const listed = await listStream(client, state, s, notes);
    if (listed) versions.set(streamId(s), listed.resourceVersion);
  }
  return { state, notes, versions, streams: [...first, ...pods] };
}
