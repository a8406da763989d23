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

/**
 * Which runs a statement covers, as a condition on a run_id column. Each statement applies it to
 * `runs r` and again to the detail table it joins: PostgreSQL does not carry an `= ANY(…)` across a
 * join's equality, and PGlite (no autovacuum, so no table statistics) then planned a hash join over
 * every stored operator level for each batch of new runs, a cost that grew with the store
 * (a batch of 64 runs on a 1,000-run store: 345 ms, of which 180 ms that scan).
 */
export type RunsWhere = (runIdColumn: string) => string;

/** Every stored run (rebuilding a summary from scratch). */
const EVERY_RUN: RunsWhere = () => 'TRUE';

/** `pred` on `runs r` and on the detail table `alias` joined to it by run_id. */
const joined = (pred: RunsWhere, alias: string) => `${pred('r.run_id')} AND ${pred(`${alias}.run_id`)}`;

/**
 * The holds a rule state splits by coverage (migration 7): on part of what the rule judges (at least
 * half), on too little (under half: analyze's verdict is inconclusive), and stored before coverage
 * was (unknown, never counted as full). Full holds are the runs less all the others.
 */
const HOLDS_COLUMNS = ['holds_partial', 'holds_thin', 'holds_unknown'] as const;

/** The three counts of HOLDS_COLUMNS over rule_states `s`, each multiplied by `sign`. */
const holdsCounts = (sign: string) =>
  [
    `${sign} * count(*) FILTER (WHERE s.state = 'holds' AND s.coverage = 'partial')`,
    `${sign} * count(*) FILTER (WHERE s.state = 'holds' AND s.coverage = 'thin')`,
    `${sign} * count(*) FILTER (WHERE s.state = 'holds' AND s.coverage IS NULL)`,
  ].join(', ');

/** Migration 7: each rule state's coverage, and the holds split by it in the summaries that count rule states. */
export const COVERAGE_SQL = `
ALTER TABLE rule_states ADD COLUMN coverage text CHECK (coverage IN ('full', 'partial', 'thin')),
  ADD COLUMN coverage_detail jsonb;
${['stats_rules', 'stats_components', 'stats_day_rules']
  .map(
    (t) =>
      `ALTER TABLE ${t} ${HOLDS_COLUMNS.map((c) => `ADD COLUMN ${c} bigint NOT NULL DEFAULT 0`).join(', ')}`,
  )
  .join(';\n')};
`;

/** The summary tables that count rule states: migration 7 adds the holds by coverage to them and fills them again. */
export const RULE_STATE_TABLES = ['stats_rules', 'stats_components'] as const;

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

/**
 * Migration 5: runs per signature by the set of rules their failures of it broke (sorted). Runs per
 * signature do not add up across rules, but they do across these sets: the runs of a signature for
 * the rules R are the runs of the sets that meet R, so two or more --rule read these instead of the
 * findings. Findings and first/last seen do add up across rules: they come from stats_signature_rules.
 */
export const SIGNATURE_RULESETS_SQL = `
CREATE TABLE stats_signature_rulesets (
  signature text NOT NULL, stream text NOT NULL, rules text[] NOT NULL, runs bigint NOT NULL,
  PRIMARY KEY (signature, stream, rules)
);
CREATE TABLE stats_day_signature_rulesets (
  day text NOT NULL, job text NOT NULL, stream text NOT NULL, signature text NOT NULL, rules text[] NOT NULL,
  runs bigint NOT NULL,
  PRIMARY KEY (day, job, stream, signature, rules)
);
`;

/** Every summary table, in the order a run's transaction upserts them. */
const SUMMARY_TABLES: readonly string[] = [
  'stats_runs',
  'stats_rules',
  'stats_components',
  'stats_signatures',
  'stats_signature_rules',
  'stats_signature_rulesets',
  'stats_durations',
];

/**
 * The upserts adding (sign 1) or subtracting (sign -1) the runs `pred` keeps.
 * For a subtraction, first/last seen are fixed afterwards by `boundaryFixes`.
 */
export function summaryUpserts(
  pred: RunsWhere,
  sign: string,
  tables: readonly string[] = SUMMARY_TABLES,
): string[] {
  const add = (cols: string[]) => cols.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ');
  return [
    `INSERT INTO stats_runs AS t (stream, runs, first_run, last_run)
     SELECT ${STREAM}, ${sign} * count(*), min(${WHEN}), max(${WHEN}) FROM runs r WHERE ${pred('r.run_id')} GROUP BY 1 ORDER BY 1
     ON CONFLICT (stream) DO UPDATE SET ${add(['runs'])},
       first_run = CASE WHEN ${sign} > 0 THEN least(t.first_run, EXCLUDED.first_run) ELSE t.first_run END,
       last_run = CASE WHEN ${sign} > 0 THEN greatest(t.last_run, EXCLUDED.last_run) ELSE t.last_run END`,
    `INSERT INTO stats_rules AS t (rule, stream, platform, week, runs, violated, not_checked, ${HOLDS_COLUMNS.join(', ')})
     SELECT s.rule, ${STREAM}, coalesce(r.platform, ''), ${WEEK}, ${sign} * count(*),
       ${sign} * count(*) FILTER (WHERE s.state = 'violated'), ${sign} * count(*) FILTER (WHERE s.state = 'not-checked'),
       ${holdsCounts(sign)}
     FROM rule_states s JOIN runs r ON r.run_id = s.run_id WHERE ${joined(pred, 's')} GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
     ON CONFLICT (rule, stream, platform, week) DO UPDATE SET ${add(['runs', 'violated', 'not_checked', ...HOLDS_COLUMNS])}`,
    `INSERT INTO stats_components AS t (rule, stream, changed, unchanged, fix, runs, race, not_checked, ${HOLDS_COLUMNS.join(', ')})
     SELECT s.rule, ${STREAM}, coalesce(r.config_changed, 'unknown'), coalesce(r.config_unchanged, 'unknown'), r.mco_fix,
       ${sign} * count(*), ${sign} * count(*) FILTER (WHERE s.state = 'violated'),
       ${sign} * count(*) FILTER (WHERE s.state = 'not-checked'), ${holdsCounts(sign)}
     FROM rule_states s JOIN runs r ON r.run_id = s.run_id WHERE ${joined(pred, 's')} GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (rule, stream, changed, unchanged, fix) DO UPDATE SET ${add(['runs', 'race', 'not_checked', ...HOLDS_COLUMNS])}`,
    `INSERT INTO stats_signatures AS t (signature, stream, runs, findings, first_seen, last_seen)
     SELECT coalesce(x.signature, 'unknown'), ${STREAM}, ${sign} * count(DISTINCT x.run_id), ${sign} * count(*),
       min(${WHEN}), max(${WHEN})
     FROM findings x JOIN runs r ON r.run_id = x.run_id WHERE x.severity = 'failure' AND ${joined(pred, 'x')}
     GROUP BY 1, 2 ORDER BY 1, 2
     ON CONFLICT (signature, stream) DO UPDATE SET ${add(['runs', 'findings'])},
       first_seen = CASE WHEN ${sign} > 0 THEN least(t.first_seen, EXCLUDED.first_seen) ELSE t.first_seen END,
       last_seen = CASE WHEN ${sign} > 0 THEN greatest(t.last_seen, EXCLUDED.last_seen) ELSE t.last_seen END`,
    `INSERT INTO stats_signature_rules AS t (signature, rule, stream, runs, findings, first_seen, last_seen)
     SELECT coalesce(x.signature, 'unknown'), x.rule, ${STREAM}, ${sign} * count(DISTINCT x.run_id), ${sign} * count(*),
       min(${WHEN}), max(${WHEN})
     FROM findings x JOIN runs r ON r.run_id = x.run_id WHERE x.severity = 'failure' AND ${joined(pred, 'x')}
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (signature, rule, stream) DO UPDATE SET ${add(['runs', 'findings'])},
       first_seen = CASE WHEN ${sign} > 0 THEN least(t.first_seen, EXCLUDED.first_seen) ELSE t.first_seen END,
       last_seen = CASE WHEN ${sign} > 0 THEN greatest(t.last_seen, EXCLUDED.last_seen) ELSE t.last_seen END`,
    `INSERT INTO stats_signature_rulesets AS t (signature, stream, rules, runs)
     SELECT signature, stream, rules, ${sign} * count(*) FROM (
       SELECT coalesce(x.signature, 'unknown'), ${STREAM}, array_agg(DISTINCT x.rule ORDER BY x.rule)
       FROM findings x JOIN runs r ON r.run_id = x.run_id WHERE x.severity = 'failure' AND ${joined(pred, 'x')}
       GROUP BY x.run_id, 1, 2
     ) AS g (signature, stream, rules) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (signature, stream, rules) DO UPDATE SET ${add(['runs'])}`,
    `INSERT INTO stats_durations AS t (metric, name, stream, second, n)
     SELECT metric, name, stream, second, ${sign} * count(*) FROM (
       SELECT 'update' AS metric, '' AS name, ${STREAM} AS stream, round(r.update_ms / 1000)::bigint AS second
         FROM runs r WHERE ${pred('r.run_id')} AND r.update_ms IS NOT NULL
       UNION ALL SELECT 'level-gap', p.pool, ${STREAM}, round(p.level_gap_ms / 1000)::bigint
         FROM pool_rollouts p JOIN runs r ON r.run_id = p.run_id WHERE ${joined(pred, 'p')} AND p.level_gap_ms IS NOT NULL
       UNION ALL SELECT 'rollout', p.pool, ${STREAM}, round(p.rollout_ms / 1000)::bigint
         FROM pool_rollouts p JOIN runs r ON r.run_id = p.run_id WHERE ${joined(pred, 'p')} AND p.rollout_ms IS NOT NULL
       UNION ALL SELECT 'operator', o.operator, ${STREAM}, round(o.since_start_ms / 1000)::bigint
         FROM operator_levels o JOIN runs r ON r.run_id = o.run_id WHERE ${joined(pred, 'o')} AND o.since_start_ms IS NOT NULL
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
  'DELETE FROM stats_signature_rulesets WHERE runs <= 0',
  'DELETE FROM stats_rules WHERE runs <= 0',
  'DELETE FROM stats_components WHERE runs <= 0',
  'DELETE FROM stats_signatures WHERE runs <= 0',
  'DELETE FROM stats_durations WHERE n <= 0',
];

/** The summaries of every stored run, from scratch (migrations; the stats benchmark's generated store). */
export function rebuildSummariesSql(tables: readonly string[] = SUMMARY_TABLES): string {
  return [...tables.map((t) => `DELETE FROM ${t}`), ...summaryUpserts(EVERY_RUN, '1', tables)].join(';\n');
}

/*
 * Migration 4: day summaries, for `stats` with --since and --job. The same figures as above, but
 * keyed by the run's UTC day (of its update's start, else the run's), its job and its stream, so that a
 * --since, --job or --stream filter keeps whole rows. Unlike the summaries above they lose nothing:
 * durations are kept as the values themselves (one array per day × job × stream × metric × name), so
 * the percentiles computed from them are exactly those of the detail rows. A --since that falls inside
 * a day reads that one day's runs from the detail tables (daySummarySelect) and the later days from
 * here. `job` is '' for a run without one (no --job pattern keeps it, as no LIKE keeps a NULL).
 */
const DAY = `coalesce(to_char(${WHEN} AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '')`;
const JOB = "coalesce(r.job, '')";

export const DAY_SUMMARY_TABLES_SQL = `
CREATE TABLE stats_day_runs (
  day text NOT NULL, job text NOT NULL, stream text NOT NULL,
  runs bigint NOT NULL, first_run timestamptz, last_run timestamptz,
  PRIMARY KEY (day, job, stream)
);
CREATE TABLE stats_day_rules (
  day text NOT NULL, job text NOT NULL, stream text NOT NULL, platform text NOT NULL, rule text NOT NULL,
  changed text NOT NULL, unchanged text NOT NULL, fix text NOT NULL, week text NOT NULL,
  runs bigint NOT NULL, violated bigint NOT NULL, not_checked bigint NOT NULL,
  PRIMARY KEY (day, job, stream, platform, rule, changed, unchanged, fix)
);
CREATE TABLE stats_day_signatures (
  day text NOT NULL, job text NOT NULL, stream text NOT NULL, signature text NOT NULL, rule text NOT NULL,
  runs bigint NOT NULL, findings bigint NOT NULL, first_seen timestamptz, last_seen timestamptz,
  PRIMARY KEY (day, job, stream, signature, rule)
);
CREATE TABLE stats_day_durations (
  day text NOT NULL, job text NOT NULL, stream text NOT NULL, metric text NOT NULL, name text NOT NULL,
  n bigint NOT NULL, vals double precision[] NOT NULL,
  PRIMARY KEY (day, job, stream, metric, name)
);
`;

export type DayTable =
  | 'stats_day_runs'
  | 'stats_day_rules'
  | 'stats_day_signatures'
  | 'stats_day_signature_rulesets'
  | 'stats_day_durations';

/**
 * The day tables migration 4 fills (migration 5 adds the rule sets). Not stats_day_rules: its fill
 * counts the holds by coverage, columns migration 7 adds, so migration 7 fills it (the migrations of
 * a store run in one transaction, in order, so no figure is ever read from it empty).
 */
export const DAY_TABLES_V4: readonly DayTable[] = [
  'stats_day_runs',
  'stats_day_signatures',
  'stats_day_durations',
];

const DAY_TABLES: readonly DayTable[] = [
  'stats_day_runs',
  'stats_day_rules',
  'stats_day_signatures',
  'stats_day_signature_rulesets',
  'stats_day_durations',
];

/**
 * The rows of one day summary table for the runs `pred` keeps, counts
 * multiplied by `sign`, columns in the table's order. The upserts add them; `stats` reads them
 * directly for the part of a day a --since cuts.
 */
export function daySummarySelect(table: DayTable, pred: RunsWhere, sign = '1'): string {
  const keys = `${DAY}, ${JOB}, ${STREAM}`;
  switch (table) {
    case 'stats_day_runs':
      return `SELECT ${keys}, ${sign} * count(*), min(${WHEN}), max(${WHEN})
        FROM runs r WHERE ${pred('r.run_id')} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
    case 'stats_day_rules':
      return `SELECT ${keys}, coalesce(r.platform, ''), s.rule, coalesce(r.config_changed, 'unknown'),
          coalesce(r.config_unchanged, 'unknown'), r.mco_fix, ${WEEK}, ${sign} * count(*),
          ${sign} * count(*) FILTER (WHERE s.state = 'violated'), ${sign} * count(*) FILTER (WHERE s.state = 'not-checked'),
          ${holdsCounts(sign)}
        FROM rule_states s JOIN runs r ON r.run_id = s.run_id WHERE ${joined(pred, 's')}
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`;
    case 'stats_day_signatures':
      // rule '' is every rule: runs per signature do not add up across rules, so they are kept apart.
      return `SELECT ${keys}, coalesce(x.signature, 'unknown'), g.rule, ${sign} * count(DISTINCT x.run_id), ${sign} * count(*),
          min(${WHEN}), max(${WHEN})
        FROM findings x JOIN runs r ON r.run_id = x.run_id CROSS JOIN LATERAL (VALUES (x.rule), ('')) AS g(rule)
        WHERE x.severity = 'failure' AND ${joined(pred, 'x')} GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
    case 'stats_day_signature_rulesets':
      return `SELECT day, job, stream, signature, rules, ${sign} * count(*) FROM (
          SELECT ${keys}, coalesce(x.signature, 'unknown'), array_agg(DISTINCT x.rule ORDER BY x.rule)
          FROM findings x JOIN runs r ON r.run_id = x.run_id WHERE x.severity = 'failure' AND ${joined(pred, 'x')}
          GROUP BY x.run_id, 1, 2, 3, 4
        ) AS g (day, job, stream, signature, rules) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
    case 'stats_day_durations':
      return `SELECT day, job, stream, metric, name, ${sign} * count(*), array_agg(v ORDER BY v) FROM (
          SELECT ${keys}, 'update' AS metric, '' AS name, r.update_ms AS v
            FROM runs r WHERE ${pred('r.run_id')} AND r.update_ms IS NOT NULL
          UNION ALL SELECT ${keys}, 'level-gap', p.pool, p.level_gap_ms
            FROM pool_rollouts p JOIN runs r ON r.run_id = p.run_id WHERE ${joined(pred, 'p')} AND p.level_gap_ms IS NOT NULL
          UNION ALL SELECT ${keys}, 'rollout', p.pool, p.rollout_ms
            FROM pool_rollouts p JOIN runs r ON r.run_id = p.run_id WHERE ${joined(pred, 'p')} AND p.rollout_ms IS NOT NULL
        ) AS d (day, job, stream, metric, name, v) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
  }
}

const DAY_COLUMNS: Record<DayTable, { keys: string[]; counts: string[]; rest: string }> = {
  stats_day_runs: {
    keys: ['day', 'job', 'stream'],
    counts: ['runs'],
    rest: 'first_run, last_run',
  },
  stats_day_rules: {
    keys: ['day', 'job', 'stream', 'platform', 'rule', 'changed', 'unchanged', 'fix'],
    counts: ['runs', 'violated', 'not_checked', ...HOLDS_COLUMNS],
    rest: '',
  },
  stats_day_signatures: {
    keys: ['day', 'job', 'stream', 'signature', 'rule'],
    counts: ['runs', 'findings'],
    rest: 'first_seen, last_seen',
  },
  stats_day_signature_rulesets: {
    keys: ['day', 'job', 'stream', 'signature', 'rules'],
    counts: ['runs'],
    rest: '',
  },
  stats_day_durations: { keys: ['day', 'job', 'stream', 'metric', 'name'], counts: ['n'], rest: 'vals' },
};

/**
 * Add (sign 1) or subtract (sign -1) the runs `pred` keeps. A subtraction takes the run's values out
 * of the duration arrays one occurrence each (a multiset difference), so another run with the same
 * duration keeps its own; first and last seen are fixed afterwards by DAY_SUBTRACT_FIXES.
 */
export function dayUpserts(
  pred: RunsWhere,
  sign: string,
  tables: readonly DayTable[] = DAY_TABLES,
): string[] {
  return tables.map((table) => {
    const { keys, counts, rest } = DAY_COLUMNS[table];
    const extra = table === 'stats_day_rules' ? ['week'] : [];
    const cols = [...keys, ...extra, ...counts, ...(rest ? rest.split(', ') : [])];
    const sets = counts.map((c) => `${c} = t.${c} + EXCLUDED.${c}`);
    if (table === 'stats_day_runs' || table === 'stats_day_signatures') {
      const [first, last] = rest.split(', ') as [string, string];
      sets.push(
        `${first} = CASE WHEN ${sign} > 0 THEN least(t.${first}, EXCLUDED.${first}) ELSE t.${first} END`,
        `${last} = CASE WHEN ${sign} > 0 THEN greatest(t.${last}, EXCLUDED.${last}) ELSE t.${last} END`,
      );
    }
    if (table === 'stats_day_durations') {
      sets.push(
        `vals = CASE WHEN ${sign} > 0 THEN t.vals || EXCLUDED.vals ELSE (
           SELECT coalesce(array_agg(a.v ORDER BY a.v), '{}') FROM (
             SELECT v, row_number() OVER (PARTITION BY v) AS k FROM unnest(t.vals) AS u(v)) a
           WHERE a.k > (SELECT count(*) FROM unnest(EXCLUDED.vals) AS e(v) WHERE e.v = a.v)) END`,
      );
    }
    return `INSERT INTO ${table} AS t (${cols.join(', ')})
      ${daySummarySelect(table, pred, sign)}
      ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${sets.join(', ')}`;
  });
}

/** The day, job and stream of the run `$1`, as a condition on `runs r` (for the fixes after a subtraction). */
const SAME_GROUP = `r.run_id <> $1 AND (${DAY}, ${JOB}, ${STREAM}) = (SELECT ${DAY}, ${JOB}, ${STREAM} FROM runs r WHERE r.run_id = $1)`;

/** After a subtraction (the run `$1` still in the detail tables): first/last seen of its group without it, then drop empty rows. */
export const DAY_SUBTRACT_FIXES: readonly string[] = [
  `UPDATE stats_day_runs t SET first_run = q.f, last_run = q.l FROM (
     SELECT ${DAY} AS day, ${JOB} AS job, ${STREAM} AS stream, min(${WHEN}) AS f, max(${WHEN}) AS l
     FROM runs r WHERE ${SAME_GROUP} GROUP BY 1, 2, 3) q
   WHERE t.day = q.day AND t.job = q.job AND t.stream = q.stream`,
  `UPDATE stats_day_signatures t SET first_seen = q.f, last_seen = q.l FROM (
     SELECT ${DAY} AS day, ${JOB} AS job, ${STREAM} AS stream, coalesce(x.signature, 'unknown') AS signature, g.rule,
       min(${WHEN}) AS f, max(${WHEN}) AS l
     FROM findings x JOIN runs r ON r.run_id = x.run_id CROSS JOIN LATERAL (VALUES (x.rule), ('')) AS g(rule)
     WHERE x.severity = 'failure' AND ${SAME_GROUP} GROUP BY 1, 2, 3, 4, 5) q
   WHERE t.day = q.day AND t.job = q.job AND t.stream = q.stream AND t.signature = q.signature AND t.rule = q.rule`,
  'DELETE FROM stats_day_runs WHERE runs <= 0',
  'DELETE FROM stats_day_rules WHERE runs <= 0',
  'DELETE FROM stats_day_signatures WHERE runs <= 0',
  'DELETE FROM stats_day_signature_rulesets WHERE runs <= 0',
  'DELETE FROM stats_day_durations WHERE n <= 0',
];

/** The day summaries of every stored run, from scratch. */
export function rebuildDaySummariesSql(tables: readonly DayTable[] = DAY_TABLES): string {
  return [...tables.map((t) => `DELETE FROM ${t}`), ...dayUpserts(EVERY_RUN, '1', tables)].join(';\n');
}
