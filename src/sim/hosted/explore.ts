/** Hosted runs across seeds: how many reported the NodePool at level before its rollout ended. */
import { runHostedSimulation } from './run.js';
import type { HostedPolicyName, HostedScenario } from './scenario.js';

export interface HostedSeedExploration {
  readonly scenario: string;
  readonly policy: HostedPolicyName;
  readonly firstSeed: number;
  readonly runs: number;
  readonly violations: number;
  readonly firstViolatingSeed: number | null;
  /** Up to 20 violating seeds, in order. */
  readonly violatingSeeds: readonly number[];
  /** Runs in which the NodePool never reported level before the run's limit. */
  readonly neverLevel: number;
  /** The median of (rollout end − level report) over the violating runs, in ms. */
  readonly medianEarlyMs: number | null;
}

export function exploreHostedSeeds(
  scenario: HostedScenario,
  policy: HostedPolicyName,
  firstSeed: number,
  runs: number,
  onProgress?: (done: number, violations: number) => void,
): HostedSeedExploration {
  let violations = 0;
  let firstViolatingSeed: number | null = null;
  const violatingSeeds: number[] = [];
  const early: number[] = [];
  let neverLevel = 0;
  for (let i = 0; i < runs; i++) {
    const seed = firstSeed + i;
    const f = runHostedSimulation(scenario, policy, seed).facts;
    if (f.levelAt === undefined) neverLevel++;
    if (f.violation) {
      violations++;
      firstViolatingSeed ??= seed;
      if (violatingSeeds.length < 20) violatingSeeds.push(seed);
      if (f.rolloutEndedAt !== undefined && f.levelAt !== undefined) early.push(f.rolloutEndedAt - f.levelAt);
    }
    onProgress?.(i + 1, violations);
  }
  early.sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    policy,
    firstSeed,
    runs,
    violations,
    firstViolatingSeed,
    violatingSeeds,
    neverLevel,
    medianEarlyMs: early.length > 0 ? (early[Math.floor(early.length / 2)] as number) : null,
  };
}
