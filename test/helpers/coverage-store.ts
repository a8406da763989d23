/**
 * A run store written before the store kept coverage (the migrations before 7, a run's rows the way
 * they wrote them), opened by today's atlevel: its holds read as coverage unknown, never full, on every
 * stats path, until a re-analysis replaces the run (docs/runs.md "Coverage"). Shared by the PGlite
 * test (test/store/stats-coverage.test.ts) and the PostgreSQL one (test/store/stats-summaries.test.ts).
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { runRecord } from '../../src/ingest/record.js';
import { collectStats, type StatsResult } from '../../src/stats/index.js';
import { statsText } from '../../src/stats/text.js';
import { openDb } from '../../src/store/db.js';
import { MIGRATIONS, RunStore } from '../../src/store/index.js';
import { projectRoot } from './fixtures.js';
import { loadHistory } from './load.js';

/** A snapshot whose clusteroperator-level-then-progressing holds for 1 of 29 operators (test/analyze/partial-evidence.test.ts). */
export const THIN_SNAPSHOT = join(projectRoot, 'test/fixtures/analyze/day2-kubeletconfig-after-update');
const RULE = 'clusteroperator-level-then-progressing';

export async function checkStoreBeforeCoverage(spec: string): Promise<void> {
  const h = await loadHistory([THIN_SNAPSHOT]);
  const thin = runRecord(
    { id: 'sha256:thin', source: THIN_SNAPSHOT, identity: 'content' },
    h,
    analyzeHistory(h),
  );
  const db = await openDb(spec, 'write');
  try {
    await db.exec(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const m of MIGRATIONS.filter((x) => x.version < 7)) {
      await db.exec(m.sql);
      await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      if (m.version !== 1) continue;
      // Written after migration 1: the later migrations fill the summaries from it, as for a real old store.
      await db.query(
        `INSERT INTO runs (run_id, source, identity, verdict, mco_fix, analyzer, update_start)
         VALUES ('sha256:thin', $1, 'content', 'pass', 'unknown', 'atlevel-analyze/2', now())`,
        [THIN_SNAPSHOT],
      );
      for (const r of thin.rules)
        await db.query(
          `INSERT INTO rule_states (run_id, rule, state, missing) VALUES ('sha256:thin', $1, $2, $3::jsonb)`,
          [r.rule, r.state, JSON.stringify(r.missing)],
        );
    }
  } finally {
    await db.close();
  }
  const store = await RunStore.open(spec, 'write');
  const everyPath = async (): Promise<StatsResult[]> => [
    await collectStats(store.db, store.where, {}),
    await collectStats(store.db, store.where, { since: 0 }),
    await collectStats(store.db, store.where, {}, undefined, { detail: true }),
  ];
  const overall = (s: StatsResult) => s.rates.find((r) => r.rule === RULE && r.by === 'all');
  try {
    for (const s of await everyPath())
      expect(overall(s), s.source).toMatchObject({
        checked: 1,
        holdsFull: 0,
        holdsThin: 0,
        holdsCoverageUnknown: 1,
      });
    expect(statsText(await collectStats(store.db, store.where, {}))).toMatch(
      new RegExp(`${RULE} +1 +0 +0 +0 +1\\n`),
    );
    // Re-analysed (ingest --reanalyze): the run's rows are replaced and now say thin.
    expect(await store.putRun(thin, true)).toBe('replaced');
    for (const s of await everyPath())
      expect(overall(s), s.source).toMatchObject({ holdsThin: 1, holdsCoverageUnknown: 0 });
  } finally {
    await store.close();
  }
}
