/**
 * invariants/ owns the rules: one module per rule, each with a stable id, a one-line statement, a doc
 * page under docs/rules/, and a check over a ClusterHistory that returns findings with evidence.
 */
import type { ClusterHistory } from '../model/index.js';
import { clusterOperatorLevelThenProgressing } from './clusteroperator-level-then-progressing.js';
import { controlplaneLevelBeforeComponents } from './controlplane-level-before-components.js';
import { operatorDegradedDuringUpdate, updateCompleted } from './health.js';
import { masterPoolUpdatedBeforeCvoComplete } from './master-pool-updated-before-cvo-complete.js';
import { noSeriousInsight } from './no-serious-insight.js';
import { nodepoolLevelBeforeRollout } from './nodepool-level-before-rollout.js';
import { nodepoolStuckUpdating } from './nodepool-stuck-updating.js';
import { operatorLevelBeforeOperands } from './operator-level-before-operands.js';
import { operatorLevelBeforeRequiredPoolTarget } from './operator-level-before-required-pool-target.js';
import { poolDegraded } from './pool-degraded.js';
import type { Rule, RuleOutcome } from './rule.js';

export { nodePoolRollouts } from './nodepool-rollout.js';
export { operatorLevelFor } from './operator-level.js';
export type { Rule, RuleOutcome } from './rule.js';

/** Every rule, in the order reports list them. */
export const RULES: readonly Rule[] = [
  masterPoolUpdatedBeforeCvoComplete,
  operatorLevelBeforeRequiredPoolTarget,
  operatorLevelBeforeOperands,
  clusterOperatorLevelThenProgressing,
  operatorDegradedDuringUpdate,
  poolDegraded,
  updateCompleted,
  noSeriousInsight,
  nodepoolLevelBeforeRollout,
  nodepoolStuckUpdating,
  controlplaneLevelBeforeComponents,
];

/**
 * The rules keyed by id: the one record of rule metadata (id, title, severity policy, doc page,
 * explain hook) that explain/ dispatches through and `--rule` is validated against.
 */
export const RULE_RECORD: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.info.id, r]));

/** The rule ids, in report order (the choices of `--rule`). */
export const RULE_IDS: readonly string[] = RULES.map((r) => r.info.id);

export function checkInvariants(history: ClusterHistory, only?: readonly string[]): RuleOutcome[] {
  return RULES.filter((r) => !only || only.includes(r.info.id)).map((r) => r.check(history));
}
