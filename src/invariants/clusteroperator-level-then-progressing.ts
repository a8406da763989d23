import type { ClusterHistory, Finding, Severity } from '../model/index.js';
import { formatClock, formatDuration } from '../model/index.js';
import {
  conditionTransitions,
  findUpdates,
  intervalLocators,
  poolHistory,
  poolStateAt,
} from '../timeline/index.js';
import { atVersion, levelCoverage, operatorLevelFor, updateDone } from './operator-level.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked, noUpdateReason } from './rule.js';

/** Condition states that contradict "I am at level" (docs/domain.md 5.2). */
const BAD: readonly { type: string; status: string; severity: Severity }[] = [
  { type: 'Available', status: 'False', severity: 'failure' },
  { type: 'Degraded', status: 'True', severity: 'failure' },
  { type: 'Progressing', status: 'True', severity: 'warning' },
];

/**
 * The race of bug 2019850, generalised: an operator that has told the CVO it is done should not then
 * start working again (or break) before the CVO declares the whole update complete.
 */
export const clusterOperatorLevelThenProgressing = defineRule(
  'clusteroperator-level-then-progressing',
  'A ClusterOperator that reported the new version does not go Progressing=True, Available=False or Degraded=True before the CVO completes the update.',
  {
    severityPolicy:
      'failure: Available=False or Degraded=True after the level report; warning: Progressing=True; info: Progressing=True while a pool rolls out its nodes',
  },
  (history: ClusterHistory, rule) => {
    const updates = findUpdates(history);
    if (updates.length === 0) return notApplicable(rule, noUpdateReason(history));
    const findings: Finding[] = [];
    const pools = poolNames(history).map((name) => poolHistory(history, name));
    let levels = 0;
    const reported = new Set<string>();
    for (const update of updates) {
      const end = update.completedAt;
      for (const co of operatorNames(history)) {
        const level = operatorLevelFor(history, co, update);
        if (!level) continue;
        levels += 1;
        reported.add(co);
        const key = `ClusterOperator/${co}`;
        for (const bad of BAD) {
          const flip = conditionTransitions(history, key, bad.type).find(
            (tr) => tr.status === bad.status && tr.at > level.at && (end === undefined || tr.at < end),
          );
          if (!flip) continue;
          // Node reboots restart every DaemonSet pod, so operators of node-level operands report
          // Progressing while a pool rolls out: expected, not a race. Keep it visible as info.
          const rolling =
            bad.type === 'Progressing'
              ? pools.find((ph) => poolStateAt(ph, flip.at).updating === true)
              : undefined;
          findings.push({
            rule: rule.id,
            severity: rolling ? 'info' : bad.severity,
            summary: `${co} reported ${update.target} at ${formatClock(level.at)}, then went ${bad.type}=${bad.status} ${formatDuration(flip.at - level.at)} later${end !== undefined ? `, before the CVO completed at ${formatClock(end)}` : ''}${rolling ? ` (while pool ${rolling.name} was rolling out its nodes, which restarts node-level pods)` : bad.severity === 'warning' ? '; a warning, not a failure: operators may go Progressing to reconcile, and Progressing alone is neither unavailable nor degraded' : ''}`,
            at: flip.at,
            evidence: [
              {
                // `operator-image` in an update that keeps the version string (operator-level.ts).
                statement: `${co} reported ${level.name} version ${level.from} -> ${level.to}`,
                at: level.at,
                object: key,
                field: `status.versions[${level.name}]`,
                ref: level.ref,
              },
              {
                statement: `${co} ${bad.type}=${bad.status}${flip.reason ? ` reason ${flip.reason}` : ''}${flip.message ? `: ${flip.message}` : ''}`,
                at: flip.at,
                object: key,
                field: `status.conditions[${bad.type}]`,
                ref: flip.ref,
              },
            ],
            moments: [
              { label: `${co} reported level`, at: level.at, objects: [key] },
              { label: `${co} ${bad.type}=${bad.status}`, at: flip.at, objects: [key] },
            ],
            subject: {
              target: update.target,
              operator: co,
              objects: [key],
              operatorLevelAt: level.at,
              ...(end !== undefined ? { cvoCompletedAt: end } : {}),
            },
          });
        }
      }
    }
    if (levels === 0) {
      // Operators report the new version before the CVO completes: a completed update without any
      // such report means the reports are missing from the inputs, not that none were made.
      const last = updates[updates.length - 1];
      const names = operatorNames(history);
      const reached =
        last !== undefined && (updateDone(last) || names.some((co) => atVersion(history, co, last)));
      if (reached)
        return notChecked(rule, 'the inputs do not say when the operators reported the new version', [
          NEEDS.operatorVersions,
        ]);
      // An update in progress that no operator has reached yet: nothing to judge so far, and no
      // input of that moment could say more (docs/rules/clusteroperator-level-then-progressing.md).
      return notApplicable(
        rule,
        last !== undefined && names.length > 0
          ? `no operator has reported ${last.target} yet: the update was still in progress at the end of the inputs (${names.length} operators not yet at it), so the rule has nothing to judge yet`
          : 'no operator version reports for an update in the inputs',
      );
    }
    return checked(rule, findings, levelCoverage(history, operatorNames(history), updates, reported));
  },
);

function poolNames(history: ClusterHistory): string[] {
  const names = new Set(history.objects.machineConfigPools.map((p) => p.object.metadata.name));
  for (const mc of history.objects.machineConfigs) {
    const m = /^rendered-(.+)-[0-9a-f]{32}$/.exec(mc.object.metadata.name);
    if (m?.[1]) names.add(m[1]);
  }
  return [...names].sort();
}

/** operatorNames of each history: several rules ask, and each answer reads every interval. */
const operatorNamesOf = new WeakMap<ClusterHistory, readonly string[]>();

/** Operators known from objects or from monitor lines. */
export function operatorNames(history: ClusterHistory): readonly string[] {
  const known = operatorNamesOf.get(history);
  if (known) return known;
  const names = new Set(history.objects.clusterOperators.map((c) => c.object.metadata.name));
  // The intervals' distinct locators, not every interval: a build log's hundred thousand lines name
  // a few dozen operators.
  for (const l of intervalLocators(history).keys()) {
    if (l.type === 'ClusterOperator' && l.keys.clusteroperator) names.add(l.keys.clusteroperator);
  }
  const sorted = [...names].sort();
  operatorNamesOf.set(history, sorted);
  return sorted;
}
