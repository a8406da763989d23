/**
 * The status of a hosted cluster (HyperShift), which `oc adm upgrade status` cannot show: the
 * control plane as the management cluster's HostedCluster and ControlPlaneComponents say it, the
 * data plane as NodePools with their Machines (and, when the guest cluster was read, its Nodes).
 * Its JSON form (report/hosted-status-json.ts) is documented in docs/status.md, "Hosted clusters".
 */
import type { Millis, SourceRef } from '../model/index.js';
import type { Unrewound } from '../timeline/index.js';
import type {
  Insight,
  NodeAssessment,
  NodeCounts,
  NodePhase,
  OperatorCounts,
  PoolAssessment,
  UpdateState,
} from './types.js';

export interface UpdatingComponent {
  readonly name: string;
  /** status.version, when the component reports one. */
  readonly version?: string;
  /** RolloutComplete=False (or Available=False) since. */
  readonly since?: Millis;
  readonly reason: string;
  readonly message: string;
}

export interface ComponentCounts {
  /** ControlPlaneComponents in the control-plane namespace. */
  readonly total: number;
  /** At the target version with RolloutComplete=True. */
  readonly updated: number;
  /** Not updated, RolloutComplete=False: rolling out. */
  readonly updating: number;
  /** Not at the target version, RolloutComplete not False: not begun. */
  readonly waiting: number;
  /** RolloutComplete absent or Unknown (or not rewound by --at), version not the target's. */
  readonly unknown: number;
  /** Available is False. */
  readonly unavailable: number;
  readonly updatingComponents: readonly UpdatingComponent[];
}

type HostedControlPlaneAssessment = 'Progressing' | 'Completed' | 'Unknown';

export interface HostedControlPlaneStatus {
  readonly assessment: HostedControlPlaneAssessment;
  /**
   * `controlPlaneVersion`: the management-side components' own history (status.controlPlaneVersion);
   * `version`: the HostedCluster predates that field, so the guest CVO's history (status.version) is
   * all there is, and it also covers data-plane operators.
   */
  readonly versionSource: 'controlPlaneVersion' | 'version' | 'none';
  readonly targetVersion?: string;
  readonly targetImage?: string;
  readonly previousVersion?: string;
  /** history[1] is Partial: the previous update was superseded before it completed. */
  readonly previousPartial: boolean;
  /** history[0].state: Completed or Partial. */
  readonly state?: string;
  readonly startedAt?: Millis;
  readonly completedAt?: Millis;
  readonly duration?: Millis;
  /** Components updated / total × 100, floored: never 100 until all are updated. */
  readonly completionPercent: number;
  readonly components: ComponentCounts;
}

/** The guest cluster's update, as the HostedCluster copies it from the guest CVO (and, when read, the guest itself). */
export interface GuestStatus {
  /** HostedCluster status.version.desired.version. */
  readonly desiredVersion?: string;
  /** status.version.history[0]. */
  readonly state?: string;
  readonly startedAt?: Millis;
  readonly completedAt?: Millis;
  /** ClusterVersionProgressing / ClusterVersionFailing as the HostedCluster copies them. */
  readonly progressing?: boolean;
  readonly failing?: boolean;
  /** Whether the guest's own objects were read (--guest-kubeconfig or the dump's guest folder). */
  readonly read: boolean;
  /** The guest's ClusterOperators, when they were read. */
  readonly operators?: OperatorCounts;
}

/** A HostedCluster condition quoted as a reason the requested release has not started. */
export interface RequestCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly since?: Millis;
}

/**
 * An update asked for in `spec.release.image` that the HostedCluster's histories do not hold yet:
 * neither `status.version` nor `status.controlPlaneVersion` has it as `desired` or as an entry
 * (openshift/hypershift: the HostedCluster controller updates only while `status.version.desired.image`
 * differs from the spec's, and holds back while ValidReleaseImage=False, while
 * ClusterVersionUpgradeable=False for a minor update unless forced, or while paused).
 */
export interface HostedUpdateRequest {
  /** The control plane's release: spec.controlPlaneRelease.image when set, else spec.release.image. */
  readonly image: string;
  /** Which of the two `image` is. */
  readonly field: 'spec.release.image' | 'spec.controlPlaneRelease.image';
  readonly version?: string;
  /**
   * Where `version` comes from: a history entry naming the same image (a return to an earlier
   * release), a NodePool's `UpdatingVersion` target for the same image, or the image's tag.
   */
  readonly versionSource?: 'history' | 'nodePool' | 'tag';
  /** What the control plane and the guest are on: status.version.desired.version. */
  readonly fromVersion?: string;
  /** ControlPlaneComponents already reporting the requested version: the control plane has begun it. */
  readonly componentsAtRequest: readonly string[];
  /** The conditions that say why it has not started (empty when none does). */
  readonly conditions: readonly RequestCondition[];
}

/** A Machine's phase in the pool: the MCO pool's phases, and Provisioning / Deleting for Replace rollouts. */
export type MachinePhase = NodePhase | 'Provisioning' | 'Deleting';

export interface NodePoolMachine {
  /** The Machine's name (the Node's when no Machine is known). */
  readonly name: string;
  /** The guest Node it became (status.nodeRef). */
  readonly node?: string;
  readonly machineSet?: string;
  /** Its MachineSet is the one the MachineDeployment's current template made. */
  readonly currentMachineSet: boolean;
  readonly assessment: NodeAssessment;
  readonly phase: MachinePhase;
  /** The OpenShift release the Machine was made for (hypershift.openshift.io/release-version). */
  readonly version?: string;
  /** The Machine's CAPI phase (Provisioning, Running, Deleting, Failed…). */
  readonly machinePhase?: string;
  readonly message: string;
  readonly updated: boolean;
  readonly updating: boolean;
  readonly unavailable: boolean;
  readonly degraded: boolean;
  readonly ref: SourceRef;
}

/** Why a NodePool that asks for a change has not begun rolling it out. */
export interface NodePoolWaiting {
  /** One line for its Machines. */
  readonly message: string;
  /** UpdatingVersion / UpdatingConfig True, then the conditions that hold it (ValidGeneratedPayload=False…). */
  readonly conditions: readonly RequestCondition[];
  /**
   * InPlace: the MachineSet's target config that the in-place upgrader has not taken up (no
   * nodePoolUpgradeInProgress annotation, no Node given it), and the config it is on.
   */
  readonly inPlace?: {
    readonly machineSet: string;
    readonly targetConfigVersion: string;
    readonly currentConfigVersion: string;
  };
}

export interface NodePoolStatus {
  readonly namespace: string;
  readonly name: string;
  readonly upgradeType?: string;
  /** spec.pausedUntil is `true` or a time after the moment assessed. */
  readonly paused: boolean;
  readonly assessment: PoolAssessment;
  /** The release the NodePool rolls out (spec.release.image, named by the HostedCluster's histories). */
  readonly targetVersion?: string;
  readonly targetImage?: string;
  /** status.version: what the NodePool reports. */
  readonly reportedVersion?: string;
  /** UpdatingVersion / UpdatingConfig: undefined when the condition is absent or unknown. */
  readonly updatingVersion?: boolean;
  readonly updatingConfig?: boolean;
  /** Updating, and its rollout has not begun: its Machines are Outdated, the pool Pending. */
  readonly waiting?: NodePoolWaiting;
  /** spec.replicas (undefined with autoscaling). */
  readonly desiredReplicas?: number;
  readonly autoscaling: boolean;
  readonly updated: number;
  readonly total: number;
  readonly completionPercent: number;
  readonly counts: NodeCounts;
  /** Machines of MachineSets older than the MachineDeployment's current template. */
  readonly oldMachines: number;
  readonly machines: readonly NodePoolMachine[];
  readonly ref: SourceRef;
}

export interface HostedStatus {
  readonly evaluatedAt: Millis;
  readonly evaluatedAtSource: 'flag' | 'snapshot' | 'rewound';
  readonly unrewound: readonly Unrewound[];
  readonly hostedCluster: {
    readonly namespace: string;
    readonly name: string;
    /** `<namespace>-<name>`: where the HostedControlPlane, components and Cluster API objects live. */
    readonly controlPlaneNamespace: string;
    readonly ref: SourceRef;
  };
  readonly state: UpdateState;
  readonly updating: boolean;
  /** The last version the control plane completed. */
  readonly currentVersion?: string;
  /** spec.release.image names a release the histories do not hold yet (docs/status.md). */
  readonly request?: HostedUpdateRequest;
  /** `namespace/name` of NodePools the control plane's Cluster API objects name and the inputs lack. */
  readonly nodePoolsNotRead: readonly string[];
  /** Some of the data plane is in no NodePool read (those, or guest Nodes with no NodePool at all). */
  readonly dataPlaneUnread: boolean;
  readonly controlPlane: HostedControlPlaneStatus;
  readonly guest: GuestStatus;
  readonly nodePools: readonly NodePoolStatus[];
  /** Sorted: most severe first, then most recent first. */
  readonly insights: readonly Insight[];
  readonly notes: readonly string[];
}
