import type { ClusterHistory, Finding } from '../model/index.js';
import { formatClock, formatDuration } from '../model/index.js';
import {
  conditionTransitions,
  findUpdates,
  poolHistory,
  poolStateAt,
  updateWindow,
} from '../timeline/index.js';
import { operatorNames } from './clusteroperator-level-then-progressing.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked, noUpdateReason } from './rule.js';

/** An operator broke (Degraded=True or Available=False) while an update was running. */
export const operatorDegradedDuringUpdate = defineRule(
  'operator-degraded-during-update',
  'No ClusterOperator is Degraded=True or Available=False while an update is in progress.',
  {
    severityPolicy:
      "warning: an operator broke during the update; info: machine-config's wait for required pools ran out while a pool was rolling out",
  },
  (history: ClusterHistory, rule) => {
    const all = findUpdates(history);
    if (all.length === 0) return notApplicable(rule, noUpdateReason(history));
    const updates = all.filter((u) => u.startedAt !== undefined);
    if (updates.length === 0)
      return notChecked(rule, 'no update with a start time in the inputs', [NEEDS.updateStart]);
    if (operatorNames(history).length === 0)
      return notChecked(rule, 'no ClusterOperator in the inputs', [NEEDS.operators]);
    // The end of the update's window (what the report's `inputs:` line ends at), not of the latest
    // timestamp anywhere in the inputs (a certificate's expiry is one): an unrecovered break lasted to it.
    const end = updateWindow(history)?.to ?? history.span?.to ?? Number.POSITIVE_INFINITY;
    const findings: Finding[] = [];
    const pools = history.objects.machineConfigPools.map((p) => poolHistory(history, p.object.metadata.name));
    for (const update of updates) {
      const from = update.startedAt as number;
      const to = update.completedAt ?? end;
      for (const co of operatorNames(history)) {
        const key = `ClusterOperator/${co}`;
        for (const [type, badStatus] of [
          ['Degraded', 'True'],
          ['Available', 'False'],
        ] as const) {
          const transitions = conditionTransitions(history, key, type);
          const flip = transitions.find((tr) => tr.status === badStatus && tr.at >= from && tr.at <= to);
          if (!flip) continue;
          const recovered = transitions.find((tr) => tr.at > flip.at && tr.status !== badStatus);
          // machine-config in 4.10 gives up waiting for required pools after 10 minutes and reports
          // Degraded (RequiredPoolsFailed) even while the pool is rolling out fine (docs/domain.md 1.4).
          const waitingOnPool =
            co === 'machine-config' && type === 'Degraded' && recovered && /RequiredPools/.test(flip.reason)
              ? pools.find((ph) => poolStateAt(ph, flip.at).updating === true)
              : undefined;
          const lasted = (recovered?.at ?? end) - flip.at;
          findings.push({
            rule: rule.id,
            severity: waitingOnPool ? 'info' : 'warning',
            summary: `${co} went ${type}=${badStatus} at ${formatClock(flip.at)} during the update to ${update.target}${recovered ? ` and recovered ${formatDuration(lasted)} later` : `, and had not recovered by the end of the inputs${Number.isFinite(lasted) && lasted >= 1000 ? ` (${formatDuration(lasted)} later)` : ''}`}${waitingOnPool ? ` (its 10-minute wait for required pools ran out while pool ${waitingOnPool.name} was still rolling out)` : `; ${whyAWarning(type, recovered !== undefined, lasted)}`}`,
            at: flip.at,
            evidence: [
              {
                statement: `${co} ${type}=${badStatus}${flip.reason ? ` reason ${flip.reason}` : ''}${flip.message ? `: ${flip.message}` : ''}`,
                at: flip.at,
                object: key,
                field: `status.conditions[${type}]`,
                ref: flip.ref,
              },
              ...(recovered
                ? [
                    {
                      statement: `${co} ${type}=${recovered.status}`,
                      at: recovered.at,
                      object: key,
                      ref: recovered.ref,
                    },
                  ]
                : []),
            ],
            moments: [{ label: `${co} ${type}=${badStatus}`, at: flip.at, objects: [key] }],
            subject: { target: update.target, operator: co, objects: [key] },
          });
        }
      }
    }
    return checked(rule, findings);
  },
);

/**
 * How long the CVO waits on a Degraded operator before it calls the update failing: its
 * `UpdateEffectFailAfterInterval` (CVO `pkg/cvo/internal/operatorstatus.go`, `pkg/cvo/status.go`;
 * docs/domain.md 5.3). An operator that is not Available fails the sync at once (`UpdateEffectFail`).
 */
const CVO_DEGRADED_WAIT_MS = 40 * 60_000;

/**
 * Why a break during the update is this rule's warning, in words that stay true however long it lasted:
 * the CVO's patience differs for Degraded and for not Available, and a break longer than it is a
 * Failing update while it lasts, which `atlevel status` (and no-serious-insight, at the inputs' moment)
 * counts as an Error.
 */
function whyAWarning(type: 'Degraded' | 'Available', recovered: boolean, lasted: number): string {
  const afterwards = recovered
    ? 'the update went on once it recovered'
    : "no-serious-insight fails it if it is an Error insight at the inputs' last moment";
  if (type === 'Available')
    return `a warning here: the CVO reports the update Failing (ClusterOperatorNotAvailable) while an operator is not Available, and ${afterwards}`;
  if (Number.isFinite(lasted) && lasted > CVO_DEGRADED_WAIT_MS)
    return `a warning here: it stayed Degraded longer than the 40 minutes the CVO waits before it reports the update Failing, and ${afterwards}`;
  return 'a warning, not a failure: the CVO waits up to 40 minutes on a Degraded operator before it reports the update Failing';
}

/** The newest update never completed within the inputs. */
export const updateCompleted = defineRule(
  'update-completed',
  'The update that the inputs show reaches Completed in ClusterVersion history.',
  { severityPolicy: 'warning: the newest update is still Partial at the end of the inputs' },
  (history: ClusterHistory, rule) => {
    const updates = findUpdates(history);
    const last = updates[updates.length - 1];
    if (!last) return notApplicable(rule, noUpdateReason(history));
    if (last.state !== 'Partial') return checked(rule, []);
    // The end of the update's window, not of the latest timestamp anywhere in the inputs.
    const end = updateWindow(history)?.to ?? history.span?.to;
    return checked(rule, [
      {
        rule: rule.id,
        severity: 'warning',
        summary: `the update to ${last.target} is still Partial at the end of the inputs${last.startedAt !== undefined && end !== undefined ? ` (${formatDuration(end - last.startedAt)} after it started)` : ''}; a warning, not a failure: inputs gathered before an update ends are not wrong in themselves`,
        ...(end !== undefined ? { at: end } : {}),
        evidence: [
          {
            statement: `ClusterVersion history entry ${last.target} is Partial`,
            object: 'ClusterVersion/version',
            field: 'status.history[0].state',
            value: 'Partial',
            ...(last.ref ? { ref: last.ref } : {}),
          },
        ],
        subject: { target: last.target, objects: ['ClusterVersion/version'] },
      },
    ]);
  },
);
