/**
 * sources/ owns reading user inputs into HistoryParts: layout detection (CI run folder, must-gather,
 * folder of `oc get` YAML/JSON, oc examples case prefix, `.tar`/`.tar.gz` of any of these), the
 * readers for each file format (gather-extra Lists, build-log lines, origin interval JSON, release
 * payloads, alerts), gzip and size limits, and provenance (InputFile, SourceRef) for every fact.
 * It does not build the ClusterHistory: the caller hands the parts to timeline's buildHistory.
 */
export { loadHistoryParts, NO_INPUTS_HINT } from './load.js';
export type { LoadOptions } from './types.js';
