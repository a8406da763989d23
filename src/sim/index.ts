/**
 * sim/ owns the executable model of the OpenShift update control loop: a deterministic, seeded
 * discrete-event engine (virtual clock, event heap, own PRNG), an object store with watches whose
 * deliveries lag (so controllers act on stale caches), the CVO, the machine-config operator with a
 * pluggable required-pool validity policy (naive, pre-fix-2021, fixed), the template, render and
 * node controllers, one daemon per node, and origin's upgrade test as the observer that checks the
 * master-pool invariant. It explores seeds and interleavings of the MCO race, and writes runs in
 * the CI layout that sources/ reads. docs/simulate.md describes the model.
 */

// The CI layout's text formats live in artifacts/ (watch and the scripts use them there); kept
// here for callers that reach them through sim.
export {
  CiRun,
  DEFAULT_EPOCH,
  intervalFileNames,
  listJson,
  type MonitorRecord,
  monitorLine,
  sortedRecords,
} from '../artifacts/index.js';
export { GATHER_DIR, GROUND_TRUTH, JUNIT_DIR, renderArtifacts, writeArtifacts } from './artifacts/write.js';
export {
  type ExhaustiveExploration,
  exploreExhaustive,
  exploreSeeds,
  replaySchedule,
  ScheduleError,
  type SeedExploration,
  WINDOW_MS,
} from './explore.js';
export { DEFAULT_LATENCIES, type Latencies } from './latency.js';
export { isPolicyName, POLICIES, POLICY_NAMES, type Policy, type PolicyName } from './policy.js';
export { buildRelease, changedComponents, type Release } from './release.js';
export { type RunOptions, type RunResult, runSimulation } from './run.js';
export { BUILTIN_SCENARIOS, builtinScenario, type Scenario } from './scenario.js';
export { loadScenarioFile, parseDuration, parseScenario } from './scenario-file.js';
export type { ArtifactsInfo } from './summary.js';
export { type RunSummary, type RunVerdict, type SimulateOutcome, summarize } from './summary.js';
