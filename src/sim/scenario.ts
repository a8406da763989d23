/**
 * Scenarios: the two releases of an update (which payload components changed), the cluster's pools
 * and nodes, injected failures, and latency overrides. The built-in ones each isolate one reason the
 * rendered configs do or do not change (docs/domain.md 8.6); scenario-file.ts reads user-defined ones.
 */
import { DEFAULT_LATENCIES, type Latencies } from './latency.js';
import type { ReleaseSpec } from './release.js';

export interface PoolSpec {
  readonly name: string;
  readonly nodes: number;
  readonly paused: boolean;
  readonly maxUnavailable: number | string;
}

/** The daemon on this node fails to apply the new config (state Degraded), until it recovers, if ever. */
export interface NodeFailure {
  readonly pool: string;
  readonly index: number;
  /** `{config}` is replaced with the rendered config the node was updating to. */
  readonly reason: string;
  readonly recoverAfterMs?: number;
}

/** A user MachineConfig (no controller-version annotation, like the installer's `99-<role>-ssh`). */
export interface ExtraMachineConfig {
  readonly name: string;
  readonly role: string;
  readonly files: readonly { readonly path: string; readonly contents: string; readonly mode: number }[];
  readonly kernelArguments: readonly string[];
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly from: ReleaseSpec;
  readonly to: ReleaseSpec;
  readonly pools: readonly PoolSpec[];
  readonly failures: readonly NodeFailure[];
  readonly machineConfigs: readonly ExtraMachineConfig[];
  readonly latencies: Latencies;
}

export const FROM_VERSION = '4.10.0-0.nightly-2021-11-02-191632';
export const TO_VERSION = '4.10.0-0.nightly-2021-11-03-020416';

/** The pause image digests and target release image of bug 2019850 (https://bugzilla.redhat.com/show_bug.cgi?id=2019850). */
const SEED = {
  podFrom: 'ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639',
  podTo: '0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb',
  toImage:
    'registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f',
};

/** Components rebuilt in every nightly of the period, none of which reaches a rendered config. */
export const UNRELATED_CHURN = [
  'cli',
  'console',
  'tests',
  'must-gather',
  'cluster-version-operator',
  'cluster-monitoring-operator',
];

export const DEFAULT_POOLS: readonly PoolSpec[] = [
  { name: 'master', nodes: 3, paused: false, maxUnavailable: 1 },
  { name: 'worker', nodes: 3, paused: false, maxUnavailable: 1 },
];

const DEGRADED_REASON =
  'unexpected on-disk state validating against {config}: content mismatch for file "/etc/kubernetes/kubelet.conf"';

export interface BuiltinSpec {
  readonly description: string;
  readonly changed: readonly string[];
  readonly toVersion?: string;
  readonly pools?: readonly PoolSpec[];
  readonly failures?: readonly NodeFailure[];
  readonly seedDigests?: boolean;
  readonly fromVersion?: string;
  readonly machineConfigs?: readonly ExtraMachineConfig[];
  readonly latencies?: Latencies;
}

function revisions(changed: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of [...UNRELATED_CHURN, ...changed]) out[name] = 1;
  return out;
}

export function makeScenario(name: string, spec: BuiltinSpec): Scenario {
  return {
    name,
    description: spec.description,
    from: {
      version: spec.fromVersion ?? FROM_VERSION,
      revisions: {},
      ...(spec.seedDigests ? { digests: { pod: SEED.podFrom } } : {}),
    },
    to: {
      version: spec.toVersion ?? TO_VERSION,
      revisions: revisions(spec.changed),
      previous: [spec.fromVersion ?? FROM_VERSION],
      ...(spec.seedDigests ? { digests: { pod: SEED.podTo }, image: SEED.toImage } : {}),
    },
    pools: spec.pools ?? DEFAULT_POOLS,
    failures: spec.failures ?? [],
    machineConfigs: spec.machineConfigs ?? [],
    latencies: spec.latencies ?? DEFAULT_LATENCIES,
  };
}

const BUILTIN_SPECS: Readonly<Record<string, BuiltinSpec>> = {
  'pause-image-only': {
    description:
      'bug 2019850: same MCO commit and machine-os-content, new pod (pause) image, so the rendered configs change while both pre-fix checks still pass on the old one',
    changed: ['pod'],
    seedDigests: true,
  },
  'os-only': {
    description:
      'only machine-os-content changes: new osImageURL (the bug class fixed in 2021 by MCO PR #2585)',
    changed: ['machine-os-content'],
    toVersion: '4.10.0-0.nightly-2021-11-03-041836',
  },
  'mco-only': {
    description:
      'only the machine-config-operator changes: new controller version, new MCO image in every rendered config',
    changed: ['machine-config-operator'],
    toVersion: '4.10.0-0.nightly-2021-11-03-063214',
  },
  'no-config-change': {
    description:
      'nothing that reaches a rendered config changes; the rendered names stay, only annotations move',
    changed: [],
    toVersion: '4.10.0-0.nightly-2021-11-03-082245',
  },
  'paused-worker-pool': {
    description: 'a typical nightly (MCO, OS and pause image change) with the worker pool paused',
    changed: ['machine-config-operator', 'machine-os-content', 'pod'],
    toVersion: '4.10.0-0.nightly-2021-11-03-101553',
    pools: [
      { name: 'master', nodes: 3, paused: false, maxUnavailable: 1 },
      { name: 'worker', nodes: 3, paused: true, maxUnavailable: 1 },
    ],
  },
  'degraded-node': {
    description: 'a typical nightly (MCO and OS change) in which one worker fails to apply its new config',
    changed: ['machine-config-operator', 'machine-os-content'],
    toVersion: '4.10.0-0.nightly-2021-11-03-120931',
    failures: [{ pool: 'worker', index: 1, reason: DEGRADED_REASON }],
  },
};

export const BUILTIN_SCENARIOS: readonly string[] = Object.keys(BUILTIN_SPECS);

/** Own keys only: `--scenario constructor` must not find Object.prototype's. */
export function builtinSpec(name: string): BuiltinSpec | undefined {
  return Object.hasOwn(BUILTIN_SPECS, name) ? BUILTIN_SPECS[name] : undefined;
}

export function builtinScenario(name: string): Scenario | undefined {
  const spec = builtinSpec(name);
  return spec ? makeScenario(name, spec) : undefined;
}
