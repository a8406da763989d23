import type { ClusterHistory, Interval } from '../model/index.js';
import { formatClock } from '../model/index.js';
import { locators } from './locator.js';
import { finishedRollout, poolHistory } from './pools.js';

/**
 * Each pool's rollouts, inferred: from the moment a rendered config appeared to the moment the pool
 * next reported Updated (docs/domain.md 2.4). A snapshot holds only each condition's last transition, so
 * without these the stretch between a render and the first observation of the pool would look idle.
 * They carry a `phase`, not a `condition`, so no analysis mistakes them for an observation.
 */
export function rolloutIntervals(history: ClusterHistory): Interval[] {
  const pools = new Set(history.objects.machineConfigPools.map((p) => p.object.metadata.name));
  const out: Interval[] = [];
  for (const name of pools) {
    const ph = poolHistory(history, name);
    ph.rendered.forEach((config, index) => {
      // The oldest config's rollout is the install (or predates the inputs): nothing to infer.
      if (index === 0) return;
      const finish = finishedRollout(ph, config);
      const end = finish?.at ?? history.span?.to;
      if (end === undefined || end <= config.createdAt) return;
      out.push({
        from: config.createdAt,
        to: end,
        level: 'Warning',
        locator: locators.pool(name),
        message: {
          reason: 'Rollout',
          humanMessage: finish
            ? `rolling out ${config.name}: rendered at ${formatClock(config.createdAt)}, pool Updated at ${formatClock(finish.at)} (inferred)`
            : `rolling out ${config.name}: rendered at ${formatClock(config.createdAt)}, not Updated by the end of the inputs (inferred)`,
          annotations: { phase: 'Updating', config: config.name, inferred: 'true' },
        },
        source: 'derived:rollout',
        ref: config.ref,
      });
    });
  }
  return out;
}
