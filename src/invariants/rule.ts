import type { ClusterHistory, ExplainHook, Finding, RuleInfo } from '../model/index.js';

/**
 * A rule's state on one input (docs/analyze-json.md): `holds` when it was checked and nothing broke it
 * (warnings may remain), `violated` when a finding of severity failure broke it, `not-checked` when
 * the inputs did not let it be checked. Never "holds" without a check (docs/architecture.md).
 */
type RuleState = 'holds' | 'violated' | 'not-checked';

/** What one rule concluded: its findings, or why it could not be checked on this history. */
export interface RuleOutcome {
  readonly rule: RuleInfo;
  /** True only when the rule was really checked (state is holds or violated). */
  readonly applicable: boolean;
  readonly state: RuleState;
  /** Why the rule was not checked, in words. */
  readonly reason?: string;
  /**
   * The data the rule needed and the inputs lack, each naming where it usually comes from. Empty when
   * the rule was checked, or when it does not apply to these inputs at all (no update of the kind it
   * is about): only missing data makes a verdict inconclusive.
   */
  readonly missing: readonly string[];
  readonly findings: readonly Finding[];
}

export interface Rule {
  readonly info: RuleInfo;
  check(history: ClusterHistory): RuleOutcome;
}

/** What a rule declares besides its id and statement (model/finding.ts RuleInfo). */
export interface RuleMeta {
  readonly severityPolicy: string;
  readonly explain?: ExplainHook;
}

export function defineRule(
  id: string,
  statement: string,
  meta: RuleMeta,
  check: (history: ClusterHistory, info: RuleInfo) => RuleOutcome,
): Rule {
  const info: RuleInfo = { id, statement, doc: `docs/rules/${id}.md`, ...meta };
  return { info, check: (history) => check(history, info) };
}

/** The rule does not apply to these inputs (e.g. no update of the kind it checks): not checked, nothing missing. */
export function notApplicable(rule: RuleInfo, reason: string): RuleOutcome {
  return { rule, applicable: false, state: 'not-checked', reason, missing: [], findings: [] };
}

/** The rule applies to the update in the inputs but the data it needs is not there. */
export function notChecked(rule: RuleInfo, reason: string, missing: readonly string[]): RuleOutcome {
  return { rule, applicable: false, state: 'not-checked', reason, missing, findings: [] };
}

export function checked(rule: RuleInfo, findings: Finding[]): RuleOutcome {
  const violated = findings.some((f) => f.severity === 'failure');
  return { rule, applicable: true, state: violated ? 'violated' : 'holds', missing: [], findings };
}

/** What each rule may need, in the words every report uses (where the data usually comes from). */
export const NEEDS = {
  renderedConfigs: 'the rendered MachineConfigs (gather-extra machineconfigs.json, or a must-gather)',
  pools:
    'the MachineConfigPools and their conditions (gather-extra machineconfigpools.json, a must-gather, or the monitor lines of build-log.txt)',
  operatorVersions:
    "when each ClusterOperator reported its new version (the monitor lines of build-log.txt, or origin's e2e-intervals JSON; a snapshot holds only the final versions)",
  operators:
    "the ClusterOperators' conditions (gather-extra clusteroperators.json, a must-gather, or the monitor lines of build-log.txt)",
  snapshot:
    'a snapshot of the ClusterVersion and ClusterOperators with their conditions (gather-extra clusterversion.json and clusteroperators.json, or a must-gather)',
  completion:
    'when the CVO completed the update (ClusterVersion status.history[].completionTime, or the monitor\'s "cluster reached" line in build-log.txt)',
  updateStart:
    "the update's start time (ClusterVersion status.history, or the upgrade test's log in build-log.txt)",
  releases:
    "the release payloads updated from and to (oc adm release info -o json of both, in the run's release/ folder or --release-from/--release-to)",
  deployments:
    "the Deployments (gather-extra deployments.json, or a must-gather's namespaces/<ns>/apps/deployments.yaml)",
  daemonSets:
    "the DaemonSets (gather-extra daemonsets.json, or a must-gather's namespaces/<ns>/apps/daemonsets.yaml)",
  replicaSets:
    "the Deployments' ReplicaSets, whose creation times and templates date each rollout (gather-extra replicasets.json, or a must-gather's namespaces/<ns>/apps/replicasets.yaml)",
  pods: "the workloads' pods, with their images and creation times (gather-extra pods.json, or a must-gather's namespaces/<ns>/core/pods.yaml)",
  events:
    "the Events of the workloads' rollouts: ScalingReplicaSet, SuccessfulCreate, SuccessfulDelete, Pulled (gather-extra events.json, or origin's e2e-events/e2e-intervals JSON)",
  rolloutEvents:
    "Events from the update's own rollouts (ScalingReplicaSet, SuccessfulDelete, Pulled in gather-extra events.json: a cluster keeps Events for hours only), or `atlevel watch --record` during the update",
} as const;
