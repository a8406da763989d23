/**
 * store/ is the run store: many analysed runs in one SQL database, either PGlite (PostgreSQL compiled
 * to WASM, file-backed under the XDG data folder, no server) or a shared PostgreSQL (`--db
 * postgres://…`). One schema and one list of migrations serve both (schema.ts); writes are per run, in
 * one transaction, and idempotent. docs/runs.md documents the tables.
 */
export { defaultDbPath, isPostgresUrl, type Row, type Sql, storeExists } from './db.js';
export type * from './record.js';
export { MIGRATIONS } from './schema.js';
export { type PutOutcome, RunStore, type SameUpdate } from './store.js';
export { type DayTable, DURATION_BUCKET_MS, daySummarySelect } from './summaries.js';
