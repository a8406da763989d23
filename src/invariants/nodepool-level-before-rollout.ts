import type { ClusterHistory, Evidence, Finding, KindObject } from '../model/index.js';
import { conditionSince, findCondition, formatClock } from '../model/index.js';
import { type NodePoolRollout, nodePoolRollouts, nodePoolsMissing } from './nodepool-rollout.js';
import { checked, defineRule, notApplicable, notChecked } from './rule.js';

type NodePool = KindObject<'NodePool'>;

const UPDATING = ['UpdatingVersion', 'UpdatingConfig'] as const;
/**
 * The reason the NodePool controller gives UpdatingVersion/UpdatingConfig=False when the in-place
 * upgrader stopped at a degraded node (openshift/hypershift api: NodePoolInplaceUpgradeFailedReason).
 */
const INPLACE_FAILED = 'InplaceUpgradeFailed';

/** The NodePool's Updating conditions that are True: while one is, it claims nothing. */
export function updatingConditions(np: NodePool) {
  return UPDATING.flatMap((t) => {
    const c = findCondition(np, t);
    return c?.status === 'True' ? [c] : [];
  });
}

/**
 * OCPBUGS-77922 (docs/hosted.md, docs/domain.md 10): a NodePool that reports its template's version
 * and is not updating claims its rollout ended; the Cluster API objects as last seen say whether it did.
 */
export const nodepoolLevelBeforeRollout = defineRule(
  'nodepool-level-before-rollout',
  "A NodePool reports its version or config as reached (status.version at its template's version, UpdatingVersion and UpdatingConfig not True) only once its Cluster API rollout has ended.",
  {
    severityPolicy:
      'failure: the NodePool claims the version while a Machine of an older MachineSet remains, a Machine is at another release, the v1beta2 counts say a Machine is not up to date, or an InPlace MachineSet has not reached its target config',
    explain: 'nodepool-rollout',
  },
  (history: ClusterHistory, rule) => {
    const rollouts = nodePoolRollouts(history);
    const absent = nodePoolsMissing(history);
    if (rollouts.length === 0 && absent.length === 0) return notApplicable(rule, 'no NodePool in the inputs');
    const findings: Finding[] = [];
    const missing: string[] = [];
    missing.push(...absent);
    const notClaiming: string[] = [];
    let held = 0;
    for (const r of rollouts) {
      const np = r.pool.object;
      const updating = updatingConditions(np);
      if (updating.length > 0) {
        notClaiming.push(`${r.key} is updating (${updating.map((c) => `${c.type}=True`).join(', ')})`);
        continue;
      }
      // An Updating condition False because the in-place upgrader stopped at a degraded node reports a
      // failure, not a level (status's nodepool-inplace-failed says it): no claim of the rollout's end.
      const failed = UPDATING.map((t) => findCondition(np, t)).find(
        (c) => c?.status === 'False' && c.reason === INPLACE_FAILED,
      );
      if (failed) {
        notClaiming.push(
          `${r.key} reports its in-place upgrade failed (${failed.type}=False, ${INPLACE_FAILED})`,
        );
        continue;
      }
      const version = np.status?.version;
      if (!version) {
        missing.push(`the version ${r.key} reports (status.version is empty)`);
        continue;
      }
      if (r.target !== undefined && r.target !== version) {
        // Its template is at another version: it does not claim the version being rolled out.
        notClaiming.push(`${r.key} reports ${version} while its template is at ${r.target}`);
        continue;
      }
      if (r.behind.length > 0) findings.push(finding(rule.id, r, version));
      else if (r.missing.length > 0) for (const m of r.missing) missing.push(`${m} (for ${r.key})`);
      else {
        held++;
        for (const c of r.context)
          findings.push({
            rule: rule.id,
            severity: 'info',
            summary: `${r.key}: ${c.statement}`,
            evidence: [c],
            subject: { objects: [r.key] },
          });
      }
    }
    if (findings.some((f) => f.severity === 'failure')) return checked(rule, findings);
    if (missing.length > 0)
      return notChecked(rule, `whether the rollout ended cannot be told: ${missing.join('; ')}`, missing);
    if (held === 0) return notApplicable(rule, `no NodePool claims a version: ${notClaiming.join('; ')}`);
    return checked(rule, findings);
  },
);

function finding(rule: string, r: NodePoolRollout, version: string): Finding {
  const np = r.pool.object;
  // When the claim was made: the latest Updating condition to go False, when the inputs date it.
  let at: number | undefined;
  const claims: Evidence[] = [
    {
      statement: `${r.key} reports version ${version}${np.metadata.annotations?.['hypershift.openshift.io/nodePoolCurrentConfig'] ? ` and config ${np.metadata.annotations['hypershift.openshift.io/nodePoolCurrentConfig']}` : ''}`,
      object: r.key,
      field: 'status.version',
      value: version,
      ref: r.pool.ref,
    },
  ];
  for (const type of UPDATING) {
    const c = findCondition(np, type);
    if (!c) continue;
    const since = conditionSince(c);
    if (since !== undefined && (at === undefined || since > at)) at = since;
    claims.push({
      statement: `${r.key} ${type}=${c.status}${since !== undefined ? ` since ${formatClock(since)}` : ''}${c.reason ? ` (${c.reason})` : ''}`,
      ...(since !== undefined ? { at: since } : {}),
      object: r.key,
      field: `status.conditions[${type}]`,
      value: c.status,
      ref: r.pool.ref,
    });
  }
  const ownerKey = r.owner
    ? `${r.owner.object.kind}/${r.owner.object.metadata.namespace ?? ''}/${r.owner.object.metadata.name}`
    : undefined;
  const objects = [
    r.key,
    ...(ownerKey ? [ownerKey] : []),
    ...r.behind.flatMap((e) => (e.object ? [e.object] : [])),
  ];
  const machines = r.behind
    .filter((e) => e.object?.startsWith('Machine/'))
    .map((e) => e.object?.split('/').pop());
  const sets = [
    ...new Set(
      r.behind.filter((e) => e.field === 'metadata.ownerReferences[MachineSet]').map((e) => e.value),
    ),
  ];
  const what =
    sets.length > 0
      ? `Machine${machines.length === 1 ? '' : 's'} ${machines.join(', ')} of the older MachineSet${sets.length === 1 ? '' : 's'} ${sets.join(', ')} remain${machines.length === 1 ? 's' : ''}`
      : (r.behind[0]?.statement ?? 'its rollout has not ended');
  return {
    rule,
    severity: 'failure',
    summary: `NodePool ${np.metadata.name} reports version ${version} and is not updating (${r.upgradeType}) while ${what}`,
    ...(at !== undefined ? { at } : {}),
    evidence: [...claims, ...r.behind, ...r.context],
    ...(at !== undefined ? { moments: [{ label: 'NodePool stopped updating', at, objects: [r.key] }] } : {}),
    subject: { target: version, pool: np.metadata.name, objects },
  };
}
