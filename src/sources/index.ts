/**
 * sources/ owns reading user inputs into HistoryParts: layout detection (CI run folder, must-gather,
 * folder of `oc get` YAML/JSON, oc examples case prefix, `.tar`/`.tar.gz` of any of these), the
 * readers for each file format (gather-extra Lists, build-log lines, origin interval JSON, release
 * payloads, alerts), gzip and size limits, and provenance (InputFile, SourceRef) for every fact.
 */
import type { ClusterHistory } from '../model/history.js';
import { buildHistory } from '../timeline/build.js';
import { loadHistoryParts } from './load.js';
import type { LoadOptions } from './types.js';

export { NO_INPUTS_HINT } from './load.js';
export type { HistoryParts, LoadOptions } from './types.js';
export { loadHistoryParts };

/** Read the inputs and build the ClusterHistory every analysis reads. */
export async function loadHistory(paths: readonly string[], opts: LoadOptions = {}): Promise<ClusterHistory> {
  return buildHistory(await loadHistoryParts(paths, opts, { dropEchoes: true }));
}
