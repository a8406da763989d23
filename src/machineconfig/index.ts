/**
 * machineconfig/ owns MachineConfig contents: Ignition (spec 2.x and 3.x) decoding with bounded
 * data-URL decompression, the semantic diff of two MachineConfigs (types.ts is its public contract),
 * image references in changed lines, and picking a pool's rendered configs by time.
 */
export {
  DataUrlError,
  DEFAULT_MAX_DECODED_BYTES,
  decodeDataUrl,
  decompress,
  encodeDataUrl,
} from './dataurl.js';
export { type DiffOptions, diffMachineConfigs, PART_ORDER } from './diff.js';
export { globToRegExp } from './glob.js';
export { type NormalIgnition, normalizeIgnition } from './ignition.js';
export { imageChangesInLines, imagesInLine } from './images.js';
export { PART_NAMES, parseParts } from './parts.js';
export {
  isRenderedConfigOf,
  poolsWithRenderedConfigs,
  renderedConfigsAround,
  renderedConfigsOfPool,
} from './pools.js';
export type * from './types.js';
export { ignitionJson } from './write.js';
