/**
 * live/ is the live-cluster client, which the sources open (sources/open/live.ts) and never the other
 * way round: a KubeConfig loaded as kubectl loads one (config.ts), read-only
 * requests through the client library's authentication (client.ts, GET only: get, list, watch),
 * the resources an update analysis needs (resources.ts), and the objects held as HistoryParts
 * (state.ts), so that `status` and `analyze --kubeconfig` run the same code as on files, and
 * `watch` (src/watch/) follows the same objects over time. docs/live.md describes it.
 */
export {
  type AnswerReading,
  ApiError,
  type ClientLimits,
  LiveClient,
  type RawObject,
  type WatchEvent,
} from './client.js';
export { type KubeConfigFlags, type LoadedConfig, loadKubeConfig } from './config.js';
export { isRendered, RESOURCES, resourcePath } from './resources.js';
export { type Stream, snapshot, streamId } from './snapshot.js';
export { keyOf, LiveState, MAX_EVENTS } from './state.js';

import type { HistoryParts } from '../model/index.js';
import { type AnswerReading, type ClientLimits, LiveClient } from './client.js';
import { type KubeConfigFlags, loadKubeConfig } from './config.js';
import { SNAPSHOT_LIMITS, snapshot } from './snapshot.js';

/** One snapshot of the cluster the flags name, as the file sources' HistoryParts. */
export async function loadLiveParts(
  flags: KubeConfigFlags,
  reading: AnswerReading,
  limits: Partial<ClientLimits> = {},
): Promise<HistoryParts> {
  const config = await loadKubeConfig(flags);
  const client = new LiveClient(config, reading, limits);
  const { state, notes } = await snapshot(client);
  return state.parts(
    [],
    [`read live from ${config.server} (context ${config.context})`, ...SNAPSHOT_LIMITS, ...notes],
  );
}
