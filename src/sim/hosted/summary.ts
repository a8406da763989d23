/**
 * What a hosted run showed, in wall-clock terms: when the NodePool's release moved, when the
 * NodePool controller reported level, when the rollout really ended, and what was still rolling
 * out at the level report. Reporters format it; the dump writer stores it as the ground truth.
 */
import type { HostedRunResult } from './run.js';
import { HOSTED_EPOCH } from './scenario.js';

export interface HostedRunSummary {
  readonly scenario: string;
  readonly policy: string;
  readonly seed: number;
  readonly nodePool: string;
  readonly upgradeType: 'Replace' | 'InPlace';
  readonly from: string;
  readonly to: string;
  /** The ground truth: the NodePool reported level before its rollout ended. */
  readonly violated: boolean;
  /** The dump (the e2e test's snapshot) shows it: the NodePool at level while the rollout had not ended. */
  readonly visibleAtDump: boolean;
  readonly dumpAt: string | null;
  readonly requestedAt: string | null;
  readonly payloadGeneratedAt: string | null;
  readonly templateChangedAt: string | null;
  readonly levelAt: string | null;
  readonly rolloutEndedAt: string | null;
  /** ms from the level report to the rollout's end (positive: the NodePool reported level early). */
  readonly earlyByMs: number | null;
  /** What the rule's conditions said at the level report (empty when the rollout had ended). */
  readonly stillRolling: readonly string[];
  readonly oldMachinesAtLevel: readonly string[];
  readonly machinesCreated: readonly { at: string; name: string }[];
  readonly machinesDeleted: readonly { at: string; name: string }[];
  readonly nodesUpdatedInPlace: readonly { at: string; name: string }[];
  readonly endedAt: string;
  readonly events: number;
}

export function summarizeHosted(run: HostedRunResult, epoch = HOSTED_EPOCH): HostedRunSummary {
  const f = run.facts;
  const wall = (t: number | undefined): string | null =>
    t === undefined ? null : new Date(epoch + t).toISOString();
  const stamp = (xs: readonly { at: number; name: string }[]) =>
    xs.map((x) => ({ at: wall(x.at) as string, name: x.name }));
  return {
    scenario: run.scenario.name,
    policy: run.policy,
    seed: run.seed,
    nodePool: `${run.scenario.namespace}/${run.scenario.nodePool}`,
    upgradeType: run.scenario.upgradeType,
    from: run.scenario.from.version,
    to: run.scenario.to.version,
    violated: f.violation,
    visibleAtDump: f.visibleAtDump,
    dumpAt: wall(f.dumpAt),
    requestedAt: wall(f.requestedAt),
    payloadGeneratedAt: wall(f.payloadAt),
    templateChangedAt: wall(f.templateAt),
    levelAt: wall(f.levelAt),
    rolloutEndedAt: wall(f.rolloutEndedAt),
    earlyByMs:
      f.levelAt !== undefined && f.rolloutEndedAt !== undefined ? f.rolloutEndedAt - f.levelAt : null,
    stillRolling: f.stillRolling,
    oldMachinesAtLevel: f.oldMachines,
    machinesCreated: stamp(f.machinesCreated),
    machinesDeleted: stamp(f.machinesDeleted),
    nodesUpdatedInPlace: stamp(f.nodesUpdated),
    endedAt: wall(run.endAt) as string,
    events: run.events,
  };
}
