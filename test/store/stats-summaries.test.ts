/**
 * The stats summary tables (src/store/summaries.ts) against the detail tables they summarise: after
 * writes, repeated writes of the same runs (which must add nothing) and re-analyses (which must
 * subtract the old run and add the new one), the summary answer equals the detail answer (counts
 * exactly, percentiles within half a bucket) and equals summaries rebuilt from scratch; the day
 * summaries that answer --since and --job give every figure the detail tables give, exactly (a --since
 * inside a day included). On PGlite, and
 * on PostgreSQL when ATLEVEL_PG_URL is set (with concurrent writers there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { collectStats, type StatsFilter, type StatsResult } from '../../src/stats/index.js';
import { type RunRecord, RunStore } from '../../src/store/index.js';
import { checkStoreBeforeCoverage } from '../helpers/coverage-store.js';
import { skipNote } from '../helpers/skip.js';

const RULES = ['master-pool-updated-before-cvo-complete', 'update-completed', 'pool-degraded'];
const STATES = ['holds', 'violated', 'not-checked'] as const;
const COVERAGES = ['full', 'partial', 'thin', null] as const;

function run(i: number, salt = 0): RunRecord {
  const start = Date.UTC(2021, 8, 1) + ((i * 7919 + salt * 13) % 90) * 86_400_000 + i * 1234;
  const k = i + salt;
  return {
    id: `prow:job-${i % 3}/${i}`,
    source: `/runs/${i}`,
    identity: 'prow',
    job: i % 11 === 0 ? null : `periodic-e2e-${['aws', 'gcp'][i % 2]}-upgrade`,
    buildId: String(i),
    platform: i % 5 === 0 ? null : (['aws', 'gcp', 'metal'][i % 3] ?? null),
    fromVersion: '4.9.0',
    toVersion: '4.10.0',
    fromImage: null,
    toImage: null,
    stream: i % 7 === 0 ? null : (['4.9→4.10', '4.10→4.11'][k % 2] ?? null),
    runStart: start,
    runEnd: start + 7_200_000,
    updateStart: i % 4 === 0 ? null : start + 60_000,
    updateEnd: start + 3_000_000,
    updateMs: k % 6 === 0 ? null : 1_500_000 + ((k * 997) % 600) * 1000 + (k % 3) * 250,
    verdict: 'fail',
    mcoFix: (['present', 'absent', 'unknown'] as const)[k % 3] ?? 'unknown',
    configChanged: k % 4 === 0 ? null : (['pod', 'machine-os-content', ''][k % 3] ?? ''),
    configUnchanged: 'machine-config-operator',
    analyzer: 'test',
    rules: RULES.slice(0, 1 + (k % 3)).map((rule, j) => {
      const state = STATES[(k + j) % 3] ?? 'holds';
      // Every coverage a hold can have, a stored-before one (null) included, changed by re-analyses.
      const coverage = state === 'not-checked' ? null : (COVERAGES[(i + 2 * j + salt) % 4] ?? null);
      return { rule, state, missing: [], failures: 0, warnings: 0, coverage, coverageDetail: null };
    }),
    findings: [
      ...Array.from({ length: k % 4 }, (_, o) => ({
        ordinal: o,
        rule: RULES[o % 3] ?? 'update-completed',
        severity: o % 2 === 0 ? ('failure' as const) : ('warning' as const),
        summary: 'generated',
        at: start,
        signature: [null, 'bug-1999556', 'bug-1955929'][(k + o) % 3] ?? null,
        subject: {},
        cause: [],
        components: [],
      })),
      // Some runs fail one signature under two rules: such a run counts once for both rules together.
      ...(k % 4 > 0 && k % 5 < 2
        ? [
            {
              ordinal: 9,
              rule: 'update-completed',
              severity: 'failure' as const,
              summary: 'generated',
              at: start,
              signature: [null, 'bug-1999556', 'bug-1955929'][k % 3] ?? null,
              subject: {},
              cause: [],
              components: [],
            },
          ]
        : []),
    ],
    releaseChanges: [],
    operators: [{ operator: `op-${k % 2}`, at: start, sinceStartMs: ((k * 31) % 900) * 1000 + 400 }],
    pools: ['master', 'worker'].map((pool, j) => ({
      pool,
      config: `rendered-${pool}`,
      startedAt: start,
      finishedAt: start + 1,
      // k / 7: fractions that need all 17 digits, so that the day path's exactness is tested too.
      rolloutMs: 400_000 + (((k + j) * 7777) % 300_000) + k / 7,
      levelGapMs: ((k * 7 + j) % 40) * 15_000 - 200_000 + (k % 2) * 500,
    })),
  };
}

/** The summary answer with the bucketed percentiles replaced by their distance from the exact ones. */
function compare(summary: StatsResult, detail: StatsResult): void {
  expect(summary.source).toBe('summary');
  expect(detail.source).toBe('detail');
  expect(summary.runs).toBe(detail.runs);
  expect(summary.firstRun).toBe(detail.firstRun);
  expect(summary.lastRun).toBe(detail.lastRun);
  expect(summary.rates).toEqual(detail.rates);
  expect(summary.signatures).toEqual(detail.signatures);
  expect(summary.components).toEqual(detail.components);
  const near = (a: { name?: string; n: number } & Record<string, unknown>, b: typeof a) => {
    expect(a.name).toBe(b.name);
    expect(a.n).toBe(b.n);
    for (const p of ['min', 'p50', 'p90', 'p99', 'max'] as const) {
      expect(Math.abs(Number(a[p]) - Number(b[p])), p).toBeLessThanOrEqual(500);
    }
  };
  near(summary.updateMs as never, detail.updateMs as never);
  for (const key of ['levelGapMs', 'rolloutMs', 'operatorLevelMs'] as const) {
    expect(summary[key].length).toBe(detail[key].length);
    summary[key].forEach((p, i) => {
      near(p as never, detail[key][i] as never);
    });
  }
}

async function check(store: RunStore, filter: { streams?: string[]; rules?: string[] } = {}): Promise<void> {
  const summary = await collectStats(store.db, store.where, filter, undefined, { operators: true });
  const detail = await collectStats(store.db, store.where, filter, undefined, {
    operators: true,
    detail: true,
  });
  compare(summary, detail);
}

const DAY = 86_400_000;
/** --since and --job filters (alone and with --stream and --rule): at midnight, inside a day, before every run, after every run. */
const DAY_FILTERS: StatsFilter[] = [
  { since: 0 },
  { since: Date.UTC(2021, 9, 1) },
  { since: Date.UTC(2021, 9, 1) + 9 * 3_600_000 + 1234 },
  { since: Date.UTC(2021, 8, 1) + 30 * DAY + 61_000 },
  { since: Date.UTC(2030, 0, 1) },
  { jobs: ['*-aws-*'] },
  { jobs: ['*'] },
  { jobs: ['periodic-e2e-gcp-upgrade', 'nope-*'] },
  { since: Date.UTC(2021, 9, 14, 13), jobs: ['*gcp*'], streams: ['4.9→4.10'] },
  { since: Date.UTC(2021, 8, 20, 5), rules: ['update-completed'] },
  { jobs: ['*'], rules: ['update-completed', 'master-pool-updated-before-cvo-complete'] },
  {
    since: Date.UTC(2021, 9, 1) + 9 * 3_600_000 + 1234,
    rules: ['update-completed', 'master-pool-updated-before-cvo-complete', 'pool-degraded'],
  },
  {
    since: Date.UTC(2021, 8, 25, 17, 3),
    streams: ['4.10→4.11', 'nope'],
    rules: ['master-pool-updated-before-cvo-complete'],
  },
];

/** The day summaries' answer (--since, --job) is every figure of the detail tables' answer, exactly. */
async function checkDays(store: RunStore): Promise<void> {
  for (const filter of DAY_FILTERS) {
    const fast = await collectStats(store.db, store.where, filter, undefined, { operators: true });
    const detail = await collectStats(store.db, store.where, filter, undefined, {
      operators: true,
      detail: true,
    });
    expect(fast.source).toBe('day-summary');
    expect(detail.source).toBe('detail');
    expect({ ...fast, source: 'detail' }, JSON.stringify(filter)).toEqual(detail);
  }
}

async function exercise(store: RunStore, parallel: boolean): Promise<void> {
  const N = 60;
  const ids = Array.from({ length: N }, (_, i) => i + 1);
  const write = async (fn: (i: number) => Promise<unknown>) => {
    if (parallel) await Promise.all(ids.map(fn));
    else for (const i of ids) await fn(i);
  };
  await write((i) => store.putRun(run(i)));
  await check(store);
  // The data has holds of every coverage (else the split proves nothing).
  const all = (await collectStats(store.db, store.where, {})).rates.filter((r) => r.by === 'all');
  for (const k of ['holdsFull', 'holdsPartial', 'holdsThin', 'holdsCoverageUnknown'] as const)
    expect(
      all.some((r) => r[k] > 0),
      k,
    ).toBe(true);
  // The same runs again, twice over at once: nothing is counted twice.
  const again = await Promise.all(ids.flatMap((i) => [store.putRun(run(i)), store.putRun(run(i))]));
  expect(again.every((o) => o === 'present')).toBe(true);
  await check(store);
  // Re-analyses that change stream, rule states, findings and durations; some of them at once.
  await write((i) => (i % 2 === 0 ? store.putRun(run(i, 5), true) : Promise.resolve()));
  await Promise.all([store.putRun(run(3, 9), true), store.putRun(run(3, 11), true)]);
  await check(store);
  await check(store, { streams: ['4.9→4.10'] });
  await check(store, { rules: ['update-completed'] });
  await check(store, { rules: ['update-completed', 'master-pool-updated-before-cvo-complete'] });
  await check(store, {
    streams: ['4.9→4.10'],
    rules: ['update-completed', 'master-pool-updated-before-cvo-complete'],
  });
  // The data has runs that fail one signature under both rules (else the rule sets prove nothing).
  const both = await store.db.query(
    `SELECT count(*)::integer AS n FROM stats_signature_rulesets
     WHERE rules @> ARRAY['master-pool-updated-before-cvo-complete', 'update-completed'] AND runs > 0`,
  );
  expect(Number(both[0]?.n)).toBeGreaterThan(0);
  await check(store, { streams: ['4.10→4.11', 'nope'], rules: ['master-pool-updated-before-cvo-complete'] });
  await checkDays(store);
  // Incremental summaries equal summaries built from scratch, first and last seen included.
  const before = await collectStats(store.db, store.where, {}, undefined, { operators: true });
  const dayBefore = new Map<StatsFilter, StatsResult>();
  for (const filter of DAY_FILTERS)
    dayBefore.set(filter, await collectStats(store.db, store.where, filter, undefined, { operators: true }));
  await store.rebuildSummaries();
  const after = await collectStats(store.db, store.where, {}, undefined, { operators: true });
  expect(after).toEqual(before);
  for (const filter of DAY_FILTERS) {
    const rebuilt = await collectStats(store.db, store.where, filter, undefined, { operators: true });
    expect(rebuilt, JSON.stringify(filter)).toEqual(dayBefore.get(filter));
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('stats summaries', () => {
  it('PGlite: summaries equal the detail tables after writes, repeats and re-analyses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-summaries-'));
    dirs.push(dir);
    const store = await RunStore.open(join(dir, 'db'));
    try {
      await exercise(store, false);
    } finally {
      await store.close();
    }
  }, 180_000);

  const url = process.env.ATLEVEL_PG_URL;
  it.skipIf(!url)(
    `PostgreSQL: the same with concurrent writers${skipNote(url ? undefined : 'set ATLEVEL_PG_URL (postgres://…) to run it; .ci/run starts a scratch PostgreSQL')}`,
    async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const name = `atlevel_summaries_${process.pid}`;
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        const u = new URL(url as string);
        u.pathname = `/${name}`;
        const store = await RunStore.open(u.toString());
        try {
          await exercise(store, true);
        } finally {
          await store.close();
        }
        // A store written before coverage, migrated here: its holds read as coverage unknown.
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${name}`);
        await checkStoreBeforeCoverage(u.toString());
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    180_000,
  );
});
