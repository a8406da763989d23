/**
 * Status of a hosted cluster (HyperShift; docs/hosted.md): one HostedCluster of the management
 * cluster, its control plane from status.controlPlaneVersion and the ControlPlaneComponents, each
 * NodePool as a pool whose members are its Machines (with the guest's Nodes when the guest cluster
 * was read), and the insights `oc adm upgrade status` cannot give because it does not read these
 * kinds. Pure: objects and a moment in, a HostedStatus out.
 */
import type { ClusterHistory, Condition, Millis, Node, Observed } from '../model/index.js';
import { findCondition, parseTime, plural } from '../model/index.js';
import { conditionStatusKnown, conditionTextKnown, operandsByOperator } from '../timeline/index.js';
import { holdingOperands, operatorVersion } from './controlplane.js';
import type {
  ComponentCounts,
  GuestStatus,
  HostedControlPlaneStatus,
  HostedStatus,
  HostedUpdateRequest,
  MachinePhase,
  NodePoolMachine,
  NodePoolStatus,
  NodePoolWaiting,
  RequestCondition,
  UpdatingComponent,
} from './hosted-types.js';
import { sortInsights } from './insights.js';
import { UNAVAILABLE_REASON, unavailableCauses } from './nodes.js';
import { type OperandsAt, operandsAsLastSeen } from './operands.js';
import type { Insight, NodeAssessment, NodeCounts, OperatorCounts, PoolAssessment } from './types.js';

/** The Machine annotation naming the OpenShift release it was made for (hypershift's nodepool controller). */
const RELEASE_VERSION_ANNOTATION = 'hypershift.openshift.io/release-version';
const CURRENT_CONFIG_VERSION = 'hypershift.openshift.io/nodePoolCurrentConfigVersion';
const TARGET_CONFIG_VERSION = 'hypershift.openshift.io/nodePoolTargetConfigVersion';
/**
 * The in-place upgrader (the hosted cluster config operator's inplaceupgrader) writes one of these on
 * the MachineSet once it works on a target config (InProgressTrue, with a "Total Nodes: N. Upgraded:
 * M" message) or found a node degraded (InProgressFalse), and removes both when the MachineSet reaches
 * its target; the NodePool controller copies them into UpdatingVersion/UpdatingConfig.
 */
const UPGRADE_IN_PROGRESS = [
  'hypershift.openshift.io/nodePoolUpgradeInProgressTrue',
  'hypershift.openshift.io/nodePoolUpgradeInProgressFalse',
] as const;
/** The guest Node annotations the in-place upgrader and the machine-config daemon it runs set. */
const MCO_CURRENT_CONFIG = 'machineconfiguration.openshift.io/currentConfig';
const MCO_DESIRED_CONFIG = 'machineconfiguration.openshift.io/desiredConfig';
const MCO_STATE = 'machineconfiguration.openshift.io/state';
const MCO_DESIRED_DRAIN = 'machineconfiguration.openshift.io/desiredDrain';
const MCO_LAST_APPLIED_DRAIN = 'machineconfiguration.openshift.io/lastAppliedDrain';
/** The machine-config daemon's own words for its state (Degraded's cause). */
const MCO_REASON = 'machineconfiguration.openshift.io/reason';
/**
 * The reason the NodePool controller gives UpdatingVersion/UpdatingConfig=False when the in-place
 * upgrader stopped at a degraded node (openshift/hypershift api: NodePoolInplaceUpgradeFailedReason).
 */
const INPLACE_FAILED_REASON = 'InplaceUpgradeFailed';
/** hypershift annotates the Cluster API objects of a NodePool with its `namespace/name`. */
const NODEPOOL_ANNOTATION = 'hypershift.openshift.io/nodePool';
/** hypershift's own reference: the condition types and what they mean. */
const NODEPOOL_REFERENCE =
  'https://hypershift-docs.netlify.app/how-to/automated-machine-management/nodepool-lifecycle/';
/** How long UpdatingVersion/UpdatingConfig may stay True after the rollout held before it counts as stuck (OCPBUGS-92013). */
const STUCK_UPDATING_MS = 15 * 60_000;
/**
 * How long a rollout may go without its first step before it counts as not taken up: the
 * MachineHealthCheck hypershift makes for a NodePool gives a new Machine 20 minutes to become a Node
 * (hypershift-operator controllers/nodepool capi.go, reconcileMachineHealthCheck, nodeStartupTimeout),
 * and Cluster API creates a MachineSet's first Machine within seconds of the template's change.
 */
const ROLLOUT_START_MS = 20 * 60_000;

type Meta = {
  name: string;
  namespace?: string | undefined;
  creationTimestamp?: string | null | undefined;
  deletionTimestamp?: unknown;
  annotations?: Record<string, string> | null | undefined;
  labels?: Record<string, string> | null | undefined;
  ownerReferences?: readonly { kind: string; name: string }[] | null | undefined;
};
type Conditions = readonly Condition[] | null | undefined;
interface VersionEntry {
  state?: string | null | undefined;
  version?: string | null | undefined;
  image?: string | null | undefined;
  startedTime?: string | null | undefined;
  completionTime?: string | null | undefined;
}
interface VersionStatus {
  desired?: { version?: string | null | undefined; image?: string | null | undefined } | null | undefined;
  history?: readonly VersionEntry[] | null | undefined;
}

/** The fields of each hosted kind this assessment reads (a subset of each descriptor's schema). */
export interface HostedClusterShape {
  metadata: Meta;
  spec?:
    | {
        release?: { image?: string | null | undefined } | null | undefined;
        /** The release the control plane runs when set; the data plane follows spec.release. */
        controlPlaneRelease?: { image?: string | null | undefined } | null | undefined;
      }
    | null
    | undefined;
  status?:
    | {
        version?: VersionStatus | null | undefined;
        controlPlaneVersion?: VersionStatus | null | undefined;
        conditions?: Conditions;
      }
    | null
    | undefined;
}
interface ComponentShape {
  metadata: Meta;
  status?: { version?: string | null | undefined; conditions?: Conditions } | null | undefined;
}
interface NodePoolShape {
  metadata: Meta;
  spec?:
    | {
        clusterName?: string | null | undefined;
        replicas?: number | null | undefined;
        autoScaling?: unknown;
        pausedUntil?: string | null | undefined;
        release?: { image?: string | null | undefined } | null | undefined;
        management?: { upgradeType?: string | null | undefined } | null | undefined;
      }
    | null
    | undefined;
  status?: { version?: string | null | undefined; conditions?: Conditions } | null | undefined;
}
interface TemplateShape {
  metadata?: { annotations?: Record<string, string> | null | undefined } | null | undefined;
  spec?:
    | {
        version?: string | null | undefined;
        bootstrap?: { dataSecretName?: string | null | undefined } | null | undefined;
      }
    | null
    | undefined;
}
interface MachineDeploymentShape {
  metadata: Meta;
  spec?:
    | { template?: TemplateShape | null | undefined; paused?: boolean | null | undefined }
    | null
    | undefined;
  status?:
    | {
        replicas?: number | null | undefined;
        v1beta2?: { replicas?: number | null | undefined; conditions?: Conditions } | null | undefined;
      }
    | null
    | undefined;
}
interface MachineSetShape {
  metadata: Meta;
  spec?: { template?: TemplateShape | null | undefined } | null | undefined;
  status?: { conditions?: Conditions } | null | undefined;
}
export interface MachineShape {
  metadata: Meta;
  spec?:
    | {
        version?: string | null | undefined;
        bootstrap?: { dataSecretName?: string | null | undefined } | null | undefined;
      }
    | null
    | undefined;
  status?:
    | {
        phase?: string | null | undefined;
        nodeRef?: { name?: string | null | undefined } | null | undefined;
        failureReason?: string | null | undefined;
        failureMessage?: string | null | undefined;
        conditions?: Conditions;
      }
    | null
    | undefined;
}

/** The management cluster's hosted objects (each kind's ObjectSnapshot field). */
export interface HostedObjects {
  readonly hostedClusters: readonly Observed<HostedClusterShape>[];
  readonly controlPlaneComponents: readonly Observed<ComponentShape>[];
  readonly nodePools: readonly Observed<NodePoolShape>[];
  readonly machineDeployments: readonly Observed<MachineDeploymentShape>[];
  readonly machineSets: readonly Observed<MachineSetShape>[];
  readonly machines: readonly Observed<MachineShape>[];
}

export interface HostedStatusOptions {
  readonly now?: Millis;
  /** The guest cluster, when it was read: its Nodes become the Machines' nodes, its operators are counted. */
  readonly guest?: ClusterHistory;
  readonly guestInsights?: readonly Insight[];
  /**
   * The guest's operands that have not rolled out at the moment, when worked out on the whole guest
   * inputs (status --at); default: the guest's workloads as last seen.
   */
  readonly guestOperands?: OperandsAt;
  /**
   * status --at before the snapshot's moment: spec.release.image is as last seen, and when it was set
   * is recorded nowhere, so a release it names and no history holds may not have been asked for yet.
   */
  readonly specAsLastSeen?: boolean;
}

const key = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;

/** `namespace/name` of every HostedCluster in the objects. */
function hostedClusterNames(objects: HostedObjects): string[] {
  return objects.hostedClusters.map((h) => key(h.object.metadata.namespace, h.object.metadata.name));
}

/** The moment a snapshot of hosted objects shows: its latest condition change or history time. */
export function hostedSnapshotNow(objects: HostedObjects): Millis | undefined {
  let latest: Millis | undefined;
  const see = (t: string | null | undefined) => {
    const ms = parseTime(t);
    if (ms !== undefined && (latest === undefined || ms > latest)) latest = ms;
  };
  const all: readonly Observed<{ status?: { conditions?: Conditions } | null | undefined }>[] = [
    ...objects.hostedClusters,
    ...objects.controlPlaneComponents,
    ...objects.nodePools,
    ...objects.machines,
  ];
  for (const o of all) for (const c of o.object.status?.conditions ?? []) see(c.lastTransitionTime);
  for (const h of objects.hostedClusters) {
    for (const v of [h.object.status?.controlPlaneVersion, h.object.status?.version]) {
      for (const e of v?.history ?? []) {
        see(e.startedTime);
        see(e.completionTime);
      }
    }
  }
  return latest;
}

function cond(o: { status?: { conditions?: Conditions } | null | undefined }, type: string) {
  const c = findCondition(o as Parameters<typeof findCondition>[0], type);
  return c && conditionStatusKnown(c) ? c : undefined;
}

function truth(c: Condition | undefined): boolean | undefined {
  if (c?.status === 'True') return true;
  if (c?.status === 'False') return false;
  return undefined;
}

function percent(updated: number, total: number): number {
  if (total === 0) return 100;
  return updated === total ? 100 : Math.min(99, Math.floor((updated / total) * 100));
}

function controlPlaneOf(
  hc: HostedClusterShape,
  components: readonly Observed<ComponentShape>[],
  now: Millis,
): { status: HostedControlPlaneStatus; insights: Insight[] } {
  const cpv = hc.status?.controlPlaneVersion;
  const source: HostedControlPlaneStatus['versionSource'] = cpv?.history?.length
    ? 'controlPlaneVersion'
    : hc.status?.version?.history?.length
      ? 'version'
      : 'none';
  const v = source === 'controlPlaneVersion' ? cpv : source === 'version' ? hc.status?.version : undefined;
  const entry = v?.history?.[0];
  const targetVersion = entry?.version || v?.desired?.version || undefined;
  const targetImage = entry?.image || v?.desired?.image || undefined;
  const previousVersion = v?.history?.[1]?.version || undefined;
  // An earlier update superseded before it completed: "from 4.20.1" alone would say it ran 4.20.1.
  const previousPartial = v?.history?.[1] !== undefined && v.history[1]?.state === 'Partial';
  const startedAt = parseTime(entry?.startedTime);
  const completedAt = entry?.state === 'Completed' ? parseTime(entry?.completionTime) : undefined;

  let updated = 0;
  let updating = 0;
  let waiting = 0;
  let unknown = 0;
  let unavailable = 0;
  const updatingComponents: UpdatingComponent[] = [];
  const insights: Insight[] = [];
  const laggards: Observed<ComponentShape>[] = [];
  for (const seen of components) {
    const c = seen.object;
    const rollout = cond(c, 'RolloutComplete');
    const available = cond(c, 'Available');
    const version = c.status?.version || undefined;
    const atTarget = targetVersion !== undefined && version === targetVersion;
    if (available?.status === 'False') unavailable++;
    if (atTarget && rollout?.status === 'True') {
      updated++;
      continue;
    }
    laggards.push(seen);
    if (rollout?.status === 'False') {
      updating++;
      const since = parseTime(rollout.lastTransitionTime);
      updatingComponents.push({
        name: c.metadata.name,
        ...(version ? { version } : {}),
        ...(since !== undefined ? { since } : {}),
        reason: (conditionTextKnown(rollout) && rollout.reason) || 'RolloutComplete=False',
        message: (conditionTextKnown(rollout) && rollout.message) || '',
      });
    } else if (rollout === undefined) unknown++;
    else waiting++;
  }
  const total = components.length;
  const completed = entry?.state === 'Completed';
  // A newer release requested (the control plane's release image, else a newer desired) than the
  // Completed entry's: the components already roll to it under the previous entry, which says nothing false.
  const requested = controlPlaneRelease(hc)?.image || v?.desired?.image || undefined;
  const starting = requested !== undefined && targetImage !== undefined && requested !== targetImage;
  if (completed && source === 'controlPlaneVersion' && !starting) {
    for (const seen of laggards) {
      const c = seen.object;
      // At the version and rolling out again since after the completion (a configuration change):
      // updating, not a component the Completed entry skipped (as controlplane-level-before-components).
      const rolloutSince = parseTime(cond(c, 'RolloutComplete')?.lastTransitionTime);
      if (
        c.status?.version === targetVersion &&
        rolloutSince !== undefined &&
        completedAt !== undefined &&
        rolloutSince > completedAt
      )
        continue;
      insights.push({
        kind: 'component-not-rolled-out',
        level: 'Error',
        impact: 'API Availability',
        scope: 'ControlPlane',
        ...(completedAt !== undefined ? { since: completedAt } : {}),
        message: `Control plane reports ${targetVersion ?? 'its target'} Completed, but component ${c.metadata.name} is not rolled out at it`,
        description:
          `ControlPlaneComponent ${c.metadata.name} reports version ${c.status?.version || '(none)'} with RolloutComplete ` +
          `${cond(c, 'RolloutComplete')?.status ?? 'unknown'}; a controlPlaneVersion entry is Completed only when every component reports the target with RolloutComplete=True.`,
        objects: [
          { kind: 'ControlPlaneComponent', name: c.metadata.name, ...ns(c.metadata.namespace) },
          { kind: 'HostedCluster', name: hc.metadata.name, ...ns(hc.metadata.namespace) },
        ],
        refs: [seen.ref],
      });
    }
  }
  for (const seen of components) {
    const available = cond(seen.object, 'Available');
    if (available?.status !== 'False') continue;
    const since = parseTime(available.lastTransitionTime);
    insights.push({
      kind: 'component-unavailable',
      level: 'Error',
      impact: 'API Availability',
      scope: 'ControlPlane',
      ...(since !== undefined ? { since } : {}),
      message: `Control plane component ${seen.object.metadata.name} is not available`,
      description: available.message || available.reason || 'Available=False',
      objects: [
        {
          kind: 'ControlPlaneComponent',
          name: seen.object.metadata.name,
          ...ns(seen.object.metadata.namespace),
        },
      ],
      refs: [seen.ref],
    });
  }
  const end = completedAt ?? now;
  return {
    status: {
      assessment: source === 'none' ? 'Unknown' : completed ? 'Completed' : 'Progressing',
      versionSource: source,
      ...(targetVersion ? { targetVersion } : {}),
      ...(targetImage ? { targetImage } : {}),
      ...(previousVersion ? { previousVersion } : {}),
      previousPartial,
      ...(entry?.state ? { state: entry.state } : {}),
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...(completedAt !== undefined ? { completedAt } : {}),
      ...(startedAt !== undefined && end >= startedAt ? { duration: end - startedAt } : {}),
      completionPercent: completed && updated === total ? 100 : percent(updated, total),
      components: {
        total,
        updated,
        updating,
        waiting,
        unknown,
        unavailable,
        updatingComponents,
      } satisfies ComponentCounts,
    },
    insights,
  };
}

function ns(namespace: string | undefined): { namespace?: string } {
  return namespace ? { namespace } : {};
}

function guestOf(hc: HostedClusterShape, opts: HostedStatusOptions, operands: OperandsAt): GuestStatus {
  const v = hc.status?.version;
  const entry = v?.history?.[0];
  const startedAt = parseTime(entry?.startedTime);
  const completedAt = entry?.state === 'Completed' ? parseTime(entry?.completionTime) : undefined;
  const progressing = truth(cond(hc, 'ClusterVersionProgressing'));
  const failing = truth(cond(hc, 'ClusterVersionFailing'));
  const desiredVersion = v?.desired?.version || entry?.version || undefined;
  return {
    ...(desiredVersion ? { desiredVersion } : {}),
    ...(entry?.state ? { state: entry.state } : {}),
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(completedAt !== undefined ? { completedAt } : {}),
    ...(progressing !== undefined ? { progressing } : {}),
    ...(failing !== undefined ? { failing } : {}),
    read: opts.guest !== undefined,
    ...(opts.guest && opts.guest.objects.clusterOperators.length > 0
      ? { operators: guestOperators(opts.guest, desiredVersion, operands) }
      : {}),
  };
}

/**
 * The guest's ClusterOperators against the version the guest CVO works towards. Counted here rather
 * than by the ordinary status because a hosted cluster's dump holds no ClusterVersion (dump.go does
 * not gather it), and every ClusterOperator of a hosted cluster is the payload's.
 */
function guestOperators(
  guest: ClusterHistory,
  target: string | undefined,
  operands: OperandsAt,
): OperatorCounts {
  let updated = 0;
  let updating = 0;
  let waiting = 0;
  let unknown = 0;
  let healthUnknown = 0;
  let unavailable = 0;
  let degraded = 0;
  const updatingOperators: OperatorCounts['updatingOperators'][number][] = [];
  const rollingOperands: OperatorCounts['rollingOperands'][number][] = [];
  for (const seen of guest.objects.clusterOperators) {
    const co = seen.object;
    const progressing = cond(co, 'Progressing');
    const available = cond(co, 'Available');
    const degradedC = cond(co, 'Degraded');
    const isUpdated = target !== undefined && operatorVersion(co) === target;
    // Without the guest CVO's target, whether an operator is at it is unknown: only a Progressing
    // operator's operands are named then.
    rollingOperands.push(
      ...holdingOperands(co.metadata.name, isUpdated, target !== undefined, progressing, operands.of),
    );
    if (isUpdated) updated++;
    else if (progressing?.status === 'True') {
      updating++;
      const since = parseTime(progressing.lastTransitionTime);
      updatingOperators.push({
        name: co.metadata.name,
        ...(since !== undefined ? { since } : {}),
        reason: (conditionTextKnown(progressing) && progressing.reason) || '',
        message: (conditionTextKnown(progressing) && progressing.message) || '',
      });
    } else if (progressing?.status === 'False') waiting++;
    else unknown++;
    if (available === undefined || degradedC === undefined) healthUnknown++;
    else if (available.status !== 'True') unavailable++;
    else if (degradedC.status === 'True') degraded++;
  }
  const total = guest.objects.clusterOperators.length;
  return {
    total,
    updated,
    updating,
    waiting,
    unknown,
    healthUnknown,
    healthy: total - unavailable - degraded - healthUnknown,
    unavailable,
    degraded,
    updatingOperators,
    rollingOperands,
  };
}

/** The HyperShift annotation that forces an update ClusterVersionUpgradeable=False would hold back. */
const FORCE_UPGRADE_ANNOTATION = 'hypershift.openshift.io/force-upgrade-to';

/**
 * The version an OpenShift release image's tag names (`ocp-release:4.20.2-x86_64`,
 * `release:4.21.0-0.nightly-…`); none for a digest, whose tag is not there to read.
 */
function versionFromTag(image: string): string | undefined {
  if (image.includes('@')) return undefined;
  const tag = image.slice(image.lastIndexOf(':') + 1);
  if (tag.includes('/')) return undefined;
  return /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+?)?)(?:-(?:x86_64|amd64|aarch64|arm64|s390x|ppc64le|multi))?$/.exec(
    tag,
  )?.[1];
}

function minorOf(version: string | undefined): string | undefined {
  return version ? /^(\d+\.\d+)\./.exec(version)?.[1] : undefined;
}

/**
 * The release the control plane is asked to run: spec.controlPlaneRelease.image when set, else
 * spec.release.image (openshift/hypershift HCControlPlaneReleaseImage, which the hostedcluster
 * controller's isUpgrading compares with status.version.desired.image).
 */
function controlPlaneRelease(
  hc: HostedClusterShape,
): { image: string; field: HostedUpdateRequest['field'] } | undefined {
  const cp = hc.spec?.controlPlaneRelease?.image;
  if (cp) return { image: cp, field: 'spec.controlPlaneRelease.image' };
  const image = hc.spec?.release?.image;
  return image ? { image, field: 'spec.release.image' } : undefined;
}

/**
 * The control plane's release (controlPlaneRelease) when neither history holds it as `desired` or as
 * its newest entry: asked for and not started (openshift/hypershift hostedcluster controller: an
 * update is under way once status.version.desired.image is that image). With controlPlaneRelease
 * set, spec.release.image is the data plane's release, which the NodePools follow: not this request.
 * None while installing (no version reported yet).
 */
function pendingRequest(
  hc: HostedClusterShape,
  components: readonly Observed<ComponentShape>[],
  nodePools: readonly Observed<NodePoolShape>[],
): HostedUpdateRequest | undefined {
  const asked = controlPlaneRelease(hc);
  const image = asked?.image;
  const v = hc.status?.version;
  const cpv = hc.status?.controlPlaneVersion;
  const current = v?.desired?.image || v?.history?.[0]?.image || undefined;
  if (!image || !current) return undefined;
  const held = [v?.desired?.image, v?.history?.[0]?.image, cpv?.desired?.image, cpv?.history?.[0]?.image];
  if (held.includes(image)) return undefined;

  const fromHistory = versionsByImage(hc).get(image);
  const fromPool = fromHistory
    ? undefined
    : nodePools
        .filter((np) => np.object.spec?.release?.image === image)
        .map((np) => ownTarget(np.object))
        .find((t) => t !== undefined);
  const fromTag = fromHistory || fromPool ? undefined : versionFromTag(image);
  const version = fromHistory ?? fromPool ?? fromTag;
  const versionSource = fromHistory ? 'history' : fromPool ? 'nodePool' : fromTag ? 'tag' : undefined;
  const fromVersion = v?.desired?.version || v?.history?.[0]?.version || undefined;

  const conditions: RequestCondition[] = [];
  const quote = (type: string, blocks: (c: Condition) => boolean) => {
    const c = cond(hc, type);
    if (!c || !blocks(c)) return;
    const since = parseTime(c.lastTransitionTime);
    const known = conditionTextKnown(c);
    conditions.push({
      type,
      status: c.status,
      ...(known && c.reason ? { reason: c.reason } : {}),
      ...(known && c.message ? { message: c.message } : {}),
      ...(since !== undefined ? { since } : {}),
    });
  };
  // The HostedCluster controller stops reconciling on these (hostedcluster_controller.go).
  quote('ReconciliationActive', (c) => c.status === 'False');
  quote('ValidHostedClusterConfiguration', (c) => c.status === 'False');
  quote('SupportedHostedCluster', (c) => c.status === 'False');
  quote('ValidReleaseImage', (c) => c.status === 'False');
  // ClusterVersionUpgradeable=False holds back a minor update, not a z-stream one, nor one forced by
  // the annotation naming this image.
  const zStream = minorOf(version) !== undefined && minorOf(version) === minorOf(fromVersion);
  // isUpgrading: the annotation, when there, must name the image; else controlPlaneRelease being set
  // counts as forced.
  const forceTo = hc.metadata.annotations?.[FORCE_UPGRADE_ANNOTATION];
  const forced =
    forceTo !== undefined ? forceTo === image : asked?.field === 'spec.controlPlaneRelease.image';
  quote('ClusterVersionUpgradeable', (c) => c.status === 'False' && !zStream && !forced);
  // The guest CVO's own word, as the HostedCluster copies it.
  quote('ClusterVersionReleaseAccepted', (c) => c.status === 'False');
  quote('ClusterVersionSucceeding', (c) => c.status === 'False');
  // The controller's own verdict last: Progressing=False, Blocked, when the update is not allowed
  // (isUpgrading's error); the conditions above say what it stems from.
  quote('Progressing', (c) => c.status === 'False' && c.reason === 'Blocked');

  const componentsAtRequest =
    version === undefined
      ? []
      : components.filter((c) => c.object.status?.version === version).map((c) => c.object.metadata.name);
  return {
    image,
    field: asked?.field ?? 'spec.release.image',
    ...(version ? { version } : {}),
    ...(versionSource ? { versionSource } : {}),
    ...(fromVersion ? { fromVersion } : {}),
    componentsAtRequest,
    conditions,
  };
}

function requestInsight(hcSeen: Observed<HostedClusterShape>, r: HostedUpdateRequest): Insight {
  const hc = hcSeen.object;
  const what = r.version ?? r.image;
  const first = r.conditions[0];
  const quoted = r.conditions.map(
    (c) =>
      `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message.replace(/\.\s*$/, '')}` : ''}`,
  );
  return {
    kind: 'update-not-accepted',
    level: first ? 'Error' : 'Warning',
    impact: 'Update Stalled',
    scope: 'ControlPlane',
    ...(first?.since !== undefined ? { since: first.since } : {}),
    message: first
      ? `Update to ${what} was requested but has not started: ${first.type}=${first.status}${first.reason ? ` (${first.reason})` : ''}`
      : `Update to ${what} was requested but has not started`,
    description: first
      ? `${r.field} is ${r.image}; the HostedCluster reports ${quoted.join('; ')}.`
      : `${r.field} is ${r.image}, but status.version.desired and the newest history entries name ${r.fromVersion ?? 'another release'}, and no condition says why: the HostedCluster controller or the guest cluster-version operator has not taken the release up yet.`,
    reference: 'https://hypershift-docs.netlify.app/how-to/upgrades/',
    objects: [{ kind: 'HostedCluster', name: hc.metadata.name, ...ns(hc.metadata.namespace) }],
    refs: [hcSeen.ref],
  };
}

/** image → version, from every history the HostedCluster keeps (a NodePool names its release by image). */
function versionsByImage(hc: HostedClusterShape): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of [hc.status?.controlPlaneVersion, hc.status?.version]) {
    for (const e of [v?.desired, ...(v?.history ?? [])]) {
      if (e?.image && e.version && !out.has(e.image)) out.set(e.image, e.version);
    }
  }
  return out;
}

function ownedBy(meta: Meta, kind: string): string | undefined {
  return meta.ownerReferences?.find((o) => o.kind === kind)?.name;
}

/** The same template: the rollout's two knobs, the release (spec.version) and the user-data secret. */
function sameTemplate(a: TemplateShape | null | undefined, b: TemplateShape | null | undefined): boolean {
  return (
    (a?.spec?.version ?? '') === (b?.spec?.version ?? '') &&
    (a?.spec?.bootstrap?.dataSecretName ?? '') === (b?.spec?.bootstrap?.dataSecretName ?? '')
  );
}

/** A NodePool's MachineDeployment: named after it, or annotated with it, in the control-plane namespace. */
function deploymentOf(
  np: NodePoolShape,
  cpNamespace: string,
  all: readonly Observed<MachineDeploymentShape>[],
): Observed<MachineDeploymentShape> | undefined {
  const inNs = all.filter((d) => d.object.metadata.namespace === cpNamespace);
  return (
    inNs.find(
      (d) =>
        d.object.metadata.annotations?.[NODEPOOL_ANNOTATION] === key(np.metadata.namespace, np.metadata.name),
    ) ?? inNs.find((d) => d.object.metadata.name === np.metadata.name)
  );
}

/**
 * The version the NodePool controller resolved its release image to, when the HostedCluster's
 * histories do not name the image (a NodePool bumped to a release the control plane never ran): the
 * UpdatingVersion=True message says `Target version: X`, and UpdatingVersion=False means its
 * status.version is the target (the controller sets it True exactly when they differ;
 * hypershift-operator controllers/nodepool, isUpdatingVersion).
 */
function ownTarget(np: NodePoolShape): string | undefined {
  const c = cond(np, 'UpdatingVersion');
  if (c?.status === 'True') return /Target version: "?([^\s"]+?)"?\.?(?:\s|$)/.exec(c.message ?? '')?.[1];
  // Only for the spec it was computed from: a condition older than the NodePool's generation (its
  // release changed since) says nothing about the new target.
  const observed = (c as { observedGeneration?: number } | undefined)?.observedGeneration;
  const generation = (np.metadata as { generation?: number }).generation;
  const stale = typeof observed === 'number' && typeof generation === 'number' && observed < generation;
  if (c?.status === 'False' && !stale) return np.status?.version || undefined;
  return undefined;
}

function isPaused(np: NodePoolShape, now: Millis): boolean {
  const until = np.spec?.pausedUntil;
  if (!until) return false;
  if (until === 'true') return true;
  const t = parseTime(until);
  return t !== undefined && t > now;
}

interface MachineContext {
  readonly targetVersion: string | undefined;
  /**
   * When the target's version is not known: what the NodePool reports, known not to be the target
   * (`certain`, UpdatingVersion=True) or perhaps not (its release image is not that version's).
   */
  readonly staleVersion: { readonly version: string; readonly certain: boolean } | undefined;
  readonly targetImage: string | undefined;
  /** The NodePool waits to begin its rollout (its template not bumped yet): why, for each Machine. */
  readonly waiting?: string;
  readonly currentSets: ReadonlySet<string>;
  readonly targetConfigVersion: ReadonlyMap<string, string>;
  /** InPlace MachineSets whose current config is their target: every node of theirs is at it. */
  readonly doneConfigVersion: ReadonlyMap<string, string>;
  readonly versionChanging: boolean;
  readonly inPlace: boolean;
  /** InPlace: the guest Node the in-place upgrader stopped at (its daemon Degraded). */
  readonly inPlaceDegraded?: { readonly node: string };
  readonly paused: boolean;
  readonly nodes: ReadonlyMap<string, Observed<Node>>;
  readonly now: Millis;
}

function assessMachine(
  seen: Observed<MachineShape>,
  ctx: MachineContext,
): { machine: NodePoolMachine; insights: Insight[]; rolled: boolean } {
  const m = seen.object;
  const name = m.metadata.name;
  const machineSet = ownedBy(m.metadata, 'MachineSet');
  const currentMachineSet = machineSet !== undefined && ctx.currentSets.has(machineSet);
  const version = m.metadata.annotations?.[RELEASE_VERSION_ANNOTATION] || undefined;
  const nodeName = m.status?.nodeRef?.name || undefined;
  const node = nodeName ? ctx.nodes.get(nodeName) : undefined;
  const machinePhase = m.status?.phase || undefined;
  const deleting = m.metadata.deletionTimestamp != null || machinePhase === 'Deleting';
  const failed = machinePhase === 'Failed' || !!m.status?.failureReason || !!m.status?.failureMessage;
  const inPlaceDegraded =
    ctx.inPlace && nodeName !== undefined && ctx.inPlaceDegraded?.node === nodeName
      ? ctx.inPlaceDegraded
      : undefined;
  const draining =
    deleting &&
    (cond(m, 'DrainingSucceeded')?.status === 'False' ||
      /drain/i.test(cond(m, 'Deleting')?.reason ?? '') ||
      node?.object.spec?.unschedulable === true);
  const configTarget = machineSet ? ctx.targetConfigVersion.get(machineSet) : undefined;
  const configCurrent =
    m.metadata.annotations?.[CURRENT_CONFIG_VERSION] ||
    (machineSet ? ctx.doneConfigVersion.get(machineSet) : undefined) ||
    (ctx.inPlace && node ? nodeConfigDone(node.object) : undefined) ||
    (ctx.inPlace && ctx.versionChanging && version !== undefined && version === ctx.targetVersion
      ? configTarget
      : undefined);
  const configBehind = ctx.inPlace && configTarget !== undefined && configCurrent !== configTarget;
  const atStale = ctx.staleVersion !== undefined && version === ctx.staleVersion.version;
  const versionOk =
    (ctx.targetVersion === undefined || version === undefined || version === ctx.targetVersion) &&
    !(atStale && ctx.staleVersion?.certain === true);
  // At what the NodePool reports while its release image may be another: not known to be updated.
  const maybeStale = atStale && ctx.staleVersion?.certain === false;
  const versionKnown = (version !== undefined || ctx.targetVersion === undefined) && !maybeStale;
  // Made from the current template (or, InPlace, brought to its config) at the target release...
  const fromTarget = (ctx.inPlace || currentMachineSet) && versionOk && versionKnown && !configBehind;
  const rolled = !deleting && fromTarget;
  // The node's own conditions only: a hosted node (Replace) has no machine-config daemon whose absent
  // annotations would mean "working"; an InPlace rollout's daemon is read by inPlaceBusy.
  const causes = node
    ? unavailableCauses(node.object).filter((c) => c.reason !== UNAVAILABLE_REASON.daemonWorking)
    : [];
  const unavailableNode = causes.length > 0;
  const running = nodeName !== undefined && (machinePhase === undefined || machinePhase === 'Running');
  // ...and running as a Node: a Machine still provisioning is not updated capacity yet.
  // A NodePool that has not begun its rollout (template not bumped yet) has no Machine updated to it.
  const updated = rolled && running && ctx.waiting === undefined;
  const insights: Insight[] = [];

  let phase: MachinePhase;
  let assessment: NodeAssessment;
  let message: string;
  let updating = false;
  if (failed) {
    assessment = 'Degraded';
    phase = updated ? 'Updated' : 'Pending';
    message = m.status?.failureMessage || m.status?.failureReason || `Machine phase ${machinePhase}`;
    insights.push({
      kind: 'machine-failed',
      level: 'Error',
      impact: 'Cluster Capacity',
      scope: 'WorkerPool',
      message: `Machine ${name} failed${m.status?.failureReason ? ` (${m.status.failureReason})` : ''}`,
      description: message,
      reference: NODEPOOL_REFERENCE,
      objects: [{ kind: 'Machine', name, ...ns(m.metadata.namespace) }],
      refs: [seen.ref],
    });
  } else if (inPlaceDegraded && !updated) {
    // The in-place upgrader stopped here: its machine-config daemon reports Degraded (the insight is
    // the NodePool's, which names this Machine and its Node).
    assessment = 'Degraded';
    phase = 'Updating';
    // The daemon's reason is long (a file path, an rpm-ostree error): the insight quotes it.
    message = `In-place update${configTarget ? ` to config ${configTarget}` : ''} stopped: machine-config daemon Degraded`;
  } else if (deleting) {
    assessment = 'Progressing';
    updating = true;
    phase = draining ? 'Draining' : 'Deleting';
    message = draining ? 'Draining before deletion' : 'Being deleted (replaced by a new machine)';
  } else if (rolled && !running) {
    assessment = 'Progressing';
    updating = true;
    phase = 'Provisioning';
    message =
      machinePhase === 'Provisioning'
        ? 'Provisioning'
        : `Provisioning (phase ${machinePhase ?? 'not reported yet'})`;
  } else if (updated) {
    assessment = unavailableNode ? 'Unavailable' : 'Completed';
    phase = 'Updated';
    message = causes.map((c) => `${c.reason}${c.message ? `: ${c.message}` : ''}`).join('; ');
  } else if (ctx.inPlace && configBehind && node !== undefined && inPlaceBusy(node.object)) {
    updating = true;
    assessment = 'Progressing';
    const n = node.object;
    phase = unavailableNode ? 'Rebooting' : n.spec?.unschedulable === true ? 'Draining' : 'Updating';
    message = `In-place update to config ${configTarget}`;
  } else if (ctx.paused) {
    assessment = 'Excluded';
    phase = 'Paused';
    message = 'NodePool is paused';
  } else if (!versionKnown) {
    assessment = 'Unknown';
    phase = 'Unknown';
    message = maybeStale
      ? `At ${version}; whether that is ${ctx.targetImage ?? 'the release the NodePool asks for'} is not known`
      : `No ${RELEASE_VERSION_ANNOTATION} annotation: its release is not known`;
  } else {
    assessment = unavailableNode ? 'Unavailable' : 'Outdated';
    phase = 'Pending';
    message =
      ctx.waiting !== undefined && (fromTarget || ctx.inPlace)
        ? ctx.waiting
        : !currentMachineSet && !ctx.inPlace
          ? `In MachineSet ${machineSet ?? '(none)'}, not the current template's`
          : !versionOk
            ? `At ${version}, not ${ctx.targetVersion ?? 'the release the NodePool asks for'}`
            : `On config ${configCurrent ?? '(unknown)'}, not ${configTarget ?? 'the target'}`;
  }
  return {
    machine: {
      name,
      ...(nodeName ? { node: nodeName } : {}),
      ...(machineSet ? { machineSet } : {}),
      currentMachineSet,
      assessment,
      phase,
      ...(version ? { version } : {}),
      ...(machinePhase ? { machinePhase } : {}),
      message,
      updated,
      updating,
      unavailable: unavailableNode,
      degraded: failed || (inPlaceDegraded !== undefined && !updated),
      ref: seen.ref,
    },
    insights,
    // Made from the current template at the target, being deleted or not (a scale-down is not a
    // rollout's leftover).
    rolled: fromTarget,
  };
}

/**
 * The config a node finished applying: the machine-config daemon reports Done at its desired config,
 * with no drain request pending (the in-place upgrader's own test of a node needing no upgrade).
 */
function nodeConfigDone(node: Node): string | undefined {
  const a = node.metadata.annotations ?? {};
  const current = a[MCO_CURRENT_CONFIG];
  if (!current || a[MCO_STATE] !== 'Done' || a[MCO_DESIRED_CONFIG] !== current) return undefined;
  return (a[MCO_DESIRED_DRAIN] ?? '') === (a[MCO_LAST_APPLIED_DRAIN] ?? '') ? current : undefined;
}

/** The machine-config daemon (which InPlace rollouts run on the node) is at work. */
function inPlaceBusy(node: Node): boolean {
  const a = node.metadata.annotations ?? {};
  const state = a['machineconfiguration.openshift.io/state'];
  return (
    state === 'Working' ||
    node.spec?.unschedulable === true ||
    (a['machineconfiguration.openshift.io/currentConfig'] ?? '') !==
      (a['machineconfiguration.openshift.io/desiredConfig'] ?? '')
  );
}

function poolAssessment(
  machines: readonly NodePoolMachine[],
  paused: boolean,
  total: number,
): PoolAssessment {
  if (machines.some((m) => m.degraded)) return 'Degraded';
  if (machines.some((m) => m.updating)) return 'Progressing';
  if (total === 0) return paused ? 'Excluded' : 'Empty';
  if (machines.every((m) => m.updated)) return 'Completed';
  if (paused) return 'Excluded';
  if (machines.some((m) => m.assessment === 'Unknown')) return 'Unknown';
  // Some Machines replaced and some not, between two steps of the rollout (none being created or
  // deleted at the snapshot's moment): under way, as an MCO pool with some nodes updated is.
  if (machines.some((m) => m.updated)) return 'Progressing';
  return 'Pending';
}

function counts(machines: readonly NodePoolMachine[]): NodeCounts {
  return {
    available: machines.filter((m) => !m.unavailable && !m.degraded && m.phase !== 'Provisioning').length,
    progressing: machines.filter((m) => m.assessment === 'Progressing').length,
    draining: machines.filter((m) => m.phase === 'Draining').length,
    excluded: machines.filter((m) => m.assessment === 'Excluded').length,
    degraded: machines.filter((m) => m.degraded).length,
    outdated: machines.filter((m) => m.assessment === 'Outdated').length,
    unknown: machines.filter((m) => m.assessment === 'Unknown').length,
  };
}

/** The NodePool conditions that say why a rollout has not begun (hypershift-operator controllers/nodepool). */
const NODEPOOL_HOLDS = [
  'ReconciliationActive',
  'ValidReleaseImage',
  'ValidGeneratedPayload',
  'ValidMachineConfig',
  'ValidTuningConfig',
  'ValidPlatformImage',
  'SupportedVersionSkew',
] as const;

function quoted(c: Condition): RequestCondition {
  const since = parseTime(c.lastTransitionTime);
  const known = conditionTextKnown(c);
  return {
    type: c.type,
    status: c.status,
    ...(known && c.reason ? { reason: c.reason } : {}),
    ...(known && c.message ? { message: c.message } : {}),
    ...(since !== undefined ? { since } : {}),
  };
}

function conditionText(c: RequestCondition): string {
  return `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`;
}

/**
 * A NodePool updating (UpdatingVersion or UpdatingConfig True) whose rollout has not begun: Replace,
 * its MachineDeployment's template is older than the condition (the controller bumps it only once the
 * new payload exists), or no valid payload was generated. Its Machines are then not updated to what
 * it asks for, whatever template they are on.
 */
function waitingOf(
  np: NodePoolShape,
  inPlace: boolean,
  templateSince: Millis | undefined,
  notBegun: InPlaceNotBegun | undefined,
): NodePoolWaiting | undefined {
  const payloadInvalid = cond(np, 'ValidGeneratedPayload')?.status === 'False';
  const updating: Condition[] = [];
  for (const type of ['UpdatingVersion', 'UpdatingConfig'] as const) {
    const c = cond(np, type);
    if (c?.status !== 'True') continue;
    const since = parseTime(c.lastTransitionTime);
    const templateOlder =
      !inPlace && templateSince !== undefined && since !== undefined && templateSince < since;
    if (templateOlder || payloadInvalid || notBegun !== undefined) updating.push(c);
  }
  if (updating.length === 0) return undefined;
  const holds = NODEPOOL_HOLDS.map((t) => cond(np, t)).filter(
    (c): c is Condition => c !== undefined && c.status === 'False',
  );
  const conditions = [...updating, ...holds].map(quoted);
  const first = holds[0];
  return {
    message: first
      ? `Waiting: ${conditionText(quoted(first))}`
      : notBegun
        ? `Waiting for the in-place upgrader to begin config ${notBegun.targetConfigVersion} (on ${notBegun.currentConfigVersion})`
        : `Waiting for the NodePool to begin (${updating.map((c) => `${c.type}=True`).join(', ')}, its template not changed since)`,
    conditions,
    ...(notBegun ? { inPlace: notBegun } : {}),
  };
}

type InPlaceNotBegun = NonNullable<NodePoolWaiting['inPlace']>;

/**
 * Whether the in-place upgrader has taken up an InPlace NodePool's MachineSet target: `begun` once
 * anything says it works on it, `notBegun` (with the MachineSet's two config versions) when the target
 * differs from the current and nothing does, undefined when the inputs cannot tell. openshift/hypershift:
 * the NodePool controller sets the MachineSet's nodePoolTargetConfigVersion when it bumps the template;
 * the hosted cluster config operator's inplaceupgrader then writes nodePoolUpgradeInProgressTrue (or
 * False on a degraded node), which the NodePool conditions copy ("Total Nodes: N. Upgraded: M"), sets
 * the chosen Nodes' desiredConfig to the target, and sets nodePoolCurrentConfigVersion once every node
 * is Done at it. Nothing of this is dated, so a rewound moment (`annotationsAsLastSeen`) claims nothing.
 */
function inPlaceProgress(
  np: NodePoolShape,
  sets: readonly Observed<MachineSetShape>[],
  machines: readonly Observed<MachineShape>[],
  nodes: ReadonlyMap<string, Observed<Node>>,
  annotationsAsLastSeen: boolean,
): 'begun' | InPlaceNotBegun | undefined {
  const behind = sets.filter((s) => {
    const a = s.object.metadata.annotations ?? {};
    return a[TARGET_CONFIG_VERSION] && a[TARGET_CONFIG_VERSION] !== a[CURRENT_CONFIG_VERSION];
  });
  if (behind.length === 0) return undefined;
  for (const type of ['UpdatingVersion', 'UpdatingConfig'] as const) {
    const c = cond(np, type);
    if (!c) continue;
    // The upgrader's own words, copied from its MachineSet annotation (or an older hypershift's
    // in-operator upgrader), or its failure.
    if (
      conditionTextKnown(c) &&
      (/Total Nodes: \d+/.test(c.message ?? '') || c.reason === 'InplaceUpgradeFailed')
    )
      return 'begun';
  }
  for (const s of behind) {
    const a = s.object.metadata.annotations ?? {};
    if (UPGRADE_IN_PROGRESS.some((k) => a[k] !== undefined)) return 'begun';
    const target = a[TARGET_CONFIG_VERSION] ?? '';
    for (const m of machines) {
      if (ownedBy(m.object.metadata, 'MachineSet') !== s.object.metadata.name) continue;
      if (m.object.metadata.annotations?.[CURRENT_CONFIG_VERSION] === target) return 'begun';
      const n = nodes.get(m.object.status?.nodeRef?.name ?? '');
      if (n && (n.object.metadata.annotations?.[MCO_DESIRED_CONFIG] === target || inPlaceBusy(n.object)))
        return 'begun';
    }
  }
  const s = behind[0];
  const current = s?.object.metadata.annotations?.[CURRENT_CONFIG_VERSION];
  // Without the current version (a MachineSet the controller had not annotated), or with no Machine to
  // update, or when the annotations are as last seen, "not begun" is not known.
  const hasMachines = machines.some(
    (m) => ownedBy(m.object.metadata, 'MachineSet') === s?.object.metadata.name,
  );
  if (!s || !current || !hasMachines || annotationsAsLastSeen || behind.length > 1) return undefined;
  return {
    machineSet: s.object.metadata.name,
    targetConfigVersion: s.object.metadata.annotations?.[TARGET_CONFIG_VERSION] ?? '',
    currentConfigVersion: current,
  };
}

/** An InPlace upgrade the in-place upgrader stopped: where, and in whose words. */
interface InPlaceFailure {
  readonly machineSet?: Observed<MachineSetShape>;
  /** The guest Node it stopped at (the Node read as Degraded, else the one its words name). */
  readonly node?: string;
  readonly machine?: string;
  /** The machine-config daemon's reason (the Node's machineconfiguration.openshift.io/reason). */
  readonly reason?: string;
  /** The upgrader's words: the MachineSet's nodePoolUpgradeInProgressFalse, else the NodePool condition copying it. */
  readonly words?: string;
  /** UpdatingVersion/UpdatingConfig=False with reason InplaceUpgradeFailed, when the NodePool says so. */
  readonly condition?: Condition;
}

/**
 * Whether an InPlace NodePool's upgrade has stopped at a degraded node. openshift/hypershift: while
 * its MachineSet's target config differs from its current one, the in-place upgrader (the hosted
 * cluster config operator's inplaceupgrader; earlier, the NodePool controller itself) looks at each
 * Node of the MachineSet and, on the first whose machine-config daemon says
 * `machineconfiguration.openshift.io/state: Degraded`, writes `nodePoolUpgradeInProgressFalse` =
 * "Node N in nodepool degraded: REASON" (REASON from `machineconfiguration.openshift.io/reason`),
 * removes `nodePoolUpgradeInProgressTrue` and returns an error without giving any other node the
 * target: the upgrade cannot proceed until that node is fixed. The NodePool controller then sets
 * UpdatingVersion/UpdatingConfig False with reason InplaceUpgradeFailed. A MachineSet at its target is
 * done, whatever a Node says (the upgrader checks completion first). With --at before the snapshot
 * (`annotationsAsLastSeen`) only the NodePool's conditions, which are rewound, are read.
 */
function inPlaceFailure(
  np: NodePoolShape,
  sets: readonly Observed<MachineSetShape>[],
  machines: readonly Observed<MachineShape>[],
  nodes: ReadonlyMap<string, Observed<Node>>,
  annotationsAsLastSeen: boolean,
): InPlaceFailure | undefined {
  let condition: Condition | undefined;
  for (const type of ['UpdatingVersion', 'UpdatingConfig'] as const) {
    const c = cond(np, type);
    if (c?.status === 'False' && conditionTextKnown(c) && c.reason === INPLACE_FAILED_REASON) {
      condition = c;
      break;
    }
  }
  const behind = sets.filter((s) => {
    const a = s.object.metadata.annotations ?? {};
    return a[TARGET_CONFIG_VERSION] && a[TARGET_CONFIG_VERSION] !== a[CURRENT_CONFIG_VERSION];
  });
  if (!annotationsAsLastSeen && sets.length > 0 && behind.length === 0) return undefined;
  let machineSet = behind[0];
  let flagged: string | undefined;
  let degraded: { node: Observed<Node>; machine: string } | undefined;
  if (!annotationsAsLastSeen) {
    for (const s of behind) {
      const flag = s.object.metadata.annotations?.[UPGRADE_IN_PROGRESS[1]];
      if (flag !== undefined && flagged === undefined) {
        flagged = flag;
        machineSet = s;
      }
      for (const m of machines) {
        if (degraded || ownedBy(m.object.metadata, 'MachineSet') !== s.object.metadata.name) continue;
        const n = nodes.get(m.object.status?.nodeRef?.name ?? '');
        if (n?.object.metadata.annotations?.[MCO_STATE] === 'Degraded') {
          degraded = { node: n, machine: m.object.metadata.name };
          if (flagged === undefined) machineSet = s;
        }
      }
    }
  }
  if (!condition && flagged === undefined && !degraded) return undefined;
  const words = flagged || condition?.message || undefined;
  // The upgrader's words name the node (and the daemon's reason) when the guest was not read.
  const named = /^Node (\S+) in nodepool degraded: ?([\s\S]*)$/.exec(words ?? '');
  const node = degraded?.node.object.metadata.name ?? named?.[1];
  const machine =
    degraded?.machine ??
    (node === undefined
      ? undefined
      : machines.find((m) => m.object.status?.nodeRef?.name === node)?.object.metadata.name);
  const reason = degraded?.node.object.metadata.annotations?.[MCO_REASON] || named?.[2] || undefined;
  return {
    ...(machineSet ? { machineSet } : {}),
    ...(node ? { node } : {}),
    ...(machine ? { machine } : {}),
    ...(reason ? { reason } : {}),
    ...(words ? { words } : {}),
    ...(condition ? { condition } : {}),
  };
}

function inPlaceFailureInsight(
  seen: Observed<NodePoolShape>,
  f: InPlaceFailure,
  machines: readonly NodePoolMachine[],
  cpNamespace: string,
): Insight {
  const np = seen.object;
  const name = np.metadata.name;
  const since = parseTime(f.condition?.lastTransitionTime);
  const a = f.machineSet?.object.metadata.annotations ?? {};
  const setName = f.machineSet?.object.metadata.name;
  const target = a[TARGET_CONFIG_VERSION];
  const current = a[CURRENT_CONFIG_VERSION];
  const at = machines.filter((m) => m.updated).length;
  const where = f.node
    ? `Node ${f.node}${f.machine ? ` (Machine ${f.machine})` : ''} is degraded`
    : 'a node is degraded';
  return {
    kind: 'nodepool-inplace-failed',
    level: 'Error',
    impact: 'Update Stalled',
    scope: 'WorkerPool',
    ...(since !== undefined ? { since } : {}),
    message: `In-place upgrade of NodePool ${name} cannot proceed: ${where}`,
    description: [
      f.reason
        ? `The machine-config daemon on ${f.node ?? 'the node'} reports Degraded: ${f.reason.replace(/\.\s*$/, '')}.`
        : `The machine-config daemon on ${f.node ?? 'a node'} reports Degraded.`,
      f.words
        ? `The in-place upgrader says "${f.words}"${f.condition ? ` (the NodePool's ${f.condition.type}=False, ${INPLACE_FAILED_REASON})` : ''}.`
        : '',
      `It gives no other node the target until that node is fixed${setName ? `: MachineSet ${setName}${target ? ` targets config ${target}` : ''}${current ? ` and is on ${current}` : ''}` : ''}, ${at} of ${plural(machines.length, 'Machine')} updated.`,
    ]
      .filter((x) => x !== '')
      .join(' '),
    reference: NODEPOOL_REFERENCE,
    objects: [
      { kind: 'NodePool', name, ...ns(np.metadata.namespace) },
      ...(setName ? [{ kind: 'MachineSet', name: setName, namespace: cpNamespace }] : []),
      ...(f.machine ? [{ kind: 'Machine', name: f.machine, namespace: cpNamespace }] : []),
      ...(f.node ? [{ kind: 'Node', name: f.node }] : []),
    ],
    refs: [seen.ref, ...(f.machineSet ? [f.machineSet.ref] : [])],
  };
}

/** Cluster API's annotation pausing the reconciliation of an object (cluster.x-k8s.io/paused). */
const CAPI_PAUSED = 'cluster.x-k8s.io/paused';

/** A Replace rollout whose first step has not happened: its new template made no Machine that became a Node. */
interface RolloutNotStarted {
  readonly md: Observed<MachineDeploymentShape>;
  /** The current template's MachineSet, when Cluster API made it. */
  readonly machineSet?: Observed<MachineSetShape>;
  /** When the rollout began: the latest of the current MachineSet's creation, RollingOut=True, UpdatingVersion/UpdatingConfig=True. */
  readonly since?: Millis;
  /** spec.paused, or the cluster.x-k8s.io/paused annotation. */
  readonly paused: boolean;
  /** The current template's Machines (created, none with a Node). */
  readonly created: readonly Observed<MachineShape>[];
  /** Machines of older MachineSets, not being deleted. */
  readonly old: readonly Observed<MachineShape>[];
}

/**
 * A Replace NodePool whose MachineDeployment's template moved and whose rollout has taken no step:
 * Machines of older MachineSets remain, none is being deleted (with maxSurge 0 the first step is a
 * deletion), and no Machine of the current template has become a Node (status.nodeRef). Cluster API
 * makes the new MachineSet and its first Machine within seconds of the template's change, unless the
 * MachineDeployment is paused (spec.paused, or the cluster.x-k8s.io/paused annotation: then it does
 * not even make the MachineSet). Undefined when a step was taken, when nothing is to roll, or when no
 * MachineSet of the template exists and the MachineDeployment is not paused (its spec may be newer than
 * the moment under --at, and then nothing dates the change). `rewound`: the spec is as last seen.
 */
function rolloutNotStarted(
  np: NodePoolShape,
  md: Observed<MachineDeploymentShape>,
  sets: readonly Observed<MachineSetShape>[],
  currentSets: ReadonlySet<string>,
  machines: readonly Observed<MachineShape>[],
  rewound: boolean,
): RolloutNotStarted | undefined {
  const inCurrent = (m: Observed<MachineShape>) =>
    currentSets.has(ownedBy(m.object.metadata, 'MachineSet') ?? '');
  const isDeleting = (m: Observed<MachineShape>) =>
    m.object.metadata.deletionTimestamp != null || m.object.status?.phase === 'Deleting';
  const old = machines.filter((m) => !inCurrent(m) && !isDeleting(m));
  if (old.length === 0 || machines.some((m) => !inCurrent(m) && isDeleting(m))) return undefined;
  const created = machines.filter(inCurrent);
  if (created.some((m) => m.object.status?.nodeRef?.name)) return undefined;
  const paused =
    md.object.spec?.paused === true || md.object.metadata.annotations?.[CAPI_PAUSED] !== undefined;
  const current = sets.filter((s) => currentSets.has(s.object.metadata.name));
  let since: Millis | undefined;
  const later = (t: Millis | undefined) => {
    if (t !== undefined && (since === undefined || t > since)) since = t;
  };
  for (const s of current) later(parseTime(s.object.metadata.creationTimestamp));
  if (current.length === 0 && (!paused || rewound)) return undefined;
  const rolling = (md.object.status?.v1beta2?.conditions ?? []).find((c) => c.type === 'RollingOut');
  if (rolling?.status === 'True' && conditionStatusKnown(rolling))
    later(parseTime(rolling.lastTransitionTime));
  for (const type of ['UpdatingVersion', 'UpdatingConfig'] as const) {
    const c = cond(np, type);
    if (c?.status === 'True') later(parseTime(c.lastTransitionTime));
  }
  const machineSet = current.at(-1);
  return {
    md,
    ...(machineSet ? { machineSet } : {}),
    ...(since !== undefined ? { since } : {}),
    paused,
    created,
    old,
  };
}

/** The first False condition of a Machine that says why it is not a Node yet. */
function machineHold(m: MachineShape): Condition | undefined {
  for (const type of ['InfrastructureReady', 'BootstrapReady', 'Ready'] as const) {
    const c = cond(m, type);
    if (c?.status === 'False' && conditionTextKnown(c) && (c.reason || c.message)) return c;
  }
  return undefined;
}

function rolloutNotStartedInsight(
  seen: Observed<NodePoolShape>,
  r: RolloutNotStarted,
  now: Millis,
  cpNamespace: string,
): Insight {
  const name = seen.object.metadata.name;
  const mdName = r.md.object.metadata.name;
  const template = r.md.object.spec?.template?.spec;
  const setName = r.machineSet?.object.metadata.name;
  const hold = r.created.map((m) => ({ m, c: machineHold(m.object) })).find((x) => x.c !== undefined);
  const setHold = (r.machineSet?.object.status?.conditions ?? []).find(
    (c) => c.status === 'False' && conditionTextKnown(c) && (c.reason || c.message),
  );
  const first = r.paused
    ? `MachineDeployment ${mdName} is paused (${r.md.object.spec?.paused === true ? 'spec.paused' : CAPI_PAUSED})`
    : 'no Machine of its new template has become a Node';
  const waited = r.since !== undefined ? ` in ${formatMinutes(now - r.since)}` : '';
  return {
    kind: 'nodepool-rollout-not-started',
    level: 'Warning',
    impact: 'Update Stalled',
    scope: 'WorkerPool',
    ...(r.since !== undefined ? { since: r.since } : {}),
    message: `The rollout of NodePool ${name} has not started: ${first}${r.paused ? '' : waited}`,
    description: [
      `MachineDeployment ${mdName}'s template is at ${template?.version ?? '(no version)'}${template?.bootstrap?.dataSecretName ? ` (${template.bootstrap.dataSecretName})` : ''}${setName ? `, MachineSet ${setName}` : ', and no MachineSet of it exists'}; ${plural(r.old.length, 'Machine')} of older MachineSets remain${r.old.length <= 3 ? ` (${r.old.map((m) => m.object.metadata.name).join(', ')})` : ''}, none being deleted.`,
      setName
        ? r.created.length === 0
          ? `The inputs hold no Machine of MachineSet ${setName} (one made and deleted since is recorded nowhere).`
          : `Machines of MachineSet ${setName}: ${r.created.map((m) => `${m.object.metadata.name} (${m.object.status?.phase || 'no phase'}, no Node)`).join(', ')}.`
        : '',
      hold?.c
        ? `Machine ${hold.m.object.metadata.name}: ${hold.c.type}=False${hold.c.reason ? ` (${hold.c.reason})` : ''}${hold.c.message ? `: ${hold.c.message.replace(/\.\s*$/, '')}` : ''}.`
        : '',
      setHold && !hold
        ? `MachineSet ${setName}: ${setHold.type}=False${setHold.reason ? ` (${setHold.reason})` : ''}${setHold.message ? `: ${setHold.message.replace(/\.\s*$/, '')}` : ''}.`
        : '',
      r.paused
        ? 'Cluster API does not roll a paused MachineDeployment out: no Machine of the new template is made until it is resumed.'
        : "Cluster API makes a new template's first Machine within seconds, and hypershift's MachineHealthCheck gives a Machine 20 minutes to become a Node.",
    ]
      .filter((x) => x !== '')
      .join(' '),
    reference: NODEPOOL_REFERENCE,
    objects: [
      { kind: 'NodePool', name, ...ns(seen.object.metadata.namespace) },
      { kind: 'MachineDeployment', name: mdName, namespace: cpNamespace },
      ...(setName ? [{ kind: 'MachineSet', name: setName, namespace: cpNamespace }] : []),
      ...r.created.map((m) => ({ kind: 'Machine', name: m.object.metadata.name, namespace: cpNamespace })),
    ],
    refs: [seen.ref, r.md.ref, ...(r.machineSet ? [r.machineSet.ref] : [])],
  };
}

function formatMinutes(ms: Millis): string {
  const m = Math.floor(ms / 60_000);
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m` : `${m}m`;
}

/**
 * What the NodePool reports, when the target's version is not known: certainly not the target once
 * UpdatingVersion=True says the version changes; perhaps not when its release image is not the image
 * the HostedCluster's histories give that version (the same release may be named by tag and by digest).
 */
function staleVersionOf(
  hc: HostedClusterShape,
  targetImage: string | undefined,
  targetVersion: string | undefined,
  reportedVersion: string | undefined,
  updatingVersion: boolean | undefined,
): { version: string; certain: boolean } | undefined {
  if (targetVersion !== undefined || reportedVersion === undefined || targetImage === undefined)
    return undefined;
  if (updatingVersion === true) return { version: reportedVersion, certain: true };
  for (const [image, version] of versionsByImage(hc)) {
    if (version === reportedVersion && image !== targetImage)
      return { version: reportedVersion, certain: false };
  }
  return undefined;
}

function nodePoolOf(
  seen: Observed<NodePoolShape>,
  hc: Observed<HostedClusterShape>,
  cpNamespace: string,
  objects: HostedObjects,
  nodes: ReadonlyMap<string, Observed<Node>>,
  now: Millis,
  /** status --at before the snapshot: the Cluster API objects' annotations are as last seen. */
  annotationsAsLastSeen: boolean,
): { status: NodePoolStatus; insights: Insight[]; updating: boolean; note?: string } {
  const np = seen.object;
  const name = np.metadata.name;
  const npObject = { kind: 'NodePool', name, ...ns(np.metadata.namespace) };
  const insights: Insight[] = [];
  const targetImage = np.spec?.release?.image || undefined;
  const targetVersion =
    (targetImage ? versionsByImage(hc.object).get(targetImage) : undefined) ?? ownTarget(np);
  const inPlace = np.spec?.management?.upgradeType === 'InPlace';
  const paused = isPaused(np, now);
  const md = deploymentOf(np, cpNamespace, objects.machineDeployments);
  const poolKey = key(np.metadata.namespace, np.metadata.name);
  const ofNodePool = (meta: Meta) => {
    const named = meta.annotations?.[NODEPOOL_ANNOTATION];
    return named !== undefined ? named === poolKey : meta.name === np.metadata.name;
  };
  const sets = objects.machineSets.filter(
    (s) =>
      s.object.metadata.namespace === cpNamespace &&
      (md
        ? ownedBy(s.object.metadata, 'MachineDeployment') === md.object.metadata.name
        : // InPlace: the NodePool's own MachineSet, with no MachineDeployment (hypershift-operator
          // reconcileMachineSet), known by its nodePool annotation or its name.
          inPlace && ofNodePool(s.object.metadata)),
  );
  const currentSets = new Set(
    sets
      // InPlace: the NodePool's one MachineSet is its current template.
      .filter(
        (s) =>
          (md === undefined && inPlace) ||
          (md !== undefined && sameTemplate(s.object.spec?.template, md.object.spec?.template)),
      )
      .map((s) => s.object.metadata.name),
  );
  const ownerMissing = inPlace ? sets.length === 0 : md === undefined;
  const targetConfigVersion = new Map<string, string>();
  const doneConfigVersion = new Map<string, string>();
  for (const s of sets) {
    const t = s.object.metadata.annotations?.[TARGET_CONFIG_VERSION];
    if (t) targetConfigVersion.set(s.object.metadata.name, t);
    // The MachineSet's current config at its target: the in-place upgrade finished on every node.
    if (t && s.object.metadata.annotations?.[CURRENT_CONFIG_VERSION] === t)
      doneConfigVersion.set(s.object.metadata.name, t);
  }
  const setNames = new Set(sets.map((s) => s.object.metadata.name));
  const machinesSeen = objects.machines.filter(
    (m) =>
      m.object.metadata.namespace === cpNamespace &&
      setNames.has(ownedBy(m.object.metadata, 'MachineSet') ?? ''),
  );
  // When the current template got its MachineSet: a NodePool updating since after that has not had its
  // template bumped yet (paused, or its payload not generated), so its Machines being on the current
  // template says nothing about the update (as nodepool-stuck-updating).
  let templateSince: Millis | undefined;
  for (const s of sets) {
    const t = currentSets.has(s.object.metadata.name)
      ? parseTime(s.object.metadata.creationTimestamp)
      : undefined;
    if (t !== undefined && (templateSince === undefined || t > templateSince)) templateSince = t;
  }
  const updatingVersion = truth(cond(np, 'UpdatingVersion'));
  const updatingConfig = truth(cond(np, 'UpdatingConfig'));
  const reportedVersion = np.status?.version || undefined;
  const progress = inPlace
    ? inPlaceProgress(np, sets, machinesSeen, nodes, annotationsAsLastSeen)
    : undefined;
  const failure = inPlace ? inPlaceFailure(np, sets, machinesSeen, nodes, annotationsAsLastSeen) : undefined;
  const waitingOn = waitingOf(
    np,
    inPlace,
    templateSince,
    progress !== undefined && progress !== 'begun' ? progress : undefined,
  );
  const ctx: MachineContext = {
    targetVersion,
    staleVersion: staleVersionOf(hc.object, targetImage, targetVersion, reportedVersion, updatingVersion),
    targetImage,
    ...(waitingOn ? { waiting: waitingOn.message } : {}),
    currentSets,
    targetConfigVersion,
    doneConfigVersion,
    // A version change under way: a Machine stamped with the target release, which the in-place
    // upgrader sets once its node finished, while the NodePool still reports another version.
    versionChanging: np.status?.version !== undefined && np.status.version !== targetVersion,
    inPlace,
    ...(failure?.node ? { inPlaceDegraded: { node: failure.node } } : {}),
    paused,
    nodes,
    now,
  };
  const machines: NodePoolMachine[] = [];
  // Machines not made from the current template at the target (a Machine being created or deleted
  // from it is a scale or a repair, not a rollout's leftover).
  const notRolled = new Set<string>();
  for (const m of machinesSeen) {
    const r = assessMachine(m, ctx);
    machines.push(r.machine);
    insights.push(...r.insights);
    if (!r.rolled) notRolled.add(r.machine.name);
  }
  machines.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const total = machines.length;
  const updated = machines.filter((m) => m.updated).length;
  const oldMachines = machines.filter((m) => !m.currentMachineSet && !inPlace).length;
  const autoscaling = np.spec?.autoScaling != null;
  const desiredReplicas = autoscaling ? undefined : (np.spec?.replicas ?? undefined);

  const payload = cond(np, 'ValidGeneratedPayload');
  if (payload?.status === 'False') {
    const since = parseTime(payload.lastTransitionTime);
    insights.push({
      kind: 'nodepool-invalid-payload',
      level: 'Error',
      impact: 'Update Stalled',
      scope: 'WorkerPool',
      ...(since !== undefined ? { since } : {}),
      message: `NodePool ${name} has no valid generated payload${payload.reason && conditionTextKnown(payload) ? ` (${payload.reason})` : ''}: its rollout cannot begin`,
      description: (conditionTextKnown(payload) && payload.message) || 'ValidGeneratedPayload=False',
      reference: NODEPOOL_REFERENCE,
      objects: [npObject],
      refs: [seen.ref],
    });
  }
  if (failure) insights.push(inPlaceFailureInsight(seen, failure, machines, cpNamespace));
  // Machines the MachineDeployment counts and the inputs lack (a partial gather): not "no Machines".
  const machinesMissing =
    !inPlace && md && machinesSeen.length === 0
      ? (md.object.status?.v1beta2?.replicas ?? md.object.status?.replicas ?? 0)
      : 0;
  // Replace: a template moved and no step taken (a paused NodePool, or one whose template was not
  // bumped yet, waits, and says so otherwise).
  const notStarted =
    !inPlace && md && !paused && !waitingOn
      ? rolloutNotStarted(np, md, sets, currentSets, machinesSeen, annotationsAsLastSeen)
      : undefined;
  if (
    notStarted &&
    (notStarted.paused || (notStarted.since !== undefined && now - notStarted.since >= ROLLOUT_START_MS))
  )
    insights.push(rolloutNotStartedInsight(seen, notStarted, now, cpNamespace));
  // InPlace: the MachineSet's target not taken up by the in-place upgrader (which retries every few
  // seconds until the target's payload exists) for as long, with no condition saying why (those that
  // do are quoted in `waiting`, and an invalid payload is its own Error).
  const untaken = waitingOn?.inPlace;
  if (untaken && !paused && !waitingOn.conditions.some((c) => c.status === 'False')) {
    const since = Math.max(...waitingOn.conditions.map((c) => c.since ?? Number.NEGATIVE_INFINITY));
    if (Number.isFinite(since) && now - since >= ROLLOUT_START_MS) {
      const set = sets.find((x) => x.object.metadata.name === untaken.machineSet);
      insights.push({
        kind: 'nodepool-rollout-not-started',
        level: 'Warning',
        impact: 'Update Stalled',
        scope: 'WorkerPool',
        since,
        message: `The rollout of NodePool ${name} has not started: the in-place upgrader has not taken up MachineSet ${untaken.machineSet}'s target config ${untaken.targetConfigVersion} in ${formatMinutes(now - since)}`,
        description:
          `MachineSet ${untaken.machineSet} targets config ${untaken.targetConfigVersion} and is on ${untaken.currentConfigVersion}; ` +
          `${waitingOn.conditions.map((c) => `${c.type}=True`).join(', ')} since ${new Date(since).toISOString().replace('.000Z', 'Z')}, and none of the upgrader's marks is there ` +
          "(no nodePoolUpgradeInProgressTrue/False annotation, no Node given the target). The in-place upgrader retries every few seconds until the target's payload exists, then marks the MachineSet.",
        reference: NODEPOOL_REFERENCE,
        objects: [npObject, { kind: 'MachineSet', name: untaken.machineSet, namespace: cpNamespace }],
        refs: [seen.ref, ...(set ? [set.ref] : [])],
      });
    }
  }
  const rolledOut = total > 0 && updated === total && machines.every((m) => !m.updating) && oldMachines === 0;
  for (const [type, flag] of [
    ['UpdatingVersion', updatingVersion],
    ['UpdatingConfig', updatingConfig],
  ] as const) {
    const c = cond(np, type);
    const since = parseTime(c?.lastTransitionTime);
    const templateOlder =
      !inPlace && templateSince !== undefined && since !== undefined && templateSince < since;
    if (
      flag === true &&
      rolledOut &&
      !templateOlder &&
      since !== undefined &&
      now - since >= STUCK_UPDATING_MS
    ) {
      insights.push({
        kind: 'nodepool-stuck-updating',
        level: 'Warning',
        impact: 'Update Speed',
        scope: 'WorkerPool',
        since,
        message: `NodePool ${name} still reports ${type}=True although every Machine is rolled out`,
        description:
          `All ${total} Machines are in the current MachineSet${targetVersion ? ` at ${targetVersion}` : ''}, yet ${type} has been True since ` +
          `${c?.lastTransitionTime}. A stale annotation kept NodePools in this state in OCPBUGS-92013 (openshift/hypershift PR 8821).`,
        reference: 'https://issues.redhat.com/browse/OCPBUGS-92013',
        objects: [npObject],
        refs: [seen.ref],
      });
    }
  }
  const claimsLevel =
    targetVersion !== undefined && reportedVersion === targetVersion && updatingVersion === false;
  // InPlace, a Machine at the version and behind only in config (a day-2 change) does not contradict
  // a version the NodePool reports.
  const stillOld = machines.filter(
    (m) => notRolled.has(m.name) && !(inPlace && m.version !== undefined && m.version === targetVersion),
  );
  if (claimsLevel && stillOld.length > 0) {
    const since = parseTime(cond(np, 'UpdatingVersion')?.lastTransitionTime);
    insights.push({
      ...(since !== undefined ? { since } : {}),
      kind: 'nodepool-level-before-rollout',
      level: 'Error',
      impact: 'Update Stalled',
      scope: 'WorkerPool',
      message: `NodePool ${name} reports ${reportedVersion} with UpdatingVersion=False while ${stillOld.length} of ${plural(total, 'Machine')} ${stillOld.length === 1 ? 'is' : 'are'} not rolled out`,
      description:
        `Not rolled out: ${stillOld.map((m) => `${m.name} (${m.machineSet ?? 'no MachineSet'})`).join(', ')}. ` +
        'A NodePool declared its rollout complete this way in OCPBUGS-77922 (Cluster API v1beta1 UpdatedReplicas against v1beta2 upToDateReplicas).',
      reference: 'https://issues.redhat.com/browse/OCPBUGS-77922',
      objects: [
        npObject,
        ...stillOld.map((m) => ({ kind: 'Machine', name: m.name, namespace: cpNamespace })),
      ],
      refs: [seen.ref],
    });
  }
  if (paused && !rolledOut && total > 0) {
    insights.push({
      kind: 'pool-paused',
      level: 'Info',
      impact: 'Update Stalled',
      scope: 'WorkerPool',
      message: `NodePool ${name} is paused (pausedUntil ${np.spec?.pausedUntil}): ${plural(total - updated, 'Machine')} will not be updated`,
      description: 'spec.pausedUntil stops the NodePool controller from reconciling, so no rollout proceeds.',
      reference: NODEPOOL_REFERENCE,
      objects: [npObject],
      refs: [seen.ref],
    });
  }
  return {
    status: {
      namespace: np.metadata.namespace ?? '',
      name,
      ...(np.spec?.management?.upgradeType ? { upgradeType: np.spec.management.upgradeType } : {}),
      paused,
      // Without its MachineDeployment (Replace) or MachineSet (InPlace), a partial dump: its Machines
      // cannot be told apart, which is not "no Machines".
      // The upgrader at work with no node changed yet (between two nodes, or picking the first): under
      // way, not waiting.
      assessment: ownerMissing
        ? 'Unknown'
        : progress === 'begun' && poolAssessment(machines, paused, total) === 'Pending'
          ? 'Progressing'
          : poolAssessment(machines, paused, total),
      ...(targetVersion ? { targetVersion } : {}),
      ...(targetImage ? { targetImage } : {}),
      ...(reportedVersion ? { reportedVersion } : {}),
      ...(updatingVersion !== undefined ? { updatingVersion } : {}),
      ...(updatingConfig !== undefined ? { updatingConfig } : {}),
      ...(waitingOn ? { waiting: waitingOn } : {}),
      ...(desiredReplicas != null ? { desiredReplicas } : {}),
      autoscaling,
      updated,
      total,
      completionPercent: percent(updated, total),
      counts: counts(machines),
      oldMachines,
      machines,
      ref: seen.ref,
    },
    insights,
    ...(ownerMissing
      ? {
          note: `NodePool ${name}: its ${inPlace ? 'MachineSet' : 'MachineDeployment'} is not in the inputs (namespace ${cpNamespace}), so its Machines are not assessed.`,
        }
      : machinesMissing > 0
        ? {
            note: `NodePool ${name}: its MachineDeployment counts ${plural(machinesMissing, 'Machine')} and the inputs hold none of them (namespace ${cpNamespace}): its Machines, and whether its rollout has started, are not known.`,
          }
        : {}),
    // Updating: the NodePool says so, or a Machine is not from its current template at the target. An
    // autoscaler's scale-up or a repair after the rollout is not an update.
    updating: updatingVersion === true || updatingConfig === true || notRolled.size > 0,
  };
}

function byName<T extends { metadata: Meta }>(list: readonly Observed<T>[]): Observed<T>[] {
  const k = (o: Observed<T>) => key(o.object.metadata.namespace, o.object.metadata.name);
  return [...list].sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
}

/** Which HostedCluster a status is about: `selector` (`ns/name` or a unique `name`), else the only one. */
export function pickHostedCluster(
  objects: HostedObjects,
  selector: string | undefined,
): Observed<HostedClusterShape> | string {
  const all = objects.hostedClusters;
  if (selector === undefined) {
    if (all.length === 1 && all[0]) return all[0];
    return all.length === 0
      ? 'no HostedCluster found'
      : `${all.length} HostedClusters found (${hostedClusterNames(objects).join(', ')}): choose one with --hosted-cluster NAMESPACE/NAME`;
  }
  const slash = selector.indexOf('/');
  const hits = all.filter((h) =>
    slash === -1
      ? h.object.metadata.name === selector
      : key(h.object.metadata.namespace, h.object.metadata.name) === selector,
  );
  if (hits.length === 1 && hits[0]) return hits[0];
  return hits.length === 0
    ? `no HostedCluster ${selector} (found: ${hostedClusterNames(objects).join(', ') || 'none'})`
    : `${hits.length} HostedClusters are named ${selector}: give NAMESPACE/NAME`;
}

export function assessHostedStatus(
  given: HostedObjects,
  hcSeen: Observed<HostedClusterShape>,
  opts: HostedStatusOptions = {},
): HostedStatus {
  // By namespace and name, whatever order the inputs listed them in (files keep theirs, an API server sorts).
  const objects: HostedObjects = {
    hostedClusters: byName(given.hostedClusters),
    controlPlaneComponents: byName(given.controlPlaneComponents),
    nodePools: byName(given.nodePools),
    machineDeployments: byName(given.machineDeployments),
    machineSets: byName(given.machineSets),
    machines: byName(given.machines),
  };
  const hc = hcSeen.object;
  const hcNs = hc.metadata.namespace ?? '';
  const cpNamespace = `${hcNs}-${hc.metadata.name}`;
  const now = opts.now ?? hostedSnapshotNow(objects) ?? 0;
  const components = objects.controlPlaneComponents.filter(
    (c) => c.object.metadata.namespace === cpNamespace,
  );
  const cp = controlPlaneOf(hc, components, now);
  const guestOperands =
    opts.guestOperands ?? (opts.guest ? operandsAsLastSeen(operandsByOperator(opts.guest), now) : undefined);
  const guest = guestOf(hc, opts, guestOperands ?? { of: () => [], notes: [] });
  const nodes = new Map<string, Observed<Node>>();
  for (const n of opts.guest?.objects.nodes ?? []) nodes.set(n.object.metadata.name, n);

  const insights: Insight[] = [...cp.insights];
  const notes: string[] = [];
  const pools: NodePoolStatus[] = [];
  const updatingPools = new Set<NodePoolStatus>();
  const ofCluster = (np: NodePoolShape) =>
    np.metadata.namespace === hcNs && np.spec?.clusterName === hc.metadata.name;
  for (const np of objects.nodePools) {
    if (!ofCluster(np.object)) continue;
    const r = nodePoolOf(np, hcSeen, cpNamespace, objects, nodes, now, opts.specAsLastSeen === true);
    pools.push(r.status);
    if (r.updating) updatingPools.add(r.status);
    if (r.note) notes.push(r.note);
    insights.push(...r.insights);
  }
  pools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // NodePools the control-plane namespace's Cluster API objects name (hypershift annotates them with
  // `namespace/name`) but the inputs do not hold: a partial gather, not a cluster without workers.
  const assessed = new Set(pools.map((p) => key(p.namespace, p.name)));
  const named = new Set<string>();
  for (const list of [objects.machineDeployments, objects.machineSets, objects.machines]) {
    for (const o of list as readonly Observed<{ metadata: Meta }>[]) {
      const np = o.object.metadata.annotations?.[NODEPOOL_ANNOTATION];
      if (o.object.metadata.namespace === cpNamespace && np && !assessed.has(np)) named.add(np);
    }
  }
  const nodePoolsNotRead = [...named].sort();
  if (nodePoolsNotRead.length > 0) {
    notes.push(
      `${plural(nodePoolsNotRead.length, 'NodePool')} named by the Cluster API objects of ${cpNamespace} ${nodePoolsNotRead.length === 1 ? 'is' : 'are'} not in the inputs (${nodePoolsNotRead.join(', ')}): ${nodePoolsNotRead.length === 1 ? 'its' : 'their'} Machines are not assessed, and whether ${nodePoolsNotRead.length === 1 ? 'it updates' : 'they update'} is not known.`,
    );
  } else if (pools.length === 0 && nodes.size > 0) {
    notes.push(
      `No NodePool of this hosted cluster is in the inputs, yet the guest has ${plural(nodes.size, 'Node')}: the data plane is not assessed.`,
    );
  }
  const dataPlaneUnread = nodePoolsNotRead.length > 0 || (pools.length === 0 && nodes.size > 0);

  if (guest.failing === true) {
    const c = cond(hc, 'ClusterVersionFailing');
    const since = parseTime(c?.lastTransitionTime);
    insights.push({
      kind: 'clusterversion-failing',
      level: 'Error',
      impact: 'Update Stalled',
      scope: 'Cluster',
      ...(since !== undefined ? { since } : {}),
      message: `The guest cluster's version operator reports Failing${c?.reason ? ` (${c.reason})` : ''}`,
      description: c?.message || 'ClusterVersionFailing=True on the HostedCluster',
      objects: [{ kind: 'HostedCluster', name: hc.metadata.name, ...ns(hcNs) }],
      refs: [hcSeen.ref],
    });
  }
  const pending = pendingRequest(
    hc,
    components,
    objects.nodePools.filter((np) => ofCluster(np.object)),
  );
  // Rewound, the spec (and a component's version) may be newer than the moment.
  const undated = pending !== undefined && opts.specAsLastSeen === true;
  const request = undated ? undefined : pending;
  if (undated) {
    notes.push(
      `${pending.field} names ${pending.version ?? pending.image}, which the HostedCluster's histories do not hold; the spec is as last seen and when it was set is recorded nowhere, so whether that update had been requested at this moment is not known.`,
    );
  }
  // Begun on the control plane (a component already at it) is under way, not stalled.
  if (request && request.componentsAtRequest.length === 0) insights.push(requestInsight(hcSeen, request));
  insights.push(...(opts.guestInsights ?? []));
  // After the guest's operators asked for their operands (status --at: those not placed in time).
  notes.push(...(guestOperands?.notes ?? []).map((n) => `Guest: ${n}`));

  if (cp.status.versionSource === 'version') {
    notes.push(
      'The HostedCluster has no status.controlPlaneVersion (hypershift before 2026): the control plane is assessed from status.version, the guest CVO’s history, which also covers data-plane operators.',
    );
  }
  if (components.length === 0) {
    notes.push(`No ControlPlaneComponents found in ${cpNamespace}: the components' progress is unknown.`);
  }
  if (!opts.guest) {
    notes.push(
      'The guest cluster was not read: Machines are assessed without their Nodes (give --guest-kubeconfig, or a dump taken with --dump-guest-cluster).',
    );
  }
  for (const p of pools) {
    if (p.targetImage && !p.targetVersion) {
      notes.push(
        `NodePool ${p.name}: its release ${p.targetImage} is not in the HostedCluster's histories, so its target version is not known.`,
      );
    }
  }

  // A component already at a requested release the histories do not hold yet: the control plane has
  // begun it, whatever the previous entry says.
  const cpUpdating =
    cp.status.assessment === 'Progressing' ||
    (request !== undefined && request.componentsAtRequest.length > 0);
  const poolsUpdating = pools.some(
    (p) =>
      updatingPools.has(p) &&
      (p.assessment === 'Progressing' || p.assessment === 'Pending' || p.assessment === 'Degraded'),
  );
  const installing =
    cp.status.previousVersion === undefined &&
    cp.status.assessment === 'Progressing' &&
    (hc.status?.controlPlaneVersion?.history ?? hc.status?.version?.history ?? []).length === 1;
  const updating = !installing && (cpUpdating || poolsUpdating);
  const lastCompleted = (
    cp.status.versionSource === 'controlPlaneVersion' ? hc.status?.controlPlaneVersion : hc.status?.version
  )?.history?.find((e) => e.state === 'Completed')?.version;

  return {
    evaluatedAt: now,
    evaluatedAtSource: opts.now !== undefined ? 'flag' : 'snapshot',
    unrewound: [],
    hostedCluster: {
      namespace: hcNs,
      name: hc.metadata.name,
      controlPlaneNamespace: cpNamespace,
      ref: hcSeen.ref,
    },
    state: installing ? 'installing' : updating ? 'updating' : 'idle',
    updating,
    ...(lastCompleted ? { currentVersion: lastCompleted } : {}),
    ...(request ? { request } : {}),
    nodePoolsNotRead,
    dataPlaneUnread,
    controlPlane: cp.status,
    guest,
    nodePools: pools,
    insights: sortInsights(insights),
    notes,
  };
}
