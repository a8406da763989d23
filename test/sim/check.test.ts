/**
 * The model checker of `simulate --exhaustive` (src/sim/check.ts, check-model.ts): state counts known
 * by hand, deduplication, the first violating schedule and its replay, and the CLI around them.
 */
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { checkModel, replayNamedSchedule } from '../../src/sim/check.js';
import { builtinScenario } from '../../src/sim/scenario.js';
import { loadScenarioFile } from '../../src/sim/scenario-file.js';
import { capturedStdio } from '../helpers/stdio.js';

const ONE_MASTER = 'test/fixtures/sim/one-master-no-config-change.yaml';
const TWO_NODE = 'test/fixtures/sim/two-node-pause-image.yaml';
const ALL = { budget: 10_000_000, keepGoing: true };

describe('the state space of the smallest scenario, counted by hand', () => {
  // One master, no workers, nothing a rendered config embeds changes. The CVO applies level 80 (s1),
  // the operator writes the ControllerConfig (s2), the template controller completes it (s3). From s3
  // on, the render controller re-stamps master's config (M) and worker's (W), independently; the
  // operator's RequiredPools passes (R), then the CVO sees it (Wa), finishes level 80 (L) and completes
  // (C), in that order. Under fixed, R needs M (the re-stamped release version): the states from s3 are
  // {M, W} ⊆ done without R (4), and W ∈ {0, 1} × the chain's last step R, Wa, L or C (8): 3 + 12 = 15.
  // Under naive and pre-fix-2021 the old config passes, R does not wait for M: 3 + 4 × 5 = 23.
  it('fixed: 15 states, 19 transitions, one terminal state', async () => {
    const r = checkModel(await loadScenarioFile(ONE_MASTER), 'fixed', ALL);
    expect(r).toMatchObject({
      states: 15,
      transitions: 19,
      terminalStates: 1,
      complete: true,
      stoppedBy: null,
    });
    expect(r.violatingStates).toEqual({});
    expect(r.incompleteTerminalStates).toBe(0);
  });

  it('naive and pre-fix-2021: 23 states', async () => {
    const scenario = await loadScenarioFile(ONE_MASTER);
    for (const policy of ['naive', 'pre-fix-2021'] as const) {
      const r = checkModel(scenario, policy, ALL);
      expect(r).toMatchObject({ states: 23, terminalStates: 1, complete: true });
      expect(r.violatingStates).toEqual({});
    }
  });

  it('dedupe dedupes: without it the search is a tree of every path (30 nodes, 6 ends under fixed)', async () => {
    const scenario = await loadScenarioFile(ONE_MASTER);
    const tree = checkModel(scenario, 'fixed', { ...ALL, dedupe: false });
    // The 6 paths: W anywhere among the chain M R Wa L C (6 places); their prefixes from s3 number
    // (2 + 3 + 4 + 5 + 6) + 6 = 26, plus s0, s1, s2 and s3.
    expect(tree).toMatchObject({ states: 30, terminalStates: 6, complete: true });
    const graph = checkModel(scenario, 'fixed', ALL);
    expect(graph.states).toBe(15);
  });

  it('dedupe on the two-node race: the same verdicts, far fewer states', async () => {
    const scenario = await loadScenarioFile(TWO_NODE);
    const graph = checkModel(scenario, 'fixed', ALL);
    expect(graph).toMatchObject({ states: 947, terminalStates: 1, complete: true });
    const tree = checkModel(scenario, 'fixed', { ...ALL, dedupe: false, budget: 20_000 });
    // Every interleaving as its own path: the budget runs out long before the tree's end.
    expect(tree.states).toBe(20_000);
    expect(tree.complete).toBe(false);
    expect(tree.stoppedBy).toBe('budget');
    expect(tree.violatingStates).toEqual({});
  });
});

describe('violations', () => {
  it('pre-fix-2021 on the two-node race: the MCO race, in some states only, and its schedule replays', async () => {
    const scenario = await loadScenarioFile(TWO_NODE);
    const r = checkModel(scenario, 'pre-fix-2021', ALL);
    expect(r).toMatchObject({ states: 1493, terminalStates: 2, violatingTerminalStates: 1, complete: true });
    expect(r.violatingStates['mco-race']).toBeGreaterThan(0);
    expect(r.firstViolation).toEqual(['mco-race']);
    const schedule = r.firstViolatingSchedule ?? [];
    // The operator reports level before the render controller made the new master config.
    const level = schedule.indexOf('machine-config-operator/required-pools-level');
    const render = schedule.indexOf('render-controller/master');
    expect(level).toBeGreaterThanOrEqual(0);
    expect(render).toBeGreaterThan(level);
    const replay = replayNamedSchedule(scenario, 'pre-fix-2021', schedule);
    expect(replay.violations).toEqual(['mco-race']);
    expect(replay.completed).toBe(true);
    // The same schedule is not even possible for the fixed operator: it cannot report there.
    expect(() => replayNamedSchedule(scenario, 'fixed', schedule)).toThrow(/is not enabled there/);
  });

  it('stops at the first violation unless asked to go on', async () => {
    const scenario = await loadScenarioFile(TWO_NODE);
    const first = checkModel(scenario, 'naive', { budget: 1_000_000 });
    expect(first).toMatchObject({ complete: false, stoppedBy: 'first-violation' });
    expect(first.states).toBeLessThan(1493);
    const all = checkModel(scenario, 'naive', ALL);
    expect(all.firstViolatingSchedule).toEqual(first.firstViolatingSchedule);
  });

  it('a same-version update races under every policy, as in the timed model (the CVO counts the first status write)', () => {
    const scenario = builtinScenario('same-version-rebuild');
    if (!scenario) throw new Error('missing scenario');
    const r = checkModel(scenario, 'fixed', { budget: 1_000_000 });
    expect(r.firstViolation).toEqual(['mco-race']);
    expect(replayNamedSchedule(scenario, 'fixed', r.firstViolatingSchedule ?? []).violations).toEqual([
      'mco-race',
    ]);
  });

  it('the operand invariant: a naive operator reports level as soon as its DaemonSet is applied', () => {
    const scenario = builtinScenario('daemonset-operand-only');
    if (!scenario) throw new Error('missing scenario');
    const naive = checkModel(scenario, 'naive', { budget: 1_000_000 });
    expect(naive.firstViolation).toEqual(['operator-level-before-operands']);
    expect(naive.firstViolatingSchedule?.at(-1)).toBe('dns/report-level');
    const replay = replayNamedSchedule(scenario, 'naive', naive.firstViolatingSchedule ?? []);
    expect(replay.violations).toEqual(['operator-level-before-operands']);
  });
});

describe('simulate --exhaustive and --schedule', () => {
  const io = capturedStdio();

  it('naive prints the first violating schedule, and --schedule replays it (exit 1, the violation named)', async () => {
    io.capture();
    const code = await main([
      'simulate',
      '--scenario',
      TWO_NODE,
      '--policy',
      'naive',
      '--exhaustive',
      '-o',
      'json',
    ]);
    vi.restoreAllMocks();
    expect(code).toBe(1);
    const j = JSON.parse(io.out);
    expect(j).toMatchObject({ mode: 'model-check', complete: false, stoppedBy: 'first-violation' });
    expect(j.firstViolation).toEqual(['mco-race']);
    expect(j.reproduce).toContain(`--schedule ${j.firstViolatingSchedule}`);
    io.capture();
    const replayed = await main([
      'simulate',
      '--scenario',
      TWO_NODE,
      '--policy',
      'naive',
      '--schedule',
      j.firstViolatingSchedule,
    ]);
    vi.restoreAllMocks();
    expect(replayed).toBe(1);
    expect(io.out).toContain('VIOLATION  the schedule breaks mco-race');
  });

  it('fixed: complete, no violation, exit 0', async () => {
    io.capture();
    const code = await main(['simulate', '--scenario', TWO_NODE, '--policy', 'fixed', '--exhaustive']);
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(io.out).toContain('947 states visited (complete)');
    expect(io.out).toContain('OK  no reachable state breaks the invariants');
    expect(io.err).toBe('');
  });

  // --budget counted the race window's interleavings before --exhaustive became the model checker: a
  // user of that spelling is told, on stderr, what it counts now and how to get the old enumeration.
  it('--exhaustive --budget says it now counts states, and how to get the race window', async () => {
    io.capture();
    const argv = ['simulate', '--scenario', TWO_NODE, '--policy', 'fixed', '--exhaustive', '-o', 'json'];
    const code = await main([...argv, '--budget', '100']);
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ mode: 'model-check', states: 100, stoppedBy: 'budget' });
    expect(io.err).toBe(
      "atlevel: note: --budget with --exhaustive now counts the model checker's states (at most 100 here); it used to count the race window's interleavings, which --exhaustive --race-window --budget 100 still runs\n",
    );
    io.capture();
    expect(await main([...argv, '--race-window', '--budget', '5'])).toBe(0);
    vi.restoreAllMocks();
    expect(JSON.parse(io.out)).toMatchObject({ mode: 'exhaustive' });
    expect(io.err).toBe('');
  });

  it.each([
    [['--schedule', 'cvo/apply-70,no-such/step'], /step 2 \(no-such\/step\) is not enabled there; enabled: /],
    [
      ['--schedule', 'cvo/apply-80,0'],
      /--schedule wants comma-separated step names .* or comma-separated whole numbers/,
    ],
    [['--exhaustive', '--artifacts', 'x'], /--artifacts writes a run of the timed model/],
    [['--keep-going'], /--keep-going needs --exhaustive/],
    [['--race-window'], /--race-window needs --exhaustive/],
  ])('bad input %j exits 2 with one line', async (argv, message) => {
    io.capture();
    const code = await main(['simulate', '--scenario', TWO_NODE, ...argv]);
    vi.restoreAllMocks();
    expect(code).toBe(2);
    expect(io.err).toMatch(message);
    expect(io.err.trim().split('\n').length).toBe(1);
  });

  it('a --race-window schedule (numbers, the format before the model checker) still replays in the timed model', async () => {
    io.capture();
    const code = await main(['simulate', '--scenario', TWO_NODE, '--schedule', '0', '-o', 'json']);
    vi.restoreAllMocks();
    expect(code).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ mode: 'run', violations: 1, schedule: [] });
  });
});
