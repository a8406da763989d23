/**
 * Status at any moment (`atlevel status --at TIME`): the cluster rebuilt as the timeline says it was
 * at TIME (timeline/rewind.ts), then assessed as any snapshot is. What could not be rewound travels
 * with the result, per object and field.
 */
import type { ClusterHistory, Millis } from '../model/index.js';
import { parseTime } from '../model/index.js';
import {
  historyAt,
  nodeConfigUnknown,
  operandsByOperator,
  operatorVersionUnknown,
} from '../timeline/index.js';
import { assessStatus, type FirstPools, statusPrerequisites } from './assess.js';
import { operandsAt } from './operands.js';
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
  const firstPools = then.objects.machineConfigPools.length === 0 ? poolsCreatedFirst(history) : undefined;
  return {
    ...assessStatus(then, {
      now: at,
      ...(versions ? { configVersions: versions } : {}),
      ...(firstPools ? { firstPools } : {}),
      versionUnknown: operatorVersionUnknown(unrewound),
      nodeConfigUnknown: nodeConfigUnknown(unrewound),
      // The workloads' counts are not rewound (as last seen); their rollouts are placed on the whole inputs.
      operands: operandsAt(history, operandsByOperator(history), at),
    }),
    evaluatedAtSource: 'rewound',
    unrewound,
  };
}

/**
 * The pools of the whole inputs created first, all of them when several share that second (an
 * installer creates master and worker together); undefined when no pool carries a creation time.
 */
function poolsCreatedFirst(history: ClusterHistory): FirstPools | undefined {
  let createdAt = Number.POSITIVE_INFINITY;
  let names: string[] = [];
  for (const p of history.objects.machineConfigPools) {
    const created = parseTime(p.object.metadata.creationTimestamp);
    if (created === undefined || created > createdAt) continue;
    if (created < createdAt) {
      createdAt = created;
      names = [];
    }
    names.push(p.object.metadata.name);
  }
  return names.length > 0 ? { names: names.sort(), createdAt } : undefined;
}
