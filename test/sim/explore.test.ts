import { describe, expect, it } from 'vitest';
import { exploreExhaustive, exploreSeeds, replaySchedule } from '../../src/sim/explore.js';
import { runSimulation } from '../../src/sim/run.js';
import { builtinScenario } from '../../src/sim/scenario.js';
import { loadScenarioFile } from '../../src/sim/scenario-file.js';

const pauseImage = builtinScenario('pause-image-only');
if (!pauseImage) throw new Error('missing scenario');

describe('seed exploration', () => {
  it('counts violating runs and names the first', () => {
    const e = exploreSeeds(pauseImage, 'pre-fix-2021', 7, 12);
    expect(e.runs).toBe(12);
    expect(e.violations).toBe(12);
    expect(e.firstViolatingSeed).toBe(7);
    expect(e.violatingSeeds).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(e.detectedByTest).toBeGreaterThan(0);
    expect(e.detectedByTest).toBeLessThanOrEqual(12);
  });

  it('reports no violating seed for the fixed operator', () => {
    const progress: number[] = [];
    const e = exploreSeeds(pauseImage, 'fixed', 1, 8, (done) => progress.push(done));
    expect(e.violations).toBe(0);
    expect(e.firstViolatingSeed).toBeNull();
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('exhaustive exploration of the race window', () => {
  it('finds the bug in time order and a safe order where the operator waits for the master pool', async () => {
    const small = await loadScenarioFile('test/fixtures/sim/two-node-pause-image.yaml');
    const e = exploreExhaustive(small, 'pre-fix-2021', 1, 400);
    expect(e.schedules + e.pruned).toBe(400);
    expect(e.complete).toBe(false);
    expect(e.violations).toBeGreaterThan(0);
    expect(e.violations).toBeLessThan(e.schedules);
    expect(e.maxCandidates).toBeGreaterThanOrEqual(2);
    // Time order is the first schedule the search runs, and it is the seed's own run.
    expect(e.firstViolatingSchedule?.every((c) => c === 0)).toBe(true);
    expect(runSimulation(small, 'pre-fix-2021', 1).facts.violation).toBe(true);
    // Replaying a schedule reproduces its outcome.
    expect(replaySchedule(small, 'pre-fix-2021', 1, e.firstSafeSchedule ?? [], false).facts.violation).toBe(
      false,
    );
    expect(
      replaySchedule(small, 'pre-fix-2021', 1, e.firstViolatingSchedule ?? [], false).facts.violation,
    ).toBe(true);
  });

  it('the fixed operator is safe in every explored interleaving', async () => {
    const small = await loadScenarioFile('test/fixtures/sim/two-node-pause-image.yaml');
    const e = exploreExhaustive(small, 'fixed', 1, 400);
    expect(e.schedules).toBeGreaterThan(100);
    expect(e.violations).toBe(0);
    expect(e.firstViolatingSchedule).toBeNull();
  });

  it('is deterministic: the same search finds the same schedules', async () => {
    const small = await loadScenarioFile('test/fixtures/sim/two-node-pause-image.yaml');
    const a = exploreExhaustive(small, 'pre-fix-2021', 2, 150);
    const b = exploreExhaustive(small, 'pre-fix-2021', 2, 150);
    expect(b).toEqual(a);
  });
});
