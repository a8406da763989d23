/**
 * sources/ owns reading user inputs into HistoryParts: the openers (open/: folder, file, tarball, URL,
 * `-`, oc examples case prefix, live cluster), layout detection (CI run folder, must-gather, folder of
 * `oc get` YAML/JSON, oc examples case, hypershift dump), each input's plan (plan.ts: the layouts, the
 * files claimed, served as they are and ignored, the runs it holds), the readers for each file format
 * (gather-extra Lists, build-log lines, origin interval JSON, release payloads, alerts), the decoders
 * and size limits, and provenance (InputFile, SourceRef) for every fact. It does not build the
 * ClusterHistory: the caller hands the parts to timeline's buildHistory.
 */

// For serve's must-gather extras, the cache command and the fetch progress bar (docs/serve.md, docs/urls.md).
export { formatBytes } from './bytes.js';
export { parseDocuments, parseYamlDocuments } from './documents.js';
export { type LogFiles, readServedExtras } from './extras.js';
export {
  loadMachineConfigFile,
  loadReleasePayload,
  readInputDocuments,
  readInputText,
} from './formats/index.js';
export { withGivenReleases } from './given-releases.js';
// For watch: the live client reads its answers as the sources read files.
export { LIVE_READING } from './live-reading.js';
export { loadHistoryParts, loadLiveParts } from './load.js';
// For watch (src/watch): the same monitor text forms as files.
export { parseLocatorText, parseMessageText } from './monitor-text.js';
export type { LiveCluster } from './open/index.js';
export { readStdin } from './open/index.js';
// What an argument is and what atlevel does with it (`atlevel inputs`; ingest's runs).
export { planInput } from './plan.js';
// For ingest: a run's files, for naming it by its content.
export { eachRunFile, type FoundRun, formerImageFolder } from './runs.js';
export type { LoadOptions } from './types.js';
// The URL client itself is loaded on first use (url-client.ts); only the light parts are static.
export type { FetchStats, ProgressSink, RemoteOptions } from './url/index.js';
export { looksLikeUrl } from './url/location.js';
export { fetchFile, urlClient } from './url-client.js';
export { STDIN } from './words.js';
