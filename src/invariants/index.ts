/**
 * invariants/ owns the rules: one module per rule, each with a stable id, a one-line statement, a doc
 * page under docs/rules/, and a check over a ClusterHistory that returns findings with evidence.
 */
import type { ClusterHistory } from '../model/history.js';
import { clusterOperatorLevelThenProgressing } from './clusteroperator-level-then-progressing.js';
import { operatorDegradedDuringUpdate, poolDegraded, updateCompleted } from './health.js';
import { masterPoolUpdatedBeforeCvoComplete } from './master-pool-updated-before-cvo-complete.js';
import { operatorLevelBeforeRequiredPoolTarget } from './operator-level-before-required-pool-target.js';
import type { Rule, RuleOutcome } from './rule.js';

export type { Rule, RuleOutcome } from './rule.js';

/** Every rule, in the order reports list them. */
export const RULES: readonly Rule[] = [
  masterPoolUpdatedBeforeCvoComplete,
  operatorLevelBeforeRequiredPoolTarget,
  clusterOperatorLevelThenProgressing,
  operatorDegradedDuringUpdate,
  poolDegraded,
  updateCompleted,
];

export function checkInvariants(history: ClusterHistory, only?: readonly string[]): RuleOutcome[] {
  return RULES.filter((r) => !only || only.includes(r.info.id)).map((r) => r.check(history));
}
