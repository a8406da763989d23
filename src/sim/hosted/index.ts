/**
 * sim/hosted holds the model of a NodePool rollout on a HyperShift hosted cluster (issue 41): the
 * NodePool controller with its completion policy (pre-fix-capi-v1beta1, fixed), Cluster API's
 * MachineDeployment, MachineSet and Machine controllers, the guest's kubelets, the in-place upgrader
 * and the e2e test that dumps the cluster, on the shared engine, PRNG and latency distributions of
 * src/sim; it writes runs as a `hypershift dump cluster --dump-guest-cluster` folder (docs/hosted.md).
 * docs/simulate.md, "Hosted control planes".
 */
export { renderHostedDump } from './dump.js';
export { exploreHostedSeeds } from './explore.js';
export { runHostedSimulation } from './run.js';
export {
  HOSTED_POLICY_NAMES,
  HOSTED_POLICY_SUMMARIES,
  HOSTED_SCENARIOS,
  type HostedScenario,
  hostedScenario,
  isHostedPolicyName,
} from './scenario.js';
export { summarizeHosted } from './summary.js';
