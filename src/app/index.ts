/**
 * app/ holds one use case per command that does more than hand a history to one analysis: a typed
 * request in, a result out, no flags and no printing. The CLI (src/cli) parses flags into requests
 * and prints results; a script or another tool calls the same functions through the package's
 * library entry (package.json `exports`), without a shell. Errors are the model's typed ones
 * (UsageError, InputError), which cli/report-error.ts maps to exit codes in one place.
 */

export { type AnalysisResult, type AnalyzeOptions, analyzeHistory } from '../analyze/index.js';
export { type DiffOutcome, type DiffRequest, diffConfigs, type ReleaseMismatch } from './diff.js';
export { type IngestEvents, type IngestOutcome, type IngestRequest, ingest, storeSpec } from './ingest.js';
export type { RunReading } from './ingest-worker.js';
export { type InputsRequest, planInputs } from './inputs.js';
export { loadRelease, type ReadOptions, readHistory, readMaybeUrl, readParts } from './read.js';
