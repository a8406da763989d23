import {
  COVERAGE_SQL,
  DAY_SUMMARY_TABLES_SQL,
  DAY_TABLES_V4,
  RULE_STATE_TABLES,
  rebuildDaySummariesSql,
  rebuildSummariesSql,
  SIGNATURE_RULES_SQL,
  SIGNATURE_RULESETS_SQL,
  SUMMARY_TABLES_SQL,
} from './summaries.js';

/**
 * The run store's schema: one list of migrations, plain SQL that PostgreSQL and PGlite (PostgreSQL
 * compiled to WASM) both run unchanged. A migration is applied once, in order, inside one transaction
 * that holds an advisory lock, so several ingesters starting at once against one PostgreSQL do not
 * race each other. docs/runs.md documents every table and column.
 */

/** The tables holding the rows of a run, keyed by its run_id. */
export const DETAIL_TABLES = [
  'rule_states',
  'findings',
  'release_changes',
  'operator_levels',
  'pool_rollouts',
] as const;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Chosen once; any constant works as long as every atlevel uses the same one. */
export const MIGRATION_LOCK = 74_311_016;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, rule states, findings, release changes, durations, ingest errors',
    sql: `
CREATE TABLE runs (
  run_id text PRIMARY KEY,
  source text NOT NULL,
  identity text NOT NULL CHECK (identity IN ('prow', 'content')),
  job text,
  build_id text,
  platform text,
  from_version text,
  to_version text,
  from_image text,
  to_image text,
  stream text,
  run_start timestamptz,
  run_end timestamptz,
  update_start timestamptz,
  update_end timestamptz,
  update_ms double precision,
  verdict text NOT NULL,
  mco_fix text NOT NULL CHECK (mco_fix IN ('present', 'absent', 'unknown')),
  config_changed text,
  config_unchanged text,
  analyzer text NOT NULL,
  ingested_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX runs_update_start ON runs (update_start);
CREATE INDEX runs_job ON runs (job);
CREATE INDEX runs_stream ON runs (stream);

CREATE TABLE rule_states (
  run_id text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  rule text NOT NULL,
  state text NOT NULL CHECK (state IN ('holds', 'violated', 'not-checked')),
  missing jsonb NOT NULL DEFAULT '[]',
  failures integer NOT NULL DEFAULT 0,
  warnings integer NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, rule)
);
CREATE INDEX rule_states_rule ON rule_states (rule, state);

CREATE TABLE findings (
  run_id text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  ordinal integer NOT NULL,
  rule text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('failure', 'warning', 'info')),
  summary text NOT NULL,
  at timestamptz,
  signature text,
  subject jsonb NOT NULL DEFAULT '{}',
  cause jsonb NOT NULL DEFAULT '[]',
  components jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (run_id, ordinal)
);
CREATE INDEX findings_signature ON findings (signature);

CREATE TABLE release_changes (
  run_id text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  component text NOT NULL,
  from_ref text,
  to_ref text,
  PRIMARY KEY (run_id, component)
);

CREATE TABLE operator_levels (
  run_id text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  operator text NOT NULL,
  at timestamptz NOT NULL,
  since_start_ms double precision,
  PRIMARY KEY (run_id, operator)
);

CREATE TABLE pool_rollouts (
  run_id text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  pool text NOT NULL,
  config text NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  rollout_ms double precision,
  level_gap_ms double precision,
  PRIMARY KEY (run_id, pool)
);

CREATE TABLE ingest_errors (
  run_id text PRIMARY KEY,
  source text NOT NULL,
  error text NOT NULL,
  first_at timestamptz NOT NULL DEFAULT now(),
  last_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 2,
    name: 'stats summary tables (summaries.ts), filled from the stored runs; indexes for filtered stats',
    // The fills are today's statements: stats_rules and stats_components count the holds by coverage,
    // columns of migration 7, which fills those two (every migration a store lacks runs in one transaction).
    sql: `${SUMMARY_TABLES_SQL};\n${rebuildSummariesSql(['stats_runs', 'stats_signatures', 'stats_durations'])};`,
  },
  {
    version: 3,
    name: 'stats summary of signatures per rule, filled from the stored runs',
    sql: `${SIGNATURE_RULES_SQL};\n${rebuildSummariesSql(['stats_signature_rules'])};`,
  },
  {
    version: 4,
    name: 'stats day summaries (per day x job x stream; exact durations) for --since and --job, filled from the stored runs',
    sql: `${DAY_SUMMARY_TABLES_SQL};\n${rebuildDaySummariesSql(DAY_TABLES_V4)};`,
  },
  {
    version: 5,
    name: 'stats summaries of runs per signature by rule set (for two or more --rule), filled from the stored runs',
    sql: `${SIGNATURE_RULESETS_SQL};\n${rebuildSummariesSql(['stats_signature_rulesets'])};\n${rebuildDaySummariesSql(['stats_day_signature_rulesets'])};`,
  },
  {
    version: 6,
    name: 'the rows of a run no longer reference runs by foreign key; the writer deletes them itself',
    // A foreign key checks every inserted row with a lookup in runs (a trigger per row): 30 operator
    // levels a run made it a third of the store's write time (30,000 rows: 0.82 s with the key,
    // 0.46 s without, PGlite). A run's rows are only ever written by the transaction that inserted
    // its runs row, and deleted with it by the one re-analysis path (store.ts), so the key guarded
    // nothing the writer does not already ensure.
    sql: DETAIL_TABLES.map((t) => `ALTER TABLE ${t} DROP CONSTRAINT IF EXISTS ${t}_run_id_fkey`).join(';\n'),
  },
  {
    version: 7,
    name: "each rule state's coverage (null: not recorded, a run stored before); the summaries count holds by it",
    // A rule state stored before has no coverage: it reads as unknown, never as full (docs/runs.md).
    sql: `${COVERAGE_SQL}\n${rebuildSummariesSql(RULE_STATE_TABLES)};\n${rebuildDaySummariesSql(['stats_day_rules'])};`,
  },
];
