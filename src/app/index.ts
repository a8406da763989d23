/**
 * app/ holds one use case per command: a typed request in, a result out, no flags and no printing.
 * The CLI (src/cli) parses flags into requests and prints results; a script or another tool calls
 * the same functions through the package's library entry (package.json `exports`), without a shell.
 * Each result carries its Conclusion (ok, failure, inconclusive: what the exit code says); errors
 * are the model's typed ones (UsageError, InputError), which cli/report-error.ts maps to exit codes
 * in one place. A use case that runs until stopped (serve, watch) returns a handle or takes a signal.
 */

export { type AnalysisResult, type AnalyzeOptions, analyzeHistory } from '../analyze/index.js';
export { type AnalyzeOutcome, type AnalyzeRequest, analyze } from './analyze.js';
export type { Conclusion } from './conclusion.js';
export { type DiffOutcome, type DiffRequest, diffConfigs, type ReleaseMismatch } from './diff.js';
export { analysisJson, statusJson } from './documents.js';
export { type IngestEvents, type IngestOutcome, type IngestRequest, ingest, storeSpec } from './ingest.js';
export type { RunReading } from './ingest-worker.js';
export { type InputsRequest, planInputs } from './inputs.js';
export {
  type GivenReleases,
  type LiveTarget,
  loadRelease,
  type ReadOptions,
  readHistory,
  readMaybeUrl,
  readParts,
} from './read.js';
export {
  diffReleaseFiles,
  type ReleaseDiffOutcome,
  type ReleaseDiffRequest,
  type ReleaseInfoOutcome,
  type ReleaseInfoRequest,
  releaseInfo,
} from './release.js';
export { type ReportOutcome, report } from './report.js';
export { type ServeHandle, type ServeRequest, serve } from './serve.js';
export {
  ALL_SCENARIOS,
  DEFAULT_HOSTED_POLICY,
  DEFAULT_POLICY,
  type SimulateEvents,
  type SimulateMode,
  type SimulateProgress,
  type SimulateRequest,
  type SimulateResult,
  simulate,
} from './simulate.js';
export { type StatsOutcome, type StatsRequest, stats } from './stats.js';
export { type StatusOutcome, type StatusRequest, status } from './status.js';
export { type WatchEvents, type WatchOutcome, type WatchRequest, watch } from './watch.js';
