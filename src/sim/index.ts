/**
 * sim/ owns the executable model of the OpenShift update control loop: a deterministic, seeded
 * discrete-event engine (virtual clock, event heap, own PRNG), an object store with watches whose
 * deliveries lag (so controllers act on stale caches), the CVO, the machine-config operator with a
 * pluggable required-pool validity policy (naive, pre-fix-2021, fixed), the template, render and
 * node controllers, one daemon per node, operators with operands (Deployment and DaemonSet rollouts,
 * workloads.ts) and origin's upgrade test as the observer that checks the master-pool invariant. It
 * explores seeds and interleavings of the MCO race, model-checks an untimed abstraction of every
 * controller's steps (check.ts, check-model.ts), and writes runs in the CI layout that sources/
 * reads. docs/simulate.md describes the model.
 */

// The CI layout's text formats live in artifacts/ (watch and the scripts use them there); kept
// here for callers that reach them through sim.
export { DEFAULT_EPOCH } from '../artifacts/index.js';
export { GROUND_TRUTH, renderArtifacts } from './artifacts/write.js';
export {
  checkModel,
  NamedScheduleError,
  replayNamedSchedule,
} from './check.js';
export { UncheckableScenario } from './check-model.js';
export {
  exploreExhaustive,
  exploreSeeds,
  replaySchedule,
  ScheduleError,
} from './explore.js';
// The hosted model (NodePool rollouts, issue 41): its own folder on the same engine.
export {
  exploreHostedSeeds,
  HOSTED_POLICY_NAMES,
  HOSTED_POLICY_SUMMARIES,
  HOSTED_SCENARIOS,
  type HostedScenario,
  hostedScenario,
  isHostedPolicyName,
  renderHostedDump,
  runHostedSimulation,
  summarizeHosted,
} from './hosted/index.js';
export { isPolicyName, POLICIES, POLICY_NAMES, type PolicyName } from './policy.js';
export { type RunResult, runSimulation } from './run.js';
export { BUILTIN_SCENARIOS, builtinScenario, type Scenario } from './scenario.js';
export { loadScenarioFile, parseScenario } from './scenario-file.js';
export type { ArtifactsInfo } from './summary.js';
export { type RunSummary, type RunVerdict, type SimulateOutcome, summarize } from './summary.js';
