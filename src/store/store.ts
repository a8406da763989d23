/**
 * The run store: migrate, write one run (all its rows in one transaction), record an ingest error,
 * and answer which runs are already in. Writing a run that is already stored changes nothing (the
 * `runs` insert does nothing on conflict, and the rows below it are written only by the transaction
 * that inserted the run), which is what makes re-ingesting, resuming and overlapping shards safe.
 */
import { type Db, openDb, type Sql, type StoreUse } from './db.js';
import type { RunRecord } from './record.js';
import { DETAIL_TABLES, MIGRATION_LOCK, MIGRATIONS } from './schema.js';
import {
  DAY_SUBTRACT_FIXES,
  dayUpserts,
  type RunsWhere,
  rebuildDaySummariesSql,
  rebuildSummariesSql,
  SUBTRACT_FIXES,
  summaryUpserts,
} from './summaries.js';
import { pgJson } from './text.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Insert the `runs` rows of these records (in their order) that are not stored yet; returns the ids
 * this statement inserted. The rows go as one JSON parameter: the same SQL on both engines.
 */
async function insertRuns(tx: Sql, records: readonly RunRecord[]): Promise<Set<string>> {
  const rows = records.map((r) => ({
    run_id: r.id,
    source: r.source,
    identity: r.identity,
    job: r.job,
    build_id: r.buildId,
    platform: r.platform,
    from_version: r.fromVersion,
    to_version: r.toVersion,
    from_image: r.fromImage,
    to_image: r.toImage,
    stream: r.stream,
    run_start: iso(r.runStart),
    run_end: iso(r.runEnd),
    update_start: iso(r.updateStart),
    update_end: iso(r.updateEnd),
    update_ms: r.updateMs,
    verdict: r.verdict,
    mco_fix: r.mcoFix,
    config_changed: r.configChanged,
    config_unchanged: r.configUnchanged,
    analyzer: r.analyzer,
  }));
  const cols = Object.keys(rows[0] ?? {}).join(', ');
  const inserted = await tx.query<{ run_id: string }>(
    `INSERT INTO runs (${cols})
       SELECT ${cols} FROM jsonb_populate_recordset(NULL::runs, $1::jsonb)
       ON CONFLICT (run_id) DO NOTHING RETURNING run_id`,
    [pgJson(rows)],
  );
  return new Set(inserted.map((r) => r.run_id));
}

/** The detail rows of runs just inserted: one statement per table for all of them. */
async function insertDetails(tx: Sql, records: readonly RunRecord[]): Promise<void> {
  const tables: [string, Record<string, unknown>[]][] = [
    [
      'rule_states',
      records.flatMap((r) =>
        r.rules.map((x) => ({
          run_id: r.id,
          rule: x.rule,
          state: x.state,
          missing: x.missing,
          failures: x.failures,
          warnings: x.warnings,
          coverage: x.coverage,
          coverage_detail: x.coverageDetail,
        })),
      ),
    ],
    [
      'findings',
      records.flatMap((r) =>
        r.findings.map((x) => ({
          run_id: r.id,
          ordinal: x.ordinal,
          rule: x.rule,
          severity: x.severity,
          summary: x.summary,
          at: iso(x.at),
          signature: x.signature,
          subject: x.subject,
          cause: x.cause,
          components: x.components,
        })),
      ),
    ],
    [
      'release_changes',
      records.flatMap((r) =>
        r.releaseChanges.map((x) => ({
          run_id: r.id,
          component: x.component,
          from_ref: x.from,
          to_ref: x.to,
        })),
      ),
    ],
    [
      'operator_levels',
      records.flatMap((r) =>
        r.operators.map((x) => ({
          run_id: r.id,
          operator: x.operator,
          at: iso(x.at),
          since_start_ms: x.sinceStartMs,
        })),
      ),
    ],
    [
      'pool_rollouts',
      records.flatMap((r) =>
        r.pools.map((x) => ({
          run_id: r.id,
          pool: x.pool,
          config: x.config,
          started_at: iso(x.startedAt),
          finished_at: iso(x.finishedAt),
          rollout_ms: x.rolloutMs,
          level_gap_ms: x.levelGapMs,
        })),
      ),
    ],
  ];
  for (const [table, rows] of tables) {
    if (rows.length === 0) continue;
    const cols = Object.keys(rows[0] as object).join(', ');
    // jsonb_populate_recordset takes the table's own row type: every column keeps its type and CHECK.
    await tx.query(
      `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`,
      [pgJson(rows)],
    );
  }
}

export type PutOutcome = 'stored' | 'present' | 'replaced';

/** A stored run whose update another stored run has too (RunStore.sameUpdates). */
export interface SameUpdate {
  readonly runId: string;
  readonly source: string;
  readonly other: string;
  readonly otherSource: string;
}

export class RunStore {
  private constructor(readonly db: Db) {}

  /** Open (creating when needed) and bring the schema up to date. */
  static async open(spec: string, use: StoreUse = 'query'): Promise<RunStore> {
    const db = await openDb(spec, use);
    const store = new RunStore(db);
    try {
      await store.migrate();
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
    return store;
  }

  get where(): string {
    return this.db.where;
  }

  /** Apply the migrations not applied yet; returns their versions. */
  async migrate(): Promise<number[]> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) =>
          Number(r.version),
        ),
      );
      const applied: number[] = [];
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await tx.exec(m.sql);
        await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        applied.push(m.version);
      }
      return applied;
    });
  }

  /**
   * Of these stored runs, each one whose update another stored run has too: the same start and end to
   * the millisecond, the same versions. That is one update stored twice: the same run under two ids
   * (a copy under a Prow JOB/BUILD_ID path and one without, a URL and its copy without prowjob.json)
   * or two captures of one update (CI artifacts and a must-gather). stats counts runs, so it counts
   * that update twice. Looked up through runs_when; a run without an update's start has no pair.
   */
  async sameUpdates(ids: readonly string[]): Promise<SameUpdate[]> {
    const out: SameUpdate[] = [];
    for (let i = 0; i < ids.length; i += 5000) {
      const rows = await this.db.query<{
        run_id: string;
        source: string;
        other: string;
        other_source: string;
      }>(
        `SELECT a.run_id, a.source, b.run_id AS other, b.source AS other_source
           FROM runs a JOIN runs b
             ON coalesce(b.update_start, b.run_start) = coalesce(a.update_start, a.run_start)
            AND b.update_start = a.update_start AND b.run_id <> a.run_id
            AND b.update_end IS NOT DISTINCT FROM a.update_end
            AND b.from_version IS NOT DISTINCT FROM a.from_version
            AND b.to_version IS NOT DISTINCT FROM a.to_version
          WHERE a.run_id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND a.update_start IS NOT NULL
          ORDER BY a.run_id, b.run_id`,
        [pgJson(ids.slice(i, i + 5000))],
      );
      for (const r of rows)
        out.push({ runId: r.run_id, source: r.source, other: r.other, otherSource: r.other_source });
    }
    return out;
  }

  /** Which of these run ids are stored already (as runs; ingest errors do not count). */
  async storedIds(ids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 5000) {
      const chunk = ids.slice(i, i + 5000);
      const rows = await this.db.query<{ run_id: string }>(
        'SELECT run_id FROM runs WHERE run_id IN (SELECT jsonb_array_elements_text($1::jsonb))',
        [pgJson(chunk)],
      );
      for (const r of rows) out.add(r.run_id);
    }
    return out;
  }

  /**
   * Write one run. `replace` re-analyses: the old rows go and the new ones come in, in one transaction.
   * Without it a stored run is left as it is.
   */
  async putRun(r: RunRecord, replace = false): Promise<PutOutcome> {
    const [outcome] = await this.putRuns([r], replace);
    return outcome ?? 'present';
  }

  /**
   * Write several runs in one transaction (ingest gathers the analyses that come back within a short
   * while): one statement per table for all of them, then the summaries of the runs the transaction
   * inserted, once per summary table. Statements, not rows, are most of a write's cost on PGlite:
   * 128 simulated runs took 24.9 ms a run one run a transaction, 7.9 ms in batches of 32 with one
   * statement per table and run, and less again with one per table and batch. The runs are inserted
   * in id order, so two writers with overlapping batches wait for each other in one order and cannot
   * deadlock. An id given twice is written once (the later copy is `present`). With `replace`, one
   * run at a time: a re-analysis subtracts the stored run from the summaries, which must not
   * interleave with another run's locks.
   */
  async putRuns(records: readonly RunRecord[], replace = false): Promise<PutOutcome[]> {
    if (replace) {
      const out: PutOutcome[] = [];
      for (const r of records) out.push(await this.db.transaction((tx) => this.#replace(tx, r)));
      return out;
    }
    const firstOf = new Map<string, number>();
    records.forEach((r, i) => {
      if (!firstOf.has(r.id)) firstOf.set(r.id, i);
    });
    const unique = [...firstOf.values()]
      .map((i) => records[i] as RunRecord)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return this.db.transaction(async (tx) => {
      const inserted = await insertRuns(tx, unique);
      const fresh = unique.filter((r) => inserted.has(r.id));
      if (fresh.length > 0) {
        await insertDetails(tx, fresh);
        // Only the transaction that inserted a run gets here for it, so a run is counted once.
        await this.#addToSummaries(tx, fresh);
      }
      return records.map((r, i) => (firstOf.get(r.id) === i && inserted.has(r.id) ? 'stored' : 'present'));
    });
  }

  async #addToSummaries(tx: Sql, runs: readonly RunRecord[]): Promise<void> {
    const ids = pgJson(runs.map((r) => r.id));
    // = ANY(ARRAY(…)), not IN (…): the planner then looks the runs up by key on a store of any size.
    const pred: RunsWhere = (id) => `${id} = ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))`;
    for (const sql of [...summaryUpserts(pred, '1'), ...dayUpserts(pred, '1')]) await tx.query(sql, [ids]);
    // A run's errors go, and so do those of its source under another key: an unreadable tarball's
    // (keyed source:PATH) and the run's the path held before (keyed by that content's hash). The
    // source gives a run now; "N ingest errors in the store" must not count it still.
    await tx.query(
      `DELETE FROM ingest_errors WHERE run_id IN (SELECT jsonb_array_elements_text($1::jsonb))
          OR source IN (SELECT jsonb_array_elements_text($2::jsonb))`,
      [ids, pgJson(runs.map((r) => r.source))],
    );
  }

  /**
   * Forget the ingest errors of these sources: each now names a run the store has (ingest found it
   * already there), so what failed at that path before is no longer an error of the store's.
   */
  async forgetErrors(sources: readonly string[]): Promise<void> {
    if (sources.length === 0) return;
    await this.db.query(
      'DELETE FROM ingest_errors WHERE source IN (SELECT jsonb_array_elements_text($1::jsonb))',
      [pgJson(sources)],
    );
  }

  /** A re-analysis: subtract the stored run from the summaries, delete it, write the new one. */
  async #replace(tx: Sql, r: RunRecord): Promise<PutOutcome> {
    // Two re-analyses of one run must not both subtract it: the second waits, then subtracts
    // what the first wrote.
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, r.id]);
    const only: RunsWhere = (id) => `${id} = $1`;
    for (const sql of summaryUpserts(only, '-1')) await tx.query(sql, [r.id]);
    for (const sql of dayUpserts(only, '-1')) await tx.query(sql, [r.id]);
    for (const sql of [...SUBTRACT_FIXES, ...DAY_SUBTRACT_FIXES])
      await tx.query(sql, sql.includes('$1') ? [r.id] : []);
    // The rows of the run first: no foreign key cascades from runs (migration 6).
    for (const table of DETAIL_TABLES) await tx.query(`DELETE FROM ${table} WHERE run_id = $1`, [r.id]);
    const replaced =
      (await tx.query('DELETE FROM runs WHERE run_id = $1 RETURNING run_id', [r.id])).length > 0;
    // Another writer may have stored it since the delete; then this transaction adds nothing.
    if (!(await insertRuns(tx, [r])).has(r.id)) return 'present';
    await insertDetails(tx, [r]);
    await this.#addToSummaries(tx, [r]);
    return replaced ? 'replaced' : 'stored';
  }

  /**
   * A run that could not be read or analysed, kept with its error. It is tried again on the next
   * ingest; the same error again changes nothing, a different one replaces it.
   */
  async putError(runId: string, source: string, error: string): Promise<void> {
    await this.db.query(
      `INSERT INTO ingest_errors (run_id, source, error) VALUES ($1, $2, $3)
       ON CONFLICT (run_id) DO UPDATE SET error = EXCLUDED.error, source = EXCLUDED.source, last_at = now()
       WHERE ingest_errors.error <> EXCLUDED.error`,
      [runId, source, error],
    );
  }

  /** Recompute the stats summaries from the detail tables (for rows written other than by putRun). */
  async rebuildSummaries(): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.exec(rebuildSummariesSql());
      await tx.exec(rebuildDaySummariesSql());
    });
  }

  /** Rows per table, for `ingest`'s closing line and the tests. */
  async counts(): Promise<Record<string, number>> {
    const tables = [
      'runs',
      'rule_states',
      'findings',
      'release_changes',
      'operator_levels',
      'pool_rollouts',
      'ingest_errors',
    ];
    const out: Record<string, number> = Object.create(null);
    for (const t of tables) {
      const [row] = await this.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${t}`);
      out[t] = Number(row?.n ?? 0);
    }
    return out;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
