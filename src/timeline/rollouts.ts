import type { ClusterHistory, Interval } from '../model/index.js';
import { formatClock, locators } from '../model/index.js';
import { finishedRollout, poolHistory } from './pools.js';
import { laterRollouts, updateLabel } from './update-configs.js';

/**
 * Each pool's rollouts, inferred: from the moment a rendered config appeared to the moment the pool
 * next reported Updated (docs/domain.md 2.4). A snapshot holds only each condition's last transition, so
 * without these the stretch between a render and the first observation of the pool would look idle.
 * They carry a `phase`, not a `condition`, so no analysis mistakes them for an observation. A config
 * rendered after an update completed, for the same release, is a later rollout (a day-2 change,
 * docs/domain.md 3.7): its interval says so (reason `LaterRollout`, annotation `rollout: later`).
 */
export function rolloutIntervals(history: ClusterHistory): Interval[] {
  const pools = new Set(history.objects.machineConfigPools.map((p) => p.object.metadata.name));
  const out: Interval[] = [];
  for (const name of pools) {
    const ph = poolHistory(history, name);
    const later = laterRollouts(history, name);
    ph.rendered.forEach((config, index) => {
      // The oldest config's rollout is the install (or predates the inputs): nothing to infer.
      if (index === 0) return;
      const finish = finishedRollout(ph, config);
      const end = finish?.at ?? history.span?.to;
      if (end === undefined || end <= config.createdAt) return;
      const after = later.get(config.name);
      const what = after
        ? `later rollout of ${config.name}, after the update ${updateLabel(after)} completed (not part of it)`
        : `rolling out ${config.name}`;
      out.push({
        from: config.createdAt,
        to: end,
        level: 'Warning',
        locator: locators.pool(name),
        message: {
          reason: after ? 'LaterRollout' : 'Rollout',
          humanMessage: finish
            ? `${what}: rendered at ${formatClock(config.createdAt)}, pool Updated at ${formatClock(finish.at)} (inferred)`
            : `${what}: rendered at ${formatClock(config.createdAt)}, not Updated by the end of the inputs (inferred)`,
          annotations: {
            phase: 'Updating',
            config: config.name,
            inferred: 'true',
            ...(after ? { rollout: 'later', 'after-update': after.target } : {}),
          },
        },
        source: 'derived:rollout',
        ref: config.ref,
      });
    });
  }
  return out;
}
