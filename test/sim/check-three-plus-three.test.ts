/**
 * issue 40 item 4: `simulate --exhaustive` on examples/scenarios/three-plus-three.yaml (3 masters + 3
 * workers; the pause image and the dns DaemonSet's coredns image change). fixed: every reachable state
 * visited, none breaks an invariant; naive: the first violating schedule, which --schedule replays.
 * Tens of thousands of states: an end-to-end suite (vitest.suites.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkModel, replayNamedSchedule } from '../../src/sim/check.js';
import { loadScenarioFile } from '../../src/sim/scenario-file.js';

const FILE = 'examples/scenarios/three-plus-three.yaml';

describe('three-plus-three', () => {
  it('fixed: complete, 0 violations', async () => {
    const scenario = await loadScenarioFile(FILE);
    expect(scenario.operands?.map((o) => `${o.kind}/${o.name}`)).toEqual(['DaemonSet/dns-default']);
    const r = checkModel(scenario, 'fixed', { budget: 2_000_000 });
    expect(r.complete).toBe(true);
    expect(r.stoppedBy).toBeNull();
    expect(r.violatingStates).toEqual({});
    expect(r.firstViolatingSchedule).toBeNull();
    // Both pools and the DaemonSet roll: far more than one path, one end (everything updated).
    expect(r.states).toBeGreaterThan(10_000);
    expect(r.terminalStates).toBe(1);
    expect(r.incompleteTerminalStates).toBe(0);
  });

  it("pre-fix-2021: the dns operator waits for its DaemonSet, the machine-config operator's race remains", async () => {
    const scenario = await loadScenarioFile(FILE);
    const r = checkModel(scenario, 'pre-fix-2021', { budget: 2_000_000 });
    expect(r.firstViolation).toEqual(['mco-race']);
    const schedule = r.firstViolatingSchedule ?? [];
    expect(schedule.indexOf('dns/report-level')).toBeGreaterThan(
      schedule.lastIndexOf('daemonset/dns-default/sync'),
    );
    expect(replayNamedSchedule(scenario, 'pre-fix-2021', schedule).violations).toEqual(['mco-race']);
  });

  it('naive: the first violating schedule replays to the same violation', async () => {
    const scenario = await loadScenarioFile(FILE);
    const r = checkModel(scenario, 'naive', { budget: 2_000_000 });
    expect(r.stoppedBy).toBe('first-violation');
    const schedule = r.firstViolatingSchedule ?? [];
    expect(schedule.length).toBeGreaterThan(0);
    const replay = replayNamedSchedule(scenario, 'naive', schedule);
    expect(replay.violations).toEqual(r.firstViolation);
    expect(replay.violations).toContain('operator-level-before-operands');
    // Run on from there, the naive operator also lets the CVO complete before the master pool rolls.
    expect(replay.laterViolations).toEqual(['mco-race']);
  });
});
