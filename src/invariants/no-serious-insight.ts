import type { ClusterHistory, Evidence, Finding, Millis } from '../model/index.js';
import { formatClock, formatDuration, MCO } from '../model/index.js';
import {
  assessHostedStatus,
  assessStatus,
  guestOperatorInsights,
  type HostedStatus,
  hostedSnapshotNow,
  type Insight,
  isSerious,
  statusPrerequisites,
  type UpdateStatus,
} from '../status/index.js';
import { findUpdates, poolHistory, updateLabel } from '../timeline/index.js';
import { configOwner, type PoolDegradationOwner, poolDegradationOwner } from './pool-degraded.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked } from './rule.js';

/**
 * One assessment of the inputs' moment for both commands: the insights `atlevel status` raises are
 * computed once (status/), and each Error or Critical one is a failure here, on the same objects, so
 * that status and analyze never disagree about the same input (docs/status.md). An insight a pool's
 * degradation raises (a degraded node, a failed render) is judged the update's as pool-degraded judges
 * that degradation, and a blocked drain by the rollout the drain is part of, never otherwise: a day-2
 * change's after the update is not the update's failure (docs/rules/no-serious-insight.md).
 */
export const noSeriousInsight = defineRule(
  'no-serious-insight',
  "At the inputs' moment, atlevel status raises no Error or Critical update-health insight.",
  {
    severityPolicy:
      "failure: each Error or Critical insight of atlevel status at the inputs' moment; warning: one raised by a pool's degradation that pool-degraded does not charge to the update (it began after the update completed, on a later change or in a paused pool never given the update's config, or the inputs cannot tell whose it is), or a blocked drain for a config rendered after the update completed (a day-2 change), or whose config the inputs cannot place; on a hosted cluster, an update requested and not started, or a NodePool's config-only change whose payload cannot be generated or whose in-place upgrade stopped at a degraded node",
  },
  (history: ClusterHistory, rule) => {
    // The moment is the one `atlevel status` assesses by default (the snapshot's latest condition
    // change); inputs whose conditions carry no time are assessed at the end of what they show.
    const end = history.span?.to;
    const opts = statusPrerequisites(history) !== undefined && end !== undefined ? { now: end } : {};
    const problem = statusPrerequisites(history, opts);
    // A hosted cluster (docs/hosted.md): no ClusterVersion on the management side, and `atlevel status`
    // assesses its HostedCluster, control plane and NodePools instead; so does this rule.
    if (
      problem !== undefined &&
      history.objects.clusterVersions.length === 0 &&
      history.objects.hostedClusters.length > 0
    ) {
      return hostedOutcome(history, rule);
    }
    if (problem !== undefined) {
      return findUpdates(history).length > 0
        ? notChecked(rule, `the moment cannot be assessed: ${problem}`, [NEEDS.snapshot])
        : notApplicable(rule, `the moment cannot be assessed: ${problem}`);
    }
    const status = assessStatus(history, opts);
    const owners = new Map<string, PoolDegradationOwner | undefined>();
    const ownerOf = (pool: string) => {
      if (!owners.has(pool)) owners.set(pool, poolDegradationOwner(history, pool));
      return owners.get(pool);
    };
    const findings: Finding[] = [];
    // The insights whose degradation the inputs cannot place: never the update's failure on a guess.
    const undecided: string[] = [];
    for (const i of status.insights.filter(isSerious)) {
      const pool = degradedPool(i, status);
      const owner =
        i.kind === 'drain-blocked'
          ? drainOwner(history, i, status)
          : pool !== undefined
            ? ownerOf(pool)
            : undefined;
      findings.push(insightFinding(rule.id, i, status.evaluatedAt, owner));
      if (owner?.kind === 'unknown') undecided.push(`${i.message}: ${owner.why}`);
    }
    const outcome = checked(rule, findings);
    if (outcome.state === 'violated' || undecided.length === 0) return outcome;
    return { ...notChecked(rule, undecided.join('; '), [NEEDS.renderedConfigs]), findings };
  },
);

/**
 * Whose an insight is, when not the update's: `later` (a warning), `unknown` (a warning, and the rule
 * not checked). A pool's degradation as pool-degraded judges it; a drain by the config it is for.
 */
type Owner =
  | { readonly kind: 'update'; readonly since?: Millis }
  | {
      readonly kind: 'later' | 'unknown' | 'not-an-update';
      readonly why: string;
      readonly since?: Millis;
      readonly evidence: readonly Evidence[];
    };

/**
 * The pool whose degradation raised the insight: a degraded node's pool, or the pool whose render
 * failed. Other insights (an operator, a pool still rolling out when the CVO completed) are not a
 * pool's degradation and stay failures; a drain is judged by drainOwner.
 */
function degradedPool(i: Insight, status: UpdateStatus): string | undefined {
  const name = i.objects[0]?.name;
  if (i.kind === 'pool-render-degraded') return name;
  if (i.kind === 'node-degraded') return status.pools.find((p) => p.nodes.some((n) => n.name === name))?.name;
  return undefined;
}

function insightFinding(rule: string, i: Insight, now: Millis, owner: Owner | undefined): Finding {
  // The history's keys (model/locator.ts objectKey): a namespaced object's carry its namespace, so the
  // report links a NodePool's or a Pod's finding to its rows.
  const objects = i.objects.map((o) =>
    o.namespace !== undefined && o.namespace !== ''
      ? `${o.kind}/${o.namespace}/${o.name}`
      : `${o.kind}/${o.name}`,
  );
  // The snapshot's objects are read as last seen: a degradation that began after the moment status
  // assesses (the latest ClusterVersion/ClusterOperator condition change) is never said to be "at" it.
  const began = i.since ?? owner?.since;
  const moment =
    began !== undefined && began > now
      ? `on the snapshot's objects as last seen (this began at ${formatClock(began)}, after ${formatClock(now)}, the moment status assesses)`
      : `at ${formatClock(now)}`;
  const evidence: Evidence[] = [
    {
      statement: `atlevel status, ${moment}: ${i.level} insight (${i.impact}): ${i.description}`,
      ...(i.since !== undefined ? { at: i.since } : {}),
      ...(objects[0] ? { object: objects[0] } : {}),
      ...(i.refs[0] ? { ref: i.refs[0] } : {}),
    },
    ...i.refs.slice(1).map((ref, n) => ({
      statement: `read from ${ref.file}`,
      ...(objects[n + 1] ? { object: objects[n + 1] as string } : {}),
      ref,
    })),
  ];
  const subject = { objects, insight: i.kind };
  if (owner === undefined || owner.kind === 'update') {
    return {
      rule,
      severity: 'failure',
      summary: i.message,
      ...(i.since !== undefined ? { at: i.since } : {}),
      evidence,
      ...(i.since !== undefined ? { moments: [{ label: `${i.kind} since`, at: i.since, objects }] } : {}),
      subject,
    };
  }
  // As pool-degraded judges the pool's degradation: shown, never the update's failure.
  const whose =
    owner.kind === 'later'
      ? "not the update's"
      : owner.kind === 'not-an-update'
        ? "not an update's failure"
        : "whether it is the update's, the inputs cannot tell";
  const asPoolDegraded = i.kind === 'pool-render-degraded' || i.kind === 'node-degraded';
  return {
    rule,
    severity: 'warning',
    summary: `${i.message}, ${whose}: ${owner.why}; a warning, not a failure of the update${asPoolDegraded ? ', as in pool-degraded' : ''}`,
    ...(began !== undefined ? { at: began } : {}),
    evidence: [...evidence, ...owner.evidence],
    ...(began !== undefined ? { moments: [{ label: `${i.kind} since`, at: began, objects }] } : {}),
    subject,
  };
}

/**
 * Whose rollout a blocked drain is part of (docs/rules/no-serious-insight.md): the node drains for its
 * desiredConfig (the machine-config daemon's annotation), judged against the newest update as
 * pool-degraded judges the config a pool targets (configOwner). A drain begun before that update
 * completed, or for the update's own config, or while it was not done, is the update's; one for a
 * config rendered after it completed (a day-2 change) is not; one whose config the inputs cannot
 * place is neither, on a guess.
 */
function drainOwner(history: ClusterHistory, i: Insight, status: UpdateStatus): Owner {
  const name = i.objects[0]?.name;
  const node = status.pools.flatMap((p) => p.nodes).find((n) => n.name === name);
  const update = findUpdates(history).findLast((u) => u.startedAt !== undefined);
  const completedAt = update?.completedAt;
  if (!node || !update || completedAt === undefined) return { kind: 'update' };
  if (i.since !== undefined && i.since <= completedAt) return { kind: 'update' };
  const done = `the update ${updateLabel(update)} completed at ${formatClock(completedAt)}`;
  const completion: Evidence = {
    statement: `the update to ${update.target} completed`,
    at: completedAt,
    object: 'ClusterVersion/version',
    field: 'status.history[].completionTime',
    ...(update.ref ? { ref: update.ref } : {}),
  };
  const desired = node.desiredConfig;
  if (!desired) {
    return {
      kind: 'unknown',
      why: `${done}, and Node ${node.name} carries no desiredConfig naming the config it drains for`,
      evidence: [completion],
    };
  }
  const config = poolHistory(history, node.pool).rendered.find((r) => r.name === desired);
  const drainsFor: Evidence = {
    statement: `Node ${node.name} drains for ${desired} (its desiredConfig)`,
    object: `Node/${node.name}`,
    field: `metadata.annotations[${MCO.desiredConfig}]`,
    value: desired,
    ref: node.ref,
  };
  if (!config) {
    return {
      kind: 'unknown',
      why: `${done}; the node drains for ${desired}, and no rendered config of that name for pool ${node.pool} is in the inputs, so whether it is the update's own or a later change's, the inputs do not say`,
      evidence: [completion, drainsFor],
    };
  }
  const whose = configOwner(history, node.pool, update, config);
  if (whose.kind === 'own' || whose.kind === 'earlier') return { kind: 'update' };
  const created: Evidence = {
    statement: `${config.name} rendered for pool ${node.pool}`,
    at: config.createdAt,
    object: `MachineConfig/${config.name}`,
    field: 'metadata.creationTimestamp',
    ref: config.ref,
  };
  if (whose.kind === 'later') {
    return {
      kind: 'later',
      why: `the node drains for ${config.name} (its desiredConfig), a later config rendered at ${formatClock(config.createdAt)}, ${formatDuration(config.createdAt - completedAt)} after ${done} (a day-2 change${whose.own ? `, not the update's own ${whose.own.name}` : ''})`,
      since: i.since ?? config.createdAt,
      evidence: [completion, drainsFor, created],
    };
  }
  const why =
    whose.kind === 'unknown'
      ? whose.why
      : `${config.name} is neither the update's own config ${whose.own.name} nor a later rollout the inputs identify`;
  return {
    kind: 'unknown',
    why: `${done}; the node drains for ${config.name} (its desiredConfig): ${why}`,
    ...(i.since !== undefined ? { since: i.since } : {}),
    evidence: [completion, drainsFor, created],
  };
}

/**
 * A hosted cluster's moment, as `atlevel status` assesses it (assessHostedStatus, with the guest's
 * operator insights from the dump's guest folder), for each HostedCluster of the inputs. Each Error or
 * Critical insight is a failure when it is the update's (hostedOwner), a warning that says why when it
 * is not, and leaves the rule not checked when the inputs cannot tell.
 */
function hostedOutcome(history: ClusterHistory, rule: Parameters<typeof checked>[0]) {
  const findings: Finding[] = [];
  const undecided: string[] = [];
  const now = hostedSnapshotNow(history.objects);
  for (const hc of history.objects.hostedClusters) {
    const guest = history.guests?.find((g) => g.name === hc.object.metadata.name)?.history;
    const status = assessHostedStatus(
      history.objects,
      hc,
      guest ? { guest, guestInsights: guestOperatorInsights(guest, now) } : {},
    );
    for (const i of status.insights.filter(isSerious)) {
      const owner = hostedOwner(i, status);
      findings.push(insightFinding(rule.id, i, status.evaluatedAt, owner));
      if (owner.kind === 'unknown') undecided.push(`${i.message}: ${owner.why}`);
    }
  }
  const outcome = checked(rule, findings);
  if (outcome.state === 'violated' || undecided.length === 0) return outcome;
  return { ...notChecked(rule, undecided.join('; '), [NEEDS.nodePoolUpdating]), findings };
}

/**
 * Whose a hosted insight is. An update requested and not begun (no control-plane component runs it)
 * has run nothing, so no invariant of an update could be violated yet; a NodePool that cannot
 * generate its payload for a configuration change at the release it already reports is a config
 * change that cannot begin, not an update's failure, and so is an InPlace config change stopped at a
 * degraded node. Each is a warning that says so. A NodePool whose payload fails, or whose in-place
 * upgrade stops, on a version change, and every other serious insight (a component not at level, a
 * NodePool stuck, a failed Machine, the guest's operators), is the update's: a failure.
 */
function hostedOwner(i: Insight, status: HostedStatus): Owner {
  if (i.kind === 'update-not-accepted' && status.request) {
    const r = status.request;
    return {
      kind: 'not-an-update',
      why: `the update to ${r.version ?? r.image} was requested (${r.field}) and has not started: no control-plane component runs it, so nothing of it has run and no invariant of an update could be violated yet`,
      evidence: [],
    };
  }
  // A payload that cannot be generated, or an in-place upgrade stopped at a degraded node: the update's
  // when the NodePool's version changes, a config change's when only its config does.
  if (i.kind !== 'nodepool-invalid-payload' && i.kind !== 'nodepool-inplace-failed')
    return { kind: 'update' };
  const change = i.kind === 'nodepool-invalid-payload' ? 'cannot begin' : 'cannot proceed';
  const o = i.objects[0];
  const pool = status.nodePools.find(
    (p) => p.name === o?.name && p.namespace === (o?.namespace ?? p.namespace),
  );
  if (!pool) return { kind: 'update' };
  const ref = { object: `NodePool/${pool.namespace}/${pool.name}`, ref: pool.ref };
  const versionChange =
    pool.updatingVersion === true ||
    (pool.targetVersion !== undefined &&
      pool.reportedVersion !== undefined &&
      pool.targetVersion !== pool.reportedVersion);
  if (versionChange) return { kind: 'update' };
  if (pool.reportedVersion !== undefined && pool.targetVersion === pool.reportedVersion) {
    return {
      kind: 'not-an-update',
      why: `NodePool ${pool.name} changes its configuration only (${pool.updatingConfig === true ? 'UpdatingConfig=True, ' : ''}UpdatingVersion is not True, and it reports ${pool.reportedVersion}, the release it rolls out): a config change that ${change}`,
      evidence: [
        {
          statement: `NodePool ${pool.name} reports ${pool.reportedVersion} and rolls out ${pool.targetVersion}`,
          field: 'status.version',
          value: pool.reportedVersion,
          ...ref,
        },
      ],
    };
  }
  return {
    kind: 'unknown',
    why: `NodePool ${pool.name} is not UpdatingVersion=True, and ${pool.reportedVersion === undefined ? 'reports no status.version' : `reports ${pool.reportedVersion}`} while ${pool.targetVersion === undefined ? "the release it rolls out is not named by the HostedCluster's histories" : `it rolls out ${pool.targetVersion}`}: whether its change is a version update or a config change, the inputs do not say`,
    evidence: [
      {
        statement:
          i.kind === 'nodepool-invalid-payload'
            ? `NodePool ${pool.name} has no valid generated payload`
            : `NodePool ${pool.name}'s in-place upgrade cannot proceed`,
        ...ref,
      },
    ],
  };
}
