/**
 * sources/ owns reading user inputs into HistoryParts: layout detection (CI run folder, must-gather,
 * folder of `oc get` YAML/JSON, oc examples case prefix, `.tar`/`.tar.gz` of any of these), the
 * readers for each file format (gather-extra Lists, build-log lines, origin interval JSON, release
 * payloads, alerts), gzip and size limits, and provenance (InputFile, SourceRef) for every fact.
 * It does not build the ClusterHistory: the caller hands the parts to timeline's buildHistory.
 */

// For serve's must-gather extras, the cache command and the fetch progress bar (docs/serve.md, docs/urls.md).
export { formatBytes, MAX_PARSED_BYTES } from './bytes.js';
export { parseDocuments, parseYamlDocuments } from './documents.js';
export { type LogFiles, readServedExtras } from './extras.js';
export {
  loadMachineConfigFile,
  loadReleasePayload,
  readInputDocuments,
  readInputText,
} from './formats/index.js';
export { withGivenReleases } from './given-releases.js';
export { JsonItemsReader, NotStreamable } from './json-items.js';
export { loadHistoryParts, NO_INPUTS_HINT } from './load.js';
// For the live-cluster source and watch (src/live, src/watch): the same validation and monitor text forms as files.
export { parseLocatorText, parseMessageText } from './monitor-text.js';
export { readStdin, STDIN } from './open/index.js';
export { quickMachineConfigs } from './quick-configs.js';
// For ingest: the runs an argument holds, and a run's files for naming it by its content.
export { eachRunFile, type FoundRun, findRuns, type RunsFound } from './runs.js';
export { checkTree, ItemTreeLimits } from './tree-limits.js';
export type { LoadOptions } from './types.js';
// The URL client itself is loaded on first use (url-client.ts); only the light parts are static.
export type { FetchStats, ProgressSink, RemoteOptions } from './url/index.js';
export { looksLikeUrl } from './url/location.js';
export { ENDPOINT_ENV } from './url/options.js';
export { fetchFile, urlClient } from './url-client.js';
export { validateObject } from './validate.js';
