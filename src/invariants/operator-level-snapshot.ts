import type { ClusterHistory, Evidence, Finding } from '../model/index.js';
import { MCO } from '../model/index.js';
import { poolHistory, type RenderedConfig, type UpdateRecord, updateLabel } from '../timeline/index.js';

/** What a snapshot says of one required pool against machine-config's reported version. */
type SnapshotRace =
  /** The snapshot proves the violation. */
  | { readonly kind: 'violated'; readonly finding: Finding }
  /** The snapshot shows the pool rolling out the update's config, but not that it was far from done. */
  | { readonly kind: 'undecided'; readonly why: string }
  /** The snapshot proves nothing either way (no stamp, the pool not rolling out the release's config...). */
  | { readonly kind: 'silent' };

/**
 * The violation as a snapshot shows it, with no moment for the level report (docs/rules/
 * operator-level-before-required-pool-target.md): machine-config's `status.versions` already carries
 * the update's target while a required pool is still rolling out the config stamped for that target
 * (spec.configuration, `release-image-version` = target) and every node it has reached
 * (status.configuration) is on a config stamped for another release or none. The fixed operator
 * reports its version only once the pool's status.configuration carries its release (docs/domain.md
 * 1.2), and a pool's status.configuration never goes back to another release's config (every render
 * after the operator moved on is stamped for its release, 3.3.1), so the report came before the pool
 * had the new config, whenever it came.
 *
 * A snapshot's objects are read one by one, seconds apart (gather-extra reads them in parallel, a
 * must-gather in turn): a pool read just before its last node finished, and an operator read just after
 * it reported, would look the same. So the pool must also show a node not yet given the new config (its
 * desiredConfig, or more nodes left than the pool updates at once): that node's whole update (drain,
 * write, reboot) remains, which no gap between two reads covers. Otherwise: undecided.
 */
export function snapshotRace(
  history: ClusterHistory,
  rule: string,
  operator: string,
  operatorVersion: string,
  update: UpdateRecord,
  pool: string,
): SnapshotRace {
  // The stamp names a release only when the update changes the version string.
  if (update.previous === undefined || update.previous === update.target) return { kind: 'silent' };
  const ph = poolHistory(history, pool);
  const mcp = ph.pool?.object;
  const specName = mcp?.spec?.configuration?.name;
  const statusName = mcp?.status?.configuration?.name;
  if (!mcp || !specName || !statusName || specName === statusName) return { kind: 'silent' };
  const spec = ph.rendered.find((r) => r.name === specName);
  const status = ph.rendered.find((r) => r.name === statusName);
  if (!spec || spec.releaseImageVersion !== update.target) return { kind: 'silent' };
  // Nodes that reached a config of the new release already (a day-2 render during the update on top
  // of the update's own): the report may have come once they had.
  if (!status || status.releaseImageVersion === update.target) return { kind: 'silent' };
  const machineCount = mcp.status?.machineCount;
  const updatedCount = mcp.status?.updatedMachineCount;
  if (machineCount !== undefined && updatedCount !== undefined && updatedCount >= machineCount)
    return { kind: 'silent' };

  const names = new Set(ph.rendered.map((r) => r.name));
  const nodes = history.objects.nodes.filter((n) => {
    const a = n.object.metadata.annotations ?? {};
    return names.has(a[MCO.currentConfig] ?? '') || names.has(a[MCO.desiredConfig] ?? '');
  });
  const waiting = nodes.find((n) => n.object.metadata.annotations?.[MCO.desiredConfig] !== specName);
  const left =
    machineCount !== undefined && updatedCount !== undefined ? machineCount - updatedCount : undefined;
  const atOnce = mcp.spec?.maxUnavailable;
  const byCount =
    nodes.length === 0 && left !== undefined && (atOnce === undefined || atOnce === null || atOnce === 1)
      ? left > 1
      : false;
  const counts =
    left !== undefined ? `, ${updatedCount} of ${machineCount} nodes updated` : ' (no machine counts)';
  if (!waiting && !byCount) {
    return {
      kind: 'undecided',
      why: `${operator} reports ${update.target} while required pool ${pool} is rolling out ${spec.name}, stamped for it, from ${status.name}${counts}; but every node left had been given ${spec.name}, and the snapshot's objects are read seconds apart, so the pool may have finished before ${operator} reported: the inputs do not say when it did`,
    };
  }

  const evidence: Evidence[] = [
    {
      statement: `${operator} reports operator version ${operatorVersion} (the snapshot; when it began to, the inputs do not say)`,
      object: `ClusterOperator/${operator}`,
      field: 'status.versions[operator]',
      value: operatorVersion,
      ...(operatorRef(history, operator) ?? {}),
    },
    {
      statement: `pool ${pool} targets ${spec.name} (spec.configuration) while its nodes have reached only ${status.name} (status.configuration)${counts}`,
      object: `MachineConfigPool/${pool}`,
      field: 'spec.configuration.name',
      value: spec.name,
      ref: ph.pool?.ref ?? spec.ref,
    },
    stampEvidence(spec),
    stampEvidence(status),
  ];
  if (waiting) {
    const a = waiting.object.metadata.annotations ?? {};
    evidence.push({
      statement: `node ${waiting.object.metadata.name} has not been given ${spec.name} yet (desiredConfig ${a[MCO.desiredConfig] ?? 'unset'}, currentConfig ${a[MCO.currentConfig] ?? 'unset'})`,
      object: `Node/${waiting.object.metadata.name}`,
      field: `metadata.annotations[${MCO.desiredConfig}]`,
      ...(a[MCO.desiredConfig] ? { value: a[MCO.desiredConfig] } : {}),
      ref: waiting.ref,
    });
  }
  const stampedOld = status.releaseImageVersion
    ? `stamped for ${status.releaseImageVersion}`
    : 'which carries no release-image-version';
  return {
    kind: 'violated',
    finding: {
      rule,
      severity: 'failure',
      summary: `${operator} reports level for ${update.target} while required pool ${pool} is still rolling out ${spec.name}, the config stamped for ${update.target}: its nodes have reached only ${status.name}, ${stampedOld}${counts}, and ${waiting ? `node ${waiting.object.metadata.name} has not been given the new config yet` : 'more nodes are left than the pool updates at once'} (seen in the snapshot, in the update ${updateLabel(update)})`,
      evidence,
      subject: {
        target: update.target,
        ...(update.previous ? { previous: update.previous } : {}),
        pool,
        operator,
        objects: [`ClusterOperator/${operator}`, `MachineConfigPool/${pool}`],
        fromConfig: status.name,
        toConfig: spec.name,
      },
    },
  };
}

function stampEvidence(c: RenderedConfig): Evidence {
  return {
    statement: c.releaseImageVersion
      ? `${c.name} release-image-version ${c.releaseImageVersion}`
      : `${c.name} has no release-image-version annotation`,
    object: `MachineConfig/${c.name}`,
    field: `metadata.annotations[${MCO.releaseImageVersion}]`,
    ...(c.releaseImageVersion ? { value: c.releaseImageVersion } : {}),
    ref: c.ref,
  };
}

function operatorRef(history: ClusterHistory, operator: string) {
  const co = history.objects.clusterOperators.find((c) => c.object.metadata.name === operator);
  return co ? { ref: co.ref } : undefined;
}
