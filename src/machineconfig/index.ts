/**
 * machineconfig/ owns MachineConfig contents: Ignition (spec 2.x and 3.x) decoding with bounded
 * data-URL decompression, the semantic diff of two MachineConfigs (types.ts is its public contract),
 * image references in changed lines, and picking a pool's rendered configs by time.
 */
export { type Carrier, carriersOf } from './carriers.js';
export { diffMachineConfigs } from './diff.js';
export { PART_NAMES, parseParts } from './parts.js';
export { poolsWithRenderedConfigs, renderedConfigsAround, renderedConfigsOfPool } from './pools.js';
export type * from './types.js';
export { ignitionJson } from './write.js';
