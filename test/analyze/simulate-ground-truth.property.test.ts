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
 * And for every scenario, the operand invariant (issue 40): an operator reported level before a workload
 * it manages rolled out (the model's record) ⇔ `operator-level-before-operands` violated. The two
 * operand scenarios (`daemonset-operand-only`, `deployment-operand-only`) are checked on fewer seeds:
 * naive runs fail naming the workload, fixed and pre-fix-2021 runs pass.
 * The clusters are the scenarios' own (3 masters, 2–3 workers); the artifacts are rendered in memory,
 * written to a scratch folder and read back exactly as `atlevel analyze DIR` reads them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { builtinScenario, POLICY_NAMES, renderArtifacts, runSimulation } from '../../src/sim/index.js';
import { writeRunFolder } from '../../src/writer/index.js';
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

const OPERAND_RULE = 'operator-level-before-operands';
/** The operand scenarios: fewer seeds (each run writes and reads back every workload's pods and events). */
const OPERAND_SEEDS = 12;
const OPERAND_COMBOS = ['daemonset-operand-only', 'deployment-operand-only'].flatMap((scenario) =>
  POLICY_NAMES.map((policy) => [scenario, policy] as const),
);

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
          await writeRunFolder(dir, renderArtifacts(run));
          const result = analyzeHistory(await loadHistory([dir]));
          await rm(dir, { recursive: true, force: true });
          const state = (id: string) => result.outcomes.find((o) => o.rule.id === id)?.state;
          const truth = run.facts.violation;
          expect(state('master-pool-updated-before-cvo-complete') === 'violated').toBe(truth);
          expect(state(OPERAND_RULE) === 'violated').toBe(run.facts.operandViolations.length > 0);
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

describe("analyze's verdict on a simulated operand rollout equals the model's ground truth", () => {
  it.each(OPERAND_COMBOS)(
    `%s × %s, ${OPERAND_SEEDS} seeds`,
    async (name, policy) => {
      const scenario = builtinScenario(name);
      if (!scenario) throw new Error(`no built-in scenario ${name}`);
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
          const run = runSimulation(scenario, policy, seed, { record: true });
          const dir = join(root, `${name}-${policy}-${n++}`);
          await writeRunFolder(dir, renderArtifacts(run));
          const result = analyzeHistory(await loadHistory([dir]));
          await rm(dir, { recursive: true, force: true });
          const outcome = result.outcomes.find((o) => o.rule.id === OPERAND_RULE);
          const truth = run.facts.operandViolations;
          expect(run.facts.violation).toBe(false);
          expect(outcome?.state === 'violated').toBe(truth.length > 0);
          if (policy === 'naive') {
            // naive reports level as soon as the manifests are applied: the rollout is always after it.
            expect(truth.length).toBeGreaterThan(0);
            expect(result.verdict).toBe('fail');
            const text = JSON.stringify(outcome?.state === 'violated' ? outcome.findings : []);
            for (const v of truth) expect(text).toContain(`${v.namespace}/${v.name}`);
          } else {
            expect(truth).toEqual([]);
            expect(result.verdict).toBe('pass');
          }
        }),
        { numRuns: OPERAND_SEEDS, seed: 40 },
      );
    },
    600_000,
  );
});
