/**
 * analyze's verdict on the artifacts a simulated run wrote equals the model's ground truth (issue 37,
 * item 2), on the scenarios real clusters have: a day-2 MachineConfig after the update, a MachineConfig
 * change during it, a paused pool resumed after the CVO completed, a custom `infra` pool, two
 * consecutive updates in one run, a multi-architecture migration and a same-version rebuild. For every policy and 50 seeds each:
 * - the model's invariant broken (the master pool Updating at or after the CVO completed, while
 *   rolling out the update's config) ⇔ `master-pool-updated-before-cvo-complete` violated;
 * - an unbroken invariant ⇒ neither race rule violated (a later rollout is never charged to the update);
 * - a scenario that completes cleanly (no same-version shortcut) never fails: it passes, or says
 *   "inconclusive" when a later rollout overwrote the pool's conditions and the daemons' NodeDone
 *   events end within seconds of the completion (then the inputs cannot tell; never a false verdict).
 * The clusters are the scenarios' own (3 masters, 2–3 workers); the artifacts are rendered in memory,
 * written to a scratch folder and read back exactly as `atlevel analyze DIR` reads them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import {
  builtinScenario,
  POLICY_NAMES,
  renderArtifacts,
  runSimulation,
  writeArtifacts,
} from '../../src/sim/index.js';
import { loadHistory } from '../helpers/load.js';

const SEEDS = 50;
const RACE_RULES = ['master-pool-updated-before-cvo-complete', 'operator-level-before-required-pool-target'];

/** Scenario → whether a run of it is expected to pass outright when the model's invariant holds. */
const SCENARIOS: readonly (readonly [string, boolean])[] = [
  ['day2-machineconfig', true],
  ['machineconfig-during-update', true],
  ['paused-pool-resumed', true],
  ['infra-pool', true],
  ['two-updates', true],
  ['multi-arch-migration', false],
  ['same-version-rebuild', false],
];

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'atlevel-sim-truth-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const COMBOS = SCENARIOS.flatMap(([scenario, clean]) =>
  POLICY_NAMES.map((policy) => [scenario, policy, clean] as const),
);

describe("analyze's verdict on a simulated run equals the model's ground truth", () => {
  it.each(COMBOS)(
    '%s × %s, 50 seeds',
    async (name, policy, clean) => {
      const scenario = builtinScenario(name);
      if (!scenario) throw new Error(`no built-in scenario ${name}`);
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
          const run = runSimulation(scenario, policy, seed, { record: true });
          const dir = join(root, `${name}-${policy}-${n++}`);
          await writeArtifacts(dir, renderArtifacts(run));
          const result = analyzeHistory(await loadHistory([dir]));
          await rm(dir, { recursive: true, force: true });
          const state = (id: string) => result.outcomes.find((o) => o.rule.id === id)?.state;
          const truth = run.facts.violation;
          expect(state('master-pool-updated-before-cvo-complete') === 'violated').toBe(truth);
          if (!truth) {
            for (const id of RACE_RULES) expect(state(id)).not.toBe('violated');
            if (clean) expect(['pass', 'inconclusive']).toContain(result.verdict);
          } else {
            expect(result.verdict).toBe('fail');
          }
        }),
        { numRuns: SEEDS, seed: 37 },
      );
      // 50 simulated runs written and read back: generous room on a loaded machine (not a speed check).
    },
    600_000,
  );
});
