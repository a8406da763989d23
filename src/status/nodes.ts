/**
 * One node's place in the update, from the machine-config daemon's annotations and the rendered
 * configs they name (docs/domain.md 9.2, docs/domain.md 4.1–4.2). The version of a node is the
 * `release-image-version` of its current rendered config; the pool counters are not used, because
 * they count configs, not versions (in a paused pool they read 3/3 while every node is outdated).
 */
import type { Observed } from '../model/index.js';
import { type MachineConfigPool, MCO, type Millis, type Node, parseTime } from '../model/index.js';
import { conditionStatusKnown, conditionTextKnown } from '../timeline/index.js';
import { TIME } from './estimate.js';
import { REFERENCES } from './insights.js';
import type { Insight, NodeAssessment, NodePhase, NodeStatus } from './types.js';
import type { ConfigVersion } from './versions.js';

const UNAVAILABLE_REASON = {
  daemonWorking: 'Machine Config Daemon is processing the node',
  unschedulable: 'Node is marked unschedulable',
  notReady: 'Not ready',
  diskPressure: 'Disk pressure',
  networkUnavailable: 'Network unavailable',
} as const;

interface UnavailableCause {
  readonly reason: string;
  /** Undefined when status --at could not tell the condition's message then. */
  readonly message: string | undefined;
  readonly since?: Millis;
}

/** Why a node cannot take workloads, as the MCO's node controller judges it (maxUnavailable accounting). */
function unavailableCauses(node: Node): UnavailableCause[] {
  const causes: UnavailableCause[] = [];
  for (const c of node.status?.conditions ?? []) {
    // A condition whose status the timeline could not rewind (status --at) is unknown, not bad.
    if (!conditionStatusKnown(c)) continue;
    const since = parseTime(c.lastTransitionTime);
    const at = since !== undefined ? { since } : {};
    const message = conditionTextKnown(c) ? (c.message ?? '') : undefined;
    if (c.type === 'Ready' && c.status !== 'True') {
      causes.push({ reason: UNAVAILABLE_REASON.notReady, message, ...at });
    } else if (c.type === 'DiskPressure' && c.status !== 'False') {
      causes.push({ reason: UNAVAILABLE_REASON.diskPressure, message, ...at });
    } else if (c.type === 'NetworkUnavailable' && c.status !== 'False') {
      causes.push({ reason: UNAVAILABLE_REASON.networkUnavailable, message, ...at });
    }
  }
  if (node.spec?.unschedulable) causes.push({ reason: UNAVAILABLE_REASON.unschedulable, message: '' });
  if (causes.length > 0) return causes;
  const a = node.metadata.annotations ?? {};
  const current = a[MCO.currentConfig] ?? '';
  const desired = a[MCO.desiredConfig] ?? '';
  const state = a[MCO.state] ?? '';
  const done = current !== '' && current === desired && state === 'Done';
  // A failing daemon may be retargeted, so the MCO does not count it as unavailable.
  if (!done && state !== 'Degraded' && state !== 'Unreconcilable') {
    causes.push({ reason: UNAVAILABLE_REASON.daemonWorking, message: '' });
  }
  return causes;
}

/**
 * Unavailable in a way that needs an admin: not ready for over 5 minutes, disk or network pressure
 * for over a minute. Cordoning and the daemon's own work are part of a normal update.
 */
function seriousCauses(causes: readonly UnavailableCause[], now: Millis): UnavailableCause[] {
  return causes.filter((c) => {
    if (c.reason === UNAVAILABLE_REASON.unschedulable || c.reason === UNAVAILABLE_REASON.daemonWorking)
      return false;
    const age = c.since === undefined ? Number.POSITIVE_INFINITY : now - c.since;
    if (c.reason === UNAVAILABLE_REASON.notReady) return age >= 5 * TIME.MINUTE;
    return age >= TIME.MINUTE;
  });
}

function isDraining(annotations: Readonly<Record<string, string>>, updating: boolean): boolean {
  const desired = annotations[MCO.desiredDrain] ?? '';
  const applied = annotations[MCO.lastAppliedDrain] ?? '';
  if (desired !== '' && applied !== '' && desired !== applied && desired.split('-')[0] === 'drain')
    return true;
  // Targeted but the daemon has not yet moved from Done to Working: it is about to drain.
  return updating && annotations[MCO.state] === 'Done';
}

function phaseWhileUpdating(state: string): NodePhase {
  if (state === 'Rebooting') return 'Rebooting';
  if (state === 'Done') return 'Updated';
  return 'Updating';
}

const PHASE_ASSESSMENT: Record<NodePhase, NodeAssessment> = {
  Paused: 'Excluded',
  Pending: 'Outdated',
  Draining: 'Progressing',
  Updating: 'Progressing',
  Rebooting: 'Progressing',
  Updated: 'Completed',
  Unknown: 'Unknown',
};

const PHASE_TIME_LEFT: Record<NodePhase, Millis | undefined> = {
  Paused: 0,
  Pending: undefined,
  Draining: 10 * TIME.MINUTE,
  Updating: 5 * TIME.MINUTE,
  Rebooting: 5 * TIME.MINUTE,
  Updated: 0,
  Unknown: undefined,
};

export interface NodeContext {
  readonly pool: MachineConfigPool;
  /** ClusterVersion history[0].version: what "updated" means. */
  readonly targetVersion: string | undefined;
  /** rendered MachineConfig name → the OpenShift version it carries. */
  readonly configVersions: ReadonlyMap<string, ConfigVersion>;
  readonly now: Millis;
  /**
   * Set when the update keeps the version string but changes the payload (a new build, a migration to
   * the multi-architecture payload): the level is the payload, so a node is updated only on a config
   * rendered since this moment (the update's start), with its creation time in `configCreated`.
   */
  readonly payloadSince?: Millis;
  readonly configCreated?: ReadonlyMap<string, Millis>;
  /**
   * A migration to the multi-architecture payload is in progress: oc's rule, a node is updated only
   * when its current config, its desired config and the pool's target config are one.
   */
  readonly multiArchInProgress?: boolean;
  /**
   * status --at could not tell this node's config then (the rewind removed its MCO annotations): its
   * phase is Unknown, and the missing annotations do not make it "Machine Config Daemon is processing".
   */
  readonly configUnknown?: boolean;
}

/** The config was rendered for the current payload, or nothing says otherwise. */
function renderedForPayload(ctx: NodeContext, config: string): boolean {
  if (ctx.payloadSince === undefined) return true;
  const created = ctx.configCreated?.get(config);
  return created === undefined || created >= ctx.payloadSince;
}

export interface NodeAnalysis {
  readonly status: NodeStatus;
  readonly insights: Insight[];
}

export function assessNode(seen: Observed<Node>, ctx: NodeContext): NodeAnalysis {
  const node = seen.object;
  const name = node.metadata.name;
  const poolName = ctx.pool.metadata.name;
  const a = node.metadata.annotations ?? {};
  const currentConfig = a[MCO.currentConfig] ?? '';
  const desiredConfig = a[MCO.desiredConfig] ?? '';
  const state = a[MCO.state] ?? '';
  const current = ctx.configVersions.get(currentConfig);
  const currentVersion = current?.version;
  const desiredVersion = ctx.configVersions.get(desiredConfig)?.version;
  const poolTarget = ctx.pool.spec?.configuration?.name ?? '';
  const target = ctx.targetVersion;

  const causes = unavailableCauses(node).filter(
    (c) => !(ctx.configUnknown && c.reason === UNAVAILABLE_REASON.daemonWorking),
  );
  const unavailable = causes.length > 0;
  const degraded = desiredConfig !== '' && (state === 'Degraded' || state === 'Unreconcilable');
  const updated =
    currentVersion !== undefined &&
    target !== undefined &&
    currentVersion === target &&
    renderedForPayload(ctx, currentConfig) &&
    (!ctx.multiArchInProgress || (currentConfig === desiredConfig && currentConfig === poolTarget));
  const updating =
    !updated &&
    currentVersion !== undefined &&
    desiredVersion !== undefined &&
    desiredVersion === target &&
    renderedForPayload(ctx, desiredConfig) &&
    currentConfig !== desiredConfig &&
    desiredConfig === poolTarget;

  let phase: NodePhase;
  if (ctx.configUnknown) phase = 'Unknown';
  else if (updating && isDraining(a, updating)) phase = 'Draining';
  else if (updating) phase = phaseWhileUpdating(state);
  else if (updated) phase = 'Updated';
  else if (ctx.pool.spec?.paused) phase = 'Paused';
  else phase = 'Pending';

  let assessment = PHASE_ASSESSMENT[phase];
  let timeLeft = PHASE_TIME_LEFT[phase];
  let message = '';
  if (unavailable && !updating) {
    assessment = 'Unavailable';
    message = causes.map((c) => c.reason).join(' | ');
    timeLeft = updated ? 0 : undefined;
  }
  if (degraded) {
    assessment = 'Degraded';
    message = a[MCO.reason] ?? '';
    timeLeft = updated ? 0 : undefined;
  }

  const insights: Insight[] = [];
  const scope = poolName === 'master' ? 'ControlPlane' : 'WorkerPool';
  const objects = [{ kind: 'Node', name }];
  const serious = seriousCauses(causes, ctx.now);
  if (serious.length > 0 && !updating) {
    const since = serious.reduce<Millis | undefined>(
      (min, c) => (c.since !== undefined && (min === undefined || c.since < min) ? c.since : min),
      undefined,
    );
    insights.push({
      kind: 'node-unavailable',
      level: 'Warning',
      impact: 'Update Speed',
      scope,
      ...(since !== undefined ? { since } : {}),
      message: serious.map((c) => unavailableSummary(name, c.reason)).join(' | '),
      description: serious.map(unavailableDescription).join(' | '),
      reference: REFERENCES.machineConfig,
      objects,
      refs: [seen.ref],
    });
  }
  if (degraded) {
    insights.push({
      kind: 'node-degraded',
      level: 'Error',
      impact: 'Update Stalled',
      scope,
      message: `Node ${name} is degraded`,
      description: a[MCO.reason] || `the machine-config daemon reports state ${state}`,
      reference: REFERENCES.machineConfig,
      objects,
      refs: [seen.ref],
    });
  }

  const status: NodeStatus = {
    name,
    pool: poolName,
    assessment,
    phase,
    ...(current !== undefined ? { version: current.version, versionSource: current.source } : {}),
    ...(timeLeft !== undefined ? { timeLeft } : {}),
    message,
    ...(currentConfig ? { currentConfig } : {}),
    ...(desiredConfig ? { desiredConfig } : {}),
    ...(state ? { daemonState: state } : {}),
    updated,
    updating,
    unavailable,
    degraded,
    ref: seen.ref,
  };
  return { status, insights };
}

function unavailableSummary(node: string, reason: string): string {
  if (reason === UNAVAILABLE_REASON.notReady) return `Node ${node} is not ready`;
  if (reason === UNAVAILABLE_REASON.diskPressure) return `Node ${node} has disk pressure`;
  if (reason === UNAVAILABLE_REASON.networkUnavailable) return `Node ${node} has unavailable network`;
  return reason;
}

function unavailableDescription(c: UnavailableCause): string {
  const condition =
    c.reason === UNAVAILABLE_REASON.notReady
      ? 'Ready!=True'
      : c.reason === UNAVAILABLE_REASON.diskPressure
        ? 'DiskPressure!=False'
        : c.reason === UNAVAILABLE_REASON.networkUnavailable
          ? 'NetworkUnavailable!=False'
          : undefined;
  if (!condition) return c.reason;
  return c.message === undefined
    ? `Node has a ${condition} condition; its message then is not known (not rewound)`
    : `Node has a ${condition} condition with message "${c.message}"`;
}

const ASSESSMENT_ORDER: Record<NodeAssessment, number> = {
  Degraded: 0,
  Unavailable: 1,
  Progressing: 2,
  Excluded: 3,
  Outdated: 4,
  Unknown: 5,
  Completed: 6,
};
const PHASE_ORDER: Record<NodePhase, number> = {
  Draining: 0,
  Updating: 1,
  Rebooting: 2,
  Paused: 3,
  Pending: 4,
  Unknown: 5,
  Updated: 6,
};

/** Problems first, then work in progress, then waiting, then done; by name within each. */
export function compareNodes(a: NodeStatus, b: NodeStatus): number {
  return (
    ASSESSMENT_ORDER[a.assessment] - ASSESSMENT_ORDER[b.assessment] ||
    PHASE_ORDER[a.phase] - PHASE_ORDER[b.phase] ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}
