/**
 * Scenarios: the two releases of an update (which payload components changed), the cluster's pools
 * and nodes, injected failures, and latency overrides. The built-in ones each isolate one reason the
 * rendered configs do or do not change (docs/domain.md 8.6); scenario-file.ts reads user-defined ones.
 */
import { DEFAULT_LATENCIES, type Latencies } from './latency.js';
import { BUILTIN_OPERANDS, type OperandSpec } from './operands.js';
import { CATALOG_NAMES, type ReleaseSpec } from './release.js';

interface PoolSpec {
  readonly name: string;
  readonly nodes: number;
  readonly paused: boolean;
  readonly maxUnavailable: number | string;
  /** The nodes' names, one per node (default: AWS-style names derived from the pool layout). */
  readonly names?: readonly string[];
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

/**
 * Something an administrator does while the run goes on (not part of the update itself): create a
 * MachineConfig (a kernel argument, a file), or resume a paused pool. `after` names the moment the
 * delay counts from: the upgrade test's request, or the CVO's completion of the update. Actions after
 * the completion are day-2 changes: the model's ground truth never charges their rollouts to the update.
 */
export interface UserAction {
  readonly after: 'update-requested' | 'cvo-completed';
  readonly delayMs: number;
  readonly kind: 'create-machine-config' | 'resume-pool';
  readonly machineConfig?: ExtraMachineConfig;
  readonly pool?: string;
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
  /** What an administrator does during or after the update (none in most scenarios). */
  readonly actions?: readonly UserAction[];
  /** A second update, from `to` to this release, once the first completed and its pools settled. */
  readonly secondUpdate?: ReleaseSpec;
  /** Operators modelled with their operand (none in most scenarios: every operator is generic). */
  readonly operands?: readonly OperandSpec[];
  /** The CI multi-stage test the artifacts are laid out under (default `e2e-upgrade`). */
  readonly ciTarget?: string;
}

const FROM_VERSION = '4.10.0-0.nightly-2021-11-02-191632';
const TO_VERSION = '4.10.0-0.nightly-2021-11-03-020416';

/** The pause image digests and target release image of bug 2019850 (https://bugzilla.redhat.com/show_bug.cgi?id=2019850). */
const SEED = {
  podFrom: 'ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639',
  podTo: '0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb',
  toImage:
    'registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f',
};

/** Components rebuilt in every nightly of the period, none of which reaches a rendered config. */
const UNRELATED_CHURN = [
  'cli',
  'console',
  'tests',
  'must-gather',
  'cluster-version-operator',
  'cluster-monitoring-operator',
];

const DEFAULT_POOLS: readonly PoolSpec[] = [
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
  readonly actions?: readonly UserAction[];
  /** The target's release image, when the version stays and only the payload changes. */
  readonly toImage?: string;
  /** A second update in the same run: its version and the components it changes (besides the churn). */
  readonly secondUpdate?: { readonly version: string; readonly changed: readonly string[] };
  readonly operands?: readonly OperandSpec[];
  readonly ciTarget?: string;
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
      ...(spec.toImage ? { image: spec.toImage } : {}),
    },
    pools: spec.pools ?? DEFAULT_POOLS,
    failures: spec.failures ?? [],
    machineConfigs: spec.machineConfigs ?? [],
    latencies: spec.latencies ?? DEFAULT_LATENCIES,
    ...(spec.actions ? { actions: spec.actions } : {}),
    // Every built-in cluster runs dns's DaemonSet on each node, as every OpenShift cluster does.
    operands: spec.operands ?? [BUILTIN_OPERANDS.dns as OperandSpec],
    ...(spec.ciTarget !== undefined ? { ciTarget: spec.ciTarget } : {}),
    ...(spec.secondUpdate
      ? {
          secondUpdate: {
            version: spec.secondUpdate.version,
            // a later build of everything the first update changed, and of what the second changes
            revisions: Object.fromEntries(
              [...UNRELATED_CHURN, ...spec.changed, ...spec.secondUpdate.changed].map((n) => [
                n,
                spec.secondUpdate?.changed.includes(n) || UNRELATED_CHURN.includes(n) ? 2 : 1,
              ]),
            ),
            previous: [spec.toVersion ?? TO_VERSION],
          },
        }
      : {}),
  };
}

const MINUTE = 60_000;

/** A kernel argument for a role: the most common day-2 MachineConfig (it reboots every node). */
function kernelArgument(name: string, role: string, arg: string): ExtraMachineConfig {
  return { name, role, files: [], kernelArguments: [arg] };
}

/** A same-version payload's image: a digest pull spec of another build. */
function payloadImage(repo: string, seed: string): string {
  let h = 0x811c9dc5;
  const hex: string[] = [];
  for (let i = 0; i < 8; i++) {
    for (const ch of `${seed}:${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    hex.push(h.toString(16).padStart(8, '0'));
  }
  return `${repo}@sha256:${hex.join('')}`;
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
  'day2-machineconfig': {
    description:
      'a clean nightly (MCO, OS and pause image change); 95 minutes after the CVO completes, an administrator adds a kernel argument to master and worker: new rendered configs for the same release, both pools roll again (a day-2 change, not the update)',
    changed: ['machine-config-operator', 'machine-os-content', 'pod'],
    toVersion: '4.10.0-0.nightly-2021-11-03-134507',
    actions: [
      {
        after: 'cvo-completed',
        delayMs: 95 * MINUTE,
        kind: 'create-machine-config',
        machineConfig: kernelArgument('99-master-kargs', 'master', 'audit=1'),
      },
      {
        after: 'cvo-completed',
        delayMs: 95 * MINUTE,
        kind: 'create-machine-config',
        machineConfig: kernelArgument('99-worker-kargs', 'worker', 'audit=1'),
      },
    ],
  },
  'machineconfig-during-update': {
    description:
      "a typical nightly (MCO, OS and pause image change); 4 minutes into the update, before the machine-config operator updates, an administrator adds a kernel argument to the workers: the old controller renders it for the old release, the new one renders the update's config on top",
    changed: ['machine-config-operator', 'machine-os-content', 'pod'],
    toVersion: '4.10.0-0.nightly-2021-11-03-145912',
    actions: [
      {
        after: 'update-requested',
        delayMs: 4 * MINUTE,
        kind: 'create-machine-config',
        machineConfig: kernelArgument('99-worker-kargs', 'worker', 'nosmt'),
      },
    ],
  },
  'paused-pool-resumed': {
    description:
      'a typical nightly with the worker pool paused; 20 minutes after the CVO completes, the administrator resumes it and the workers roll out the config the update rendered for them',
    changed: ['machine-config-operator', 'machine-os-content', 'pod'],
    toVersion: '4.10.0-0.nightly-2021-11-03-152204',
    pools: [
      { name: 'master', nodes: 3, paused: false, maxUnavailable: 1 },
      { name: 'worker', nodes: 3, paused: true, maxUnavailable: 1 },
    ],
    actions: [{ after: 'cvo-completed', delayMs: 20 * MINUTE, kind: 'resume-pool', pool: 'worker' }],
  },
  'infra-pool': {
    description:
      'a typical nightly (MCO, OS and pause image change) on a cluster with a custom infra pool (2 workers, 2 infra nodes): the infra pool renders from the worker and infra MachineConfigs and rolls like any worker pool',
    changed: ['machine-config-operator', 'machine-os-content', 'pod'],
    toVersion: '4.10.0-0.nightly-2021-11-03-160733',
    pools: [
      { name: 'master', nodes: 3, paused: false, maxUnavailable: 1 },
      { name: 'worker', nodes: 2, paused: false, maxUnavailable: 1 },
      { name: 'infra', nodes: 2, paused: false, maxUnavailable: 1 },
    ],
    machineConfigs: [
      {
        name: '50-infra',
        role: 'infra',
        files: [{ path: '/etc/infra-node', contents: 'data:,infra', mode: 420 }],
        kernelArguments: [],
      },
    ],
  },
  'two-updates': {
    description:
      'two nightlies in one run: a typical update (MCO, OS and pause image change), then, once its pools settled, a second one that changes the OS and pause image again; each is judged on its own',
    changed: ['machine-config-operator', 'machine-os-content', 'pod'],
    toVersion: '4.10.0-0.nightly-2021-11-03-170419',
    secondUpdate: { version: '4.10.0-0.nightly-2021-11-03-212237', changed: ['machine-os-content', 'pod'] },
  },
  'multi-arch-migration': {
    description:
      'a migration to the multi-architecture payload of the same version: every component image is a new manifest list, the version string stays, so release-image-version cannot tell the old configs from the new',
    changed: [...CATALOG_NAMES],
    fromVersion: TO_VERSION,
    toVersion: TO_VERSION,
    toImage: payloadImage('quay.io/openshift-release-dev/ocp-release', 'multi'),
  },
  'same-version-rebuild': {
    description:
      'a rebuild of the same version (a new payload with a new OS and pause image, the same MCO): only the payload image and the rendered configs change',
    changed: ['machine-os-content', 'pod'],
    fromVersion: TO_VERSION,
    toVersion: TO_VERSION,
    toImage: payloadImage('registry.ci.openshift.org/ocp/release', 'rebuild'),
  },
  'daemonset-operand-only': {
    description:
      "only coredns changes: the dns operator's dns-default DaemonSet rolls one pod per node (maxUnavailable 10%); no rendered config changes",
    changed: ['coredns'],
    toVersion: '4.10.0-0.nightly-2021-11-03-180115',
    operands: [BUILTIN_OPERANDS.dns as OperandSpec, BUILTIN_OPERANDS['service-ca'] as OperandSpec],
  },
  'deployment-operand-only': {
    description:
      "only the console image changes (as in every nightly): the console operator's console Deployment rolls out a new ReplicaSet (2 replicas, maxSurge and maxUnavailable 25%); no rendered config changes",
    changed: ['console'],
    toVersion: '4.10.0-0.nightly-2021-11-03-183342',
    operands: [BUILTIN_OPERANDS.console as OperandSpec, BUILTIN_OPERANDS.dns as OperandSpec],
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
