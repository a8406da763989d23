/**
 * A filter value that no stored run has is said, never passed off as "no violations": each `--rule`,
 * `--job` and `--stream` value is tried alone (`--job a* --job typo*` keeps a*'s runs and names typo*),
 * in every path (summaries, day summaries, detail) and every format; a `--rule` that is neither one of
 * atlevel's rules nor held by the store is refused (exit 2), a retired one the store holds is kept
 * (docs/runs.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { stats } from '../../src/app/stats.js';
import { runRecord } from '../../src/ingest/record.js';
import { UsageError } from '../../src/model/index.js';
import { statsCsv } from '../../src/stats/csv.js';
import { statsHtml } from '../../src/stats/html.js';
import { collectStats, type StatsFilter } from '../../src/stats/index.js';
import { statsJson } from '../../src/stats/json.js';
import { statsText } from '../../src/stats/text.js';
import { RunStore } from '../../src/store/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';
import { emptyStore } from '../helpers/store.js';

const JOB = 'periodic-ci-openshift-release-master-ci-4.10-e2e-aws-upgrade';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function filledStore(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'atlevel-misses-')), 'db');
  dirs.push(dir);
  const path = join(projectRoot, 'examples/bug-2019850');
  const h = await loadHistory([path]);
  const store = await RunStore.open(await emptyStore(dir), 'write');
  try {
    await store.putRuns([
      runRecord(
        {
          id: `prow:${JOB}/1455000000000000001`,
          source: path,
          identity: 'prow',
          job: JOB,
          buildId: '1455000000000000001',
        },
        h,
        analyzeHistory(h),
      ),
    ]);
  } finally {
    await store.close();
  }
  return dir;
}

const store = filledStore();

describe('stats filters that match no stored run', () => {
  it('names each value no run has, in every path and format, and keeps the figures of the others', async () => {
    const db = await RunStore.open(await store);
    try {
      const f: StatsFilter = {
        jobs: ['*-aws-*', 'typo-*'],
        streams: ['4.10→4.10', '4.1→4.2'],
        rules: ['master-pool-updated-before-cvo-complete', 'nodepool-stuck-updating'],
      };
      for (const [filter, opts] of [
        [f, {}],
        [{ ...f, since: 0 }, {}],
        [f, { detail: true }],
      ] as const) {
        const s = await collectStats(db.db, db.where, filter, undefined, opts);
        expect(s.runs, s.source).toBe(1);
        expect(s.filterMisses, s.source).toEqual([
          { flag: '--job', value: 'typo-*' },
          { flag: '--stream', value: '4.1→4.2' },
        ]);
        expect(
          s.rates.find((r) => r.by === 'all' && r.rule === 'master-pool-updated-before-cvo-complete'),
        ).toMatchObject({
          checked: 1,
          violated: 1,
        });
        const text = statsText(s);
        expect(text).toContain(
          '--job typo-*: no run in the store has a job it matches; the figures say nothing of it',
        );
        expect(text).toContain('--stream 4.1→4.2: no run in the store is of this stream');
        expect(statsHtml(s)).toContain('--job typo-*: no run in the store has a job it matches');
        expect(statsCsv(s)).toContain('filter,stream,,4.1→4.2,runs,0');
        expect(JSON.parse(statsJson(s)).filterMisses).toHaveLength(2);
      }
      // A job pattern's LIKE wildcards are its own characters: `_` does not stand for any one.
      const like = await collectStats(db.db, db.where, { jobs: ['periodic_ci*'] });
      expect(like.runs).toBe(0);
      expect(like.filterMisses).toEqual([{ flag: '--job', value: 'periodic_ci*' }]);
      const none = await collectStats(db.db, db.where, { jobs: [JOB] });
      expect(none.filterMisses).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('a rule the store holds no state for is named; a rule atlevel does not have is refused', async () => {
    const db = await store;
    // A rule of atlevel's that the store holds no state for (a store ingested before the rule): said.
    const held = await RunStore.open(db, 'write');
    try {
      await held.db.query(`UPDATE stats_rules SET runs = 0 WHERE rule = 'pool-degraded'`);
      const s = await collectStats(held.db, held.where, { rules: ['pool-degraded'] });
      expect(s.filterMisses).toEqual([{ flag: '--rule', value: 'pool-degraded' }]);
      expect(statsText(s)).toContain('--rule pool-degraded: no run in the store has a state for this rule');
      await held.db.query(`UPDATE stats_rules SET runs = 1 WHERE rule = 'pool-degraded'`);
    } finally {
      await held.close();
    }
    // A mistyped rule is no rule that never broke: refused, naming the rules there are.
    const typo = stats({ db, filter: { rules: ['master-pool-updated-before-cvo-completed'] } });
    await expect(typo).rejects.toThrow(UsageError);
    await expect(
      stats({ db, filter: { rules: ['master-pool-updated-before-cvo-completed'] } }),
    ).rejects.toThrow(
      /^--rule master-pool-updated-before-cvo-completed: no such rule, and no run in the store has a state for it \(atlevel's rules: master-pool-updated-before-cvo-complete, /,
    );
    // A retired rule the store holds stays accepted.
    const retired = await RunStore.open(db, 'write');
    try {
      await retired.db.query(
        `INSERT INTO stats_rules (rule, stream, platform, week, runs, violated, not_checked) VALUES ('retired-rule', '', '', '', 1, 0, 0)`,
      );
    } finally {
      await retired.close();
    }
    const kept = await stats({ db, filter: { rules: ['retired-rule'] } });
    expect(kept.stats.filterMisses).toEqual([]);
  });
});
