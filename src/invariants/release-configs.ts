import type { PoolHistory, RenderedConfig, UpdateRecord } from '../timeline/index.js';
import { targetAt } from '../timeline/index.js';

/**
 * The rendered config a pool should end up on for an update. Configs stamped with
 * `release-image-version` (MCO PR #2918) say so themselves; older ones are placed by time: the newest
 * config rendered between the update's start and the next update's start. An update that changed
 * nothing in the configs keeps the config the pool had when it started.
 */
export function configForRelease(
  ph: PoolHistory,
  update: UpdateRecord,
  nextUpdate: UpdateRecord | undefined,
): { config: RenderedConfig; how: string } | undefined {
  const stamped = ph.rendered.filter((r) => r.releaseImageVersion === update.target);
  const last = stamped[stamped.length - 1];
  if (last) return { config: last, how: `its release-image-version annotation is ${update.target}` };
  if (update.startedAt === undefined) return undefined;
  const started = update.startedAt;
  const before = nextUpdate?.startedAt ?? Number.POSITIVE_INFINITY;
  const during = ph.rendered.filter((r) => r.createdAt >= started && r.createdAt < before);
  const newest = during[during.length - 1];
  if (newest)
    return { config: newest, how: 'it is the newest config rendered for the pool after the update started' };
  const kept = targetAt(ph, started);
  return kept ? { config: kept, how: 'no config was rendered for the pool during the update' } : undefined;
}
