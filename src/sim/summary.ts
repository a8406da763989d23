/**
 * What a run showed, in wall-clock terms: did the invariant break, when the machine-config operator
 * reported level, when the new rendered configs appeared, when the CVO completed, when the master
 * pool really finished, and what the upgrade test saw. Reporters format it; the artifact writer
 * stores it as the run's ground truth.
 */

import { DEFAULT_EPOCH } from '../artifacts/index.js';
import type { Verdict } from '../model/index.js';
import type { ModelCheck, ModelReplay } from './check.js';
import type { ExhaustiveExploration, SeedExploration } from './explore.js';
import type { HostedSeedExploration } from './hosted/explore.js';
import type { HostedRunSummary } from './hosted/summary.js';
import { changedComponents } from './release.js';
import type { RunResult } from './run.js';

export interface RunSummary {
  readonly scenario: string;
  readonly policy: string;
  readonly seed: number;
  readonly from: string;
  readonly to: string;
  /** Release components whose image changed, by tag name. */
  readonly changedComponents: readonly string[];
  /** The invariant: the master pool was Updating at or after the CVO reported the update complete. */
  readonly violated: boolean;
  readonly violationAt: string | null;
  /** The upgrade test logged "Invariant violation detected" (it can miss a violation it polls past). */
  readonly testDetected: boolean;
  readonly testFailure: string | null;
  readonly upgradeRequestedAt: string | null;
  readonly controllerConfigWrittenAt: string | null;
  readonly operatorLevelAt: string | null;
  readonly renderedConfigs: readonly { pool: string; name: string; at: string; created: boolean }[];
  readonly masterTargetedAt: string | null;
  readonly cvoCompletedAt: string | null;
  readonly masterUpdatedAt: string | null;
  readonly poolsCompletedAt: string | null;
  /** ms from the operator reporting level to the master pool targeting the new config (positive: the race was lost). */
  readonly raceMarginMs: number | null;
  readonly operatorDegraded: readonly { at: string; message: string }[];
  /** The scenario's administrator actions as applied (docs/simulate.md); empty in most scenarios. */
  readonly administratorActions: readonly { at: string; text: string }[];
  /** When the first action after the CVO completed was applied: a day-2 change, not the update's. */
  readonly day2At: string | null;
  /** In a run of two updates: when the CVO completed the first (the rest of the summary is the second's). */
  readonly firstUpdateCompletedAt: string | null;
  /**
   * The operand invariant: operators that reported level (`versions[operator]` = the target) before a
   * workload they manage had every replica updated and available, with the counts at that moment.
   */
  readonly operandViolations: readonly {
    operator: string;
    workload: string;
    version: string;
    at: string;
    updated: number;
    available: number;
    desired: number;
    rolledOutAt: string | null;
  }[];
  readonly endedAt: string;
  readonly events: number;
}

export function summarize(run: RunResult, epoch = DEFAULT_EPOCH): RunSummary {
  const f = run.facts;
  const wall = (t: number | undefined): string | null =>
    t === undefined ? null : new Date(epoch + t).toISOString();
  const masterTarget = f.targets.find((t) => t.pool === 'master');
  return {
    scenario: run.scenario.name,
    policy: run.policy,
    seed: run.seed,
    from: run.from.version,
    to: run.to.version,
    changedComponents: changedComponents(run.from, run.to),
    violated: f.violation,
    violationAt: wall(f.violationAt),
    testDetected: f.testDetectedAt !== undefined,
    testFailure: f.testFailure ?? null,
    upgradeRequestedAt: wall(f.upgradeRequestedAt),
    controllerConfigWrittenAt: wall(f.controllerConfigWrittenAt),
    operatorLevelAt: wall(f.mcoLevelAt),
    renderedConfigs: f.rendered.map((r) => ({
      pool: r.pool,
      name: r.name,
      at: wall(r.at) as string,
      created: r.created,
    })),
    masterTargetedAt: wall(masterTarget?.at),
    cvoCompletedAt: wall(f.cvoCompletedAt),
    masterUpdatedAt: wall(f.masterUpdatedAt),
    poolsCompletedAt: wall(f.poolsCompletedAt),
    raceMarginMs: masterTarget && f.mcoLevelAt !== undefined ? masterTarget.at - f.mcoLevelAt : null,
    operatorDegraded: f.mcoDegraded.map((d) => ({ at: wall(d.at) as string, message: d.message })),
    administratorActions: f.actions.map((a) => ({ at: wall(a.at) as string, text: a.text })),
    day2At: wall(f.day2At),
    firstUpdateCompletedAt: wall(f.firstCompletedAt),
    operandViolations: f.operandViolations.map((v) => ({
      operator: v.operator,
      workload: `${v.kind}/${v.namespace}/${v.name}`,
      version: v.version,
      at: wall(v.at) as string,
      updated: v.updated,
      available: v.available,
      desired: v.desired,
      rolledOutAt: wall(v.rolledOutAt),
    })),
    endedAt: wall(run.endAt) as string,
    events: run.events,
  };
}

/** Where a run's artifacts were written. */
export interface ArtifactsInfo {
  readonly dir: string;
  readonly files: number;
  readonly seed: number;
  readonly schedule: readonly number[] | null;
}

/**
 * simulate's verdict on one run is, by definition, analyze's verdict on the CI run it wrote: the
 * artifacts are read back through the same sources and rules as `atlevel analyze DIR`.
 */
export interface RunVerdict {
  readonly verdict: Verdict;
  /** Rule ids violated, in report order. */
  readonly violated: readonly string[];
  /** Rule ids that applied but could not be checked. */
  readonly notChecked: readonly string[];
  /**
   * The rules that held on too little of what they judge (fewer than half of its operators or pools,
   * docs/analyze-json.md `coverage`), each with how little: they make analyze's verdict inconclusive
   * as a rule not checked does.
   */
  readonly thin: readonly ThinRule[];
}

/** A rule that held on too little: `checked` of `total` `of` (`1 of 29 operators`). */
interface ThinRule {
  readonly rule: string;
  readonly of: string;
  readonly checked: number;
  readonly total: number;
}

/** Everything `atlevel simulate` reports, whichever mode ran. */
export type SimulateOutcome =
  | {
      readonly mode: 'run';
      readonly description: string;
      readonly policySummary: string;
      readonly summary: RunSummary;
      readonly verdict: RunVerdict;
      readonly schedule: readonly number[] | null;
      readonly artifacts: ArtifactsInfo | null;
      readonly reproduce: string;
    }
  | {
      readonly mode: 'seeds';
      readonly description: string;
      readonly policySummary: string;
      readonly exploration: SeedExploration;
      readonly artifacts: ArtifactsInfo | null;
      readonly reproduce: string | null;
      readonly elapsedMs: number;
    }
  | {
      /** `--exhaustive`: the model checker over every controller's steps (sim/check.ts). */
      readonly mode: 'model-check';
      readonly description: string;
      readonly policySummary: string;
      readonly check: ModelCheck;
      /** The command that replays the first violating schedule, if any. */
      readonly reproduce: string | null;
    }
  | {
      /** `--schedule` with a model checker schedule (step names). */
      readonly mode: 'model-replay';
      readonly description: string;
      readonly policySummary: string;
      readonly replay: ModelReplay;
      readonly schedule: string;
    }
  | {
      /** `--exhaustive --race-window`: the race window's interleavings in the timed model (explore.ts). */
      readonly mode: 'exhaustive';
      readonly description: string;
      readonly policySummary: string;
      readonly exploration: ExhaustiveExploration;
      readonly artifacts: ArtifactsInfo | null;
      readonly reproduce: string | null;
      readonly elapsedMs: number;
    } // The hosted model (src/sim/hosted): one NodePool rollout, or many seeds of it.
  | {
      readonly mode: 'hosted-run';
      readonly description: string;
      readonly policySummary: string;
      readonly summary: HostedRunSummary;
      readonly verdict: RunVerdict;
      readonly artifacts: ArtifactsInfo | null;
      readonly reproduce: string;
    }
  | {
      readonly mode: 'hosted-seeds';
      readonly description: string;
      readonly policySummary: string;
      readonly exploration: HostedSeedExploration;
      readonly artifacts: ArtifactsInfo | null;
      readonly reproduce: string | null;
      readonly elapsedMs: number;
    };
