/**
 * analyze/ is the `atlevel analyze` pipeline as a library call: check every invariant over a
 * ClusterHistory, explain the failures, and return one result that every reporter formats.
 */
import { explainFindings } from '../explain/index.js';
import { checkInvariants, type RuleOutcome } from '../invariants/index.js';
import type { BudgetLimits, ClusterHistory, InputFile, Millis } from '../model/index.js';
import { type Finding, SEVERITY_ORDER, type Verdict } from '../model/index.js';
import { findUpdates, type UpdateRecord, updateWindow, windowNote } from '../timeline/index.js';

/** Warnings never change the verdict; only violated rules, the update's presence and missing data do. */
function verdictOf(
  outcomes: readonly RuleOutcome[],
  updates: readonly UpdateRecord[],
  hasClusterVersion: boolean,
  hosted = false,
): Verdict {
  if (outcomes.some((o) => o.state === 'violated')) return 'fail';
  // A hosted cluster's update is told by its HostedCluster and NodePools (docs/hosted.md), which the
  // HyperShift rules read: with no ClusterVersion, their outcomes decide.
  if (updates.length === 0 && hosted && hostedDecided(outcomes))
    return outcomes.some((o) => lacksData(o)) ? 'inconclusive' : 'pass';
  // "No update" is a fact only a ClusterVersion can state (its history lists every update). Inputs
  // without one (events, nodes, a monitor file of another kind) show no update, but cannot show
  // that none happened.
  if (updates.length === 0) return hasClusterVersion ? 'no-update' : 'inconclusive';
  if (outcomes.some((o) => lacksData(o))) return 'inconclusive';
  return 'pass';
}

/**
 * A rule not checked for lack of data, or one that held on too little of what it applies to (fewer
 * than half its operators or pools, invariants/rule.ts Coverage): a PASS never rests on either.
 */
function lacksData(o: RuleOutcome): boolean {
  return (o.state === 'not-checked' && o.missing.length > 0) || heldOnTooLittle(o);
}

/**
 * A holds on fewer than half of what the rule judges: no evidence the invariant held, so it makes
 * the verdict inconclusive. Every command that reports a verdict names these rules by this test.
 */
export function heldOnTooLittle(o: RuleOutcome): boolean {
  return o.state === 'holds' && o.coverage?.enough === false;
}

/** A rule's coverage as every JSON document prints it (docs/analyze-json.md `coverage`). */
export interface CoverageDocument {
  readonly of: string;
  readonly checked: number;
  readonly total: number;
  readonly notChecked: readonly string[];
  /** Of notChecked, those an update in progress had not reached yet (not missing data). */
  readonly notYet: readonly string[];
  readonly reason: string;
  readonly needs: readonly string[];
  readonly enough: boolean;
}

/**
 * The coverage of a checked rule in analyze's JSON words: null when it checked every member of the
 * set it judges, or was not checked. analyze -o json, watch's `complete` and the run store share it.
 */
export function coverageDocument(o: RuleOutcome): CoverageDocument | null {
  const c = o.coverage;
  if (!c || o.state === 'not-checked') return null;
  return {
    of: c.of,
    checked: c.checked,
    total: c.total,
    notChecked: c.unchecked,
    notYet: c.notYet ?? [],
    reason: c.why,
    needs: c.needs,
    enough: c.enough,
  };
}

/** Whether the rules checked something or lacked data: then they, not the missing ClusterVersion, give the verdict. */
function hostedDecided(outcomes: readonly RuleOutcome[]): boolean {
  return outcomes.some((o) => o.state === 'holds' || (o.state === 'not-checked' && o.missing.length > 0));
}

/** Why the inputs hold no update, in words (the verdict `no-update` says what it saw). */
function noUpdateReason(history: ClusterHistory): string {
  const cv = history.objects.clusterVersions[0]?.object;
  const entries = cv?.status?.history ?? [];
  if (entries.length === 1) {
    return `ClusterVersion history holds only the installation of ${entries[0]?.version || entries[0]?.image || 'the cluster'}`;
  }
  if (cv) return 'ClusterVersion history holds no entry';
  return 'the inputs hold no ClusterVersion, and no monitor or upgrade-test line of an update';
}

/** Which rules lacked data, and which held on too little to count (with how little). */
function inconclusiveReason(outcomes: readonly RuleOutcome[], notCheckedIds: readonly string[]): string {
  const parts: string[] = [];
  if (notCheckedIds.length > 0) parts.push(`not checked for lack of data: ${notCheckedIds.join(', ')}`);
  const few = outcomes.filter(heldOnTooLittle).map((o) => {
    const c = o.coverage;
    const notYet = c?.notYet?.length ? `; ${c.notYet.length} not yet at the target` : '';
    return c ? `${o.rule.id} (${c.checked} of ${c.total} ${c.of}${notYet})` : o.rule.id;
  });
  if (few.length > 0) parts.push(`held on too little of what they apply to: ${few.join(', ')}`);
  return parts.join('; ');
}

export interface AnalysisResult {
  readonly verdict: Verdict;
  /** Why the verdict is what it is, in one line: the rules violated or not checked, or why there is no update. */
  readonly verdictReason: string;
  readonly inputs: readonly InputFile[];
  readonly span: { readonly from: Millis; readonly to: Millis } | undefined;
  readonly updates: readonly UpdateRecord[];
  readonly outcomes: readonly RuleOutcome[];
  /** All findings, explained: most severe first, then in rule order, then by time. */
  readonly findings: readonly Finding[];
  readonly notes: readonly string[];
}

export interface AnalyzeOptions {
  /** Only these rule ids. */
  readonly rules?: readonly string[];
  /** The limits of each cause-chain diff (docs/limits.md); the defaults when absent. */
  readonly diffLimits?: Partial<BudgetLimits>;
}

export function analyzeHistory(history: ClusterHistory, opts: AnalyzeOptions = {}): AnalysisResult {
  const outcomes = checkInvariants(history, opts.rules).map((o) => ({
    ...o,
    findings: explainFindings(history, o.findings, opts.diffLimits),
  }));
  // Most severe first; among equals, in rule order (the headline invariant first), then by time.
  const order = new Map(outcomes.map((o, i) => [o.rule.id, i]));
  const findings = outcomes
    .flatMap((o) => o.findings)
    .sort(
      (a, b) =>
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        (order.get(a.rule) ?? 0) - (order.get(b.rule) ?? 0) ||
        (a.at ?? 0) - (b.at ?? 0),
    );
  const updates = findUpdates(history);
  // The span analysed is the update's window (ClusterVersion history and the monitored run); objects
  // dated outside it are context and say so in a note, they never stretch it.
  const window = updateWindow(history);
  const note = window ? windowNote(window) : undefined;
  const hasClusterVersion = history.objects.clusterVersions.length > 0;
  const hosted = history.objects.hostedClusters.length > 0 || history.objects.nodePools.length > 0;
  const verdict = verdictOf(outcomes, updates, hasClusterVersion, hosted);
  const ids = (state: RuleOutcome['state'], missing: boolean) =>
    outcomes.filter((o) => o.state === state && (!missing || o.missing.length > 0)).map((o) => o.rule.id);
  const verdictReason =
    verdict === 'fail'
      ? `violated: ${ids('violated', false).join(', ')}`
      : verdict === 'no-update'
        ? noUpdateReason(history)
        : verdict === 'inconclusive' && updates.length === 0 && !(hosted && hostedDecided(outcomes))
          ? `${noUpdateReason(history)}, so they cannot show whether an update happened: add the ClusterVersion (gather-extra clusterversion.json, or a must-gather)`
          : verdict === 'inconclusive'
            ? inconclusiveReason(outcomes, ids('not-checked', true))
            : `every rule that applies held: ${[...ids('holds', false)].join(', ')}`;
  return {
    verdict,
    verdictReason,
    inputs: history.inputs,
    span: window ? { from: window.from, to: window.to } : history.span,
    updates,
    outcomes,
    findings,
    notes: note ? [...history.notes, note] : history.notes,
  };
}
