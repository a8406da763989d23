/**
 * A 90-run simulator corpus (every policy × scenario three times, over three streams, four platforms
 * and six weeks) ingested with the real CLI into PGlite; every stats figure is checked against the
 * simulator's ground truth (atlevel-simulation.json of each run), including the race rate per policy:
 * pre-fix-2021 against fixed on the pause-image-only scenario.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSince, parseStream } from '../../src/cli/stats.js';
import { collectStats, type StatsResult } from '../../src/stats/index.js';
import { statsJson } from '../../src/stats/json.js';
import { RunStore } from '../../src/store/index.js';
import { type CorpusRun, type GroundTruth, groundTruth, percentileDisc, writeCorpus } from './corpus.js';
import { atlevel } from './helpers.js';

const N = 90;
const RACE = 'master-pool-updated-before-cvo-complete';
/** Release components that reach a rendered config on every platform (release/diff.ts configEmbedding). */
const CONFIG = new Set(['pod', 'machine-config-operator', 'machine-os-content', 'baremetal-runtimecfg']);

let dir: string;
let db: string;
let runs: CorpusRun[];
let truth: GroundTruth[];
let firstIngest: string;

let store: RunStore | undefined;

/** The figures in-process (one open store: each CLI call would reopen PGlite); the CLI is checked below. */
async function stats(...args: string[]): Promise<StatsResult> {
  const take = (flag: string) => {
    const i = args.indexOf(flag);
    if (i < 0) return undefined;
    const out: string[] = [];
    for (let j = i + 1; j < args.length && !args[j]?.startsWith('--'); j += 1) out.push(args[j] as string);
    return out;
  };
  const since = take('--since')?.[0];
  const jobs = take('--job');
  const streams = take('--stream');
  const rules = take('--rule');
  store ??= await RunStore.open(db);
  const s = await collectStats(store.db, store.where, {
    ...(since ? { since: parseSince(since, Date.now()) } : {}),
    ...(jobs ? { jobs } : {}),
    ...(streams ? { streams: streams.map(parseStream) } : {}),
    ...(rules ? { rules } : {}),
  });
  // Through the JSON reporter, as `-o json` prints it.
  return JSON.parse(statsJson(s)) as StatsResult;
}

async function closeStore(): Promise<void> {
  await store?.close();
  store = undefined;
}

function raceRow(s: StatsResult, by: string, key: string) {
  return s.rates.find((r) => r.rule === RACE && r.by === by && r.key === key);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-corpus-'));
  db = join(dir, 'store');
  runs = await writeCorpus(join(dir, 'corpus'), N);
  truth = await Promise.all(runs.map(groundTruth));
  // One broken run beside them: recorded as an ingest error, the batch goes on, and exit 1 says so.
  await mkdir(join(dir, 'corpus', 'broken', 'artifacts'), { recursive: true });
  await writeFile(join(dir, 'corpus', 'broken', 'artifacts', 'clusterversion.json'), '{"items": [');
  const r = await atlevel(['ingest', join(dir, 'corpus'), '--db', db]);
  expect(r.code, r.stderr).toBe(1);
  firstIngest = r.stdout;
}, 600_000);

afterAll(async () => {
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

describe('atlevel ingest + stats on a simulator corpus', () => {
  it('stores every run once and records the broken one as an ingest error', async () => {
    expect(firstIngest).toMatch(
      new RegExp(`ingested ${N + 1} runs .*: ${N} stored, 0 already there, 1 ingest error`),
    );
    const s = await stats();
    expect(s.runs).toBe(N);
    expect(s.ingestErrors).toBe(1);
    expect(s.errors[0]?.source).toContain('broken');
  });

  it('failure rate of the race overall, by stream, platform and week equals the ground truth', async () => {
    const s = await stats();
    const count = (sel: (r: CorpusRun) => boolean) => {
      const idx = runs.map((_, i) => i).filter((i) => sel(runs[i] as CorpusRun));
      return {
        checked: idx.filter((i) => truth[i]?.cvoCompleted).length,
        violated: idx.filter((i) => truth[i]?.violated).length,
        notChecked: idx.filter((i) => !truth[i]?.cvoCompleted).length,
      };
    };
    const all = count(() => true);
    expect(all.violated).toBeGreaterThan(0);
    // The degraded-node runs never complete: the rule is "not checked" there, never "holds".
    expect(all.notChecked).toBe(runs.filter((r) => r.scenario === 'degraded-node').length);
    expect(raceRow(s, 'all', 'all')).toMatchObject(all);
    for (const stream of new Set(runs.map((r) => r.stream))) {
      expect(raceRow(s, 'stream', stream), stream).toMatchObject(count((r) => r.stream === stream));
    }
    for (const platform of new Set(runs.map((r) => r.platform))) {
      expect(raceRow(s, 'platform', platform), platform).toMatchObject(count((r) => r.platform === platform));
    }
    const weeks = s.rates.filter((r) => r.rule === RACE && r.by === 'week');
    expect(weeks).toHaveLength(6);
    expect(weeks.reduce((a, w) => a + w.violated, 0)).toBe(all.violated);
  });

  it('the race per policy: pre-fix-2021 pause-image-only races in every run, fixed in none', async () => {
    const modern = ['4.9-4.10', '4.10-4.10', '4.10-4.11'];
    const s = await stats('--stream', ...modern);
    const pause = s.components.filter((c) => c.changed === 'pod');
    const truthOf = (policy: string) => {
      const idx = runs
        .map((_, i) => i)
        .filter((i) => runs[i]?.policy === policy && runs[i]?.scenario === 'pause-image-only');
      return { runs: idx.length, race: idx.filter((i) => truth[i]?.violated).length };
    };
    const before = truthOf('pre-fix-2021');
    const after = truthOf('fixed');
    expect(before.runs).toBeGreaterThan(0);
    expect(before.race).toBe(before.runs);
    expect(after.race).toBe(0);
    expect(pause.find((c) => c.fix === 'absent')).toMatchObject(before);
    expect(pause.find((c) => c.fix === 'present')).toMatchObject(after);
    await closeStore();
    const r = await atlevel(['stats', '--db', db, '--stream', ...modern]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `pod image changed, machine-config-operator and OS image (machine-os-content) unchanged → race in ${before.race} of ${before.runs} runs before the fix, 0 of ${after.runs} after`,
    );
  });

  it('every changed-component set and fix status has the ground truth race count', async () => {
    const s = await stats();
    const expected = new Map<string, { runs: number; race: number }>();
    runs.forEach((r, i) => {
      const t = truth[i] as GroundTruth;
      const changed = t.changedComponents
        .filter((c) => CONFIG.has(c))
        .sort()
        .join('+');
      const key = `${changed}|${r.policy === 'fixed' ? 'present' : 'absent'}`;
      const e = expected.get(key) ?? { runs: 0, race: 0 };
      e.runs += 1;
      if (t.violated) e.race += 1;
      expected.set(key, e);
    });
    const got = new Map(s.components.map((c) => [`${c.changed}|${c.fix}`, { runs: c.runs, race: c.race }]));
    expect(got).toEqual(expected);
  });

  it('groups the violations by signature', async () => {
    const s = await stats();
    const sig = new Map(s.signatures.map((g) => [g.signature, g.runs]));
    const raced = (policy: string, scenario: string) =>
      runs.filter((r, i) => r.policy === policy && r.scenario === scenario && truth[i]?.violated).length;
    expect(sig.get('bug-1999556')).toBe(
      raced('pre-fix-2021', 'pause-image-only') + raced('naive', 'pause-image-only'),
    );
    expect(sig.get('bug-1955929')).toBe(raced('naive', 'os-only'));
    // The degraded-node runs fail other rules with no catalogued cause: "unknown" (and so may a
    // finding of another rule about a race; the race rule's own findings all have a signature).
    expect(sig.get('unknown')).toBeGreaterThanOrEqual(
      runs.filter((r) => r.scenario === 'degraded-node').length,
    );
    const race = await stats('--rule', RACE);
    expect(race.signatures.map((g) => [g.signature, g.runs]).sort()).toEqual(
      [
        ['bug-1955929', raced('naive', 'os-only')],
        ['bug-1999556', raced('pre-fix-2021', 'pause-image-only') + raced('naive', 'pause-image-only')],
      ].sort(),
    );
    const g = s.signatures.find((x) => x.signature === 'bug-1999556');
    const times = runs
      .filter((r, i) => r.scenario === 'pause-image-only' && r.policy !== 'fixed' && truth[i]?.violated)
      .map((r) => r.epoch);
    expect(new Date(g?.firstSeen as unknown as string).getTime() - Math.min(...times)).toBeLessThan(60_000);
    expect(new Date(g?.lastSeen as unknown as string).getTime() - Math.max(...times)).toBeLessThan(60_000);
  });

  it('duration percentiles: the race shows as a positive level-report-to-master-finish gap', async () => {
    const s = await stats();
    expect(s.updateMs.n).toBe(truth.filter((t) => t.cvoCompleted).length);
    // The store's update starts at ClusterVersion history's startedTime (whole seconds): within 1 s.
    const upd = truth.flatMap((t) => (t.updateMs === null ? [] : [t.updateMs]));
    for (const p of ['p50', 'p90', 'p99'] as const) {
      const want = percentileDisc(upd, Number(p.slice(1)) / 100) as number;
      expect(Math.abs((s.updateMs[p] as number) - want), p).toBeLessThanOrEqual(1000);
    }
    const gaps = truth.flatMap((t) => (t.masterGapMs === null ? [] : [t.masterGapMs]));
    const master = s.levelGapMs.find((p) => p.name === 'master');
    expect(master?.n).toBe(gaps.length);
    for (const p of ['p50', 'p90', 'p99'] as const) {
      const want = percentileDisc(gaps, Number(p.slice(1)) / 100) as number;
      expect(Math.abs((master?.[p] as number) - want), p).toBeLessThanOrEqual(1000);
    }
    expect(master?.max).toBeGreaterThan(0);
  });

  it('filters by job, stream, since and rule', async () => {
    const aws = await stats('--job', '*-e2e-aws-upgrade');
    expect(aws.runs).toBe(runs.filter((r) => r.platform === 'aws').length);
    const one = await stats('--stream', '4.1→4.2');
    expect(one.runs).toBe(runs.filter((r) => r.stream === '4.1→4.2').length);
    const lastWeeks = Math.max(...runs.map((r) => r.epoch)) - 7 * 86_400_000;
    const since = await stats('--since', new Date(lastWeeks).toISOString());
    expect(since.runs).toBe(runs.filter((r) => r.epoch >= lastWeeks).length);
    const rule = await stats('--rule', RACE);
    expect(new Set(rule.rates.map((r) => r.rule))).toEqual(new Set([RACE]));
    await closeStore();
    const bad = await atlevel(['stats', '--db', db, '--stream', 'four']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('re-ingesting changes nothing', async () => {
    await closeStore();
    const before = await atlevel(['stats', '--db', db, '-o', 'csv']);
    const r = await atlevel(['ingest', join(dir, 'corpus'), '--db', db, '--exit-zero']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`0 stored, ${N} already there, 1 ingest error`));
    const after = await atlevel(['stats', '--db', db, '-o', 'csv']);
    expect(after.stdout).toBe(before.stdout);
  });

  it('writes CSV and a self-contained HTML page with a strict CSP and no script', async () => {
    await closeStore();
    const csv = await atlevel(['stats', '--db', db, '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('section,subject,dimension,key,measure,value');
    const html = await atlevel(['stats', '--db', db, '-o', 'html']);
    expect(html.stdout).toMatch(
      /Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-/,
    );
    expect(html.stdout).not.toMatch(/<script|https?:\/\/[^"<]*\.(js|css)/);
    expect(html.stdout).toContain('bug-1999556');
  });
});
