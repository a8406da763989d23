/**
 * The questions `atlevel stats` answers, as SQL over the run store (docs/runs.md): each rule's
 * failure rate overall and by version stream, platform and week; the runs grouped by signature;
 * which changed release components co-occur with the race, before and after the fix; percentiles of
 * the durations. Every query takes the same filters. Counts are cast to integer and measures to
 * double precision, so PGlite and pg return numbers alike.
 */
import { signatureCatalogue } from '../signatures/index.js';
import { type DayTable, DURATION_BUCKET_MS, daySummarySelect, type Sql } from '../store/index.js';

export interface StatsFilter {
  /** Runs whose update (else the run) started at or after this moment. */
  readonly since?: number;
  /** Job names; `*` matches any run of characters. */
  readonly jobs?: readonly string[];
  /** `4.9→4.10`. */
  readonly streams?: readonly string[];
  readonly rules?: readonly string[];
}

export interface RateRow {
  readonly rule: string;
  /** `stream`, `platform`, `week`, or `all`. */
  readonly by: 'all' | 'stream' | 'platform' | 'week';
  /** The stream, platform or ISO week; `all` for the overall row; `unknown` when the run does not say. */
  readonly key: string;
  readonly runs: number;
  readonly checked: number;
  readonly violated: number;
  readonly notChecked: number;
  /** violated / checked; null when nothing was checked. */
  readonly rate: number | null;
  /**
   * The runs where the rule held, by how much of what it judges it checked (analyze's `coverage`,
   * docs/analyze-json.md): every member, at least half, under half (a thin hold: analyze's verdict on
   * that run was inconclusive), or not recorded (stored before the store kept coverage). They add
   * up to checked − violated; a hold of unknown coverage is never counted as full.
   */
  readonly holdsFull: number;
  readonly holdsPartial: number;
  readonly holdsThin: number;
  readonly holdsCoverageUnknown: number;
}

/** The holds by coverage of RateRow and ComponentRow. */
interface HoldsByCoverage {
  readonly holdsFull: number;
  readonly holdsPartial: number;
  readonly holdsThin: number;
  readonly holdsCoverageUnknown: number;
}

/** The holds counts of a row whose `holds` are `holds` in all. */
function holdsOf(r: Record<string, unknown>, holds: number): HoldsByCoverage {
  const holdsPartial = int(r.holds_partial);
  const holdsThin = int(r.holds_thin);
  const holdsCoverageUnknown = int(r.holds_unknown);
  return {
    holdsFull: holds - holdsPartial - holdsThin - holdsCoverageUnknown,
    holdsPartial,
    holdsThin,
    holdsCoverageUnknown,
  };
}

/** The holds by coverage over rule_states `s`, as columns of a detail query. */
const HOLDS_DETAIL = `count(*) FILTER (WHERE s.state = 'holds' AND s.coverage = 'partial')::integer AS holds_partial,
       count(*) FILTER (WHERE s.state = 'holds' AND s.coverage = 'thin')::integer AS holds_thin,
       count(*) FILTER (WHERE s.state = 'holds' AND s.coverage IS NULL)::integer AS holds_unknown`;

/** The same, summed over summary rows. */
const HOLDS_SUMMED = `sum(holds_partial)::integer AS holds_partial, sum(holds_thin)::integer AS holds_thin,
       sum(holds_unknown)::integer AS holds_unknown`;

interface SignatureRow {
  readonly signature: string;
  readonly label: string;
  readonly bug: string | null;
  readonly fix: string | null;
  readonly runs: number;
  readonly findings: number;
  readonly firstSeen: number | null;
  readonly lastSeen: number | null;
}

/**
 * One operator's early-level races: findings of operator-level-before-operands, which name the
 * operator that reported level before a workload it manages had rolled out.
 */
interface EarlyLevelRow {
  readonly operator: string;
  readonly runs: number;
  readonly findings: number;
  readonly firstSeen: number | null;
  readonly lastSeen: number | null;
}

/** One per (changed, unchanged, fix): each query groups by the three. */
export interface ComponentRow {
  /** Config-reaching release components that changed, `+`-joined; `` none; `unknown` when the releases were not in the run. */
  readonly changed: string;
  readonly unchanged: string;
  /** Whether the run's rendered configs carry release-image-version (the fix of MCO PR #2918). */
  readonly fix: 'present' | 'absent' | 'unknown';
  readonly runs: number;
  /** Runs in which the race rule was violated. */
  readonly race: number;
  readonly notChecked: number;
  /** The runs where the rule held, by coverage (RateRow): a thin hold is no evidence the race was absent. */
  readonly holdsFull: number;
  readonly holdsPartial: number;
  readonly holdsThin: number;
  readonly holdsCoverageUnknown: number;
  /** runs − notChecked: the runs the race count is out of (a run not checked is no run without it). */
  readonly checked: number;
  /** race / checked; null when no run was checked. */
  readonly rate: number | null;
}

/**
 * A duration over runs. The percentiles are nearest-rank (PostgreSQL's percentile_disc: the smallest
 * value that at least that share of the runs are at or below), so each is a value some run had: interpolated
 * between two runs, a figure could describe none of them (over two runs the p50 was their mean). Over
 * fewer than PERCENTILE_MIN_RUNS runs the percentiles are null and min and max are the values.
 */
export interface Percentiles {
  readonly n: number;
  readonly min: number | null;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

/**
 * Below this many runs a percentile only renames one of the values (of two, the p50 is the smaller
 * and the p90 the larger): min and max say the same without suggesting a distribution.
 */
export const PERCENTILE_MIN_RUNS = 3;

/** The figures as given, with the percentiles withheld over too few runs. */
function summarised(
  n: number,
  min: number | null,
  ps: readonly (number | null)[],
  max: number | null,
): Percentiles {
  const [p50 = null, p90 = null, p99 = null] = n < PERCENTILE_MIN_RUNS ? [] : ps;
  return { n, min, p50, p90, p99, max };
}

export interface NamedPercentiles extends Percentiles {
  readonly name: string;
}

interface ErrorRow {
  readonly source: string;
  readonly error: string;
  readonly at: number;
}

export interface StatsResult {
  readonly store: string;
  readonly filter: StatsFilter;
  readonly runs: number;
  readonly firstRun: number | null;
  readonly lastRun: number | null;
  readonly ingestErrors: number;
  readonly errors: readonly ErrorRow[];
  readonly rates: readonly RateRow[];
  readonly signatures: readonly SignatureRow[];
  /** Early-level races per operator (operator-level-before-operands findings), most runs first. */
  readonly earlyLevels: readonly EarlyLevelRow[];
  /** The rule whose violations count as "the race" in the component table. */
  readonly raceRule: string;
  readonly components: readonly ComponentRow[];
  readonly updateMs: Percentiles;
  /** Per pool: machine-config's level report to the pool's real finish. */
  readonly levelGapMs: readonly NamedPercentiles[];
  readonly rolloutMs: readonly NamedPercentiles[];
  /** Per operator: its level report relative to the update's start (with `operators` only: it is the costliest part). */
  readonly operatorLevelMs: readonly NamedPercentiles[];
  /**
   * Where the figures came from: `summary` (the store's summary tables: counts exact, percentiles and
   * max from 1-second buckets, within half a second), `day-summary` (--since or --job: the day
   * summaries, all exact) or `detail` (every row: all exact).
   */
  readonly source: 'summary' | 'day-summary' | 'detail';
  /** Width of the duration buckets the percentiles came from; null when they are exact. */
  readonly percentileBucketMs: number | null;
  /**
   * Each `--rule`, `--job` and `--stream` value that no run in the store has (whatever the other
   * filters): the figures say nothing of it, which "no violations" must not pass for.
   */
  readonly filterMisses: readonly FilterMiss[];
}

/** A filter value that no stored run has: a rule no run was judged on, a job pattern or stream no run matches. */
export interface FilterMiss {
  readonly flag: '--rule' | '--job' | '--stream';
  readonly value: string;
}

/**
 * The filter values no stored run has, read from the summary tables (a key for every rule state, job
 * and stream the runs have; a row that a re-analysis emptied has 0 runs). Each value is tried alone:
 * `--job a* --job typo*` keeps a*'s runs, and typo* is said to match none.
 */
async function filterMisses(db: Sql, f: StatsFilter): Promise<FilterMiss[]> {
  const misses: FilterMiss[] = [];
  // `keys` are what the SQL tests (a job's LIKE pattern), one for each value, in order.
  const absent = async (
    flag: FilterMiss['flag'],
    values: readonly string[] | undefined,
    keys: readonly string[],
    test: string,
  ) => {
    if (!values || values.length === 0) return;
    const rows = await db.query(
      `SELECT i FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS p(v, i) WHERE NOT EXISTS (${test}) ORDER BY i`,
      [JSON.stringify(keys)],
    );
    for (const r of rows) {
      const value = values[Number(r.i) - 1];
      if (value !== undefined) misses.push({ flag, value });
    }
  };
  await absent(
    '--rule',
    f.rules,
    f.rules ?? [],
    'SELECT 1 FROM stats_rules t WHERE t.rule = p.v AND t.runs > 0',
  );
  await absent(
    '--job',
    f.jobs,
    (f.jobs ?? []).map(likePattern),
    "SELECT 1 FROM stats_day_runs t WHERE t.job <> '' AND t.runs > 0 AND t.job LIKE p.v",
  );
  await absent(
    '--stream',
    f.streams,
    f.streams ?? [],
    'SELECT 1 FROM stats_runs t WHERE t.stream = p.v AND t.runs > 0',
  );
  return misses;
}

/** The race of bug 2019850: the CVO completed while the master pool still rolled out. */
const RACE_RULE = 'master-pool-updated-before-cvo-complete';

const WHEN = 'coalesce(r.update_start, r.run_start)';

/** A `--job` pattern as a LIKE pattern: `*` matches anything, LIKE's own wildcards match themselves. */
function likePattern(job: string): string {
  return job.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

/** The WHERE clause over `runs r` for a filter, its parameters appended to `params`. */
function runFilter(f: StatsFilter, params: unknown[]): string {
  const parts: string[] = ['TRUE'];
  if (f.since !== undefined) {
    params.push(new Date(f.since).toISOString());
    parts.push(`${WHEN} >= $${params.length}::timestamptz`);
  }
  if (f.jobs && f.jobs.length > 0) {
    const patterns = f.jobs.map(likePattern);
    params.push(JSON.stringify(patterns));
    parts.push(
      `EXISTS (SELECT 1 FROM jsonb_array_elements_text($${params.length}::jsonb) AS p(v) WHERE r.job LIKE p.v)`,
    );
  }
  if (f.streams && f.streams.length > 0) {
    params.push(JSON.stringify(f.streams));
    parts.push(`r.stream IN (SELECT jsonb_array_elements_text($${params.length}::jsonb))`);
  }
  return parts.join(' AND ');
}

function ruleFilter(f: StatsFilter, column: string, params: unknown[]): string {
  if (!f.rules || f.rules.length === 0) return 'TRUE';
  params.push(JSON.stringify(f.rules));
  return `${column} IN (SELECT jsonb_array_elements_text($${params.length}::jsonb))`;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const int = (v: unknown): number => Number(v ?? 0);

/** The percentiles a Percentiles holds, as fractions: the SQL and the JS paths take them from here. */
const PERCENTILES = [0.5, 0.9, 0.99] as const;

const PCT = (x: string) =>
  `count(${x})::integer AS n, min(${x})::float8 AS min,
   ${PERCENTILES.map((p, i) => `percentile_disc(${p}) WITHIN GROUP (ORDER BY ${x})::float8 AS p${i}`).join(',\n   ')},
   max(${x})::float8 AS max`;

function percentiles(row: Record<string, unknown> | undefined): Percentiles {
  return summarised(
    int(row?.n),
    num(row?.min),
    PERCENTILES.map((_, i) => num(row?.[`p${i}`])),
    num(row?.max),
  );
}

async function rates(db: Sql, f: StatsFilter): Promise<RateRow[]> {
  const params: unknown[] = [];
  const where = `${runFilter(f, params)} AND ${ruleFilter(f, 's.rule', params)}`;
  // One scan for the four breakdowns; GROUPING() says which set a row belongs to.
  const rows = await db.query(
    `SELECT s.rule,
       CASE WHEN GROUPING(r.stream) = 0 THEN 'stream' WHEN GROUPING(r.platform) = 0 THEN 'platform'
            WHEN GROUPING(w.week) = 0 THEN 'week' ELSE 'all' END AS by,
       CASE WHEN GROUPING(r.stream) = 0 THEN coalesce(r.stream, 'unknown')
            WHEN GROUPING(r.platform) = 0 THEN coalesce(r.platform, 'unknown')
            WHEN GROUPING(w.week) = 0 THEN coalesce(w.week, 'unknown') ELSE 'all' END AS key,
       count(*)::integer AS runs,
       count(*) FILTER (WHERE s.state <> 'not-checked')::integer AS checked,
       count(*) FILTER (WHERE s.state = 'violated')::integer AS violated,
       count(*) FILTER (WHERE s.state = 'not-checked')::integer AS not_checked,
       ${HOLDS_DETAIL}
     FROM rule_states s JOIN runs r ON r.run_id = s.run_id
     CROSS JOIN LATERAL (SELECT to_char(date_trunc('week', ${WHEN} AT TIME ZONE 'UTC'), 'IYYY-"W"IW') AS week) w
     WHERE ${where}
     GROUP BY GROUPING SETS ((s.rule), (s.rule, r.stream), (s.rule, r.platform), (s.rule, w.week))`,
    params,
  );
  return rateRows(rows);
}

function rateRows(rows: Record<string, unknown>[]): RateRow[] {
  const order = { all: 0, stream: 1, platform: 2, week: 3 } as const;
  return rows
    .map((r) => {
      const checked = int(r.checked);
      const violated = int(r.violated);
      return {
        rule: String(r.rule),
        by: r.by as RateRow['by'],
        key: String(r.key),
        runs: int(r.runs),
        checked,
        violated,
        notChecked: int(r.not_checked),
        rate: checked === 0 ? null : violated / checked,
        ...holdsOf(r, checked - violated),
      };
    })
    .sort((a, b) =>
      a.rule < b.rule
        ? -1
        : a.rule > b.rule
          ? 1
          : order[a.by] - order[b.by] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
}

function signatureRows(rows: Record<string, unknown>[]): SignatureRow[] {
  const catalogue = new Map(signatureCatalogue().map((e) => [e.signature.id, e]));
  return rows.map((r) => {
    const e = catalogue.get(String(r.signature));
    return {
      signature: String(r.signature),
      label: e?.label ?? (r.signature === 'unknown' ? 'matches no known signature' : String(r.signature)),
      bug: e?.bug ?? null,
      fix: e?.fix ?? null,
      runs: int(r.runs),
      findings: int(r.findings),
      firstSeen: num(r.first_seen),
      lastSeen: num(r.last_seen),
    };
  });
}

async function signatures(db: Sql, f: StatsFilter): Promise<SignatureRow[]> {
  const params: unknown[] = [];
  const where = `${runFilter(f, params)} AND ${ruleFilter(f, 'x.rule', params)}`;
  const rows = await db.query(
    `SELECT coalesce(x.signature, 'unknown') AS signature, count(DISTINCT x.run_id)::integer AS runs, count(*)::integer AS findings,
       (extract(epoch FROM min(${WHEN})) * 1000)::float8 AS first_seen,
       (extract(epoch FROM max(${WHEN})) * 1000)::float8 AS last_seen
     FROM findings x JOIN runs r ON r.run_id = x.run_id
     WHERE x.severity = 'failure' AND ${where}
     GROUP BY 1 ORDER BY 2 DESC, 1`,
    params,
  );
  return signatureRows(rows);
}

/** The rule whose findings are early-level races, each naming its operator (subject.operator). */
const EARLY_LEVEL_RULE = 'operator-level-before-operands';

/**
 * Early-level races per operator, from the findings themselves whatever the path: the summaries do
 * not keep a finding's operator, and these findings are few (one per operator and update at most).
 */
async function earlyLevels(db: Sql, f: StatsFilter): Promise<EarlyLevelRow[]> {
  if (f.rules && f.rules.length > 0 && !f.rules.includes(EARLY_LEVEL_RULE)) return [];
  const params: unknown[] = [EARLY_LEVEL_RULE];
  const rows = await db.query(
    `SELECT coalesce(x.subject->>'operator', 'unknown') AS operator, count(DISTINCT x.run_id)::integer AS runs,
       count(*)::integer AS findings,
       (extract(epoch FROM min(${WHEN})) * 1000)::float8 AS first_seen,
       (extract(epoch FROM max(${WHEN})) * 1000)::float8 AS last_seen
     FROM findings x JOIN runs r ON r.run_id = x.run_id
     WHERE x.rule = $1 AND x.severity = 'failure' AND ${runFilter(f, params)}
     GROUP BY 1 ORDER BY 2 DESC, 1`,
    params,
  );
  return rows.map((r) => ({
    operator: String(r.operator),
    runs: int(r.runs),
    findings: int(r.findings),
    firstSeen: num(r.first_seen),
    lastSeen: num(r.last_seen),
  }));
}

async function components(db: Sql, f: StatsFilter, raceRule: string): Promise<ComponentRow[]> {
  const params: unknown[] = [raceRule];
  const where = runFilter(f, params);
  const rows = await db.query(
    `SELECT coalesce(r.config_changed, 'unknown') AS changed, coalesce(r.config_unchanged, 'unknown') AS unchanged, r.mco_fix AS fix,
       count(*)::integer AS runs,
       count(*) FILTER (WHERE s.state = 'violated')::integer AS race,
       count(*) FILTER (WHERE s.state = 'not-checked')::integer AS not_checked,
       ${HOLDS_DETAIL}
     FROM runs r JOIN rule_states s ON s.run_id = r.run_id AND s.rule = $1
     WHERE ${where}
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    params,
  );
  return componentRows(rows);
}

function componentRows(rows: Record<string, unknown>[]): ComponentRow[] {
  return rows.map((r) => {
    const checked = int(r.runs) - int(r.not_checked);
    return {
      changed: String(r.changed),
      unchanged: String(r.unchanged),
      fix: r.fix as ComponentRow['fix'],
      runs: int(r.runs),
      race: int(r.race),
      notChecked: int(r.not_checked),
      ...holdsOf(r, checked - int(r.race)),
      checked,
      rate: checked === 0 ? null : int(r.race) / checked,
    };
  });
}

async function named(
  db: Sql,
  f: StatsFilter,
  table: string,
  name: string,
  value: string,
): Promise<NamedPercentiles[]> {
  const params: unknown[] = [];
  const rows = await db.query(
    `SELECT t.${name} AS name, ${PCT(`t.${value}`)}
     FROM ${table} t JOIN runs r ON r.run_id = t.run_id
     WHERE ${runFilter(f, params)} AND t.${value} IS NOT NULL GROUP BY 1 ORDER BY 1`,
    params,
  );
  return rows.map((r) => ({ name: String(r.name), ...percentiles(r) }));
}

/** Whether the summary tables answer this filter: they are kept by stream and rule, not by time or job. */
function summaryCovers(f: StatsFilter): boolean {
  return f.since === undefined && (f.jobs === undefined || f.jobs.length === 0);
}

function streamFilter(f: StatsFilter, params: unknown[]): string {
  if (!f.streams || f.streams.length === 0) return 'TRUE';
  params.push(JSON.stringify(f.streams));
  return `stream IN (SELECT jsonb_array_elements_text($${params.length}::jsonb))`;
}

const UNKNOWN = (c: string) => `coalesce(nullif(${c}, ''), 'unknown')`;

async function summaryRates(db: Sql, f: StatsFilter): Promise<RateRow[]> {
  const params: unknown[] = [];
  const where = `${streamFilter(f, params)} AND ${ruleFilter(f, 'rule', params)}`;
  const rows = await db.query(
    `SELECT rule,
       CASE WHEN GROUPING(stream) = 0 THEN 'stream' WHEN GROUPING(platform) = 0 THEN 'platform'
            WHEN GROUPING(week) = 0 THEN 'week' ELSE 'all' END AS by,
       CASE WHEN GROUPING(stream) = 0 THEN ${UNKNOWN('stream')} WHEN GROUPING(platform) = 0 THEN ${UNKNOWN('platform')}
            WHEN GROUPING(week) = 0 THEN ${UNKNOWN('week')} ELSE 'all' END AS key,
       sum(runs)::integer AS runs, sum(runs - not_checked)::integer AS checked,
       sum(violated)::integer AS violated, sum(not_checked)::integer AS not_checked, ${HOLDS_SUMMED}
     FROM stats_rules WHERE ${where}
     GROUP BY GROUPING SETS ((rule), (rule, stream), (rule, platform), (rule, week))`,
    params,
  );
  return rateRows(rows);
}

async function summarySignatures(db: Sql, f: StatsFilter): Promise<SignatureRow[]> {
  const params: unknown[] = [];
  const rule = f.rules?.[0];
  if (rule !== undefined) params.push(rule);
  const rows = await db.query(
    `SELECT signature, sum(runs)::integer AS runs, sum(findings)::integer AS findings,
       (extract(epoch FROM min(first_seen)) * 1000)::float8 AS first_seen,
       (extract(epoch FROM max(last_seen)) * 1000)::float8 AS last_seen
     FROM ${rule === undefined ? 'stats_signatures' : 'stats_signature_rules'}
     WHERE ${rule === undefined ? 'TRUE' : 'rule = $1'} AND ${streamFilter(f, params)} GROUP BY 1 ORDER BY 2 DESC, 1`,
    params,
  );
  return signatureRows(rows);
}

/**
 * Runs per signature for two or more rules R (`$1`, a JSON array): the runs of the rule sets that meet
 * R (exact: a run is in one rule set per signature). Findings and first/last seen add up across
 * rules: those come from the per-rule counts. `sets` and `perRule` are FROM items, with conditions.
 */
function ruleSetSignatureSql(sets: string, perRule: string): string {
  return `WITH rs AS (SELECT signature, sum(runs) AS runs FROM ${sets}
         AND rules && ARRAY(SELECT jsonb_array_elements_text($1::jsonb)) GROUP BY 1),
       pr AS (SELECT signature, sum(findings) AS findings, min(first_seen) AS first_seen, max(last_seen) AS last_seen
         FROM ${perRule} AND rule IN (SELECT jsonb_array_elements_text($1::jsonb)) GROUP BY 1)
     SELECT pr.signature, rs.runs::integer AS runs, pr.findings::integer AS findings,
       (extract(epoch FROM pr.first_seen) * 1000)::float8 AS first_seen,
       (extract(epoch FROM pr.last_seen) * 1000)::float8 AS last_seen
     FROM pr JOIN rs ON rs.signature = pr.signature ORDER BY 2 DESC, 1`;
}

async function summaryRuleSetSignatures(db: Sql, f: StatsFilter): Promise<SignatureRow[]> {
  const params: unknown[] = [JSON.stringify(f.rules ?? [])];
  const streams = streamFilter(f, params);
  const rows = await db.query(
    ruleSetSignatureSql(
      `stats_signature_rulesets WHERE ${streams}`,
      `stats_signature_rules WHERE ${streams}`,
    ),
    params,
  );
  return signatureRows(rows);
}

async function summaryComponents(db: Sql, f: StatsFilter, raceRule: string): Promise<ComponentRow[]> {
  const params: unknown[] = [raceRule];
  const rows = await db.query(
    `SELECT changed, unchanged, fix, sum(runs)::integer AS runs, sum(race)::integer AS race,
       sum(not_checked)::integer AS not_checked, ${HOLDS_SUMMED}
     FROM stats_components WHERE rule = $1 AND ${streamFilter(f, params)} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    params,
  );
  return componentRows(rows);
}

/**
 * percentile_disc as PostgreSQL computes it (orderedsetaggs.c): the value at rank ceil(p × n), counted
 * from 1 (the first for p = 0), with p × n in double precision as there, so that figures computed here
 * equal the ones the detail tables give. `at(k)` is the k-th smallest value, from 0.
 */
function discretePercentiles(n: number, at: (k: number) => number): Percentiles {
  if (n === 0) return summarised(0, null, [], null);
  const disc = (p: number) => at(Math.max(Math.ceil(p * n), 1) - 1);
  return summarised(n, at(0), PERCENTILES.map(disc), at(n - 1));
}

/** percentile_disc over counts per bucket (each value taken as its bucket's). */
function bucketPercentiles(buckets: readonly (readonly [number, number])[]): Percentiles {
  const n = buckets.reduce((a, [, c]) => a + c, 0);
  return discretePercentiles(n, (k) => {
    let seen = 0;
    for (const [v, c] of buckets) {
      seen += c;
      if (k < seen) return v;
    }
    return buckets[buckets.length - 1]?.[0] ?? 0;
  });
}

/** Every duration metric's percentiles from the buckets, by metric then name. */
async function summaryDurations(
  db: Sql,
  f: StatsFilter,
  metrics: readonly string[],
): Promise<Map<string, NamedPercentiles[]>> {
  const params: unknown[] = [JSON.stringify(metrics)];
  const rows = await db.query(
    `SELECT metric, name, second::float8 AS second, sum(n)::integer AS n FROM stats_durations
     WHERE metric IN (SELECT jsonb_array_elements_text($1::jsonb)) AND ${streamFilter(f, params)}
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    params,
  );
  return byMetricAndName(
    rows,
    metrics,
    (r): [number, number] => [Number(r.second) * DURATION_BUCKET_MS, int(r.n)],
    bucketPercentiles,
  );
}

/**
 * Rows grouped by metric then name (names in code-unit order), each group's items summed up by
 * `percentilesOf`; every metric asked for is in the answer, an empty list when no row had it.
 */
function byMetricAndName<T>(
  rows: readonly Record<string, unknown>[],
  metrics: readonly string[],
  item: (row: Record<string, unknown>) => T,
  percentilesOf: (items: T[]) => Percentiles,
): Map<string, NamedPercentiles[]> {
  const grouped = new Map<string, Map<string, T[]>>();
  for (const r of rows) {
    const byName = grouped.get(String(r.metric)) ?? new Map<string, T[]>();
    grouped.set(String(r.metric), byName);
    const list = byName.get(String(r.name)) ?? [];
    byName.set(String(r.name), list);
    list.push(item(r));
  }
  const out = new Map<string, NamedPercentiles[]>();
  for (const m of metrics) {
    const byName = grouped.get(m) ?? new Map<string, T[]>();
    out.set(
      m,
      [...byName]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, items]) => ({ name, ...percentilesOf(items) })),
    );
  }
  return out;
}

function unnamed(p: NamedPercentiles | undefined): Percentiles {
  return p ? { n: p.n, min: p.min, p50: p.p50, p90: p.p90, p99: p.p99, max: p.max } : bucketPercentiles([]);
}

async function collectFromSummaries(
  db: Sql,
  where: string,
  f: StatsFilter,
  timed: <T>(part: string, fn: () => Promise<T>) => Promise<T>,
  operators: boolean,
): Promise<StatsResult> {
  const raceRule = f.rules?.[0] ?? RACE_RULE;
  const p1: unknown[] = [];
  const totals = await timed('totals', () => summedTotals(db, `stats_runs WHERE ${streamFilter(f, p1)}`, p1));
  const errs = await errorsOf(db);
  const rates = await timed('rates', () => summaryRates(db, f));
  // Runs per signature do not add up across rules: all rules or one read the per-rule counts, two or
  // more the counts per rule set.
  const sigs = await timed('signatures', () =>
    f.rules && f.rules.length > 1 ? summaryRuleSetSignatures(db, f) : summarySignatures(db, f),
  );
  const comps = await timed('components', () => summaryComponents(db, f, raceRule));
  const metrics = ['update', 'level-gap', 'rollout', ...(operators ? ['operator'] : [])];
  const durations = await timed('durations', () => summaryDurations(db, f, metrics));
  return {
    store: where,
    filter: f,
    runs: int(totals?.runs),
    firstRun: num(totals?.first_run),
    lastRun: num(totals?.last_run),
    ...errs,
    rates,
    signatures: sigs,
    earlyLevels: await timed('early levels', () => earlyLevels(db, f)),
    raceRule,
    components: comps,
    updateMs: unnamed(durations.get('update')?.[0]),
    levelGapMs: durations.get('level-gap') ?? [],
    rolloutMs: durations.get('rollout') ?? [],
    operatorLevelMs: durations.get('operator') ?? [],
    source: 'summary',
    percentileBucketMs: DURATION_BUCKET_MS,
    filterMisses: await timed('filter misses', () => filterMisses(db, f)),
  };
}

const DAY_MS = 86_400_000;

/**
 * The rows of a day summary table the filter keeps, as a FROM item `u`: whole days from the table, and
 * the part of the day a --since cuts computed from the detail tables with the same SELECT that fills
 * the table. --job and --stream keep whole rows (the tables are keyed by both).
 */
function dayRows(table: DayTable, f: StatsFilter, params: unknown[]): string {
  let days = 'TRUE';
  let cut = '';
  if (f.since !== undefined) {
    const day = new Date(f.since).toISOString().slice(0, 10);
    const midnight = Date.parse(`${day}T00:00:00Z`);
    params.push(day);
    if (midnight === f.since) days = `day >= $${params.length}`;
    else {
      days = `day > $${params.length}`;
      params.push(new Date(f.since).toISOString(), new Date(midnight + DAY_MS).toISOString());
      // The runs of the cut day first (runs_when), then their rows by run id: given the time range
      // inside the join, PostgreSQL's planner chose a parallel scan of every run.
      const ids = `ARRAY(SELECT q.run_id FROM runs q WHERE coalesce(q.update_start, q.run_start) >= $${params.length - 1}::timestamptz AND coalesce(q.update_start, q.run_start) < $${params.length}::timestamptz)`;
      cut = ` UNION ALL (${daySummarySelect(table, (id) => `${id} = ANY(${ids})`)})`;
    }
  }
  const keep: string[] = [];
  if (f.jobs && f.jobs.length > 0) {
    const patterns = f.jobs.map(likePattern);
    params.push(JSON.stringify(patterns));
    // '' is a run without a job, which no pattern keeps (as no LIKE keeps the detail tables' NULL).
    keep.push(
      `w.job <> '' AND EXISTS (SELECT 1 FROM jsonb_array_elements_text($${params.length}::jsonb) AS p(v) WHERE w.job LIKE p.v)`,
    );
  }
  if (f.streams && f.streams.length > 0) {
    params.push(JSON.stringify(f.streams));
    keep.push(`w.stream IN (SELECT jsonb_array_elements_text($${params.length}::jsonb))`);
  }
  return `(SELECT * FROM (SELECT * FROM ${table} WHERE ${days}${cut}) AS w WHERE ${keep.length ? keep.join(' AND ') : 'TRUE'}) AS u`;
}

async function dayRates(db: Sql, f: StatsFilter): Promise<RateRow[]> {
  const params: unknown[] = [];
  const from = dayRows('stats_day_rules', f, params);
  const rows = await db.query(
    `SELECT rule,
       CASE WHEN GROUPING(stream) = 0 THEN 'stream' WHEN GROUPING(platform) = 0 THEN 'platform'
            WHEN GROUPING(week) = 0 THEN 'week' ELSE 'all' END AS by,
       CASE WHEN GROUPING(stream) = 0 THEN ${UNKNOWN('stream')} WHEN GROUPING(platform) = 0 THEN ${UNKNOWN('platform')}
            WHEN GROUPING(week) = 0 THEN ${UNKNOWN('week')} ELSE 'all' END AS key,
       sum(runs)::integer AS runs, sum(runs - not_checked)::integer AS checked,
       sum(violated)::integer AS violated, sum(not_checked)::integer AS not_checked, ${HOLDS_SUMMED}
     FROM ${from} WHERE ${ruleFilter(f, 'rule', params)}
     GROUP BY GROUPING SETS ((rule), (rule, stream), (rule, platform), (rule, week))`,
    params,
  );
  return rateRows(rows);
}

async function daySignatures(db: Sql, f: StatsFilter): Promise<SignatureRow[]> {
  // Runs per signature do not add up across rules: all rules or one read the per-rule rows (rule ''
  // is all), two or more the rule sets.
  if (f.rules && f.rules.length > 1) {
    const params: unknown[] = [JSON.stringify(f.rules)];
    const sets = dayRows('stats_day_signature_rulesets', f, params);
    const perRule = dayRows('stats_day_signatures', f, params);
    const rows = await db.query(ruleSetSignatureSql(`${sets} WHERE TRUE`, `${perRule} WHERE TRUE`), params);
    return signatureRows(rows);
  }
  const params: unknown[] = [f.rules?.[0] ?? ''];
  const rows = await db.query(
    `SELECT signature, sum(runs)::integer AS runs, sum(findings)::integer AS findings,
       (extract(epoch FROM min(first_seen)) * 1000)::float8 AS first_seen,
       (extract(epoch FROM max(last_seen)) * 1000)::float8 AS last_seen
     FROM ${dayRows('stats_day_signatures', f, params)} WHERE rule = $1 GROUP BY 1 ORDER BY 2 DESC, 1`,
    params,
  );
  return signatureRows(rows);
}

async function dayComponents(db: Sql, f: StatsFilter, raceRule: string): Promise<ComponentRow[]> {
  const params: unknown[] = [raceRule];
  const rows = await db.query(
    `SELECT changed, unchanged, fix, sum(runs)::integer AS runs, sum(violated)::integer AS race,
       sum(not_checked)::integer AS not_checked, ${HOLDS_SUMMED}
     FROM ${dayRows('stats_day_rules', f, params)} WHERE rule = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    params,
  );
  return componentRows(rows);
}

/**
 * The exact percentiles of every duration metric, by metric then name: the kept rows' stored values
 * are read as text and sorted here. Sorting them in SQL cost more than reading them: PGlite took
 * 70–90 ms to sort the 100,000 values of one metric grouped by name, and under 70 ms to read all
 * three metrics' 250,000 (bench/stats.bench.ts, --since). float8's text form reads back exactly:
 * with extra_float_digits above 0, which every connection sets (store/db.ts), it is the shortest
 * form that does.
 */
async function dayDurations(
  db: Sql,
  f: StatsFilter,
  metrics: readonly string[],
): Promise<Map<string, NamedPercentiles[]>> {
  const params: unknown[] = [JSON.stringify(metrics)];
  const rows = await db.query(
    `SELECT u.metric, u.name, u.vals::text AS vals
     FROM ${dayRows('stats_day_durations', f, params)}
     WHERE u.metric IN (SELECT jsonb_array_elements_text($1::jsonb))`,
    params,
  );
  return byMetricAndName(
    rows,
    metrics,
    (r) => String(r.vals),
    (texts) => {
      const sorted = floatArrays(texts).sort();
      return discretePercentiles(sorted.length, (k) => sorted[k] as number);
    },
  );
}

/** The values of float8[] text forms (`{1,2.5,-3}`; the column holds no NULL), in one array. */
function floatArrays(texts: readonly string[]): Float64Array {
  const values: number[] = [];
  for (const t of texts) {
    if (t.length <= 2) continue;
    for (const v of t.slice(1, -1).split(',')) values.push(Number(v));
  }
  return Float64Array.from(values);
}

async function collectFromDays(
  db: Sql,
  where: string,
  f: StatsFilter,
  timed: <T>(part: string, fn: () => Promise<T>) => Promise<T>,
  operators: boolean,
): Promise<StatsResult> {
  const raceRule = f.rules?.[0] ?? RACE_RULE;
  const p1: unknown[] = [];
  const totals = await timed('totals', () => summedTotals(db, dayRows('stats_day_runs', f, p1), p1));
  const errs = await errorsOf(db);
  const rates = await timed('rates', () => dayRates(db, f));
  const sigs = await timed('signatures', () => daySignatures(db, f));
  const comps = await timed('components', () => dayComponents(db, f, raceRule));
  const durations = await timed('durations', () => dayDurations(db, f, ['update', 'level-gap', 'rollout']));
  return {
    store: where,
    filter: f,
    runs: int(totals?.runs),
    firstRun: num(totals?.first_run),
    lastRun: num(totals?.last_run),
    ...errs,
    rates,
    signatures: sigs,
    earlyLevels: await timed('early levels', () => earlyLevels(db, f)),
    raceRule,
    components: comps,
    updateMs: unnamed(durations.get('update')?.[0]),
    levelGapMs: durations.get('level-gap') ?? [],
    rolloutMs: durations.get('rollout') ?? [],
    // Operators are not in the day summaries (30 a run would be most of their size): the detail rows.
    operatorLevelMs: operators
      ? await timed('operator levels', () => named(db, f, 'operator_levels', 'operator', 'since_start_ms'))
      : [],
    source: 'day-summary',
    percentileBucketMs: null,
    filterMisses: await timed('filter misses', () => filterMisses(db, f)),
  };
}

/** Runs, first and last run of the summary rows `from` (a FROM item) keeps: the summaries hold counts and bounds. */
async function summedTotals(db: Sql, from: string, params: unknown[]) {
  const [totals] = await db.query(
    `SELECT coalesce(sum(runs), 0)::integer AS runs, (extract(epoch FROM min(first_run)) * 1000)::float8 AS first_run,
       (extract(epoch FROM max(last_run)) * 1000)::float8 AS last_run
     FROM ${from}`,
    params,
  );
  return totals;
}

async function errorsOf(db: Sql): Promise<{ ingestErrors: number; errors: ErrorRow[] }> {
  const [errs] = await db.query('SELECT count(*)::integer AS n FROM ingest_errors');
  const errors = await db.query(
    `SELECT source, error, (extract(epoch FROM last_at) * 1000)::float8 AS at FROM ingest_errors ORDER BY last_at DESC, source LIMIT 20`,
  );
  return {
    ingestErrors: int(errs?.n),
    errors: errors.map((e) => ({ source: String(e.source), error: String(e.error), at: Number(e.at) })),
  };
}

/**
 * `onTiming`, when given, hears how long each part took (the stats benchmark reports it). `detail`
 * reads every figure from the detail tables (the tests and the benchmark compare the fast paths with it).
 */
export async function collectStats(
  db: Sql,
  where: string,
  f: StatsFilter,
  onTiming?: (part: string, ms: number) => void,
  opts: { readonly operators?: boolean; readonly detail?: boolean } = {},
): Promise<StatsResult> {
  const timed = async <T>(part: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    onTiming?.(part, performance.now() - t);
    return out;
  };
  if (!opts.detail && summaryCovers(f))
    return collectFromSummaries(db, where, f, timed, opts.operators === true);
  if (!opts.detail) return collectFromDays(db, where, f, timed, opts.operators === true);
  const raceRule = f.rules?.[0] ?? RACE_RULE;
  const p1: unknown[] = [];
  const [totals] = await timed('totals', () =>
    db.query(
      `SELECT count(*)::integer AS runs, (extract(epoch FROM min(${WHEN})) * 1000)::float8 AS first_run,
       (extract(epoch FROM max(${WHEN})) * 1000)::float8 AS last_run, ${PCT('r.update_ms')}
     FROM runs r WHERE ${runFilter(f, p1)}`,
      p1,
    ),
  );
  const errs = await errorsOf(db);
  return {
    store: where,
    filter: f,
    runs: int(totals?.runs),
    firstRun: num(totals?.first_run),
    lastRun: num(totals?.last_run),
    ...errs,
    rates: await timed('rates', () => rates(db, f)),
    signatures: await timed('signatures', () => signatures(db, f)),
    earlyLevels: await timed('early levels', () => earlyLevels(db, f)),
    raceRule,
    components: await timed('components', () => components(db, f, raceRule)),
    updateMs: percentiles(totals),
    levelGapMs: await timed('level gaps', () => named(db, f, 'pool_rollouts', 'pool', 'level_gap_ms')),
    rolloutMs: await timed('rollouts', () => named(db, f, 'pool_rollouts', 'pool', 'rollout_ms')),
    operatorLevelMs: opts.operators
      ? await timed('operator levels', () => named(db, f, 'operator_levels', 'operator', 'since_start_ms'))
      : [],
    source: 'detail',
    percentileBucketMs: null,
    filterMisses: await timed('filter misses', () => filterMisses(db, f)),
  };
}
