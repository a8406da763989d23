import type { MachineConfigDiff } from '../machineconfig/index.js';
import { diffMachineConfigs } from '../machineconfig/index.js';
import type { ClusterHistory, MachineConfig, SourceRef } from '../model/index.js';

/** The semantic diff of two rendered configs, with changed images named by release component. */
export function diffConfigs(
  a: { object: MachineConfig; ref: SourceRef },
  b: { object: MachineConfig; ref: SourceRef },
  releases: ClusterHistory['releases'],
): MachineConfigDiff {
  return diffMachineConfigs(a.object, b.object, { releases, refs: { from: a.ref, to: b.ref } });
}
