/**
 * ingest/ reads many runs into the run store: it expands `atlevel ingest`'s arguments (folders of
 * runs, tarballs, listing files, CI URLs) into runs, splits them into shards, names each run (Prow id
 * or content hash), turns each analysis into the record the store keeps, and drives the loop that
 * analyses in parallel, writes each run once and records the runs that fail. docs/runs.md describes it.
 */
export { expandInputs, inShard, parseShard, type RunInput, type Shard } from './expand.js';
export { prowIdOf } from './identity.js';
export { type RunIdentity, runRecord } from './record.js';
export { type Analyser, type IngestProgress, type IngestSummary, identify, ingestRuns } from './run.js';
