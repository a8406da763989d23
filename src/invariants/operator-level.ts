import type { ClusterHistory } from '../model/index.js';
import type { UpdateRecord } from '../timeline/index.js';
import { earliestPrecise, type VersionChange, versionChanges } from '../timeline/index.js';
import { type Coverage, NEEDS, partialCoverage } from './rule.js';

/** A level report's monitor line and history's whole-second completion may sit this far apart. */
const COMPLETION_SLACK_MS = 30_000;

/**
 * When an operator reported its `operator` version for an update's target (the most precise witness).
 * An update that keeps the version string (a move to the multi-architecture payload, a rebuild) leaves
 * `operator` unchanged, so it can say nothing; an operator that also reports its own image as
 * `operator-image` (openshift/enhancements update/duration-of-migration-to-multi-arch.md; the
 * machine-config operator from openshift/machine-config-operator PR 4637, 4.18) reports the new
 * payload by changing it, and the CVO waits for that change. Its change during the update, up to the
 * CVO's completion, is then the level report.
 */
export function operatorLevelFor(
  history: ClusterHistory,
  operator: string,
  update: UpdateRecord,
): VersionChange | undefined {
  const all = versionChanges(history, operator);
  const changes = all.filter(
    (c) =>
      c.name === 'operator' &&
      (c.to === update.target || (update.image !== undefined && c.to === update.image)),
  );
  if (changes.length > 0 || !keepsVersion(update)) return earliestPrecise(changes);
  return earliestPrecise(
    all.filter(
      (c) =>
        c.name === OPERATOR_IMAGE &&
        c.from !== c.to &&
        (update.startedAt === undefined || c.at >= update.startedAt) &&
        (update.completedAt === undefined || c.at <= update.completedAt + COMPLETION_SLACK_MS),
    ),
  );
}

const OPERATOR_IMAGE = 'operator-image';

/** The update keeps the version string: only the payload's images tell it from what ran before. */
export function keepsVersion(update: UpdateRecord): boolean {
  return update.previous !== undefined && update.previous === update.target;
}

/** The operator's final `operator` version (the snapshot) is the update's target. */
export function atVersion(history: ClusterHistory, operator: string, update: UpdateRecord): boolean {
  const v = operatorVersion(history, operator);
  return v !== undefined && (v === update.target || (update.image !== undefined && v === update.image));
}

/**
 * The operators a level rule applies to and could not check: those that reached the new version
 * (every operator once the newest update completed; else those the snapshot shows at its target)
 * with no time known for their level report in any update (`reported` holds those with one). An
 * operator not yet at the target has not reported it, so it cannot break the rule yet: not counted.
 */
export function levelCoverage(
  history: ClusterHistory,
  operators: readonly string[],
  updates: readonly UpdateRecord[],
  reported: ReadonlySet<string>,
): Coverage | undefined {
  const last = updates[updates.length - 1];
  if (last === undefined) return undefined;
  const completed = last.state === 'Completed' || last.completedAt !== undefined;
  return partialCoverage(
    'operators',
    operators.filter((co) => completed || atVersion(history, co, last)),
    reported,
    'no level report time (no OperatorVersionChanged event, no monitor line)',
    [NEEDS.operatorVersions],
  );
}

/** The operator's `operator` version in the snapshot's ClusterOperator. */
export function operatorVersion(history: ClusterHistory, operator: string): string | undefined {
  const co = history.objects.clusterOperators.find((c) => c.object.metadata.name === operator);
  return co?.object.status?.versions?.find((x) => x.name === 'operator')?.version;
}
