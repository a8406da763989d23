/**
 * Partial coverage survives the run store: a rule that held on part of what it judges (analyze's
 * `coverage`, docs/analyze-json.md) is stored with it and counted apart from full holds by `stats`,
 * in every path (summaries, day summaries, detail) and every format; a store written before coverage
 * was kept reads its holds as "coverage unknown", never as full (docs/runs.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { runRecord } from '../../src/ingest/record.js';
import { statsCsv } from '../../src/stats/csv.js';
import { statsHtml } from '../../src/stats/html.js';
import { collectStats, type StatsResult } from '../../src/stats/index.js';
import { statsJson } from '../../src/stats/json.js';
import { statsText } from '../../src/stats/text.js';
import { RunStore } from '../../src/store/index.js';
import { checkStoreBeforeCoverage, THIN_SNAPSHOT } from '../helpers/coverage-store.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';
import { emptyStore } from '../helpers/store.js';

const DAY2 = THIN_SNAPSHOT;
const FIXED = join(projectRoot, 'examples/bug-2019850-fixed');
const RULE = 'clusteroperator-level-then-progressing';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-coverage-'));
  dirs.push(dir);
  return dir;
}

async function record(path: string, id: string) {
  const h = await loadHistory([path]);
  return runRecord({ id, source: path, identity: 'content' }, h, analyzeHistory(h));
}

/** The figures of every path: summaries, day summaries (--since), detail. */
async function everyPath(store: RunStore): Promise<StatsResult[]> {
  return [
    await collectStats(store.db, store.where, {}),
    await collectStats(store.db, store.where, { since: 0 }),
    await collectStats(store.db, store.where, {}, undefined, { detail: true }),
  ];
}

const overall = (s: StatsResult) => s.rates.find((r) => r.rule === RULE && r.by === 'all');

describe('coverage in the run store', () => {
  it('a thin hold is stored as thin and counted apart from full holds in every path and format', async () => {
    const thin = await record(DAY2, 'sha256:thin');
    const full = await record(FIXED, 'sha256:full');
    const state = thin.rules.find((r) => r.rule === RULE);
    expect(state).toMatchObject({ state: 'holds', coverage: 'thin' });
    expect(state?.coverageDetail).toMatchObject({ of: 'operators', checked: 1, total: 29, enough: false });
    expect(full.rules.find((r) => r.rule === RULE)).toMatchObject({ state: 'holds', coverage: 'full' });

    const store = await RunStore.open(await emptyStore(join(scratch(), 'db')), 'write');
    try {
      await store.putRuns([thin, full]);
      const [row] = await store.db.query<{ coverage: string; detail: { checked: number; total: number } }>(
        `SELECT coverage, coverage_detail AS detail FROM rule_states WHERE run_id = 'sha256:thin' AND rule = $1`,
        [RULE],
      );
      expect(row?.coverage).toBe('thin');
      expect(row?.detail).toMatchObject({ checked: 1, total: 29 });
      const [notChecked] = await store.db.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM rule_states WHERE state = 'not-checked' AND coverage IS NOT NULL`,
      );
      expect(notChecked?.n).toBe(0);

      for (const s of await everyPath(store)) {
        expect(overall(s), s.source).toMatchObject({
          runs: 2,
          checked: 2,
          violated: 0,
          holdsFull: 1,
          holdsPartial: 0,
          holdsThin: 1,
          holdsCoverageUnknown: 0,
        });
      }
      const s = await collectStats(store.db, store.where, {});
      // Text: the holds columns, the thin one apart.
      const text = statsText(s);
      expect(text).toMatch(new RegExp(`${RULE} +0 +2 +0\\.0% +0\\n`));
      expect(text).toMatch(
        /HOLDS BY COVERAGE[^\n]*\n[^\n]*\n +rule +holds +full +partial +thin +coverage unknown\n/,
      );
      expect(text).toMatch(new RegExp(`${RULE} +2 +1 +0 +1 +0\\n`));
      // JSON: new fields after the old ones, which keep their meaning.
      const json = JSON.parse(statsJson(s)) as { rates: Record<string, unknown>[] };
      const rate = json.rates.find((r) => r.rule === RULE && r.by === 'all') ?? {};
      expect(Object.keys(rate).slice(-4)).toEqual([
        'holdsFull',
        'holdsPartial',
        'holdsThin',
        'holdsCoverageUnknown',
      ]);
      expect(rate).toMatchObject({ checked: 2, rate: 0, holdsThin: 1, holdsFull: 1 });
      // CSV: one row per new measure.
      const csv = statsCsv(s);
      expect(csv).toContain(`rate,${RULE},all,all,holds-thin,1\r\n`);
      expect(csv).toContain(`rate,${RULE},all,all,holds-full,1\r\n`);
      expect(csv).toContain(`rate,${RULE},all,all,holds-coverage-unknown,0\r\n`);
      // HTML: the same columns.
      const html = statsHtml(s);
      expect(html).toContain('<h2>Holds by coverage</h2>');
      expect(html).toMatch(
        new RegExp(
          `<td class="mono">${RULE}</td><td class="n">2</td><td class="n">1</td><td class="n">0</td><td class="n">1</td>`,
        ),
      );
      // The component table, with the rule as the race: its rows say the runs the count is out of
      // and the rate, and the HTML cell shows each of its counts, labelled.
      const byRule = await collectStats(store.db, store.where, { rules: [RULE] });
      const thinRow = byRule.components.find((c) => c.holdsThin === 1);
      expect(thinRow).toMatchObject({ race: 0, notChecked: 0, holdsThin: 1, checked: 1, rate: 0 });
      expect(statsHtml(byRule)).toContain(
        '0 of 1<span class="cov">held: full 0, partial 0, thin 1, coverage unknown 0; not checked 0</span>',
      );
    } finally {
      await store.close();
    }
  }, 120_000);

  it('a store written before coverage: its holds read as coverage unknown, never full; --reanalyze records it', async () => {
    await checkStoreBeforeCoverage(join(scratch(), 'db'));
  }, 120_000);
});
