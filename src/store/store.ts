/**
 * The run store: migrate, write one run (all its rows in one transaction), record an ingest error,
 * and answer which runs are already in. Writing a run that is already stored changes nothing (the
 * `runs` insert does nothing on conflict, and the rows below it are written only by the transaction
 * that inserted the run), which is what makes re-ingesting, resuming and overlapping shards safe.
 */
import { type Db, openDb, type Sql } from './db.js';
import type { RunRecord } from './record.js';
import { MIGRATION_LOCK, MIGRATIONS } from './schema.js';
import {
  DAY_SUBTRACT_FIXES,
  dayUpserts,
  rebuildDaySummariesSql,
  rebuildSummariesSql,
  SUBTRACT_FIXES,
  summaryUpserts,
} from './summaries.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export type PutOutcome = 'stored' | 'present' | 'replaced';

export class RunStore {
  private constructor(readonly db: Db) {}

  /** Open (creating when needed) and bring the schema up to date. */
  static async open(spec: string): Promise<RunStore> {
    const db = await openDb(spec);
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

  /** Which of these run ids are stored already (as runs; ingest errors do not count). */
  async storedIds(ids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 5000) {
      const chunk = ids.slice(i, i + 5000);
      const rows = await this.db.query<{ run_id: string }>(
        'SELECT run_id FROM runs WHERE run_id IN (SELECT jsonb_array_elements_text($1::jsonb))',
        [JSON.stringify(chunk)],
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
   * Write several runs in one transaction (ingest writes whatever analyses came back while it wrote
   * the last batch): each run's detail rows, then the summaries of all the runs the transaction
   * inserted, once per summary table rather than once per run (the per-statement cost is most of a
   * write on PGlite). The runs are inserted in id order, so two writers with overlapping batches wait
   * for each other in one order and cannot deadlock. With `replace`, one run at a time: a re-analysis
   * subtracts the stored run from the summaries, which must not interleave with another run's locks.
   */
  async putRuns(records: readonly RunRecord[], replace = false): Promise<PutOutcome[]> {
    if (replace && records.length > 1) {
      const out: PutOutcome[] = [];
      for (const r of records) out.push(...(await this.putRuns([r], true)));
      return out;
    }
    const order = records
      .map((r, i) => ({ r, i }))
      .sort((a, b) => (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0));
    return this.db.transaction(async (tx) => {
      const out: PutOutcome[] = new Array(records.length).fill('present');
      const inserted: string[] = [];
      for (const { r, i } of order) {
        if (inserted.includes(r.id)) continue;
        const outcome = await this.#putDetail(tx, r, replace);
        out[i] = outcome;
        if (outcome !== 'present') inserted.push(r.id);
      }
      if (inserted.length > 0) {
        // Only the transaction that inserted a run gets here for it, so a run is counted once.
        const ids = JSON.stringify(inserted);
        // = ANY(ARRAY(…)), not IN (…): the planner then looks the runs up by key on a store of any size.
        const pred = 'r.run_id = ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))';
        for (const sql of [...summaryUpserts(pred, '1'), ...dayUpserts(pred, '1')])
          await tx.query(sql, [ids]);
        await tx.query(
          'DELETE FROM ingest_errors WHERE run_id IN (SELECT jsonb_array_elements_text($1::jsonb))',
          [ids],
        );
      }
      return out;
    });
  }

  /** One run's `runs` row and detail rows (after subtracting and deleting it, with `replace`). */
  async #putDetail(tx: Sql, r: RunRecord, replace: boolean): Promise<PutOutcome> {
    let replaced = false;
    if (replace) {
      // Two re-analyses of one run must not both subtract it: the second waits, then subtracts
      // what the first wrote.
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, r.id]);
      for (const sql of summaryUpserts('r.run_id = $1', '-1')) await tx.query(sql, [r.id]);
      for (const sql of dayUpserts('r.run_id = $1', '-1')) await tx.query(sql, [r.id]);
      for (const sql of [...SUBTRACT_FIXES, ...DAY_SUBTRACT_FIXES])
        await tx.query(sql, sql.includes('$1') ? [r.id] : []);
      replaced = (await tx.query('DELETE FROM runs WHERE run_id = $1 RETURNING run_id', [r.id])).length > 0;
    }
    const inserted = await tx.query(
      `INSERT INTO runs (run_id, source, identity, job, build_id, platform, from_version, to_version,
           from_image, to_image, stream, run_start, run_end, update_start, update_end, update_ms, verdict,
           mco_fix, config_changed, config_unchanged, analyzer)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
         ON CONFLICT (run_id) DO NOTHING RETURNING run_id`,
      [
        r.id,
        r.source,
        r.identity,
        r.job,
        r.buildId,
        r.platform,
        r.fromVersion,
        r.toVersion,
        r.fromImage,
        r.toImage,
        r.stream,
        iso(r.runStart),
        iso(r.runEnd),
        iso(r.updateStart),
        iso(r.updateEnd),
        r.updateMs,
        r.verdict,
        r.mcoFix,
        r.configChanged,
        r.configUnchanged,
        r.analyzer,
      ],
    );
    if (inserted.length === 0) return 'present';
    // One statement per table, the rows as one JSON parameter: the same SQL on both engines.
    if (r.rules.length > 0) {
      await tx.query(
        `INSERT INTO rule_states (run_id, rule, state, missing, failures, warnings)
           SELECT $1, x.rule, x.state, x.missing, x.failures, x.warnings
           FROM jsonb_to_recordset($2::jsonb) AS x(rule text, state text, missing jsonb, failures integer, warnings integer)`,
        [r.id, JSON.stringify(r.rules)],
      );
    }
    if (r.findings.length > 0) {
      await tx.query(
        `INSERT INTO findings (run_id, ordinal, rule, severity, summary, at, signature, subject, cause, components)
           SELECT $1, x.ordinal, x.rule, x.severity, x.summary, x.at, x.signature, x.subject, x.cause, x.components
           FROM jsonb_to_recordset($2::jsonb) AS x(ordinal integer, rule text, severity text, summary text,
             at timestamptz, signature text, subject jsonb, cause jsonb, components jsonb)`,
        [r.id, JSON.stringify(r.findings.map((f) => ({ ...f, at: iso(f.at) })))],
      );
    }
    if (r.releaseChanges.length > 0) {
      await tx.query(
        `INSERT INTO release_changes (run_id, component, from_ref, to_ref)
           SELECT $1, x.component, x."from", x."to"
           FROM jsonb_to_recordset($2::jsonb) AS x(component text, "from" text, "to" text)`,
        [r.id, JSON.stringify(r.releaseChanges)],
      );
    }
    if (r.operators.length > 0) {
      await tx.query(
        `INSERT INTO operator_levels (run_id, operator, at, since_start_ms)
           SELECT $1, x.operator, x.at, x."sinceStartMs"
           FROM jsonb_to_recordset($2::jsonb) AS x(operator text, at timestamptz, "sinceStartMs" double precision)`,
        [r.id, JSON.stringify(r.operators.map((o) => ({ ...o, at: iso(o.at) })))],
      );
    }
    if (r.pools.length > 0) {
      await tx.query(
        `INSERT INTO pool_rollouts (run_id, pool, config, started_at, finished_at, rollout_ms, level_gap_ms)
           SELECT $1, x.pool, x.config, x."startedAt", x."finishedAt", x."rolloutMs", x."levelGapMs"
           FROM jsonb_to_recordset($2::jsonb) AS x(pool text, config text, "startedAt" timestamptz,
             "finishedAt" timestamptz, "rolloutMs" double precision, "levelGapMs" double precision)`,
        [
          r.id,
          JSON.stringify(
            r.pools.map((p) => ({ ...p, startedAt: iso(p.startedAt), finishedAt: iso(p.finishedAt) })),
          ),
        ],
      );
    }
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
