import type { ClusterHistory, Condition, Evidence, Finding } from '../model/index.js';
import { conditionSince, findCondition, formatClock, formatDuration } from '../model/index.js';
import { updatingConditions } from './nodepool-level-before-rollout.js';
import { type NodePoolRollout, nodePoolRollouts, nodePoolsMissing } from './nodepool-rollout.js';
import { checked, defineRule, notApplicable, notChecked } from './rule.js';

/**
 * How long after its rollout ended a NodePool may still say it is updating. The NodePool controller
 * requeues within minutes; OCPBUGS-92013's NodePools stayed updating for hours.
 */
const GRACE_MS = 30 * 60 * 1000;

/** OCPBUGS-92013 / openshift/hypershift PR 8821 (docs/hosted.md): the reverse of nodepool-level-before-rollout. */
export const nodepoolStuckUpdating = defineRule(
  'nodepool-stuck-updating',
  'A NodePool does not keep UpdatingVersion or UpdatingConfig True more than 30 minutes after its Cluster API rollout ended.',
  {
    severityPolicy:
      "failure: UpdatingVersion or UpdatingConfig True more than 30 minutes after the MachineDeployment's v1beta2 conditions dated the end of a rollout that left no Machine behind",
    explain: 'nodepool-rollout',
  },
  (history: ClusterHistory, rule) => {
    const rollouts = nodePoolRollouts(history);
    const absent = nodePoolsMissing(history);
    if (rollouts.length === 0 && absent.length === 0) return notApplicable(rule, 'no NodePool in the inputs');
    const now = history.span?.to;
    const findings: Finding[] = [];
    const missing: string[] = [];
    missing.push(...absent);
    let checkedOne = 0;
    for (const r of rollouts) {
      const updating = updatingConditions(r.pool.object);
      if (updating.length === 0) continue;
      if (r.behind.length > 0) {
        // The rollout is still under way: updating is right.
        checkedOne++;
        continue;
      }
      if (r.missing.length > 0) {
        for (const m of r.missing) missing.push(`${m} (for ${r.key})`);
        continue;
      }
      if (r.notAvailable !== undefined && r.notAvailable > 0) {
        // Every Machine up to date and some not available yet: the controller rightly waits for them
        // (MachineDeploymentComplete counts availableReplicas too).
        checkedOne++;
        continue;
      }
      const waiting = notThisUpdate(r, updating);
      if (waiting !== undefined) {
        // Updating rightly: the rollout that ended is an earlier one, this update's has not begun.
        checkedOne++;
        findings.push({
          rule: rule.id,
          severity: 'info',
          summary: `NodePool ${r.pool.object.metadata.name} is updating and its rollout has not begun: ${waiting}`,
          evidence: updatingEvidence(r, updating),
          subject: { pool: r.pool.object.metadata.name, objects: [r.key] },
        });
        continue;
      }
      if (r.endedAt === undefined || now === undefined) {
        missing.push(
          `when the rollout of ${r.key} ended (${r.upgradeType === 'InPlace' ? 'an InPlace rollout is dated by nothing the objects keep' : "the MachineDeployment's status.v1beta2 RollingOut=False or MachinesUpToDate=True lastTransitionTime"})`,
        );
        continue;
      }
      checkedOne++;
      const since = Math.max(r.endedAt, ...updating.map((c) => conditionSince(c) ?? (r.endedAt as number)));
      if (now - since <= GRACE_MS) continue;
      const ownerKey = r.owner
        ? `${r.owner.object.kind}/${r.owner.object.metadata.namespace ?? ''}/${r.owner.object.metadata.name}`
        : r.key;
      findings.push({
        rule: rule.id,
        severity: 'failure',
        summary: `NodePool ${r.pool.object.metadata.name} still ${updating.map((c) => `${c.type}=True`).join(' and ')} ${formatDuration(now - r.endedAt)} after its rollout to ${r.target ?? 'its template'} ended`,
        at: r.endedAt + GRACE_MS,
        evidence: [
          ...updatingEvidence(r, updating),
          {
            statement: `${ownerKey}: every Machine up to date and no older Machine left; the rollout ended at ${formatClock(r.endedAt)}`,
            at: r.endedAt,
            object: ownerKey,
            ...(r.owner ? { ref: r.owner.ref } : {}),
          },
          { statement: `the inputs end at ${formatClock(now)}`, at: now },
        ],
        moments: [{ label: 'rollout ended', at: r.endedAt, objects: [r.key, ownerKey] }],
        subject: {
          pool: r.pool.object.metadata.name,
          objects: [r.key, ownerKey],
          ...(r.target ? { target: r.target } : {}),
        },
      });
    }
    if (findings.some((f) => f.severity === 'failure')) return checked(rule, findings);
    if (missing.length > 0)
      return notChecked(rule, `whether a NodePool is stuck cannot be told: ${missing.join('; ')}`, missing);
    if (checkedOne === 0) return notApplicable(rule, 'no NodePool is updating');
    return checked(rule, findings);
  },
);

/** The NodePool's Updating conditions, each as evidence of when it turned True and what it says. */
function updatingEvidence(r: NodePoolRollout, updating: readonly Condition[]): Evidence[] {
  return updating.map((c) => {
    const t = conditionSince(c);
    return {
      statement: `${r.key} ${c.type}=True${t !== undefined ? ` since ${formatClock(t)}` : ''}${c.message ? `: ${c.message}` : ''}`,
      ...(t !== undefined ? { at: t } : {}),
      object: r.key,
      field: `status.conditions[${c.type}]`,
      value: 'True',
      ref: r.pool.ref,
    };
  });
}

/** `Updating version in progress. Target version: 4.20.2[. Total Nodes: …]` (the NodePool controller's message). */
function targetVersionOf(c: Condition | undefined): string | undefined {
  const m = /Target version: "?([^\s"]+?)"?\.?(?:\s|$)/.exec(c?.message ?? '');
  return m?.[1];
}

/**
 * Why the rollout that ended is not the one the NodePool is updating to, when the objects say so. The
 * NodePool controller sets UpdatingVersion/UpdatingConfig before it bumps the MachineDeployment's
 * template, and bumps it only once the new user-data secret exists (hypershift-operator
 * controllers/nodepool, "New user data Secret has been generated"); while its reconciliation is
 * paused (spec.pausedUntil) or its payload cannot be generated, the template stays where the last
 * rollout left it. That rollout's end says nothing about this update's.
 */
function notThisUpdate(r: NodePoolRollout, updating: readonly Condition[]): string | undefined {
  const np = r.pool.object;
  const why = [
    ...(np.spec?.pausedUntil ? [`spec.pausedUntil is ${np.spec.pausedUntil}`] : []),
    ...(findCondition(np, 'ValidGeneratedPayload')?.status === 'False'
      ? ['ValidGeneratedPayload=False']
      : []),
  ];
  const because = why.length > 0 ? ` (${why.join(', ')})` : '';
  const wanted = targetVersionOf(updating.find((c) => c.type === 'UpdatingVersion'));
  if (wanted !== undefined && r.target !== undefined && wanted !== r.target)
    return `its MachineDeployment's template is still at ${r.target}, not the target ${wanted}${because}`;
  let since: number | undefined;
  for (const c of updating) {
    const t = conditionSince(c);
    if (t !== undefined && (since === undefined || t > since)) since = t;
  }
  if (
    since !== undefined &&
    r.endedAt !== undefined &&
    r.templateSince !== undefined &&
    r.endedAt < since &&
    r.templateSince < since
  )
    return `its MachineDeployment's template has not changed since ${formatClock(r.templateSince)} and its last rollout ended at ${formatClock(r.endedAt)}, before it started updating at ${formatClock(since)}${because}`;
  return undefined;
}
