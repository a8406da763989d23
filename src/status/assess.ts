/**
 * Put the parts together: one ClusterHistory and a moment in, one UpdateStatus out. Pure: no files,
 * no clock, no network, so a live cluster (a later source) gets the same analysis.
 */

import type { ClusterHistory, Observed } from '../model/index.js';
import {
  type ClusterVersion,
  findCondition,
  formatDuration,
  formatTime,
  type MachineConfigPool,
  MCO,
  type Millis,
  type Node,
  parseTime,
} from '../model/index.js';
import { conditionStatusKnown, findUpdates, operandsByOperator, updateConfig } from '../timeline/index.js';
import { alertInsights, normalizeAlerts } from './alerts.js';
import { assessControlPlane, isPlatformOperator, reasonText } from './controlplane.js';
import { drainInsights } from './drain.js';
import { isSerious, REFERENCES, sortInsights } from './insights.js';
import { assessNode, compareNodes } from './nodes.js';
import { snapshotNow } from './now.js';
import { type OperandsAt, operandsAsLastSeen } from './operands.js';
import { assessPool, assignNodesToPools } from './pools.js';
import { pendingRequest, requestInsight } from './request.js';
import type {
  ControlPlaneStatus,
  Insight,
  NodeStatus,
  PoolStatus,
  UpdateState,
  UpdateStatus,
} from './types.js';
import { type ConfigVersion, configVersions } from './versions.js';

export interface StatusOptions {
  /** The moment to assess; default: the latest condition change in the snapshot. */
  readonly now?: Millis;
  /**
   * Rendered config → version, when worked out on another history: a rendered config carries the
   * same release whenever it is looked at, so status at a past moment uses what the whole inputs say.
   */
  readonly configVersions?: ReadonlyMap<string, ConfigVersion>;
  /**
   * The MachineConfigPools the whole inputs hold that were created first, when status is assessed at
   * a moment before any pool existed (status at a past moment): the cluster then has no pools, and the
   * note says they came later rather than that the inputs lack them.
   */
  readonly firstPools?: FirstPools;
  /**
   * ClusterOperators whose own version at `now` is not known (status --at could not place it): their
   * progress is unknown, not "not updated".
   */
  readonly versionUnknown?: ReadonlySet<string>;
  /** Nodes whose config at `now` is not known (status --at could not place it): their phase is Unknown. */
  readonly nodeConfigUnknown?: ReadonlySet<string>;
  /**
   * The operands that have not rolled out at `now`, when worked out on another history (status --at
   * places them with the whole inputs); default: the snapshot's workloads as last seen.
   */
  readonly operands?: OperandsAt;
}

/** The pools created first (more than one when created in the same second), and when. */
export interface FirstPools {
  readonly names: readonly string[];
  readonly createdAt: Millis;
}

function clusterVersionOf(history: ClusterHistory): Observed<ClusterVersion> | undefined {
  const all = history.objects.clusterVersions;
  return all.find((c) => c.object.metadata.name === 'version') ?? all[0];
}

/** What the snapshot lacks for a status, in words for the user; undefined when it has enough. */
export function statusPrerequisites(history: ClusterHistory, opts: StatusOptions = {}): string | undefined {
  const cv = clusterVersionOf(history);
  if (!cv) return 'no ClusterVersion found, so there is no update to assess';
  if (history.objects.clusterOperators.length === 0) return 'no ClusterOperators found';
  if (
    opts.now === undefined &&
    snapshotNow(
      cv.object,
      history.objects.clusterOperators.map((o) => o.object),
    ) === undefined
  ) {
    return 'no condition in the snapshot carries a time, so "now" is unknown';
  }
  return undefined;
}

export function assessStatus(history: ClusterHistory, opts: StatusOptions = {}): UpdateStatus {
  const problem = statusPrerequisites(history, opts);
  const cvSeen = clusterVersionOf(history);
  if (problem !== undefined || !cvSeen) throw new Error(`cannot assess status: ${problem}`);
  const cv = cvSeen.object;
  const operators = history.objects.clusterOperators;
  const snapshotMoment = snapshotNow(
    cv,
    operators.map((o) => o.object),
  );
  const now = opts.now ?? (snapshotMoment as Millis);

  const operands = opts.operands ?? operandsAsLastSeen(operandsByOperator(history), now);
  const controlPlane = assessControlPlane(
    cvSeen,
    operators,
    now,
    opts.versionUnknown,
    history.mcoImage?.image,
    operands.of,
  );
  const targetVersion = cv.status?.history?.[0]?.version || undefined;
  const versions = opts.configVersions ?? configVersions(history, cv);

  const payload = payloadChange(cv, history);
  // oc (status.go): while a multi-architecture migration is in progress, a node is updated only when
  // its current and desired configs are both the pool's.
  const multiArchInProgress =
    controlPlane.status.multiArchMigration && findCondition(cv, 'Progressing')?.status === 'True';
  const membership = assignNodesToPools(history.objects.machineConfigPools, history.objects.nodes);
  const pools: PoolStatus[] = [];
  const poolInsights: Insight[] = [...membership.insights];
  for (const poolSeen of history.objects.machineConfigPools) {
    const members = membership.byPool.get(poolSeen.object.metadata.name) ?? [];
    const nodeStatuses = members.map((n) => {
      const analysis = assessNode(n, {
        pool: poolSeen.object,
        targetVersion,
        configVersions: versions,
        now,
        ...payload,
        ...(multiArchInProgress ? { multiArchInProgress } : {}),
        ...(opts.nodeConfigUnknown?.has(n.object.metadata.name) ? { configUnknown: true } : {}),
      });
      poolInsights.push(...analysis.insights);
      return analysis.status;
    });
    nodeStatuses.sort(compareNodes);
    const pool = assessPool(poolSeen, nodeStatuses);
    poolInsights.push(...pool.insights);
    pools.push(pool.status);
  }
  // Control plane first, then pools by name: the order oc prints them in.
  pools.sort((a, b) => Number(b.controlPlane) - Number(a.controlPlane) || (a.name < b.name ? -1 : 1));

  const progressing = findCondition(cv, 'Progressing')?.status === 'True';
  const workerOutdated = pools.some((p) => !p.controlPlane && p.total > 0 && p.updated < p.total);
  const rolling = completedWhilePoolRolling(history, cvSeen, pools, versions);
  const contradictions = rolling.insights;
  const history0 = cv.status?.history ?? [];
  // The installation is the first history entry; until it completes the cluster is installing, which
  // is no update (its operators are all "updating"), and never idle either.
  const installing = history0.length === 1 && history0[0]?.state !== 'Completed';
  // status --at may not know whether the CVO was Progressing then (NotRewound): the history entry,
  // Partial until the CVO completes it, then says the update was still going.
  const progressingCondition = findCondition(cv, 'Progressing');
  const progressingUnknown =
    progressingCondition === undefined ||
    progressingCondition.status === 'Unknown' ||
    !conditionStatusKnown(progressingCondition);
  const historyOpen = progressingUnknown && history0.length > 1 && history0[0]?.state === 'Partial';
  const updating = !installing && (progressing || historyOpen || workerOutdated || contradictions.length > 0);
  const request = pendingRequest(cv);
  const state: UpdateState = installing
    ? 'installing'
    : updating
      ? 'updating'
      : request
        ? 'requested'
        : 'idle';

  const insights: Insight[] = [];
  if (request) insights.push(requestInsight(cvSeen, request));
  if (updating) insights.push(...contradictions, ...controlPlane.insights, ...poolInsights);
  // A drain can hang a MachineConfig rollout even with no version change, so this runs either way;
  // only an update in progress looks ahead at the drains still to come.
  const nodeObjects = new Map<string, Observed<Node>>(
    history.objects.nodes.map((n) => [n.object.metadata.name, n]),
  );
  insights.push(
    ...drainInsights(
      history,
      pools.flatMap((p) => p.nodes),
      nodeObjects,
      updating,
    ),
  );
  if (updating) {
    insights.push(...alertInsights(normalizeAlerts(history.alerts), controlPlane.status.startedAt));
  }
  const sorted = sortInsights(insights);

  return {
    evaluatedAt: now,
    evaluatedAtSource: opts.now !== undefined ? 'flag' : 'snapshot',
    unrewound: [],
    state,
    updating,
    ...currentVersionOf(cv),
    ...(request ? { request } : {}),
    controlPlane: withBlockers(controlPlane.status, cv, sorted),
    pools,
    insights: sorted,
    notes: [
      ...notesFor(state, pools, membership.unassigned, now, opts.firstPools),
      ...rolling.notes,
      ...degradedAfterCompletion(history.objects.machineConfigPools, controlPlane.status.completedAt, now),
      ...(controlPlane.status.multiArchMigration && history.mcoImage === undefined && state === 'updating'
        ? [
            // oc compares with an empty image then, and never counts machine-config updated; atlevel
            // counts it by its version and says what it could not check (docs/status.md).
            'The inputs hold no machine-config-operator Deployment: whether machine-config runs the multi-architecture payload is not known, so it is counted by its version alone.',
          ]
        : []),
      ...(operators.length > 0 && !operators.some((o) => isPlatformOperator(o.object))
        ? [
            'No ClusterOperator in the inputs carries an include.release.openshift.io annotation, so platform operators cannot be told from add-ons: every ClusterOperator is counted.',
          ]
        : []),
      ...operands.notes,
    ],
  };
}

/** The Error insights, and what the inputs could not tell (notes). */
interface RollingCheck {
  readonly insights: Insight[];
  readonly notes: string[];
}

/**
 * Beyond oc: the CVO reported the update Completed while a pool the update requires (master, or one
 * labelled required-for-upgrade, domain.md 1.3) has nodes not yet on a config made for that version,
 * and the pool targets such a config. oc prints "not updating" here; this is the race of bug 2019850
 * seen at one moment. After the completion the MCO renders only configs made for that version, so a node
 * not on one now was not on one then either: the evidence. Only such nodes count: a node whose config is not known (no
 * machine-config annotations, its config not in the inputs, status --at could not place it) is no
 * evidence either way, and one created after the completion was not there to be waited for; those
 * alone make a note, never the Error. The pool's target may be a later config (a day-2 change rendered
 * after the completion, docs/domain.md 3.3.1): the nodes behind still show the update unfinished, and
 * the message names the later config as what it is, never as the update's.
 */
function completedWhilePoolRolling(
  history: ClusterHistory,
  cvSeen: Observed<ClusterVersion>,
  pools: readonly PoolStatus[],
  versions: ReadonlyMap<string, { readonly version: string }>,
): RollingCheck {
  const out: RollingCheck = { insights: [], notes: [] };
  const latest = cvSeen.object.status?.history?.[0];
  const completedAt = latest?.state === 'Completed' ? parseTime(latest.completionTime) : undefined;
  const version = latest?.version;
  if (completedAt === undefined || !version) return out;
  const nodeCreated = new Map<string, Millis | undefined>(
    history.objects.nodes.map((n) => [
      n.object.metadata.name,
      parseTime(n.object.metadata.creationTimestamp),
    ]),
  );
  for (const p of pools) {
    const seen = history.objects.machineConfigPools.find((o) => o.object.metadata.name === p.name);
    const required = p.controlPlane || seen?.object.metadata.labels?.[MCO.requiredForUpgrade] !== undefined;
    if (!required || p.total === 0 || p.updated === p.total || !p.targetConfig) continue;
    if (versions.get(p.targetConfig)?.version !== version) continue;
    const outdated = p.nodes.filter((n) => !n.updated);
    const unknown = outdated.filter((n) => n.phase === 'Unknown' || n.version === undefined);
    const joined = outdated.filter(
      (n) => !unknown.includes(n) && (nodeCreated.get(n.name) ?? 0) > completedAt,
    );
    const behind = outdated.filter((n) => !unknown.includes(n) && !joined.includes(n));
    const unknownText =
      unknown.length > 0
        ? ` Whether ${names(unknown)} ${unknown.length === 1 ? 'runs' : 'run'} a config made for ${version} is not known (${unknownWhy(unknown)}).`
        : '';
    const joinedText =
      joined.length > 0
        ? ` ${capitalized(names(joined))} joined the pool after the completion: not counted against it.`
        : '';
    if (behind.length === 0) {
      // Nothing known against the completion: say what is not known, never the Error. Short: a
      // note is clipped at 200 characters, and the node table names the nodes.
      if (unknown.length > 0) {
        const which = unknown.length === 1 ? names(unknown) : `${unknown.length} nodes`;
        out.notes.push(
          `Not checked against the CVO's completion: whether ${which} of pool ${p.name} ${unknown.length === 1 ? 'runs' : 'run'} the update's config (${unknownWhy(unknown)}).`,
        );
      }
      if (joined.length > 0) {
        out.notes.push(
          `${capitalized(names(joined))} joined pool ${p.name} after the CVO completed the update: not counted against the completion.`,
        );
      }
      continue;
    }
    const later = laterTargetOf(history, p.name, version, p.targetConfig);
    const at = `The CVO completed ${version} at ${formatTime(completedAt)}`;
    const count = `${behind.length} of ${p.total} nodes of pool ${p.name}`;
    const message = p.paused
      ? `${at} while pool ${p.name} is paused with ${behind.length} of ${p.total} nodes not on a config made for that version`
      : later
        ? `${at} while ${count} ${behind.length === 1 ? 'was' : 'were'} not on a config made for that version; the pool now rolls out ${p.targetConfig}, ${later}`
        : `${at} while pool ${p.name} is still rolling out rendered config ${p.targetConfig}`;
    const onWhat = behind
      .map((n) => `${n.name} on ${n.currentConfig ?? 'an unnamed config'} (${n.version})`)
      .join(', ');
    out.insights.push({
      kind: 'completed-while-pool-rolling',
      level: 'Error',
      impact: 'Unknown',
      scope: p.controlPlane ? 'ControlPlane' : 'WorkerPool',
      since: completedAt,
      message,
      description: `${p.updated} of ${p.total} nodes of pool ${p.name} run a config made for ${version}; ${onWhat} ${behind.length === 1 ? 'does' : 'do'} not; since the completion the MCO renders only configs made for that version, so ${behind.length === 1 ? 'it was' : 'they were'} not on one when the CVO completed either. The update is not at level until ${behind.length === 1 ? 'it is' : 'they are'}; a pool the update requires must finish before the CVO reports completion (bug 2019850).${p.paused ? ` The pool is paused: its nodes get no new config until it is unpaused.` : ''}${unknownText}${joinedText}`,
      reference: REFERENCES.machineConfig,
      objects: [
        { kind: 'ClusterVersion', name: cvSeen.object.metadata.name },
        { kind: 'MachineConfigPool', name: p.name },
      ],
      refs: [cvSeen.ref, p.ref],
    });
  }
  return out;
}

/**
 * When the pool's target is a config rendered after the update completed, for a later change (a day-2
 * MachineConfig, docs/domain.md 3.3.1): what it is, in words; undefined when it is the update's own or
 * the inputs cannot tell.
 */
function laterTargetOf(
  history: ClusterHistory,
  pool: string,
  version: string,
  target: string,
): string | undefined {
  const update = findUpdates(history).at(-1);
  if (!update || update.target !== version || update.completedAt === undefined) return undefined;
  const own = updateConfig(history, pool, update);
  if (!own.later.some((r) => r.name === target)) return undefined;
  return `rendered after the completion for a later change (not the update's own${own.config ? ` ${own.config.name}` : ' config'})`;
}

/** Why the config of these nodes is not known, in words. */
function unknownWhy(nodes: readonly NodeStatus[]): string {
  const why: string[] = [];
  // status --at could not wind the node's annotations back to the moment assessed.
  if (nodes.some((n) => n.phase === 'Unknown')) why.push('not placed at that moment');
  if (nodes.some((n) => n.phase !== 'Unknown')) why.push('config or its release not known');
  return why.join('; ');
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function names(nodes: readonly NodeStatus[]): string {
  const all = nodes.map((n) => n.name);
  return all.length === 1 ? `node ${all[0]}` : `nodes ${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
}

/**
 * The level is the payload, not the version string (docs/status.md): an update whose version equals
 * the one before it but whose image differs (a new build of the same version, a migration to the
 * multi-architecture payload) is at level on a node only once the node runs a config rendered since
 * the update started. oc's own rule for the multi-architecture migration is the same in spirit
 * (`pkg/cli/admin/upgrade/status`, workerpool.go: current == desired == the pool's config).
 */
function payloadChange(
  cv: ClusterVersion,
  history: ClusterHistory,
): { payloadSince?: Millis; configCreated?: ReadonlyMap<string, Millis> } {
  const [latest, previous] = cv.status?.history ?? [];
  if (!latest || !previous || !latest.version || latest.version !== previous.version) return {};
  if (!latest.image || !previous.image || latest.image === previous.image) return {};
  const since = parseTime(latest.startedTime);
  if (since === undefined) return {};
  const configCreated = new Map<string, Millis>();
  for (const mc of history.objects.machineConfigs) {
    const at = parseTime(mc.object.metadata.creationTimestamp);
    if (at !== undefined) configCreated.set(mc.object.metadata.name, at);
  }
  return { payloadSince: since, configCreated };
}

function currentVersionOf(cv: ClusterVersion): { currentVersion?: string } {
  const completed = cv.status?.history?.find((h) => h.state === 'Completed')?.version;
  return completed ? { currentVersion: completed } : {};
}

/**
 * What stops the control plane from proceeding: the CVO reports Failing=True, a control-plane insight
 * stalls the update at Error level, or an operator has been unavailable for 20 minutes. Listed beside
 * the assessment, which follows oc's clock rule (docs/status.md): oc says "Progressing - Slow" and
 * "<10m" with a master degraded when the estimate is not yet overdue, and so does atlevel, with the
 * blockers and the Error insights (exit 1) saying why it will not finish.
 */
function withBlockers(
  cp: ControlPlaneStatus,
  cv: ClusterVersion,
  insights: readonly Insight[],
): ControlPlaneStatus {
  if (cp.assessment === 'Completed') return cp;
  const blockers: string[] = [];
  const failing = findCondition(cv, 'Failing');
  if (failing?.status === 'True') {
    const detail = (failing.message ?? '').split('\n')[0];
    blockers.push(`ClusterVersion is Failing${reasonText(failing)}${detail ? `: ${detail}` : ''}`);
  }
  for (const i of insights) {
    if (i.scope !== 'ControlPlane') continue;
    const stalls = isSerious(i) && i.impact === 'Update Stalled';
    const down = i.kind === 'operator-unavailable' && isSerious(i);
    if (stalls || down) blockers.push(i.message);
  }
  return blockers.length === 0 ? cp : { ...cp, blockers };
}

function notesFor(
  state: UpdateState,
  pools: readonly PoolStatus[],
  unassigned: readonly string[],
  now: Millis,
  firstPools: FirstPools | undefined,
): string[] {
  const notes: string[] = [];
  if (pools.length === 0) notes.push(noPoolsNote(now, firstPools));
  for (const p of pools) {
    if (p.nodesOffTargetConfig === 0 || p.total === 0) continue;
    const on = p.nodesOnTargetConfig;
    const unknown = p.total - on - p.nodesOffTargetConfig;
    const noVersion = state === 'idle' ? ' with no version change' : '';
    notes.push(
      `Pool ${p.name} is rolling out ${p.targetConfig}${noVersion}: ${on} of ${p.total} nodes have it${unknown > 0 ? ` (${unknown} not known)` : ''}${p.paused ? ' (the pool is paused)' : ''}.`,
    );
  }
  if (unassigned.length > 0) {
    notes.push(
      `No MachineConfigPool selects ${unassigned.length === 1 ? 'node' : 'nodes'} ${unassigned.join(', ')}.`,
    );
  }
  return notes;
}

/**
 * A pool degraded since after the update completed: its Error insights stand (status reports the
 * moment), but the degradation is not shown as the update's by default, and when it began after the
 * moment assessed (the latest ClusterVersion/ClusterOperator condition change, as oc takes it) the
 * snapshot's objects are shown as last seen. Whose it is, analyze says (docs/rules/pool-degraded.md).
 */
function degradedAfterCompletion(
  pools: readonly Observed<MachineConfigPool>[],
  completedAt: Millis | undefined,
  now: Millis,
): string[] {
  if (completedAt === undefined) return [];
  const notes: string[] = [];
  for (const { object: pool } of pools) {
    // The condition pool-degraded judges the pool on: Degraded, else NodeDegraded, else RenderDegraded.
    const c = (['Degraded', 'NodeDegraded', 'RenderDegraded'] as const)
      .map((type) => findCondition(pool, type))
      .find((x) => x?.status === 'True');
    const since = parseTime(c?.lastTransitionTime);
    if (!c || since === undefined || since <= completedAt) continue;
    const later = since > now ? ' and after the moment assessed (objects shown as last seen)' : '';
    notes.push(
      `Pool ${pool.metadata.name} has been ${c.type}=True since ${formatTime(since)}, ${formatDuration(since - completedAt)} after the update completed${later}: atlevel analyze says whose it is.`,
    );
  }
  return notes;
}

/** Why there are no pools: the inputs hold none, or none had been created yet at the moment assessed. */
function noPoolsNote(now: Millis, first: FirstPools | undefined): string {
  if (first === undefined || first.names.length === 0 || first.createdAt <= now) {
    return 'The snapshot has no MachineConfigPools: node progress is unknown.';
  }
  const names = first.names;
  const which =
    names.length === 1
      ? `the first, ${names[0]}, was`
      : `the first, ${names.slice(0, -1).join(', ')} and ${names.at(-1)}, were`;
  return `No MachineConfigPool existed yet at ${formatTime(now)} (${which} created at ${formatTime(first.createdAt)}): node progress is unknown.`;
}
