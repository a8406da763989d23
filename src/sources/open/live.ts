/**
 * A live cluster (`--kubeconfig FILE`, `--context NAME`, `--live`): an argument like a path, claimed
 * by this opener in the same registry, and read through what the caller's context gives for it (the
 * network client lives in src/live: it lists and watches, never writes). docs/live.md.
 */
import type { ClientLimits } from '../../live/index.js';
import { type HistoryParts, kindFacts, type LivePlan, type LiveResourcePlan } from '../../model/index.js';
import { LIVE_READING } from '../live-reading.js';
import type { LiveCluster, OpenContext, Opened, Opener } from './types.js';

export const liveOpener: Opener<LiveCluster> = {
  name: 'live cluster',
  takes: 'live',
  claims: (arg) => typeof arg === 'object' && arg !== null && 'live' in arg,
  open: (arg, _found, context) => context.live(arg),
};

/** Which namespaces a resource read per namespace is read in (live/snapshot.ts streamsFor), in words. */
function namespacesOf(kind: string): string {
  const named = kindFacts('Event').live?.namespaces ?? [];
  return kind === 'Event'
    ? `${named.join(', ')} and the operators' namespaces`
    : "the namespaces a PodDisruptionBudget protects and the operators' namespaces";
}

/**
 * What reading the cluster would do, without a request sent: the kubeconfig read as kubectl reads it
 * (the server and context), and the resources listed once (analyze, status) and then watched (watch
 * follows every stream it listed). The client is loaded only here, as for reading.
 */
export async function planLive(cluster: LiveCluster): Promise<LivePlan> {
  const { loadKubeConfig, RESOURCES, resourcePath } = await import('../../live/index.js');
  const config = await loadKubeConfig(cluster.live);
  const resources: LiveResourcePlan[] = RESOURCES.map((r) => ({
    kind: r.kind,
    path: r.scope === 'namespaces' ? resourcePath(r, 'NAMESPACE') : resourcePath(r),
    scope: r.scope,
    ...(r.scope === 'namespaces' ? { namespaces: namespacesOf(r.kind) } : {}),
    ...(r.optional !== undefined ? { optional: r.optional } : {}),
  }));
  return {
    server: config.server,
    context: config.context,
    lists: resources,
    watches: resources,
    verbs: ['get', 'list', 'watch'],
  };
}

/**
 * One snapshot of the cluster, as HistoryParts (src/live's loadLiveParts, its answers read with
 * LIVE_READING). The client and the library behind it are loaded only here, when a cluster is read.
 */
export async function readLive(cluster: LiveCluster, limits: Partial<ClientLimits>): Promise<HistoryParts> {
  const { loadLiveParts } = await import('../../live/index.js');
  return loadLiveParts(cluster.live, LIVE_READING, limits);
}

function notAPath(): never {
  throw new Error('a live cluster opened as a path');
}

/** A context for an argument known to be a live cluster: only `live` is ever asked. */
export function liveContext<R extends Opened>(live: (cluster: LiveCluster) => Promise<R>): OpenContext<R> {
  return {
    folder: notAPath,
    archive: notAPath,
    file: notAPath,
    files: notAPath,
    remote: notAPath,
    remoteInput: notAPath,
    looksLikeArchive: notAPath,
    tmpdir: notAPath,
    live,
  };
}
