/**
 * The result of a semantic MachineConfig diff (docs/domain.md 3.4): the types live in model/ because
 * analyze's findings embed them (model/config-diff.ts); machineconfig/ computes them.
 */
export type { ConfigChange, ConfigInfo, ConfigPart, ImageChange, MachineConfigDiff } from '../model/index.js';
