import type { ClusterHistory } from '../model/index.js';
import type { UpdateRecord } from '../timeline/index.js';
import { earliestPrecise, type VersionChange, versionChanges } from '../timeline/index.js';

/** When an operator reported its `operator` version for an update's target (the most precise witness). */
export function operatorLevelFor(
  history: ClusterHistory,
  operator: string,
  update: UpdateRecord,
): VersionChange | undefined {
  const changes = versionChanges(history, operator).filter(
    (c) =>
      c.name === 'operator' &&
      (c.to === update.target || (update.image !== undefined && c.to === update.image)),
  );
  return earliestPrecise(changes);
}

/** The operator's final `operator` version (the snapshot) is the update's target. */
export function atVersion(history: ClusterHistory, operator: string, update: UpdateRecord): boolean {
  const v = operatorVersion(history, operator);
  return v !== undefined && (v === update.target || (update.image !== undefined && v === update.image));
}

/** The operator's `operator` version in the snapshot's ClusterOperator. */
export function operatorVersion(history: ClusterHistory, operator: string): string | undefined {
  const co = history.objects.clusterOperators.find((c) => c.object.metadata.name === operator);
  return co?.object.status?.versions?.find((x) => x.name === 'operator')?.version;
}
