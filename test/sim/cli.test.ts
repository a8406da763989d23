import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturedStdio } from '../helpers/stdio.js';

const io = capturedStdio();
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'atlevel-sim-cli-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('atlevel simulate', () => {
  it('one pre-fix run of the seed scenario: exit 1, a summary, and a written CI run', async () => {
    io.capture();
    const dir = join(root, 'run-1');
    const code = await main([
      'simulate',
      '--scenario',
      'pause-image-only',
      '--policy',
      'pre-fix-2021',
      '--seed',
      '1',
      '--artifacts',
      dir,
    ]);
    vi.restoreAllMocks();
    expect(code).toBe(1);
    expect(io.out).toContain('VIOLATION');
    expect(io.out).toMatch(
      /machine-config reported level \(operator 4\.10\.0-0\.nightly-2021-11-03-020416\)/,
    );
    expect(io.out).toMatch(/rendered-master-[0-9a-f]{32} created, [\d.]+s after the level report/);
    expect(io.out).toContain(
      'reproduce: atlevel simulate --scenario pause-image-only --policy pre-fix-2021 --seed 1 --artifacts run-1',
    );
    expect((await readdir(dir)).sort()).toEqual([
      'artifacts',
      'atlevel-revisions.jsonl',
      'atlevel-simulation.json',
      'build-log.txt',
      'release',
    ]);
  });

  it('the fixed operator: exit 0', async () => {
    io.capture();
    const code = await main(['simulate', '--policy', 'fixed', '--seed', '1']);
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(io.out).toContain('OK');
  });

  it('--runs with -o json reports runs, violations and the first violating seed', async () => {
    io.capture();
    const code = await main([
      'simulate',
      '--scenario',
      'os-only',
      '--policy',
      'naive',
      '--runs',
      '6',
      '--seed',
      '10',
      '-o',
      'json',
    ]);
    vi.restoreAllMocks();
    expect(code).toBe(1);
    const j = JSON.parse(io.out);
    expect(j).toMatchObject({
      schemaVersion: 1,
      mode: 'seeds',
      scenario: 'os-only',
      policy: 'naive',
      runs: 6,
      violations: 6,
      firstViolatingSeed: 10,
    });
    expect(j.reproduce).toBe(
      'atlevel simulate --scenario os-only --policy naive --seed 10 --artifacts run-10',
    );

    io.capture();
    const ok = await main([
      'simulate',
      '--scenario',
      'os-only',
      '--policy',
      'pre-fix-2021',
      '--runs',
      '4',
      '-o',
      'json',
    ]);
    vi.restoreAllMocks();
    expect(ok).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({
      runs: 4,
      violations: 0,
      firstViolatingSeed: null,
      reproduce: null,
    });
  });

  it('a single run in JSON has the same three fields', async () => {
    io.capture();
    await main(['simulate', '--seed', '3', '-o', 'json']);
    vi.restoreAllMocks();
    const j = JSON.parse(io.out);
    expect(j).toMatchObject({ mode: 'run', runs: 1, violations: 1, firstViolatingSeed: 3 });
    expect(j.run.operatorLevelAt < j.run.masterTargetedAt).toBe(true);
  });

  it.each([
    [['simulate', '--scenario', 'no-such-scenario'], /unknown scenario "no-such-scenario"/],
    [
      ['simulate', '--scenario', 'test/fixtures/sim/bad-pools.yaml'],
      /bad-pools\.yaml: invalid scenario: pools: a master pool is required/,
    ],
    [['simulate', '--seed', 'x'], /--seed wants a whole number/],
    [['simulate', '--runs', '3', '--exhaustive'], /--runs and --exhaustive/],
    [['simulate', '--policy', 'lenient'], /Allowed choices are naive, pre-fix-2021, fixed/],
    // A seed keeps only its low 32 bits (sim/rng.ts): a larger one would replay a smaller one's run.
    [['simulate', '--seed', '4294967297'], /--seed must be at most 4294967295, got 4294967297/],
    [['simulate', '--seed', '99999999999999999999'], /--seed must be at most 4294967295/],
    [['simulate', '--seed', '4294967295', '--runs', '2'], /goes past the largest seed/],
    // A schedule that does not fit the run would replay another interleaving under its name.
    [['simulate', '--schedule', '9,9,9'], /choice 9 at step 1 is out of range: that step has \d+ candidates/],
    [
      ['simulate', '--schedule', `${'0,'.repeat(200)}1`],
      /the schedule has 201 choices, but this run has \d+ choice points/,
    ],
  ])('bad input %j exits 2 with one line', async (argv, message) => {
    io.capture();
    const code = await main(argv);
    vi.restoreAllMocks();
    expect(code).toBe(2);
    expect(io.err).toMatch(message);
    expect(io.err.trim().split('\n').length).toBeLessThanOrEqual(2);
  });
});
