/**
 * MachineConfigPools: which nodes belong to which pool, and each pool's progress summed from its
 * nodes (docs/domain.md 9.1–9.2, docs/domain.md 4.4).
 */

import type { MachineConfigPool, Node, Observed } from '../model/index.js';
import { findCondition, parseTime } from '../model/index.js';
import { REFERENCES } from './insights.js';
import { selectorMatches } from './selector.js';
import type { Insight, NodeCounts, NodeStatus, PoolAssessment, PoolStatus } from './types.js';

export interface PoolMembership {
  /** Pool name → its nodes. Every pool has an entry. */
  readonly byPool: ReadonlyMap<string, readonly Observed<Node>[]>;
  /** Nodes no pool selects (Windows nodes are left out on purpose, as the MCO does). */
  readonly unassigned: readonly string[];
  readonly insights: readonly Insight[];
}

/**
 * A node belongs to the master pool if master selects it, else to the custom pool that selects it,
 * else to worker (compact clusters' masters carry the worker role too). The MCO refuses to manage a
 * node that two custom pools, or master and a custom pool, both select; oc then picks one silently,
 * atlevel picks the same one (master, else the first custom pool by name) and says so.
 */
export function assignNodesToPools(
  pools: readonly Observed<MachineConfigPool>[],
  nodes: readonly Observed<Node>[],
): PoolMembership {
  const byPool = new Map<string, Observed<Node>[]>();
  for (const p of pools) byPool.set(p.object.metadata.name, []);
  const master = pools.find((p) => p.object.metadata.name === 'master');
  const worker = pools.find((p) => p.object.metadata.name === 'worker');
  const custom = pools
    .filter((p) => p !== master && p !== worker)
    .sort((a, b) => (a.object.metadata.name < b.object.metadata.name ? -1 : 1));
  const unassigned: string[] = [];
  const insights: Insight[] = [];

  for (const seen of nodes) {
    const labels = seen.object.metadata.labels ?? {};
    if (labels['kubernetes.io/os'] === 'windows') continue;
    const selects = (p: Observed<MachineConfigPool> | undefined): boolean =>
      p !== undefined && selectorMatches(p.object.spec?.nodeSelector, labels);
    const customMatches = custom.filter(selects);
    const isMaster = selects(master);
    let chosen: Observed<MachineConfigPool> | undefined;
    if (isMaster) chosen = master;
    else if (customMatches.length > 0) chosen = customMatches[0];
    else if (selects(worker)) chosen = worker;

    const competing = [...(isMaster ? ['master'] : []), ...customMatches.map((p) => p.object.metadata.name)];
    if (competing.length > 1) {
      const name = seen.object.metadata.name;
      insights.push({
        kind: 'node-pool-conflict',
        level: 'Warning',
        impact: 'Update Stalled',
        scope: 'WorkerPool',
        message: `Node ${name} is selected by pools ${competing.join(', ')}; the MCO will not update it`,
        description:
          'The machine-config controller refuses a node that more than one custom pool (or master and a custom pool) selects, ' +
          `so the node keeps its current config. atlevel counts it in pool ${chosen?.object.metadata.name ?? '?'}.`,
        reference: REFERENCES.machineConfig,
        objects: [{ kind: 'Node', name }, ...competing.map((p) => ({ kind: 'MachineConfigPool', name: p }))],
        refs: [seen.ref],
      });
    }
    if (chosen) byPool.get(chosen.object.metadata.name)?.push(seen);
    else unassigned.push(seen.object.metadata.name);
  }
  return { byPool, unassigned, insights };
}

export interface PoolAnalysis {
  readonly status: PoolStatus;
  readonly insights: Insight[];
}

/** Sum a pool's nodes into its assessment and counts, as oc's worker-pool table shows them. */
export function assessPool(seen: Observed<MachineConfigPool>, nodes: readonly NodeStatus[]): PoolAnalysis {
  const pool = seen.object;
  const name = pool.metadata.name;
  const counts = {
    available: 0,
    progressing: 0,
    draining: 0,
    excluded: 0,
    degraded: 0,
    outdated: 0,
    unknown: 0,
  };
  let updated = 0;
  let pending = 0;
  for (const n of nodes) {
    if (!n.unavailable) counts.available++;
    if (n.degraded) counts.degraded++;
    switch (n.phase) {
      case 'Paused':
        counts.excluded++;
        counts.outdated++;
        break;
      case 'Pending':
        pending++;
        counts.outdated++;
        break;
      case 'Draining':
        counts.draining++;
        counts.outdated++;
        if (!n.degraded) counts.progressing++;
        break;
      case 'Updating':
      case 'Rebooting':
        counts.outdated++;
        if (!n.degraded) counts.progressing++;
        break;
      case 'Updated':
        updated++;
        break;
      case 'Unknown':
        counts.unknown++;
        break;
    }
  }
  const total = nodes.length;
  let assessment: PoolAssessment;
  if (total === 0) assessment = 'Empty';
  // Nodes whose config status --at could not tell: the pool is not judged on a guess about them.
  else if (counts.unknown > 0) assessment = 'Unknown';
  else if (updated === total) assessment = 'Completed';
  else if (pending === total) assessment = 'Pending';
  else if (counts.degraded > 0) assessment = 'Degraded';
  else if (counts.excluded > 0) assessment = 'Excluded';
  else assessment = 'Progressing';

  const targetConfig = pool.spec?.configuration?.name || undefined;
  const nodesOffTargetConfig =
    targetConfig === undefined
      ? 0
      : // A node whose config is not known (status --at could not place it, or it carries no
        // currentConfig annotation) is neither on the target nor off it.
        nodes.filter(
          (n) => n.phase !== 'Unknown' && n.currentConfig !== undefined && n.currentConfig !== targetConfig,
        ).length;
  const insights: Insight[] = [];
  const poolObject = { kind: 'MachineConfigPool', name };
  if (counts.excluded > 0 && pool.spec?.paused) {
    insights.push({
      kind: 'pool-paused',
      level: 'Warning',
      impact: 'Update Stalled',
      scope: 'WorkerPool',
      message: `Outdated nodes in a paused pool '${name}' will not be updated`,
      description:
        'Pool is paused, which stops all changes to the nodes in the pool, including updates. The nodes will not be updated until the pool is unpaused by the administrator.',
      reference: REFERENCES.pausedPool,
      objects: [poolObject],
      refs: [seen.ref],
    });
  }
  const render = findCondition(pool, 'RenderDegraded');
  if (render?.status === 'True') {
    const since = parseTime(render.lastTransitionTime);
    insights.push({
      kind: 'pool-render-degraded',
      level: 'Error',
      impact: 'Update Stalled',
      scope: name === 'master' ? 'ControlPlane' : 'WorkerPool',
      ...(since !== undefined ? { since } : {}),
      message: `Pool ${name} cannot render its configuration`,
      description: render.message || render.reason || 'RenderDegraded=True',
      reference: REFERENCES.machineConfig,
      objects: [poolObject],
      refs: [seen.ref],
    });
  }

  const completionPercent = total === 0 ? 100 : Math.round((updated / total) * 100);
  const status: PoolStatus = {
    name,
    controlPlane: name === 'master',
    paused: pool.spec?.paused === true,
    assessment,
    updated,
    total,
    completionPercent: updated < total ? Math.min(completionPercent, 99) : completionPercent,
    counts: counts satisfies NodeCounts,
    ...(targetConfig !== undefined ? { targetConfig } : {}),
    nodesOffTargetConfig,
    nodesOnTargetConfig:
      targetConfig === undefined
        ? 0
        : nodes.filter((n) => n.phase !== 'Unknown' && n.currentConfig === targetConfig).length,
    nodes,
    ref: seen.ref,
  };
  return { status, insights };
}
