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
  /**
   * Set when the rule judges a set (operators, pools) and could check only part of it: a "holds" on
   * 3 of 31 operators must say so (docs/analyze-json.md `coverage`). Absent when it checked them all.
   */
  readonly coverage?: Coverage;
}

/** How much of the set a rule judges it could check, and why the rest was not. */
export interface Coverage {
  /** What the members are, plural: "operators", "pools". */
  readonly of: string;
  readonly checked: number;
  readonly total: number;
  /** The members not checked, by name, sorted. */
  readonly unchecked: readonly string[];
  /**
   * Of `unchecked`, those the rule cannot judge yet: an update still in progress at the end of the
   * inputs had not reached them (an operator not yet at the target has not reported level). Not
   * missing data: no input of that moment could hold a report still to come, so they add nothing to
   * `needs`; but they count in `total`, so a holds on few of the members is too little to carry a
   * PASS. Absent when none.
   */
  readonly notYet?: readonly string[];
  /** Why they were not checked, in words. */
  readonly why: string;
  /** The data that would let them be checked, in NEEDS' words. */
  readonly needs: readonly string[];
  /**
   * False when the rule checked fewer than half of its members: a "holds" on so little is not
   * evidence the invariant held, so it makes analyze's verdict inconclusive instead of PASS.
   */
  readonly enough: boolean;
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

/**
 * Why a ClusterVersion rule does not apply when the inputs hold no update. On a hosted cluster's dump
 * (a HostedCluster or NodePools, no ClusterVersion) "no update in the inputs" would be false: its
 * update is told by the HostedCluster and NodePools, which the HyperShift rules judge (docs/hosted.md).
 */
export function noUpdateReason(
  history: ClusterHistory,
  which: 'update' | 'completed update' = 'update',
): string {
  const hosted = history.objects.hostedClusters.length > 0 || history.objects.nodePools.length > 0;
  return hosted && history.objects.clusterVersions.length === 0
    ? 'a hosted cluster (no ClusterVersion): the HyperShift rules judge its update'
    : `no ${which} in the inputs`;
}

/** The rule applies to the update in the inputs but the data it needs is not there. */
export function notChecked(rule: RuleInfo, reason: string, missing: readonly string[]): RuleOutcome {
  return { rule, applicable: false, state: 'not-checked', reason, missing, findings: [] };
}

export function checked(rule: RuleInfo, findings: Finding[], coverage?: Coverage): RuleOutcome {
  const violated = findings.some((f) => f.severity === 'failure');
  return {
    rule,
    applicable: true,
    state: violated ? 'violated' : 'holds',
    missing: [],
    findings,
    ...(coverage ? { coverage } : {}),
  };
}

/**
 * The coverage of a rule that judged `all` and could check only `checkedNames`; undefined when it
 * checked every member, so a rule that covered everything reads exactly as before.
 */
export function partialCoverage(
  of: string,
  all: Iterable<string>,
  checkedNames: ReadonlySet<string>,
  why: string,
  needs: readonly string[],
  notYet?: ReadonlySet<string>,
): Coverage | undefined {
  const members = new Set(all);
  for (const n of checkedNames) members.add(n);
  const unchecked = [...members].filter((n) => !checkedNames.has(n)).sort();
  if (unchecked.length === 0) return undefined;
  const total = members.size;
  const count = total - unchecked.length;
  const pending = notYet ? unchecked.filter((n) => notYet.has(n)) : [];
  return {
    of,
    checked: count,
    total,
    unchecked,
    why,
    needs,
    enough: count * 2 >= total,
    ...(pending.length > 0 ? { notYet: pending } : {}),
  };
}

/** What each rule may need, in the words every report uses (where the data usually comes from). */
export const NEEDS = {
  renderedConfigs: 'the rendered MachineConfigs (gather-extra machineconfigs.json, or a must-gather)',
  pools:
    'the MachineConfigPools and their conditions (gather-extra machineconfigpools.json, a must-gather, or the monitor lines of build-log.txt)',
  operatorVersions:
    "when each ClusterOperator reported its new version (the monitor lines of build-log.txt, origin's e2e-intervals JSON, or the operators' OperatorVersionChanged Events; a snapshot's objects hold only the final versions)",
  operators:
    "the ClusterOperators' conditions (gather-extra clusteroperators.json, a must-gather, or the monitor lines of build-log.txt)",
  nodePoolUpdating:
    "the NodePool's UpdatingVersion and UpdatingConfig conditions and status.version, and the HostedCluster's version histories naming the release of its spec.release.image (a hypershift dump)",
  snapshot:
    'a snapshot of the ClusterVersion and ClusterOperators with their conditions (gather-extra clusterversion.json and clusteroperators.json, or a must-gather)',
  poolStates:
    "the master pool's state around the CVO's completion: its conditions then (a snapshot taken before a later rollout overwrote them), the upgrade test's pool polls in build-log.txt, or the daemons' NodeDone Events (gather-extra events.json)",
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
