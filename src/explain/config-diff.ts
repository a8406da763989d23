import type { MachineConfigDiff } from '../machineconfig/index.js';
import { diffMachineConfigs } from '../machineconfig/index.js';
import {
  Budget,
  type BudgetLimits,
  type ClusterHistory,
  type MachineConfig,
  type SourceRef,
} from '../model/index.js';

/**
 * The semantic diff of two rendered configs, with changed images named by release component. Each
 * cause-chain diff gets a budget of its own (docs/limits.md), with the limits the command was given.
 */
export function diffConfigs(
  a: { object: MachineConfig; ref: SourceRef },
  b: { object: MachineConfig; ref: SourceRef },
  releases: ClusterHistory['releases'],
  limits: Partial<BudgetLimits> = {},
): MachineConfigDiff {
  return diffMachineConfigs(a.object, b.object, {
    releases,
    refs: { from: a.ref, to: b.ref },
    budget: new Budget(limits),
  });
}
