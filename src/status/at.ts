/**
 * Status at any moment (`atlevel status --at TIME`): the cluster rebuilt as the timeline says it was
 * at TIME (timeline/rewind.ts), then assessed as any snapshot is. What could not be rewound travels
 * with the result, per object and field.
 */
import type { ClusterHistory, Millis } from '../model/index.js';
import { historyAt, operatorVersionUnknown } from '../timeline/index.js';
import { assessStatus, statusPrerequisites } from './assess.js';
import type { UpdateStatus } from './types.js';
import { configVersions } from './versions.js';

/** Throws OutsideSpanError (timeline/) when `at` is outside the inputs' span. */
export function assessStatusAt(history: ClusterHistory, at: Millis): UpdateStatus {
  const { history: then, unrewound } = historyAt(history, at);
  const problem = statusPrerequisites(then, { now: at });
  if (problem !== undefined) throw new Error(`cannot assess status: ${problem}`);
  const cv =
    history.objects.clusterVersions.find((c) => c.object.metadata.name === 'version') ??
    history.objects.clusterVersions[0];
  const versions = cv ? configVersions(history, cv.object) : undefined;
  return {
    ...assessStatus(then, {
      now: at,
      ...(versions ? { configVersions: versions } : {}),
      versionUnknown: operatorVersionUnknown(unrewound),
    }),
    evaluatedAtSource: 'rewound',
    unrewound,
  };
}
