/**
 * The node controller's view of a pool (docs/domain.md 2.2–2.4, 4.3): which nodes belong to it, which
 * are updated, ready, unavailable or degraded, the resulting counts and conditions, and the
 * one-line summary the machine-config operator puts in its ClusterOperator extension.
 */
import type { Cond, NodeObj, PoolObj, PoolStatus } from './objects.js';
import { findCond, isTrue, setCond } from './objects.js';

/** The pool a node belongs to first: a custom pool if one matches, else master, else worker (docs/domain.md 4.4). */
export function primaryPoolName(node: NodeObj, pools: Iterable<PoolObj>): string | undefined {
  let master = false;
  let worker = false;
  let custom: string | undefined;
  for (const p of pools) {
    if (!node.roles.includes(p.nodeRole)) continue;
    if (p.meta.name === 'master') master = true;
    else if (p.meta.name === 'worker') worker = true;
    else if (custom === undefined) custom = p.meta.name;
    else return undefined; // more than one custom pool: the node is not managed
  }
  if (custom !== undefined) return master ? undefined : custom;
  if (master) return 'master';
  return worker ? 'worker' : undefined;
}

function nodeReady(n: NodeObj): boolean {
  return n.ready && !n.unschedulable;
}

function isNodeDone(n: NodeObj): boolean {
  return n.state === 'Done' && n.currentConfig === n.desiredConfig;
}

export function isMcdFailing(n: NodeObj): boolean {
  return n.currentConfig !== n.desiredConfig && (n.state === 'Degraded' || n.state === 'Unreconcilable');
}

export function isUnavailable(n: NodeObj): boolean {
  return (!nodeReady(n) || !isNodeDone(n)) && !isMcdFailing(n);
}

/** maxUnavailable as an int or percentage of the pool, rounded down, at least 1; master keeps etcd quorum. */
export function maxUnavailable(pool: PoolObj, nodeCount: number): number {
  const raw = pool.maxUnavailable;
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (raw.endsWith('%')) n = Math.floor((Number.parseInt(raw, 10) * nodeCount) / 100);
  else n = Number.parseInt(raw, 10);
  if (!Number.isFinite(n) || n <= 0) n = 1;
  if (pool.meta.name === 'master') {
    const tolerance = nodeCount - (Math.floor(nodeCount / 2) + 1);
    if (n > tolerance) n = Math.max(1, tolerance);
  }
  return n;
}

/** calculateStatus: counts and conditions for `pool` given its nodes (docs/domain.md 2.2, 2.3). */
export function calculateStatus(pool: PoolObj, nodes: readonly NodeObj[], now: number): PoolStatus {
  const target = pool.spec.name;
  let updated = 0;
  let ready = 0;
  let unavailable = 0;
  let degraded = 0;
  const degradedReports: string[] = [];
  for (const n of nodes) {
    const isUpdated = n.currentConfig === target && n.desiredConfig === target && n.state === 'Done';
    if (isUpdated) {
      updated++;
      if (nodeReady(n)) ready++;
    }
    if (isUnavailable(n)) unavailable++;
    if (n.desiredConfig !== '' && (n.state === 'Degraded' || n.state === 'Unreconcilable')) {
      degraded++;
      degradedReports.push(`Node ${n.meta.name} is reporting: "${n.reason}"`);
    }
  }
  const count = nodes.length;
  const allUpdated = updated === count && ready === count && unavailable === 0;
  let conds: readonly Cond[] = pool.status.conditions;
  let configuration = pool.status.configuration;
  if (allUpdated) {
    conds = setCond(conds, 'Updated', 'True', '', `All nodes are updated with ${target}`, now);
    conds = setCond(conds, 'Updating', 'False', '', '', now);
    if (configuration.name !== pool.spec.name || configuration.source !== pool.spec.source) {
      configuration = pool.spec;
    }
  } else {
    conds = setCond(conds, 'Updated', 'False', '', '', now);
    conds = pool.paused
      ? setCond(conds, 'Updating', 'False', '', `Pool is paused; will not update to ${target}`, now)
      : setCond(conds, 'Updating', 'True', '', `All nodes are updating to ${target}`, now);
  }
  conds =
    degraded > 0
      ? setCond(
          conds,
          'NodeDegraded',
          'True',
          `${degraded} nodes are reporting degraded status on sync`,
          degradedReports.join(', '),
          now,
        )
      : setCond(conds, 'NodeDegraded', 'False', '', '', now);
  const renderDegraded = isTrue(conds, 'RenderDegraded');
  conds = setCond(conds, 'Degraded', degraded > 0 || renderDegraded ? 'True' : 'False', '', '', now);
  return {
    observedGeneration: pool.meta.generation,
    configuration,
    machineCount: count,
    updatedMachineCount: updated,
    readyMachineCount: ready,
    unavailableMachineCount: unavailable,
    degradedMachineCount: degraded,
    conditions: conds,
  };
}

export function statusEqual(a: PoolStatus, b: PoolStatus): boolean {
  return (
    a.observedGeneration === b.observedGeneration &&
    a.configuration === b.configuration &&
    a.machineCount === b.machineCount &&
    a.updatedMachineCount === b.updatedMachineCount &&
    a.readyMachineCount === b.readyMachineCount &&
    a.unavailableMachineCount === b.unavailableMachineCount &&
    a.degradedMachineCount === b.degradedMachineCount &&
    a.conditions === b.conditions
  );
}

/** machineConfigPoolStatus: the ClusterOperator extension's one-line summary of a pool (docs/domain.md 1.5). */
export function poolSummary(pool: PoolObj): string {
  const s = pool.status;
  if (isTrue(s.conditions, 'RenderDegraded')) {
    const c = findCond(s.conditions, 'RenderDegraded');
    return `pool is degraded because rendering fails with "${c?.reason ?? ''}": "${c?.message ?? ''}"`;
  }
  if (isTrue(s.conditions, 'NodeDegraded')) {
    const c = findCond(s.conditions, 'NodeDegraded');
    return `pool is degraded because nodes fail with "${c?.reason ?? ''}": "${c?.message ?? ''}"`;
  }
  if (isTrue(s.conditions, 'Updated')) {
    return `all ${s.machineCount} nodes are at latest configuration ${s.configuration.name}`;
  }
  if (isTrue(s.conditions, 'Updating')) {
    return `${s.updatedMachineCount} (ready ${s.readyMachineCount}) out of ${s.machineCount} nodes are updating to latest configuration ${pool.spec.name}`;
  }
  return '<unknown>';
}
