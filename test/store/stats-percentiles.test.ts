/**
 * The duration figures of `atlevel stats` over few runs. Percentiles are nearest-rank (a value some
 * run had, PostgreSQL's percentile_disc), the same on all three paths (summary buckets, day
 * summaries, detail tables); under three runs there are none, only min and max. Over two runs an
 * interpolated p50 was the mean of the two, which described neither (one run's level report came
 * 1.5 s after its pool finished, the other's 12m42s before).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectStats, type Percentiles, type StatsFilter } from '../../src/stats/index.js';
import { statsText } from '../../src/stats/text.js';
import { type RunRecord, RunStore } from '../../src/store/index.js';
import { emptyStore } from '../helpers/store.js';
import { atlevel } from '../runs/helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A run whose master pool's level gap and whose update took the given times. */
function run(i: number, levelGapMs: number, updateMs: number): RunRecord {
  const start = Date.UTC(2021, 10, 1) + i * 86_400_000;
  return {
    id: `prow:periodic-e2e-aws-upgrade/${1000 + i}`,
    source: `/runs/${i}`,
    identity: 'prow',
    job: 'periodic-e2e-aws-upgrade',
    buildId: String(1000 + i),
    platform: 'aws',
    fromVersion: '4.9.0',
    toVersion: '4.10.0',
    fromImage: null,
    toImage: null,
    stream: '4.9→4.10',
    runStart: start,
    runEnd: start + 7_200_000,
    updateStart: start + 60_000,
    updateEnd: start + 60_000 + updateMs,
    updateMs,
    verdict: 'pass',
    mcoFix: 'present',
    configChanged: 'pod',
    configUnchanged: 'machine-config-operator',
    analyzer: 'test',
    rules: [],
    findings: [],
    releaseChanges: [],
    operators: [],
    pools: [
      {
        pool: 'master',
        config: 'rendered-master',
        startedAt: start,
        finishedAt: start + 600_000,
        rolloutMs: 600_000,
        levelGapMs,
      },
    ],
  };
}

const PATHS: readonly [string, StatsFilter, boolean][] = [
  ['summary', {}, false],
  ['day-summary', { since: 0 }, false],
  ['detail', {}, true],
];

/** Each path's figures for the master pool's level gap and for the update. */
async function figures(
  gaps: readonly number[],
  updates: readonly number[],
): Promise<{ db: string; by: Map<string, { gap: Percentiles; update: Percentiles; text: string }> }> {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-pct-'));
  dirs.push(dir);
  const db = await emptyStore(join(dir, 'db'));
  const store = await RunStore.open(db);
  const by = new Map<string, { gap: Percentiles; update: Percentiles; text: string }>();
  try {
    await store.putRuns(gaps.map((g, i) => run(i, g, updates[i] as number)));
    for (const [name, filter, detail] of PATHS) {
      const s = await collectStats(store.db, store.where, filter, undefined, { detail });
      expect(s.source).toBe(name);
      const gap = s.levelGapMs.find((p) => p.name === 'master');
      expect(gap).toBeDefined();
      by.set(name, { gap: gap as Percentiles, update: s.updateMs, text: statsText(s) });
    }
  } finally {
    await store.close();
  }
  return { db, by };
}

/** Bucketed figures are within half a second of the exact ones; null stays null. */
function near(bucketed: Percentiles, exact: Percentiles): void {
  expect(bucketed.n).toBe(exact.n);
  for (const k of ['min', 'p50', 'p90', 'p99', 'max'] as const) {
    if (exact[k] === null) expect(bucketed[k], k).toBeNull();
    else expect(Math.abs((bucketed[k] as number) - (exact[k] as number)), k).toBeLessThanOrEqual(500);
  }
}

describe('stats duration figures over few runs', () => {
  it('2 runs: min and max, the two values; no percentiles, on every path and in the text', async () => {
    const gaps = [762_000, -1_500];
    const { db, by } = await figures(gaps, [2_694_000, 2_106_000]);
    const want = { n: 2, min: -1_500, p50: null, p90: null, p99: null, max: 762_000 };
    expect(by.get('detail')?.gap).toEqual({ name: 'master', ...want });
    expect(by.get('day-summary')?.gap).toEqual({ name: 'master', ...want });
    near(by.get('summary')?.gap as Percentiles, want);
    expect(by.get('detail')?.update).toEqual({
      n: 2,
      min: 2_106_000,
      p50: null,
      p90: null,
      p99: null,
      max: 2_694_000,
    });
    const row = by
      .get('detail')
      ?.text.split('\n')
      .find((l) => l.includes('→ master pool finish'));
    expect(row?.trim().split(/\s{2,}/)).toEqual([
      'machine-config level report → master pool finish',
      '2',
      '-1.5s',
      '–',
      '–',
      '–',
      '12m42s',
    ]);
    // As printed by the CLI (the bucketed path: -1.5 s is within half a second of its bucket).
    const cli = await atlevel(['stats', '--db', db]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/nearest-rank.*under 3 runs, only min and max/);
    expect(cli.stdout).toMatch(/→ master pool finish +2 +-[12]\.0s +– +– +– +12m42s\n/);
  }, 120_000);

  it('5 runs: nearest-rank percentiles, each a value some run had, the same on every path', async () => {
    // Stored out of order: the figures must not depend on it.
    const gaps = [30_000, -1_500, 250_000, 2_000, 1_000];
    const { by } = await figures(
      gaps,
      gaps.map((_, i) => 2_000_000 + i * 100_000),
    );
    // ceil(p × 5)-th smallest of -1.5 s, 1 s, 2 s, 30 s, 250 s: the 3rd, the 5th, the 5th.
    const want = { name: 'master', n: 5, min: -1_500, p50: 2_000, p90: 250_000, p99: 250_000, max: 250_000 };
    expect(by.get('detail')?.gap).toEqual(want);
    expect(by.get('day-summary')?.gap).toEqual(want);
    near(by.get('summary')?.gap as Percentiles, want);
    for (const p of ['p50', 'p90', 'p99'] as const) expect(gaps).toContain(by.get('detail')?.gap[p]);
    expect(by.get('detail')?.update).toEqual({
      n: 5,
      min: 2_000_000,
      p50: 2_200_000,
      p90: 2_400_000,
      p99: 2_400_000,
      max: 2_400_000,
    });
  }, 120_000);
});
