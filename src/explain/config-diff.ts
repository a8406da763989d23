import { diffMachineConfigs } from '../machineconfig/index.js';
import type { MachineConfigDiff } from '../machineconfig/types.js';
import type { ClusterHistory, SourceRef } from '../model/history.js';
import type { MachineConfig } from '../model/objects.js';

/** The semantic diff of two rendered configs, with changed images named by release component. */
export function diffConfigs(
  a: { object: MachineConfig; ref: SourceRef },
  b: { object: MachineConfig; ref: SourceRef },
  releases: ClusterHistory['releases'],
): MachineConfigDiff {
  return diffMachineConfigs(a.object, b.object, { releases, refs: { from: a.ref, to: b.ref } });
}
