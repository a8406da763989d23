/**
 * Upserts are safe under concurrency (docs/runs.md): four `atlevel ingest` processes on overlapping
 * shards of one corpus (1/2, 2/2, 1/2 again, and everything) write at once into one PostgreSQL. No run
 * is stored twice, no row is lost: every run is stored by exactly one ingester, and each table holds
 * exactly the rows the runs' analyses give. Needs ATLEVEL_PG_URL (.ci/run starts a scratch server);
 * skipped, visibly, without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import analyseRun from '../../src/app/ingest-worker.js';
import { expandInputs, identify } from '../../src/ingest/index.js';
import { MIGRATIONS, type RunRecord } from '../../src/store/index.js';
import { describeUnless } from '../helpers/skip.js';
import { writeCorpus } from '../runs/corpus.js';
import { atlevel, type Ran } from '../runs/helpers.js';

const URL_ENV = process.env.ATLEVEL_PG_URL;
const N = 40;

describeUnless(
  URL_ENV ? undefined : 'set ATLEVEL_PG_URL (postgres://…) to run it; .ci/run starts a scratch PostgreSQL',
  '4 ingesters on overlapping shards against one PostgreSQL (ATLEVEL_PG_URL)',
  () => {
    let dir: string;
    let dbUrl: string;
    let admin: pg.Client;
    const dbName = `atlevel_concurrency_${process.pid}_${Date.now()}`;
    let ran: Ran[];
    let expected: RunRecord[];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'atlevel-pg-'));
      admin = new pg.Client({ connectionString: URL_ENV });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      const u = new URL(URL_ENV as string);
      u.pathname = `/${dbName}`;
      dbUrl = u.toString();
      await writeCorpus(join(dir, 'corpus'), N);
      const shards = [['--shard', '1/2'], ['--shard', '2/2'], ['--shard', '1/2'], []];
      ran = await Promise.all(
        shards.map((s) => atlevel(['ingest', join(dir, 'corpus'), '--db', dbUrl, '--jobs', '1', ...s])),
      );
      // What the store must hold: each run's record, analysed here in-process.
      const inputs = await expandInputs([join(dir, 'corpus')]);
      expected = await Promise.all(
        inputs.map(async (r) => analyseRun({ who: await identify(r), reading: {} })),
      );
    }, 600_000);

    afterAll(async () => {
      await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin?.end();
      rmSync(dir, { recursive: true, force: true });
    });

    it('every ingester finished, and each run was stored by exactly one of them', () => {
      // Shown in the test log: what each of the four said.
      console.log(ran.map((r, i) => `ingester ${i + 1}: ${r.stdout.trim()}`).join('\n'));
      for (const r of ran) expect(r.code, r.stderr).toBe(0);
      const stored = ran.map((r) => Number(/: (\d+) stored/.exec(r.stdout)?.[1]));
      const present = ran.map((r) => Number(/(\d+) already there/.exec(r.stdout)?.[1]));
      const total = ran.map((r) => Number(/ingested (\d+) run/.exec(r.stdout)?.[1]));
      expect(stored.reduce((a, b) => a + b, 0)).toBe(N);
      expect(total[3]).toBe(N);
      expect((total[0] as number) + (total[1] as number)).toBe(N);
      for (let i = 0; i < 4; i += 1) expect((stored[i] as number) + (present[i] as number)).toBe(total[i]);
    });

    it('no duplicate and no lost row in any table', async () => {
      const c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
      try {
        const count = async (sql: string) => Number((await c.query(sql)).rows[0]?.n);
        expect(await count('SELECT count(*) AS n FROM runs')).toBe(N);
        expect(await count('SELECT count(DISTINCT run_id) AS n FROM runs')).toBe(N);
        const sum = (f: (r: RunRecord) => number) => expected.reduce((a, r) => a + f(r), 0);
        expect(await count('SELECT count(*) AS n FROM rule_states')).toBe(sum((r) => r.rules.length));
        expect(await count('SELECT count(*) AS n FROM findings')).toBe(sum((r) => r.findings.length));
        expect(await count('SELECT count(*) AS n FROM release_changes')).toBe(
          sum((r) => r.releaseChanges.length),
        );
        expect(await count('SELECT count(*) AS n FROM operator_levels')).toBe(sum((r) => r.operators.length));
        expect(await count('SELECT count(*) AS n FROM pool_rollouts')).toBe(sum((r) => r.pools.length));
        expect(await count('SELECT count(*) AS n FROM ingest_errors')).toBe(0);
        const states = (await c.query('SELECT run_id, rule, state FROM rule_states ORDER BY 1, 2')).rows.map(
          (r: { run_id: string; rule: string; state: string }) => `${r.run_id} ${r.rule} ${r.state}`,
        );
        const want = expected.flatMap((r) => r.rules.map((s) => `${r.id} ${s.rule} ${s.state}`)).sort();
        expect(states).toEqual(want);
        expect(await count('SELECT count(*) AS n FROM schema_migrations')).toBe(MIGRATIONS.length);
        // The stats summaries, upserted by the four ingesters at once, count each stored run once.
        expect(await count('SELECT sum(runs) AS n FROM stats_runs')).toBe(N);
        expect(await count('SELECT sum(runs) AS n FROM stats_rules')).toBe(sum((r) => r.rules.length));
        expect(await count('SELECT sum(findings) AS n FROM stats_signatures')).toBe(
          sum((r) => r.findings.filter((f) => f.severity === 'failure').length),
        );
        expect(await count('SELECT sum(runs) AS n FROM stats_day_runs')).toBe(N);
        // One rule set per run and signature failed.
        expect(await count('SELECT sum(runs) AS n FROM stats_signature_rulesets')).toBe(
          sum(
            (r) =>
              new Set(r.findings.filter((f) => f.severity === 'failure').map((f) => f.signature ?? 'unknown'))
                .size,
          ),
        );
      } finally {
        await c.end();
      }
    });
  },
);
