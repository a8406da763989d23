/**
 * The run store on PGlite, in-process: migrations apply once, a run is written once (a second write
 * of the same id changes nothing), --reanalyze replaces it whole, an ingest error is kept and cleared
 * by a later success, and a second process is kept out of a PGlite store by its lock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, type RunRecord, RunStore } from '../../src/store/index.js';
import { DETAIL_TABLES } from '../../src/store/schema.js';

function sampleRun(id: string, over: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    source: `/runs/${id}`,
    identity: 'prow',
    job: 'periodic-e2e-aws-upgrade',
    buildId: '1454000000000000001',
    platform: 'aws',
    fromVersion: '4.9.0',
    toVersion: '4.10.0',
    fromImage: null,
    toImage: 'quay.io/openshift-release-dev/ocp-release@sha256:00',
    stream: '4.9→4.10',
    runStart: Date.UTC(2021, 10, 3, 2, 0),
    runEnd: Date.UTC(2021, 10, 3, 4, 0),
    updateStart: Date.UTC(2021, 10, 3, 2, 50),
    updateEnd: Date.UTC(2021, 10, 3, 3, 16),
    updateMs: 26 * 60_000,
    verdict: 'fail',
    mcoFix: 'absent',
    configChanged: 'pod',
    configUnchanged: 'machine-config-operator+machine-os-content',
    analyzer: 'test',
    rules: [
      {
        rule: 'master-pool-updated-before-cvo-complete',
        state: 'violated',
        missing: [],
        failures: 1,
        warnings: 0,
        coverage: 'full',
        coverageDetail: null,
      },
      {
        rule: 'update-completed',
        state: 'holds',
        missing: [],
        failures: 0,
        warnings: 0,
        coverage: 'full',
        coverageDetail: null,
      },
    ],
    findings: [
      {
        ordinal: 0,
        rule: 'master-pool-updated-before-cvo-complete',
        severity: 'failure',
        summary: 'the CVO completed while the master pool was rolling out',
        at: Date.UTC(2021, 10, 3, 3, 16),
        signature: 'bug-1999556',
        subject: { pool: 'master' },
        cause: ['machine-config reported level'],
        components: ['pod'],
      },
    ],
    releaseChanges: [{ component: 'pod', from: 'sha256:aa', to: 'sha256:bb' }],
    operators: [{ operator: 'machine-config', at: Date.UTC(2021, 10, 3, 3, 16), sinceStartMs: 26 * 60_000 }],
    pools: [
      {
        pool: 'master',
        config: 'rendered-master-1',
        startedAt: 1,
        finishedAt: 2,
        rolloutMs: 1,
        levelGapMs: 380_000,
      },
    ],
    ...over,
  };
}

let dir: string;
let store: RunStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-store-'));
  store = await RunStore.open(join(dir, 'db'));
}, 120_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('RunStore on PGlite', () => {
  it('applies each migration once', async () => {
    expect(await store.migrate()).toEqual([]);
    const rows = await store.db.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY 1',
    );
    expect(rows.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('writes a run once: the same id again changes nothing', async () => {
    expect(await store.putRun(sampleRun('prow:a/1'))).toBe('stored');
    const before = await store.counts();
    expect(await store.putRun(sampleRun('prow:a/1', { verdict: 'pass', rules: [] }))).toBe('present');
    expect(await store.counts()).toEqual(before);
    const [row] = await store.db.query<{ verdict: string }>(
      "SELECT verdict FROM runs WHERE run_id = 'prow:a/1'",
    );
    expect(row?.verdict).toBe('fail');
    expect([...(await store.storedIds(['prow:a/1', 'prow:a/2']))]).toEqual(['prow:a/1']);
  });

  it('replaces a run whole when asked (re-analysis)', async () => {
    const again = sampleRun('prow:a/1', { verdict: 'pass', findings: [] });
    expect(await store.putRun(again, true)).toBe('replaced');
    // No foreign key cascades (migration 6): every table holds the new analysis's rows, no old one.
    const held: Record<string, number> = {};
    for (const table of DETAIL_TABLES) {
      const [row] = await store.db.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM ${table} WHERE run_id = 'prow:a/1'`,
      );
      held[table] = row?.n ?? -1;
    }
    expect(held).toEqual({
      rule_states: again.rules.length,
      findings: 0,
      release_changes: again.releaseChanges.length,
      operator_levels: again.operators.length,
      pool_rollouts: again.pools.length,
    });
    expect(again.rules.length * again.operators.length * again.pools.length).toBeGreaterThan(0);
  });

  it('keeps an ingest error, unchanged by the same error again, and drops it when the run is stored', async () => {
    await store.putError('prow:b/2', '/runs/b', 'clusterversion.json: invalid JSON');
    const [first] = await store.db.query<{ last_at: Date }>('SELECT last_at FROM ingest_errors');
    await store.putError('prow:b/2', '/runs/b', 'clusterversion.json: invalid JSON');
    const [again] = await store.db.query<{ last_at: Date }>('SELECT last_at FROM ingest_errors');
    expect(again?.last_at).toEqual(first?.last_at);
    await store.putRun(sampleRun('prow:b/2'));
    expect((await store.counts()).ingest_errors).toBe(0);
  });

  it('refuses, as bad input, a --db folder that cannot be made (a path under a file)', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder\n');
    await expect(RunStore.open(join(file, 'store'), 'write')).rejects.toMatchObject({
      name: 'InputError',
      message: expect.stringMatching(/cannot keep a run store here: ENOTDIR/),
    });
  });

  it('refuses a store another live process holds, and takes over a dead one’s lock', async () => {
    const other = join(dir, 'locked');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(other);
    // pid 1 is always alive (and never this process).
    writeFileSync(join(other, 'atlevel.lock'), '1\n');
    await expect(RunStore.open(other)).rejects.toThrow(/in use by process 1/);
  });
});
