/**
 * The hosted scenarios (a NodePool rollout on a HyperShift hosted cluster whose control plane is
 * already at the target) and the NodePool controller's completion policies (docs/simulate.md,
 * "Hosted control planes").
 */
import { type Dist, lognormal, uniform } from '../rng.js';

/** Virtual time 0 of a hosted run: a 2026 morning, when Cluster API's v1beta2 status was read (OCPBUGS-77922). */
export const HOSTED_EPOCH = Date.UTC(2026, 4, 12, 9, 30, 0);

export const HOSTED_POLICY_NAMES = ['pre-fix-capi-v1beta1', 'fixed'] as const;
export type HostedPolicyName = (typeof HOSTED_POLICY_NAMES)[number];

export const HOSTED_POLICY_SUMMARIES: Readonly<Record<HostedPolicyName, string>> = {
  'pre-fix-capi-v1beta1':
    "the NodePool controller declares a Replace rollout complete from the MachineDeployment's v1beta1 counters (updatedReplicas, replicas, availableReplicas = desired), which no longer count a Machine being deleted (OCPBUGS-77922)",
  fixed:
    "the NodePool controller reads the MachineDeployment's status.v1beta2 (upToDateReplicas, replicas, availableReplicas = desired), which count a Machine until it is gone",
};

interface HostedLatencies {
  readonly watch: Dist;
  readonly queue: Dist;
  /** The administrator's request (spec.release of the NodePool) after the run starts. */
  readonly request: Dist;
  /** The NodePool controller generating the new ignition payload (token and user-data Secrets). */
  readonly payload: Dist;
  readonly nodePoolSync: Dist;
  readonly capiSync: Dist;
  /** A new instance booting until its kubelet registers the Node (NotReady). */
  readonly provision: Dist;
  /** From registration until the Node is Ready. */
  readonly nodeReady: Dist;
  /** The Machine controller noticing the Ready node (nodeRef, Ready/Available conditions). */
  readonly machineReady: Dist;
  readonly drain: Dist;
  /** The infrastructure provider terminating the instance after the drain. */
  readonly infraDelete: Dist;
  /** The in-place upgrader's daemon applying the new configuration on a drained node (before its reboot). */
  readonly inPlaceApply: Dist;
  /** An in-place reboot until the node is Ready again. */
  readonly reboot: Dist;
  /** From the e2e test seeing the NodePool at level until `hypershift dump` has read the objects. */
  readonly dump: Dist;
}

const HOSTED_LATENCIES: HostedLatencies = {
  watch: lognormal(25, 0.6, 2, 2000),
  queue: uniform(1, 10),
  request: uniform(3000, 9000),
  payload: lognormal(8_000, 0.4, 1_000),
  nodePoolSync: lognormal(150, 0.5, 20, 3000),
  capiSync: lognormal(60, 0.5, 10, 2000),
  provision: lognormal(150_000, 0.3, 40_000),
  nodeReady: lognormal(40_000, 0.3, 10_000),
  machineReady: lognormal(3_000, 0.5, 200),
  drain: lognormal(45_000, 0.5, 5_000),
  infraDelete: lognormal(40_000, 0.4, 5_000),
  inPlaceApply: lognormal(30_000, 0.3, 5_000),
  reboot: lognormal(75_000, 0.25, 20_000),
  dump: lognormal(4_000, 0.4, 1_000),
};

export interface HostedRelease {
  readonly version: string;
  readonly image: string;
  readonly kubeletVersion: string;
}

export interface HostedScenario {
  readonly family: 'hosted';
  readonly name: string;
  readonly description: string;
  readonly upgradeType: 'Replace' | 'InPlace';
  readonly replicas: number;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  /** The management namespace of the HostedCluster and its NodePools. */
  readonly namespace: string;
  readonly hostedCluster: string;
  readonly nodePool: string;
  readonly from: HostedRelease;
  readonly to: HostedRelease;
  readonly latencies: HostedLatencies;
}

const release = (version: string, kubeletVersion: string): HostedRelease => ({
  version,
  image: `quay.io/openshift-release-dev/ocp-release:${version}-x86_64`,
  kubeletVersion,
});

const FROM = release('4.21.3', 'v1.34.2');
const TO = release('4.21.4', 'v1.34.3');

const SCENARIOS: Readonly<Record<string, HostedScenario>> = {
  'nodepool-replace': {
    family: 'hosted',
    name: 'nodepool-replace',
    description:
      'a Replace rollout of a 3-machine NodePool (maxSurge 1, maxUnavailable 0) to the release its hosted control plane already runs: new user-data/token Secrets, a new MachineSet, one Machine surged at a time, each old Machine drained and deleted (OCPBUGS-77922)',
    upgradeType: 'Replace',
    replicas: 3,
    maxSurge: 1,
    maxUnavailable: 0,
    namespace: 'clusters',
    hostedCluster: 'example',
    nodePool: 'example-workers',
    from: FROM,
    to: TO,
    latencies: HOSTED_LATENCIES,
  },
  'nodepool-inplace': {
    family: 'hosted',
    name: 'nodepool-inplace',
    description:
      "an InPlace upgrade of a 3-machine NodePool (maxUnavailable 1) to the release its hosted control plane already runs: the MachineSet's nodePoolTargetConfigVersion moves, the in-place upgrader drains, updates and reboots one node at a time, then sets nodePoolCurrentConfigVersion",
    upgradeType: 'InPlace',
    replicas: 3,
    maxSurge: 0,
    maxUnavailable: 1,
    namespace: 'clusters',
    hostedCluster: 'example',
    nodePool: 'example-workers',
    from: FROM,
    to: TO,
    latencies: HOSTED_LATENCIES,
  },
};

export const HOSTED_SCENARIOS: readonly string[] = Object.keys(SCENARIOS);

/** Own keys only: `--scenario constructor` must not find Object.prototype's. */
export function hostedScenario(name: string): HostedScenario | undefined {
  return Object.hasOwn(SCENARIOS, name) ? SCENARIOS[name] : undefined;
}

export function isHostedPolicyName(value: string): value is HostedPolicyName {
  return (HOSTED_POLICY_NAMES as readonly string[]).includes(value);
}
