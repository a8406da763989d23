import type { Finding, RuleInfo } from '../model/finding.js';
import type { ClusterHistory } from '../model/history.js';

/** What one rule concluded: its findings, or why it could not be checked on this history. */
export interface RuleOutcome {
  readonly rule: RuleInfo;
  /** False when the inputs hold nothing the rule can be checked against (e.g. no pools at all). */
  readonly applicable: boolean;
  readonly reason?: string;
  readonly findings: readonly Finding[];
}

export interface Rule {
  readonly info: RuleInfo;
  check(history: ClusterHistory): RuleOutcome;
}

export function defineRule(
  id: string,
  statement: string,
  check: (history: ClusterHistory, info: RuleInfo) => RuleOutcome,
): Rule {
  const info: RuleInfo = { id, statement, doc: `docs/rules/${id}.md` };
  return { info, check: (history) => check(history, info) };
}

export function notApplicable(rule: RuleInfo, reason: string): RuleOutcome {
  return { rule, applicable: false, reason, findings: [] };
}

export function checked(rule: RuleInfo, findings: Finding[]): RuleOutcome {
  return { rule, applicable: true, findings };
}
