/**
 * The property of simulate-verdict.property.test.ts (the fast suite: one seed per scenario × policy)
 * and simulate-verdict-seeds.property.test.ts (the end-to-end suite: more seeds), defined once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { BUILTIN_SCENARIOS, POLICY_NAMES } from '../../src/sim/index.js';

/** Register the tests: `numRuns` sampled seeds per scenario × policy, drawn from fast-check's `seed`. */
export function simulateVerdictProperty(numRuns: number, seed: number): void {
  let root: string;
  let out = '';

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'atlevel-sim-verdict-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Run the CLI in-process, capturing stdout; stderr is dropped (notes). */
  async function run(argv: string[]): Promise<{ code: number; out: string }> {
    out = '';
    const so = vi.spyOn(process.stdout, 'write').mockImplementation(((
      chunk: string | Uint8Array,
      cb?: unknown,
    ) => {
      out += String(chunk);
      if (typeof cb === 'function') (cb as () => void)();
      return true;
    }) as typeof process.stdout.write);
    const se = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((() => true) as typeof process.stderr.write);
    try {
      const code = await main(argv);
      return { code, out };
    } finally {
      so.mockRestore();
      se.mockRestore();
    }
  }

  const COMBOS = BUILTIN_SCENARIOS.flatMap((scenario) =>
    POLICY_NAMES.map((policy) => [scenario, policy] as const),
  );

  describe('simulate ⇔ analyze', () => {
    it('covers every built-in scenario and policy', () => {
      expect(COMBOS.length).toBe(BUILTIN_SCENARIOS.length * POLICY_NAMES.length);
      expect(COMBOS.length).toBeGreaterThanOrEqual(18);
    });

    it.each(COMBOS)('%s × %s: the same verdict and exit code on sampled seeds', async (scenario, policy) => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 100_000 }), async (seed) => {
          const dir = join(root, `${scenario}-${policy}-${seed}-${n++}`);
          const sim = await run([
            'simulate',
            '--scenario',
            scenario,
            '--policy',
            policy,
            '--seed',
            String(seed),
            '--artifacts',
            dir,
            '-o',
            'json',
          ]);
          const simJson = JSON.parse(sim.out) as { verdict: string; run: { violated: boolean } };
          const ana = await run(['analyze', dir, '-o', 'json']);
          const anaJson = JSON.parse(ana.out) as { verdict: string };
          expect(simJson.verdict).toBe(anaJson.verdict);
          expect(sim.code).toBe(ana.code);
          if (simJson.run.violated) expect(anaJson.verdict).toBe('fail');
          await rm(dir, { recursive: true, force: true });
        }),
        { numRuns, seed },
      );
    });
  });
}
