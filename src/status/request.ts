/**
 * "Requested but not started": spec.desiredUpdate names a release the CVO has not taken up (it is
 * not status.desired), or the CVO refused the payload (ReleaseAccepted=False, Invalid=True).
 * `oc adm upgrade status` prints "not updating" here (docs/domain.md 9.1); atlevel says what was asked
 * and why it has not begun.
 */

import type { ClusterVersion, Observed } from '../model/index.js';
import { findCondition, parseTime } from '../model/index.js';
import { conditionTextKnown } from '../timeline/index.js';
import { REFERENCES } from './insights.js';
import type { Insight, UpdateRequest } from './types.js';

export function pendingRequest(cv: ClusterVersion): UpdateRequest | undefined {
  const wanted = cv.spec?.desiredUpdate;
  const desired = cv.status?.desired;
  const version = wanted?.version || undefined;
  const image = wanted?.image || undefined;
  const differs =
    (version !== undefined && version !== desired?.version) ||
    (image !== undefined && image !== desired?.image);
  const accepted = findCondition(cv, 'ReleaseAccepted');
  const invalid = findCondition(cv, 'Invalid');
  const refused = accepted?.status === 'False' ? accepted : invalid?.status === 'True' ? invalid : undefined;
  if (!differs && !refused) return undefined;
  const since = parseTime(refused?.lastTransitionTime);
  return {
    ...(version !== undefined ? { version } : {}),
    ...(image !== undefined ? { image } : {}),
    accepted: refused ? false : accepted?.status === 'True' && !differs ? true : undefined,
    // status --at: a refusal whose reason is not known at the moment is named by its condition.
    ...(refused?.reason && conditionTextKnown(refused)
      ? { reason: refused.reason }
      : refused
        ? { reason: refused.type }
        : {}),
    ...(refused?.message ? { message: refused.message } : {}),
    ...(since !== undefined ? { since } : {}),
  };
}

export function requestInsight(seen: Observed<ClusterVersion>, request: UpdateRequest): Insight {
  const what = request.version ?? request.image ?? 'a new release';
  const refused = request.accepted === false;
  return {
    kind: 'update-not-accepted',
    level: refused ? 'Error' : 'Warning',
    impact: 'Update Stalled',
    scope: 'ControlPlane',
    ...(request.since !== undefined ? { since: request.since } : {}),
    message: refused
      ? `Update to ${what} was requested but not accepted${request.reason ? ` (${request.reason})` : ''}`
      : `Update to ${what} was requested but has not started`,
    description: refused
      ? request.message || 'The cluster-version operator refused the requested release.'
      : 'spec.desiredUpdate differs from status.desired: the cluster-version operator has not loaded the requested release yet.',
    reference: REFERENCES.updateConditions,
    objects: [{ kind: 'ClusterVersion', name: seen.object.metadata.name }],
    refs: [seen.ref],
  };
}
