/**
 * The result of assessing one moment of a cluster update. These types are what the status
 * reporters print; their JSON form (report/status-json.ts) is the public, versioned schema
 * documented in docs/status.md.
 */
import type { Millis, SourceRef } from '../model/index.js';
import type { Unrewound } from '../timeline/index.js';

export type InsightLevel = 'Info' | 'Warning' | 'Error' | 'Critical';

/** The impact vocabulary of `oc adm upgrade status` (docs/domain.md 9.1), kept so that users see the same words. */
type InsightImpact =
  | 'None'
  | 'Unknown'
  | 'API Availability'
  | 'Cluster Capacity'
  | 'Application Availability'
  | 'Application Outage'
  | 'Data Loss'
  | 'Update Speed'
  | 'Update Stalled';

/** What part of the update an insight is about. */
type InsightScope = 'ControlPlane' | 'WorkerPool' | 'Cluster';

/** Stable identifiers of the kinds of insight, for scripts that filter on them. */
type InsightKind =
  | 'operator-unavailable'
  | 'operator-degraded'
  | 'clusterversion-failing'
  | 'clusterversion-no-failing-condition'
  | 'previous-update-incomplete'
  | 'update-not-accepted'
  | 'node-degraded'
  | 'node-unavailable'
  | 'pool-paused'
  | 'pool-render-degraded'
  | 'node-pool-conflict'
  | 'drain-blocked'
  | 'drain-will-block'
  | 'completed-while-pool-rolling'
  | 'alert'
  // Hosted clusters (status/hosted.ts):
  | 'component-not-rolled-out'
  | 'component-unavailable'
  | 'machine-failed'
  | 'nodepool-invalid-payload'
  | 'nodepool-inplace-failed'
  | 'nodepool-rollout-not-started'
  | 'nodepool-stuck-updating'
  | 'nodepool-level-before-rollout';

export interface InsightObject {
  /**
   * `ClusterOperator`, `ClusterVersion`, `Node`, `MachineConfigPool`, `Pod`, `PodDisruptionBudget`, `Alert`;
   * for a hosted cluster `HostedCluster`, `ControlPlaneComponent`, `NodePool`, `Machine`.
   */
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface Insight {
  readonly kind: InsightKind;
  readonly level: InsightLevel;
  readonly impact: InsightImpact;
  readonly scope: InsightScope;
  /** When the condition behind it began, when known. */
  readonly since?: Millis;
  /** One line: what is wrong. */
  readonly message: string;
  /** The long form: the operator's or daemon's own words, or atlevel's explanation. */
  readonly description: string;
  /** A runbook or documentation page. */
  readonly reference?: string;
  readonly objects: readonly InsightObject[];
  /** Files the facts were read from. */
  readonly refs: readonly SourceRef[];
}

export type ControlPlaneAssessment = 'Progressing' | 'Progressing - Slow' | 'Stalled' | 'Completed';

export interface UpdatingOperator {
  readonly name: string;
  /** Progressing=True since. */
  readonly since?: Millis;
  readonly reason: string;
  readonly message: string;
}

export interface OperatorCounts {
  /** Platform ClusterOperators (those a release payload manages). */
  readonly total: number;
  /** Reporting the target version as `operator`. */
  readonly updated: number;
  /** Not at the target version and Progressing=True. */
  readonly updating: number;
  /** Not at the target version and Progressing=False. */
  readonly waiting: number;
  /**
   * Not known to be at the target version, with no Progressing known (absent, Unknown, or not rewound
   * by --at), or with a version --at could not place.
   */
  readonly unknown: number;
  /** Available or Degraded not known at the moment (status --at could not rewind it). */
  readonly healthUnknown: number;
  readonly healthy: number;
  /** Available is not True. */
  readonly unavailable: number;
  /** Available but Degraded=True. */
  readonly degraded: number;
  readonly updatingOperators: readonly UpdatingOperator[];
  /**
   * The operands (Deployments, DaemonSets in the operator's relatedObjects namespaces) that have not
   * rolled out at the moment, of the operators updating or not yet at the target (docs/status.md).
   */
  readonly rollingOperands: readonly RollingOperand[];
}

/** A workload an operator manages that has not rolled out at the moment assessed: what holds the operator back. */
export interface RollingOperand {
  readonly operator: string;
  readonly kind: 'Deployment' | 'DaemonSet';
  readonly namespace: string;
  readonly name: string;
  readonly updated: number;
  readonly desired: number;
  /** Available replicas; absent when status --at cannot tell them at the moment (only the updated count is rewound). */
  readonly available?: number;
  /** When its rollout began, when the inputs place it. */
  readonly since?: Millis;
  readonly ref: SourceRef;
}

/** How the time left was worked out. */
export type EstimateBasis = 'projection' | 'previous-update' | 'default-hour' | 'complete';

export interface Estimate {
  /** Time left; undefined when it is withheld (see `withheldBecause`) or the update is complete. */
  readonly timeLeft?: Millis;
  /** What the whole update was expected to take (elapsed + left), truncated to minutes. */
  readonly totalDuration?: Millis;
  readonly basis: EstimateBasis;
  /** Why no time left is given although the update is not complete (a multi-architecture migration). */
  readonly withheldBecause?: string;
}

export interface ControlPlaneStatus {
  readonly assessment: ControlPlaneAssessment;
  /** The version the cluster is updating to (ClusterVersion history[0]; `status.desired` when history is empty). */
  readonly targetVersion: string;
  readonly targetImage?: string;
  /** The version it came from (history[1]), absent for a new install. */
  readonly previousVersion?: string;
  /** history[1] never completed. */
  readonly previousPartial: boolean;
  readonly newInstall: boolean;
  readonly startedAt?: Millis;
  /** history[0].completionTime, when the control plane finished. */
  readonly completedAt?: Millis;
  /** From start to completion (or to now), rounded as oc does: seconds under 10 min, minutes above. */
  readonly duration?: Millis;
  /** Operators updated / total × 100, rounded; never 100 until all are updated. */
  readonly completionPercent: number;
  readonly operators: OperatorCounts;
  readonly estimate: Estimate;
  /** The update is a migration to the same version's multi-architecture payload (oc's "to Multi-Architecture"). */
  readonly multiArchMigration: boolean;
  /** Facts that stop the update from proceeding: the CVO's Failing, serious control-plane insights. */
  readonly blockers: readonly string[];
}

/** `Unknown`: status --at could not tell the node's config then (its MCO annotations were not rewound). */
export type NodePhase = 'Draining' | 'Updating' | 'Rebooting' | 'Paused' | 'Pending' | 'Updated' | 'Unknown';
export type NodeAssessment =
  | 'Degraded'
  | 'Unavailable'
  | 'Progressing'
  | 'Excluded'
  | 'Outdated'
  | 'Completed'
  | 'Unknown';

export interface NodeStatus {
  readonly name: string;
  readonly pool: string;
  readonly assessment: NodeAssessment;
  readonly phase: NodePhase;
  /** OpenShift version of the node's current rendered config (`release-image-version`). */
  readonly version?: string;
  /**
   * How the version is known: `annotation` (release-image-version on the rendered config),
   * `controller` (no annotation: the config was rendered by the running controller) or `history`
   * (neither: placed by its creation time in ClusterVersion history), see versions.ts.
   */
  readonly versionSource?: 'annotation' | 'controller' | 'history';
  /** Fixed guesses as oc gives them: 10 min draining, 5 min updating or rebooting, 0 when done, unknown when pending. */
  readonly timeLeft?: Millis;
  readonly message: string;
  readonly currentConfig?: string;
  readonly desiredConfig?: string;
  /** The machine-config daemon's `state` annotation. */
  readonly daemonState?: string;
  readonly updated: boolean;
  readonly updating: boolean;
  readonly unavailable: boolean;
  readonly degraded: boolean;
  readonly ref: SourceRef;
}

export type PoolAssessment =
  | 'Completed'
  | 'Pending'
  | 'Degraded'
  | 'Excluded'
  | 'Progressing'
  | 'Empty'
  | 'Unknown';

export interface NodeCounts {
  readonly available: number;
  readonly progressing: number;
  readonly draining: number;
  readonly excluded: number;
  readonly degraded: number;
  readonly outdated: number;
  /** Nodes whose config status --at could not tell (phase Unknown): neither updated nor outdated. */
  readonly unknown: number;
}

export interface PoolStatus {
  readonly name: string;
  /** The master pool: its nodes are the control plane's. */
  readonly controlPlane: boolean;
  readonly paused: boolean;
  readonly assessment: PoolAssessment;
  /** Nodes whose current config carries the target version. */
  readonly updated: number;
  readonly total: number;
  readonly completionPercent: number;
  readonly counts: NodeCounts;
  /** spec.configuration.name: the rendered config the pool rolls out. */
  readonly targetConfig?: string;
  /**
   * Nodes known not to be on targetConfig yet (a config rollout, which may happen with no version
   * change); a node whose config is not known is counted in neither this nor nodesOnTargetConfig.
   */
  readonly nodesOffTargetConfig: number;
  /** Nodes known to be on targetConfig. */
  readonly nodesOnTargetConfig: number;
  readonly nodes: readonly NodeStatus[];
  readonly ref: SourceRef;
}

/** An update was asked for (spec.desiredUpdate) but the CVO has not begun it. */
export interface UpdateRequest {
  readonly version?: string;
  readonly image?: string;
  /** ReleaseAccepted: false when the CVO refused or could not load the payload. */
  readonly accepted: boolean | undefined;
  readonly reason?: string;
  readonly message?: string;
  readonly since?: Millis;
}

/** `idle`: no update in progress; `requested`: asked for but not started; `updating`: in progress. */
/**
 * `installing`: the ClusterVersion's only history entry, the installation, has not completed. An
 * installation is not an update, so the cluster is neither updating nor idle (docs/status.md).
 */
export type UpdateState = 'idle' | 'requested' | 'updating' | 'installing';

export interface UpdateStatus {
  /** The moment assessed. */
  readonly evaluatedAt: Millis;
  /**
   * `snapshot`: the latest condition change in the snapshot (as oc does); `flag`: given with --now
   * and assessed on the snapshot as it is; `rewound`: given with --at, the cluster rebuilt as the
   * timeline says it was then.
   */
  readonly evaluatedAtSource: 'flag' | 'snapshot' | 'rewound';
  /** With --at: the fields the inputs do not let atlevel rewind (empty otherwise). */
  readonly unrewound: readonly Unrewound[];
  readonly state: UpdateState;
  readonly updating: boolean;
  /** The version the cluster runs or last completed, when known. */
  readonly currentVersion?: string;
  readonly request?: UpdateRequest;
  readonly controlPlane: ControlPlaneStatus;
  readonly pools: readonly PoolStatus[];
  /** Sorted: most severe first, then most recent first. Empty when the update is proceeding well. */
  readonly insights: readonly Insight[];
  /** Things worth knowing that are not problems (a config rollout with no version change, nodes in no pool). */
  readonly notes: readonly string[];
}
