/**
 * `atlevel stats` on a generated store of 100,000 runs and 1,000,000 findings (ATLEVEL_BENCH_STATS_RUNS
 * to change the size): the p50 of five runs of the whole stats query set, and of each part, in PGlite
 * and, when ATLEVEL_PG_URL is set, PostgreSQL. Goal: p50 under 200 ms. The rows are generated in SQL
 * with the shapes ingest writes (7 rules a run, 10 findings a run, 2 pools, 30 operators), then the
 * summary tables are rebuilt from them. Unfiltered, --stream and --rule runs read the summaries;
 * --since and --job read the day summaries (each line says which). Each filtered case is also run
 * once on the detail tables (`detail`: what every filtered query read before the day summaries) and
 * the two answers compared. ATLEVEL_BENCH_STATS_EXPLAIN=1 prints EXPLAIN ANALYZE of each query of
 * the filtered cases, both paths.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectStats, type StatsResult } from '../src/stats/index.js';
import { type Row, RunStore, type Sql } from '../src/store/index.js';
import { withScratchDatabase } from './pg-scratch.js';

const RUNS = Number(process.env.ATLEVEL_BENCH_STATS_RUNS ?? 100_000);
const FINDINGS_PER_RUN = 10;

const RULES = [
  'master-pool-updated-before-cvo-complete',
  'operator-level-before-required-pool-target',
  'clusteroperator-level-then-progressing',
  'operator-degraded-during-update',
  'pool-degraded',
  'update-completed',
  'no-serious-insight',
];

/** Deterministic pseudo-random data: the run number picks stream, platform, week, fix and outcome. */
const FILL = `
INSERT INTO runs (run_id, source, identity, job, build_id, platform, from_version, to_version, stream,
  run_start, run_end, update_start, update_end, update_ms, verdict, mco_fix, config_changed, config_unchanged, analyzer)
SELECT 'prow:job-' || (i % 40) || '/' || i, '/runs/' || i, 'prow', 'periodic-e2e-' || (ARRAY['aws','gcp','azure','metal'])[1 + i % 4] || '-upgrade-' || (i % 10),
  i::text, (ARRAY['aws','gcp','azure','metal'])[1 + i % 4], '4.' || (9 + i % 2) || '.0', '4.10.0',
  '4.' || (9 + i % 2) || '→4.10',
  t, t + interval '2 hours', t, t + (1500 + i % 600) * interval '1 second', (1500 + i % 600) * 1000.0,
  CASE WHEN i % 7 = 0 THEN 'fail' ELSE 'pass' END, CASE WHEN i % 3 = 0 THEN 'present' ELSE 'absent' END,
  (ARRAY['pod','machine-os-content','machine-config-operator+machine-os-content+pod',''])[1 + i % 4], 'machine-config-operator', 'bench'
FROM generate_series(1, $1::integer) AS i, LATERAL (SELECT timestamptz '2021-09-01' + (i % 120) * interval '1 day' + (i % 1440) * interval '1 minute' AS t) AS x;
INSERT INTO rule_states (run_id, rule, state, failures, coverage)
SELECT r.run_id, rule, CASE WHEN (h + k) % 23 = 0 THEN 'violated' WHEN (h + k) % 31 = 0 THEN 'not-checked' ELSE 'holds' END, 0,
  CASE WHEN (h + k) % 31 = 0 AND (h + k) % 23 <> 0 THEN NULL WHEN (h + k) % 13 = 0 THEN 'thin' WHEN (h + k) % 11 = 0 THEN 'partial' ELSE 'full' END
FROM (SELECT run_id, hashtext(run_id) & 1023 AS h FROM runs) r, unnest($1::text[]) WITH ORDINALITY AS u(rule, k);
INSERT INTO findings (run_id, ordinal, rule, severity, summary, at, signature)
SELECT r.run_id, o, ($1::text[])[1 + o % 7], CASE WHEN o % 3 = 0 THEN 'failure' ELSE 'warning' END, 'generated', r.update_end,
  CASE WHEN o % 3 <> 0 THEN NULL WHEN o % 2 = 0 THEN 'bug-1999556' WHEN o % 5 = 0 THEN 'bug-1955929' ELSE 'unknown' END
FROM runs r, generate_series(0, ${FINDINGS_PER_RUN - 1}) AS o;
INSERT INTO pool_rollouts (run_id, pool, config, started_at, finished_at, rollout_ms, level_gap_ms)
SELECT r.run_id, p, 'rendered-' || p, r.update_start, r.update_end, 400000 + (hashtext(r.run_id) & 65535), (hashtext(r.run_id) & 1048575) - 200000
FROM runs r, unnest(ARRAY['master','worker']) AS p;
INSERT INTO operator_levels (run_id, operator, at, since_start_ms)
SELECT r.run_id, 'operator-' || o, r.update_end, 60000.0 * o + (hashtext(r.run_id) & 4095)
FROM runs r, generate_series(1, 30) AS o;
ANALYZE;`;

async function fill(store: RunStore): Promise<number> {
  const t = performance.now();
  const [a, b, c, d, e, f] = FILL.split(';\n')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  await store.db.query(a as string, [RUNS]);
  await store.db.query(b as string, [RULES]);
  await store.db.query(c as string, [RULES]);
  await store.db.exec(d as string);
  await store.db.exec(e as string);
  await store.db.exec(f as string);
  // The rows were written in SQL, not by putRun: fill the summaries the way migration 2 does.
  const t2 = performance.now();
  await store.rebuildSummaries();
  await store.db.exec('ANALYZE');
  process.stdout.write(`  summaries rebuilt in ${((performance.now() - t2) / 1000).toFixed(1)}s\n`);
  return (performance.now() - t) / 1000;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const EXPLAIN = process.env.ATLEVEL_BENCH_STATS_EXPLAIN === '1';

/** The store's connection, printing each query's plan and execution time (EXPLAIN ANALYZE) first. */
function explaining(db: Sql): Sql {
  return {
    exec: (script) => db.exec(script),
    async query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<R[]> {
      const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
      const lines = plan.map((r) => String(Object.values(r)[0]));
      const head = text.replace(/\s+/g, ' ').trim().slice(0, 90);
      process.stdout.write(`    EXPLAIN ${head}…\n${lines.map((l) => `      ${l}`).join('\n')}\n`);
      return db.query<R>(text, params);
    },
  };
}

/** Filtered p50s, for the closing table: case → engine → ms. */
const filtered = new Map<string, Map<string, string>>();

async function measure(label: string, store: RunStore): Promise<void> {
  const seconds = await fill(store);
  const counts = await store.counts();
  process.stdout.write(
    `${label}: generated ${counts.runs} runs, ${counts.findings} findings, ${counts.rule_states} rule states in ${seconds.toFixed(1)}s\n`,
  );
  const cases: [string, object][] = [
    ['all runs', {}],
    ['all runs --operators', {}],
    ['--stream 4.9→4.10', { streams: ['4.9→4.10'] }],
    ['--since 2021-11-01', { since: Date.UTC(2021, 10, 1) }],
    ['--job *-aws-*', { jobs: ['*-aws-*'] }],
    ['--rule master-pool-…', { rules: ['master-pool-updated-before-cvo-complete'] }],
    ['--since 2021-11-01T12:30:00Z (mid-day)', { since: Date.UTC(2021, 10, 1, 12, 30) }],
    ['--since 2021-11-01 --stream 4.9→4.10', { since: Date.UTC(2021, 10, 1), streams: ['4.9→4.10'] }],
    [
      '--since 2021-11-01T12:30:00Z --job *-aws-* --stream 4.9→4.10 --rule master-pool-…',
      {
        since: Date.UTC(2021, 10, 1, 12, 30),
        jobs: ['*-aws-*'],
        streams: ['4.9→4.10'],
        rules: ['master-pool-updated-before-cvo-complete'],
      },
    ],
    [
      '--rule master-pool-… --rule update-completed',
      { rules: ['master-pool-updated-before-cvo-complete', 'update-completed'] },
    ],
  ];
  for (const [name, filter] of cases) {
    const times: number[] = [];
    let last: { source: string } | undefined;
    const parts = new Map<string, number[]>();
    for (let i = 0; i < 5; i += 1) {
      const t = performance.now();
      last = await collectStats(
        store.db,
        store.where,
        filter,
        (part, ms) => parts.set(part, [...(parts.get(part) ?? []), ms]),
        { operators: name.includes('--operators') },
      );
      times.push(performance.now() - t);
    }
    const each = [...parts].map(([part, ms]) => `${part} ${p50(ms).toFixed(0)}`).join(', ');
    process.stdout.write(
      `  stats ${name} [${last?.source}]: p50 ${p50(times).toFixed(0)} ms (of 5: ${times.map((x) => x.toFixed(0)).join(', ')}; p50 by part, ms: ${each})\n`,
    );
    if (Object.keys(filter).length === 0) continue;
    const row = filtered.get(name) ?? new Map<string, string>();
    filtered.set(name, row);
    row.set(label, `${p50(times).toFixed(0)} ms [${last?.source}]`);
    if (last?.source === 'summary') continue;
    // The same filter on the detail tables, once: its time, and whether the answers agree.
    const t = performance.now();
    const detail = await collectStats(store.db, store.where, filter, undefined, { detail: true });
    const ms = performance.now() - t;
    const same = JSON.stringify({ ...(last as StatsResult), source: 'detail' }) === JSON.stringify(detail);
    process.stdout.write(
      `    the same on the detail tables: ${ms.toFixed(0)} ms (once); answers ${same ? 'equal' : 'DIFFER'}\n`,
    );
    if (EXPLAIN) {
      process.stdout.write(`    EXPLAIN ANALYZE, ${name}, day summaries:\n`);
      await collectStats(explaining(store.db), store.where, filter);
      process.stdout.write(`    EXPLAIN ANALYZE, ${name}, detail tables:\n`);
      await collectStats(explaining(store.db), store.where, filter, undefined, { detail: true });
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'atlevel-bench-stats-'));
try {
  const lite = await RunStore.open(join(dir, 'store'));
  try {
    await measure('PGlite', lite);
  } finally {
    await lite.close();
  }
  const url = process.env.ATLEVEL_PG_URL;
  if (url) {
    await withScratchDatabase(url, 'stats', async (db) => {
      const store = await RunStore.open(db);
      try {
        await measure('PostgreSQL', store);
      } finally {
        await store.close();
      }
    });
  } else {
    process.stdout.write('PostgreSQL: skipped (set ATLEVEL_PG_URL)\n');
  }
  process.stdout.write('filtered stats, p50 of 5 (goal: under 200 ms in each engine):\n');
  for (const [name, row] of filtered)
    process.stdout.write(`  ${name.padEnd(48)} ${[...row].map(([e, v]) => `${e} ${v}`).join('   ')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
