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

/** Why a level rule could not check operators that had a report to make and no time for it. */
const UNDATED = 'no level report time (no OperatorVersionChanged event, no monitor line)';

/**
 * The operators a level rule applies to and could not check
 * (docs/rules/clusteroperator-level-then-progressing.md). Once the newest update completed, every operator reported its version: those with
 * no time known for the report in any update (`reported` holds those with one) lack data. While it is
 * still in progress at the end of the inputs, an operator at its target (the snapshot) with no dated
 * report lacks data too, and one not yet at it has not reported yet: it cannot be judged yet, which no
 * input of that moment could change (not missing data), but it is a member the rule did not check,
 * never one that held, so it counts in the total.
 */
export function levelCoverage(
  history: ClusterHistory,
  operators: readonly string[],
  updates: readonly UpdateRecord[],
  reported: ReadonlySet<string>,
): Coverage | undefined {
  const last = updates[updates.length - 1];
  if (last === undefined) return undefined;
  if (updateDone(last)) {
    return partialCoverage('operators', operators, reported, UNDATED, [NEEDS.operatorVersions]);
  }
  const notYet = new Set(operators.filter((co) => !reported.has(co) && !atVersion(history, co, last)));
  const undated = operators.filter((co) => !reported.has(co) && !notYet.has(co)).length;
  const pending = `not yet at ${last.target}: the update was still in progress at the end of the inputs, so their level reports are still to come (not applicable yet, not missing data)`;
  const why =
    notYet.size === 0
      ? UNDATED
      : undated === 0
        ? pending
        : `${undated} with ${UNDATED}; ${notYet.size} ${pending}`;
  return partialCoverage(
    'operators',
    operators,
    reported,
    why,
    undated > 0 ? [NEEDS.operatorVersions] : [],
    notYet,
  );
}

/** The update completed (its history entry, or the monitor's completion line). */
export function updateDone(update: UpdateRecord): boolean {
  return update.state === 'Completed' || update.completedAt !== undefined;
}

/** The operator's `operator` version in the snapshot's ClusterOperator. */
export function operatorVersion(history: ClusterHistory, operator: string): string | undefined {
  const co = history.objects.clusterOperators.find((c) => c.object.metadata.name === operator);
  return co?.object.status?.versions?.find((x) => x.name === 'operator')?.version;
}
