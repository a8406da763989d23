/**
 * The control plane's side of an update: which ClusterOperators reached the target version, which
 * are updating or waiting, their health, the update's duration and time left, and the insights oc
 * derives from ClusterVersion and ClusterOperator conditions (docs/domain.md 9.1, 9.3, 9.4).
 */

import type { ClusterOperator, ClusterVersion, Condition, Observed } from '../model/index.js';
import { findCondition, type Millis, parseTime } from '../model/index.js';
import { conditionStatusKnown, conditionTextKnown } from '../timeline/index.js';
import { baselineDuration, estimateTimeLeft, roundTo, TIME, truncateTo } from './estimate.js';
import { REFERENCES } from './insights.js';
import type {
  ControlPlaneAssessment,
  ControlPlaneStatus,
  Estimate,
  Insight,
  OperatorCounts,
  RollingOperand,
  UpdatingOperator,
} from './types.js';

const UNAVAILABLE_WARNING = 5 * TIME.MINUTE;
const UNAVAILABLE_ERROR = 20 * TIME.MINUTE;
const DEGRADED_WARNING = 5 * TIME.MINUTE;
const DEGRADED_ERROR = 40 * TIME.MINUTE;

/** A payload-managed operator carries an include/exclude.release.openshift.io annotation; add-ons do not. */
export function isPlatformOperator(co: ClusterOperator): boolean {
  return Object.keys(co.metadata.annotations ?? {}).some(
    (key) =>
      key.startsWith('include.release.openshift.io/') || key.startsWith('exclude.release.openshift.io/'),
  );
}

export function operatorVersion(co: ClusterOperator): string | undefined {
  return co.status?.versions?.find((v) => v.name === 'operator')?.version;
}

/**
 * Whether an operator reached the target. oc's rule is `versions[operator]` equal to the target
 * version; for machine-config, when the machine-config-operator Deployment's image is known, oc also
 * wants the operator to report that image as its `operator-image` version: an update that keeps the
 * version string (a migration to the multi-architecture payload) changes only the image, and the
 * MCO reports the new one once it has rolled it out (openshift/enhancements
 * update/duration-of-migration-to-multi-arch.md).
 */
function operatorUpdated(co: ClusterOperator, targetVersion: string, mcoImage: string | undefined): boolean {
  if (targetVersion === '' || operatorVersion(co) !== targetVersion) return false;
  if (co.metadata.name !== 'machine-config' || mcoImage === undefined) return true;
  const reported = co.status?.versions?.find((v) => v.name === 'operator-image')?.version;
  return reported === undefined || reported === mcoImage;
}

/**
 * A migration to the multi-architecture payload (`oc adm upgrade --to-multi-arch`): the CVO moves to
 * the same version's multi-architecture payload, so history[0] keeps history[1]'s version with another
 * image (oc's test). oc stops there; atlevel also wants the request or the CVO to say `Multi`
 * (`spec.desiredUpdate.architecture`, or the ReleaseAccepted message's `architecture="Multi"`), so
 * that a same-version rebuild is not called a migration (docs/status.md).
 */
function isMultiArchMigration(cv: ClusterVersion): boolean {
  const [latest, previous] = cv.status?.history ?? [];
  if (!latest || !previous || !latest.version || latest.version !== previous.version) return false;
  if (!latest.image || !previous.image || latest.image === previous.image) return false;
  const asked = (cv.spec?.desiredUpdate as { architecture?: unknown } | undefined)?.architecture;
  const accepted = findCondition(cv, 'ReleaseAccepted')?.message ?? '';
  return asked === 'Multi' || /architecture="Multi"/.test(accepted);
}

export interface ControlPlaneAnalysis {
  readonly status: ControlPlaneStatus;
  readonly insights: Insight[];
}

interface VersionFacts {
  readonly target: string;
  readonly previous?: string;
  readonly previousPartial: boolean;
  readonly newInstall: boolean;
  readonly lastComplete?: string;
}

function versionFacts(cv: ClusterVersion): VersionFacts {
  const history = cv.status?.history ?? [];
  const target = history[0]?.version || cv.status?.desired?.version || 'unknown';
  const previousEntry = history[1];
  if (history.length <= 1) return { target, previousPartial: false, newInstall: history.length === 1 };
  const lastComplete = history.slice(2).find((h) => h.state === 'Completed')?.version;
  return {
    target,
    previous: previousEntry?.version || 'unknown',
    previousPartial: previousEntry?.state === 'Partial',
    newInstall: false,
    ...(lastComplete ? { lastComplete } : {}),
  };
}

/**
 * What holds back an operator not yet at the target, or one still Progressing: its operands that have
 * not rolled out (the CVO waits for the version, the operator for its operands). Shared by the
 * standalone control plane and a hosted cluster's guest.
 */
export function holdingOperands(
  operator: string,
  isUpdated: boolean,
  progressKnown: boolean,
  progressing: Condition | undefined,
  operandsOf: (operator: string) => readonly RollingOperand[],
): readonly RollingOperand[] {
  const progressingKnownTrue = progressing?.status === 'True' && conditionStatusKnown(progressing);
  return (!isUpdated && progressKnown) || progressingKnownTrue ? operandsOf(operator) : [];
}

export function assessControlPlane(
  cvSeen: Observed<ClusterVersion>,
  operatorsSeen: readonly Observed<ClusterOperator>[],
  now: Millis,
  versionUnknown: ReadonlySet<string> = new Set(),
  mcoImage?: string,
  operandsOf: (operator: string) => readonly RollingOperand[] = () => [],
): ControlPlaneAnalysis {
  const cv = cvSeen.object;
  const insights: Insight[] = [];
  const cvObject = { kind: 'ClusterVersion', name: cv.metadata.name };
  const failing = findCondition(cv, 'Failing');
  if (!failing) {
    insights.push({
      kind: 'clusterversion-no-failing-condition',
      level: 'Warning',
      impact: 'Update Stalled',
      scope: 'ControlPlane',
      since: now,
      message: `Cluster Version ${cv.metadata.name} has no Failing condition`,
      description:
        "Whether the CVO is reconciling the update is unclear; see 'oc -n openshift-cluster-version logs -l k8s-app=cluster-version-operator'.",
      reference: REFERENCES.operatorDegraded,
      objects: [cvObject],
      refs: [cvSeen.ref],
    });
  } else if (failing.status !== 'False' && conditionStatusKnown(failing)) {
    // A Failing that status --at could not rewind is unknown, not a sign of trouble.
    const since = parseTime(failing.lastTransitionTime);
    const verb = failing.status === 'True' ? 'is failing' : 'may be failing';
    insights.push({
      kind: 'clusterversion-failing',
      level: 'Warning',
      impact: 'Update Stalled',
      scope: 'ControlPlane',
      ...(since !== undefined ? { since } : {}),
      message: `Cluster Version ${cv.metadata.name} ${verb} to proceed with the update${reasonText(failing)}`,
      description: failing.message || '<no message>',
      reference: REFERENCES.operatorDegraded,
      objects: [cvObject],
      refs: [cvSeen.ref],
    });
  }

  const targetVersion = cv.status?.desired?.version ?? '';
  let updated = 0;
  let total = 0;
  let waiting = 0;
  let progressUnknown = 0;
  let healthUnknown = 0;
  let unavailable = 0;
  let degradedCount = 0;
  const updatingOperators: UpdatingOperator[] = [];
  const rollingOperands: RollingOperand[] = [];
  let lastProgress: Millis | undefined;
  let mcoStartedUpdating: Millis | undefined;

  // Inputs that kept no operator's release annotation (an export trimmed of annotations, objects
  // rebuilt from the monitor's lines) cannot tell platform operators from add-ons: count every one
  // rather than none, or an update would read "0 operators" and a degraded operator pass unseen.
  const annotated = operatorsSeen.some((s) => isPlatformOperator(s.object));
  for (const seen of operatorsSeen) {
    const co = seen.object;
    if (annotated && !isPlatformOperator(co)) continue;
    total++;
    const isUpdated = operatorUpdated(co, targetVersion, mcoImage);
    if (isUpdated) updated++;
    // status --at: a version that could not be placed at the moment may or may not be the target.
    const progressKnown = isUpdated || !versionUnknown.has(co.metadata.name);
    const available = findCondition(co, 'Available');
    const degraded = findCondition(co, 'Degraded');
    const progressing = findCondition(co, 'Progressing');
    if (progressing) {
      const at = parseTime(progressing.lastTransitionTime);
      if (at !== undefined && (lastProgress === undefined || at > lastProgress)) lastProgress = at;
      if (!isUpdated && progressKnown && progressing.status === 'True') {
        updatingOperators.push({
          name: co.metadata.name,
          ...(at !== undefined ? { since: at } : {}),
          reason: progressing.reason ?? '',
          message: progressing.message ?? '',
        });
        if (co.metadata.name === 'machine-config') mcoStartedUpdating = at;
      }
      if (!isUpdated && progressKnown && progressing.status === 'False') waiting++;
    }
    // status --at: a condition the timeline could not rewind reads Unknown (NotRewound), a version it
    // could not place is left out; the operator is then counted as unknown, never as unavailable,
    // updating or waiting.
    if (
      !isUpdated &&
      (!progressKnown ||
        progressing === undefined ||
        !conditionStatusKnown(progressing) ||
        progressing.status === 'Unknown')
    )
      progressUnknown++;
    rollingOperands.push(
      ...holdingOperands(co.metadata.name, isUpdated, progressKnown, progressing, operandsOf),
    );
    if (!conditionStatusKnown(available) || !conditionStatusKnown(degraded)) healthUnknown++;
    else if (available?.status !== 'True') unavailable++;
    else if (degraded?.status === 'True') degradedCount++;
    insights.push(
      ...operatorInsights(
        seen,
        conditionStatusKnown(available) ? available : undefined,
        conditionStatusKnown(degraded) ? degraded : undefined,
        now,
      ),
    );
  }

  // When the machine-config operator is the last one, its start is the last real progress: daemonset
  // operators flap Progressing while nodes reboot, which would otherwise look like progress.
  if (mcoStartedUpdating !== undefined && total - updated === 1) lastProgress = mcoStartedUpdating;

  const operators: OperatorCounts = {
    total,
    updated,
    updating: updatingOperators.length,
    waiting,
    unknown: progressUnknown,
    healthy: total - unavailable - degradedCount - healthUnknown,
    healthUnknown,
    unavailable,
    degraded: degradedCount,
    updatingOperators,
    rollingOperands,
  };
  const versions = versionFacts(cv);
  const history = cv.status?.history ?? [];
  const current = history[0];
  // Every operator at the target is not enough: the CVO still applies the manifests that follow the
  // last operator's, and only its own history entry says it finished (docs/status.md).
  // status --at may not know the operators' versions then; the CVO completes an entry only once every
  // operator reported its version, so a Completed entry with nothing but unknowns left is complete.
  const completed =
    current?.state !== 'Partial' &&
    (updated === total || (current?.state === 'Completed' && updated + progressUnknown === total));
  const startedAt = parseTime(current?.startedTime);
  const completedAt = current?.state === 'Completed' ? parseTime(current.completionTime) : undefined;

  let elapsed: Millis | undefined;
  let toLastProgress = 0;
  if (startedAt !== undefined) {
    const progressAt = lastProgress !== undefined && lastProgress > startedAt ? lastProgress : now;
    toLastProgress = progressAt - startedAt;
    elapsed = (completedAt ?? now) - startedAt;
  }
  const duration =
    elapsed === undefined
      ? undefined
      : elapsed > 10 * TIME.MINUTE
        ? roundTo(elapsed, TIME.MINUTE)
        : roundTo(elapsed, TIME.SECOND);

  if (!completed && versions.previousPartial) {
    insights.push({
      kind: 'previous-update-incomplete',
      level: 'Warning',
      impact: 'None',
      scope: 'ControlPlane',
      ...(startedAt !== undefined ? { since: startedAt } : {}),
      message: `Previous update to ${versions.previous} never completed, last complete update was ${versions.lastComplete ?? 'unknown'}`,
      description: `Current update to ${versions.target} was initiated while the previous update to version ${versions.previous} was still in progress`,
      reference: REFERENCES.updateHistory,
      objects: [cvObject],
      refs: [cvSeen.ref],
    });
  }

  const fraction = total === 0 ? 1 : updated / total;
  const multiArch = isMultiArchMigration(cv);
  let assessment: ControlPlaneAssessment = completed ? 'Completed' : 'Progressing';
  let estimate: Estimate = { timeLeft: 0, basis: 'complete' };
  if (!completed) {
    const baseline = baselineDuration(history);
    const spent = elapsed ?? 0;
    const { timeLeft, basis } = estimateTimeLeft({
      baseline: baseline.duration,
      baselineBasis: baseline.basis,
      toLastProgress,
      elapsed: spent,
      operatorFraction: fraction,
    });
    // oc's thresholds (controlplane.go): more than 10 minutes past the estimate is Stalled, any time
    // past it is Progressing - Slow. Whether the update is blocked is told apart, by the blockers and
    // the insights, not by the assessment (docs/status.md).
    if (timeLeft < -10 * TIME.MINUTE) assessment = 'Stalled';
    else if (timeLeft < 0) assessment = 'Progressing - Slow';
    estimate = multiArch
      ? // Every operator but the MCO reports the same version at once, so the operators' progress
        // says nothing of the time left; oc gives none either.
        {
          totalDuration: truncateTo(spent + timeLeft, TIME.MINUTE),
          basis,
          withheldBecause:
            'a migration to the multi-architecture payload: the operators keep their version, so their progress does not tell the time left',
        }
      : { timeLeft, totalDuration: truncateTo(spent + timeLeft, TIME.MINUTE), basis };
  }

  const percent = Math.round(fraction * 100);
  const status: ControlPlaneStatus = {
    assessment,
    targetVersion: versions.target,
    ...(cv.status?.desired?.image ? { targetImage: cv.status.desired.image } : {}),
    ...(versions.previous !== undefined ? { previousVersion: versions.previous } : {}),
    previousPartial: versions.previousPartial,
    newInstall: versions.newInstall,
    multiArchMigration: multiArch,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(completedAt !== undefined ? { completedAt } : {}),
    ...(duration !== undefined ? { duration } : {}),
    completionPercent: completed ? 100 : Math.min(percent, 99),
    operators,
    estimate,
    blockers: [],
  };
  return { status, insights };
}

function operatorInsights(
  seen: Observed<ClusterOperator>,
  available: Condition | undefined,
  degraded: Condition | undefined,
  now: Millis,
): Insight[] {
  const name = seen.object.metadata.name;
  const objects = [{ kind: 'ClusterOperator', name }];
  // The two ways an operator hurts the control plane, each with oc's grace periods.
  const checks = [
    {
      condition: available,
      bad: 'False',
      kind: 'operator-unavailable',
      word: 'unavailable',
      warnAfter: UNAVAILABLE_WARNING,
      errorAfter: UNAVAILABLE_ERROR,
      reference: REFERENCES.operatorDown,
    },
    {
      condition: degraded,
      bad: 'True',
      kind: 'operator-degraded',
      word: 'degraded',
      warnAfter: DEGRADED_WARNING,
      errorAfter: DEGRADED_ERROR,
      reference: REFERENCES.operatorDegraded,
    },
  ] as const;
  const out: Insight[] = [];
  for (const c of checks) {
    const since = c.condition?.status === c.bad ? parseTime(c.condition.lastTransitionTime) : undefined;
    if (since === undefined || now <= since + c.warnAfter) continue;
    out.push({
      kind: c.kind,
      level: now > since + c.errorAfter ? 'Error' : 'Warning',
      impact: 'API Availability',
      scope: 'ControlPlane',
      since,
      message: `Cluster Operator ${name} is ${c.word}${reasonText(c.condition)}`,
      description: c.condition?.message || '<no message>',
      reference: c.reference,
      objects,
      refs: [seen.ref],
    });
  }
  return out;
}

/**
 * ` (Reason)` for an insight's message; nothing when there is none, or when status --at could not
 * tell it (its message, the insight's description, says so).
 */
export function reasonText(c: Condition | undefined): string {
  return c?.reason && conditionTextKnown(c) ? ` (${c.reason})` : '';
}
