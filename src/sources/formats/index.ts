/**
 * The formats of files named on their own, outside a layout: a MachineConfig file (`diff A B`), release
 * info (`--release-from`, `release info|diff`), and the shared edge every such file goes through
 * (input-file.ts: regular files only, DECODERS, the budget's size, node and depth limits). A scenario
 * file (sim/) is read through readInputDocuments too.
 */
export { readInputDocuments, readInputText } from './input-file.js';
export { loadMachineConfigFile } from './machineconfig-file.js';
export { loadReleasePayload } from './release-info.js';
export { loadSimRevisions, parseSimRevisions, SIM_REVISIONS_FILE } from './sim-revisions.js';
