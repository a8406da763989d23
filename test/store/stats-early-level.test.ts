/**
 * stats counts early-level races per operator: the findings of operator-level-before-operands by the
 * operator each names (subject.operator), alike from the summaries, the day summaries (--since) and the
 * detail tables, and none when --rule leaves the rule out. On PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { statsCsv } from '../../src/stats/csv.js';
import { collectStats } from '../../src/stats/index.js';
import { statsText } from '../../src/stats/text.js';
import { type RunRecord, RunStore } from '../../src/store/index.js';
import { emptyStore } from '../helpers/store.js';

const RULE = 'operator-level-before-operands';

function run(i: number, operators: readonly string[]): RunRecord {
  const start = Date.UTC(2024, 4, 1 + i);
  return {
    id: `prow:job/${i}`,
    source: `/runs/${i}`,
    identity: 'prow',
    job: 'periodic-e2e-aws-upgrade',
    buildId: String(i),
    platform: 'aws',
    fromVersion: '4.15.0',
    toVersion: '4.15.1',
    fromImage: null,
    toImage: null,
    stream: '4.15→4.15',
    runStart: start,
    runEnd: start + 7_200_000,
    updateStart: start + 60_000,
    updateEnd: start + 3_000_000,
    updateMs: 2_940_000,
    verdict: operators.length > 0 ? 'fail' : 'pass',
    mcoFix: 'unknown',
    configChanged: null,
    configUnchanged: null,
    analyzer: 'test',
    rules: [
      {
        rule: RULE,
        state: operators.length > 0 ? 'violated' : 'holds',
        missing: [],
        failures: operators.length,
        warnings: 0,
        coverage: 'full',
        coverageDetail: null,
      },
    ],
    findings: [
      ...operators.map((operator, ordinal) => ({
        ordinal,
        rule: RULE,
        severity: 'failure' as const,
        summary: `${operator} reported level before its operand had rolled out`,
        at: start + 1_800_000,
        signature: 'operand-early-level',
        subject: { operator, objects: [`ClusterOperator/${operator}`] },
        cause: [],
        components: [],
      })),
      // Another rule's finding about an operator is not an early-level race.
      {
        ordinal: 9,
        rule: 'clusteroperator-level-then-progressing',
        severity: 'failure' as const,
        summary: 'x',
        at: start,
        signature: null,
        subject: { operator: 'dns' },
        cause: [],
        components: [],
      },
    ],
    releaseChanges: [],
    operators: [],
    pools: [],
  };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

it('early-level races per operator: the same from summaries, day summaries and detail; none under another --rule', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-early-'));
  dirs.push(dir);
  const store = await RunStore.open(await emptyStore(join(dir, 'db')), 'write');
  try {
    await store.putRuns([run(1, ['dns']), run(2, ['dns', 'ingress']), run(3, []), run(4, ['dns'])]);
    const expected = [
      {
        operator: 'dns',
        runs: 3,
        findings: 3,
        firstSeen: Date.UTC(2024, 4, 2, 0, 1),
        lastSeen: Date.UTC(2024, 4, 5, 0, 1),
      },
      {
        operator: 'ingress',
        runs: 1,
        findings: 1,
        firstSeen: Date.UTC(2024, 4, 3, 0, 1),
        lastSeen: Date.UTC(2024, 4, 3, 0, 1),
      },
    ];
    const summary = await collectStats(store.db, store.where, {});
    expect(summary.source).toBe('summary');
    expect(summary.earlyLevels).toEqual(expected);
    expect((await collectStats(store.db, store.where, { since: 0 })).earlyLevels).toEqual(expected);
    expect((await collectStats(store.db, store.where, {}, undefined, { detail: true })).earlyLevels).toEqual(
      expected,
    );
    expect((await collectStats(store.db, store.where, { since: Date.UTC(2024, 4, 4) })).earlyLevels).toEqual([
      {
        operator: 'dns',
        runs: 1,
        findings: 1,
        firstSeen: Date.UTC(2024, 4, 5, 0, 1),
        lastSeen: Date.UTC(2024, 4, 5, 0, 1),
      },
    ]);
    expect((await collectStats(store.db, store.where, { rules: ['pool-degraded'] })).earlyLevels).toEqual([]);
    const text = statsText(summary);
    expect(text).toContain('EARLY-LEVEL RACES PER OPERATOR');
    expect(text).toMatch(/dns\s+3\s+3/);
    expect(statsCsv(summary)).toContain(`early-level,ingress,rule,${RULE},runs,1`);
  } finally {
    await store.close();
  }
}, 120_000);
