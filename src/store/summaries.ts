/**
 * Summary tables for `atlevel stats` (docs/runs.md): small per-key counts kept in step with the
 * detail tables, so the common questions read a few thousand rows instead of millions. Each run's
 * contribution is computed from its own detail rows, added in the transaction that inserted the run
 * (never by a transaction whose insert did nothing) and subtracted before a re-analysis deletes it.
 * Counts are upserted with `count = count + delta`, so concurrent ingesters add rather than
 * overwrite; rows are upserted in key order so two writers lock them in the same order.
 *
 * The same statements, over every run, fill the tables for a store written before they existed.
 * Keys use '' for "the run does not say" (a NULL cannot be part of a primary key); stats prints it as
 * `unknown`. Durations are kept as counts per whole second (bucketed), so percentiles from them are
 * within half a second of the exact ones.
 */

const WHEN = 'coalesce(r.update_start, r.run_start)';
const WEEK = `coalesce(to_char(date_trunc('week', ${WHEN} AT TIME ZONE 'UTC'), 'IYYY-"W"IW'), '')`;
const STREAM = "coalesce(r.stream, '')";

/** Width of a duration bucket, in ms. */
export const DURATION_BUCKET_MS = 1000;

export const SUMMARY_TABLES_SQL = `
CREATE TABLE stats_rules (
  rule text NOT NULL, stream text NOT NULL, platform text NOT NULL, week text NOT NULL,
  runs bigint NOT NULL, violated bigint NOT NULL, not_checked bigint NOT NULL,
  PRIMARY KEY (rule, stream, platform, week)
);
CREATE TABLE stats_components (
  rule text NOT NULL, stream text NOT NULL, changed text NOT NULL, unchanged text NOT NULL, fix text NOT NULL,
  runs bigint NOT NULL, race bigint NOT NULL, not_checked bigint NOT NULL,
  PRIMARY KEY (rule, stream, changed, unchanged, fix)
);
CREATE TABLE stats_signatures (
  signature text NOT NULL, stream text NOT NULL, runs bigint NOT NULL, findings bigint NOT NULL,
  first_seen timestamptz, last_seen timestamptz,
  PRIMARY KEY (signature, stream)
);
CREATE TABLE stats_runs (
  stream text PRIMARY KEY, runs bigint NOT NULL, first_run timestamptz, last_run timestamptz
);
CREATE TABLE stats_durations (
  metric text NOT NULL, name text NOT NULL, stream text NOT NULL, second bigint NOT NULL, n bigint NOT NULL,
  PRIMARY KEY (metric, name, stream, second)
);
CREATE INDEX runs_when ON runs ((coalesce(update_start, run_start)));
CREATE INDEX findings_failures ON findings (run_id, signature) WHERE severity = 'failure';
`;

/** Migration 3: runs per signature for one rule (runs per signature do not add up across rules). */
export const SIGNATURE_RULES_SQL = `
CREATE TABLE stats_signature_rules (
  signature text NOT NULL, rule text NOT NULL, stream text NOT NULL, runs bigint NOT NULL, findings bigint NOT NULL,
  first_seen timestamptz, last_seen timestamptz,
  PRIMARY KEY (signature, rule, stream)
);
`;

/** Every summary table, in the order a run's transaction upserts them. */
const SUMMARY_TABLES: readonly string[] = [
  'stats_runs',
  'stats_rules',
  'stats_components',
  'stats_signatures',
  'stats_signature_rules',
  'stats_durations',
];

/**
 * The upserts adding (sign 1) or subtracting (sign -1) the runs `pred` keeps (a condition on `runs r`).
 * For a subtraction, first/last seen are fixed afterwards by `boundaryFixes`.
 */
export function summaryUpserts(
  pred: string,
  sign: string,
  tables: readonly string[] = SUMMARY_TABLES,
): string[] {
  const add = (cols: string[]) => cols.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ');
  return [
    `INSERT INTO stats_runs AS t (stream, runs, first_run, last_run)
     SELECT ${STREAM}, ${sign} * count(*), min(${WHEN}), max(${WHEN}) FROM runs r WHERE ${pred} GROUP BY 1 ORDER BY 1
     ON CONFLICT (stream) DO UPDATE SET ${add(['runs'])},
       first_run = CASE WHEN ${sign} > 0 THEN least(t.first_run, EXCLUDED.first_run) ELSE t.first_run END,
       last_run = CASE WHEN ${sign} > 0 THEN greatest(t.last_run, EXCLUDED.last_run) ELSE t.last_run END`,
    `INSERT INTO stats_rules AS t (rule, stream, platform, week, runs, violated, not_checked)
     SELECT s.rule, ${STREAM}, coalesce(r.platform, ''), ${WEEK}, ${sign} * count(*),
       ${sign} * count(*) FILTER (WHERE s.state = 'violated'), ${sign} * count(*) FILTER (WHERE s.state = 'not-checked')
     FROM rule_states s JOIN runs r ON r.run_id = s.run_id WHERE ${pred} GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
     ON CONFLICT (rule, stream, platform, week) DO UPDATE SET ${add(['runs', 'violated', 'not_checked'])}`,
    `INSERT INTO stats_components AS t (rule, stream, changed, unchanged, fix, runs, race, not_checked)
     SELECT s.rule, ${STREAM}, coalesce(r.config_changed, 'unknown'), coalesce(r.config_unchanged, 'unknown'), r.mco_fix,
       ${sign} * count(*), ${sign} * count(*) FILTER (WHERE s.state = 'violated'),
       ${sign} * count(*) FILTER (WHERE s.state = 'not-checked')
     FROM rule_states s JOIN runs r ON r.run_id = s.run_id WHERE ${pred} GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (rule, stream, changed, unchanged, fix) DO UPDATE SET ${add(['runs', 'race', 'not_checked'])}`,
    `INSERT INTO stats_signatures AS t (signature, stream, runs, findings, first_seen, last_seen)
     SELECT coalesce(x.signature, 'unknown'), ${STREAM}, ${sign} * count(DISTINCT x.run_id), ${sign} * count(*),
       min(${WHEN}), max(${WHEN})
     FROM findings x JOIN runs r ON r.run_id = x.run_id WHERE x.severity = 'failure' AND ${pred}
     GROUP BY 1, 2 ORDER BY 1, 2
     ON CONFLICT (signature, stream) DO UPDATE SET ${add(['runs', 'findings'])},
       first_seen = CASE WHEN ${sign} > 0 THEN least(t.first_seen, EXCLUDED.first_seen) ELSE t.first_seen END,
       last_seen = CASE WHEN ${sign} > 0 THEN greatest(t.last_seen, EXCLUDED.last_seen) ELSE t.last_seen END`,
    `INSERT INTO stats_signature_rules AS t (signature, rule, stream, runs, findings, first_seen, last_seen)
     SELECT coalesce(x.signature, 'unknown'), x.rule, ${STREAM}, ${sign} * count(DISTINCT x.run_id), ${sign} * count(*),
       min(${WHEN}), max(${WHEN})
     FROM findings x JOIN runs r ON r.run_id = x.run_id WHERE x.severity = 'failure' AND ${pred}
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (signature, rule, stream) DO UPDATE SET ${add(['runs', 'findings'])},
       first_seen = CASE WHEN ${sign} > 0 THEN least(t.first_seen, EXCLUDED.first_seen) ELSE t.first_seen END,
       last_seen = CASE WHEN ${sign} > 0 THEN greatest(t.last_seen, EXCLUDED.last_seen) ELSE t.last_seen END`,
    `INSERT INTO stats_durations AS t (metric, name, stream, second, n)
     SELECT metric, name, stream, second, ${sign} * count(*) FROM (
       SELECT 'update' AS metric, '' AS name, ${STREAM} AS stream, round(r.update_ms / 1000)::bigint AS second
         FROM runs r WHERE ${pred} AND r.update_ms IS NOT NULL
       UNION ALL SELECT 'level-gap', p.pool, ${STREAM}, round(p.level_gap_ms / 1000)::bigint
         FROM pool_rollouts p JOIN runs r ON r.run_id = p.run_id WHERE ${pred} AND p.level_gap_ms IS NOT NULL
       UNION ALL SELECT 'rollout', p.pool, ${STREAM}, round(p.rollout_ms / 1000)::bigint
         FROM pool_rollouts p JOIN runs r ON r.run_id = p.run_id WHERE ${pred} AND p.rollout_ms IS NOT NULL
       UNION ALL SELECT 'operator', o.operator, ${STREAM}, round(o.since_start_ms / 1000)::bigint
         FROM operator_levels o JOIN runs r ON r.run_id = o.run_id WHERE ${pred} AND o.since_start_ms IS NOT NULL
     ) v GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
     ON CONFLICT (metric, name, stream, second) DO UPDATE SET ${add(['n'])}`,
  ].filter((sql) => tables.some((t) => sql.startsWith(`INSERT INTO ${t} AS`)));
}

/** After a subtraction (the run `$1` still in the detail tables): drop empty rows, recompute first/last seen the run held. */
export const SUBTRACT_FIXES: readonly string[] = [
  `UPDATE stats_runs t SET first_run = q.f, last_run = q.l FROM (
     SELECT ${STREAM} AS stream, min(${WHEN}) AS f, max(${WHEN}) AS l FROM runs r
     WHERE r.run_id <> $1 AND ${STREAM} = (SELECT coalesce(stream, '') FROM runs WHERE run_id = $1) GROUP BY 1) q
   WHERE t.stream = q.stream`,
  `UPDATE stats_signatures t SET first_seen = q.f, last_seen = q.l FROM (
     SELECT coalesce(x.signature, 'unknown') AS signature, ${STREAM} AS stream, min(${WHEN}) AS f, max(${WHEN}) AS l
     FROM findings x JOIN runs r ON r.run_id = x.run_id
     WHERE x.severity = 'failure' AND r.run_id <> $1
       AND (coalesce(x.signature, 'unknown'), ${STREAM}) IN (
         SELECT coalesce(y.signature, 'unknown'), coalesce(q.stream, '') FROM findings y JOIN runs q ON q.run_id = y.run_id
         WHERE y.run_id = $1 AND y.severity = 'failure')
     GROUP BY 1, 2) q
   WHERE t.signature = q.signature AND t.stream = q.stream`,
  `UPDATE stats_signature_rules t SET first_seen = q.f, last_seen = q.l FROM (
     SELECT coalesce(x.signature, 'unknown') AS signature, x.rule, ${STREAM} AS stream, min(${WHEN}) AS f, max(${WHEN}) AS l
     FROM findings x JOIN runs r ON r.run_id = x.run_id
     WHERE x.severity = 'failure' AND r.run_id <> $1
       AND (coalesce(x.signature, 'unknown'), x.rule, ${STREAM}) IN (
         SELECT coalesce(y.signature, 'unknown'), y.rule, coalesce(q.stream, '') FROM findings y JOIN runs q ON q.run_id = y.run_id
         WHERE y.run_id = $1 AND y.severity = 'failure')
     GROUP BY 1, 2, 3) q
   WHERE t.signature = q.signature AND t.rule = q.rule AND t.stream = q.stream`,
  'DELETE FROM stats_runs WHERE runs <= 0',
  'DELETE FROM stats_signature_rules WHERE runs <= 0',
  'DELETE FROM stats_rules WHERE runs <= 0',
  'DELETE FROM stats_components WHERE runs <= 0',
  'DELETE FROM stats_signatures WHERE runs <= 0',
  'DELETE FROM stats_durations WHERE n <= 0',
];

/** The summaries of every stored run, from scratch (migrations; the stats benchmark's generated store). */
export function rebuildSummariesSql(tables: readonly string[] = SUMMARY_TABLES): string {
  return [...tables.map((t) => `DELETE FROM ${t}`), ...summaryUpserts('TRUE', '1', tables)].join(';\n');
}
