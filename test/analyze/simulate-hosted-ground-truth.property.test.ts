/**
 * analyze's verdict on the hypershift dump a simulated NodePool rollout wrote equals the model's ground
 * truth (issue 41, item 5): for `nodepool-replace` and `nodepool-inplace`, under both NodePool
 * controller policies, on 50 seeds each:
 * - the model's ground truth (the NodePool reported level before its rollout ended) ⇔
 *   `nodepool-level-before-rollout` violated, and its finding names the NodePool;
 * - the dump is the e2e test's, taken when it saw the NodePool at level: a violation is visible in it
 *   (the model records whether it was; it always was in these scenarios, checked here too);
 * - an unbroken truth ⇒ analyze passes (every rule that applies checked and held);
 * - `fixed` never breaks it; `pre-fix-capi-v1beta1` breaks it in the Replace scenario.
 * Each dump is rendered in memory, written to a scratch folder and read back as `atlevel analyze DIR`.
 * ATLEVEL_HOSTED_SEEDS=N runs fewer seeds locally (the e2e suite runs 50).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import {
  HOSTED_POLICY_NAMES,
  hostedScenario,
  renderHostedDump,
  runHostedSimulation,
} from '../../src/sim/index.js';
import { writeRunFolder } from '../../src/writer/index.js';
import { loadHistory } from '../helpers/load.js';

const SEEDS = Number(process.env.ATLEVEL_HOSTED_SEEDS ?? 50);
const RULE = 'nodepool-level-before-rollout';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'atlevel-hosted-truth-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const COMBOS = ['nodepool-replace', 'nodepool-inplace'].flatMap((scenario) =>
  HOSTED_POLICY_NAMES.map((policy) => [scenario, policy] as const),
);

describe("analyze's verdict on a simulated hypershift dump equals the model's ground truth", () => {
  it.each(COMBOS)(
    '%s × %s, 50 seeds',
    async (name, policy) => {
      const scenario = hostedScenario(name);
      if (!scenario) throw new Error(`no hosted scenario ${name}`);
      let n = 0;
      let violations = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
          const run = runHostedSimulation(scenario, policy, seed, { record: true });
          const dir = join(root, `${name}-${policy}-${n++}`);
          await writeRunFolder(dir, renderHostedDump(run));
          const result = analyzeHistory(await loadHistory([dir]));
          await rm(dir, { recursive: true, force: true });
          const outcome = result.outcomes.find((o) => o.rule.id === RULE);
          const truth = run.facts.violation;
          expect(run.facts.levelAt).toBeDefined();
          expect(run.facts.visibleAtDump).toBe(truth);
          expect(outcome?.state === 'violated').toBe(truth);
          if (truth) {
            violations++;
            expect(result.verdict).toBe('fail');
            const failure = result.findings.find((f) => f.rule === RULE && f.severity === 'failure');
            expect(failure?.subject?.pool).toBe(scenario.nodePool);
            expect(failure?.summary).toContain(`NodePool ${scenario.nodePool}`);
          } else {
            expect(outcome?.state).toBe('holds');
            expect(result.verdict).toBe('pass');
          }
        }),
        { numRuns: SEEDS, seed: 41 },
      );
      if (policy === 'fixed' || name === 'nodepool-inplace') expect(violations).toBe(0);
      else expect(violations).toBeGreaterThan(0);
    },
    600_000,
  );

  it('writes the same bytes for the same scenario, policy and seed', () => {
    const scenario = hostedScenario('nodepool-replace');
    if (!scenario) throw new Error('no hosted scenario nodepool-replace');
    const a = renderHostedDump(runHostedSimulation(scenario, 'pre-fix-capi-v1beta1', 9, { record: true }));
    const b = renderHostedDump(runHostedSimulation(scenario, 'pre-fix-capi-v1beta1', 9, { record: true }));
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [path, text] of a) expect(b.get(path)).toBe(text);
  });
});
