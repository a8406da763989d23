import type { ClusterHistory } from '../model/index.js';
import { type UpdateConfig, type UpdateRecord, updateConfig } from '../timeline/index.js';

/**
 * The rendered config a pool should end up on for an update, identified as the MCO makes it
 * (timeline/update-configs.ts, docs/domain.md 3.7): by its `release-image-version` stamp, else by its
 * render time within the update and its controller version, else the config the pool already had.
 * `config` is absent when the inputs cannot identify it; `how` then says why.
 */
export function configForRelease(history: ClusterHistory, pool: string, update: UpdateRecord): UpdateConfig {
  return updateConfig(history, pool, update);
}
