/**
 * `npm run bench -- sim`: how fast the model runs. Simulated upgrades per second of the 6-node
 * pause-image-only scenario with no artifact writing (goal: 10,000 runs in under a minute on one
 * core, i.e. at least 167 runs/s), for each policy; one run with artifact writing; and a complete
 * exhaustive exploration of the two-node race (--exhaustive --race-window); the model checker
 * (--exhaustive) on examples/scenarios/three-plus-three.yaml. Figures only: nothing here fails.
 * Wall-clock rates suffer when the machine is busy; the CPU-time rate is the model's own speed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderArtifacts } from '../src/sim/artifacts/write.js';
import { checkModel } from '../src/sim/check.js';
import { exploreExhaustive } from '../src/sim/explore.js';
import { POLICY_NAMES } from '../src/sim/policy.js';
import { runSimulation } from '../src/sim/run.js';
import { builtinScenario } from '../src/sim/scenario.js';
import { loadScenarioFile } from '../src/sim/scenario-file.js';
import { writeRunFolder } from '../src/writer/index.js';

const RUNS = Number(process.env.ATLEVEL_SIM_BENCH_RUNS ?? 3000);
const scenario = builtinScenario('pause-image-only');
if (!scenario) throw new Error('missing scenario');

function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

const nodes = scenario.pools.reduce((n, p) => n + p.nodes, 0);
process.stdout.write(`scenario pause-image-only, ${nodes} nodes, ${RUNS} runs per policy, no artifacts\n`);
// Warm-up: let the JIT see every policy before anything is timed.
for (const policy of POLICY_NAMES) {
  for (let seed = 1; seed <= 200; seed++) runSimulation(scenario, policy, seed);
}

for (const policy of POLICY_NAMES) {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  let events = 0;
  let violations = 0;
  for (let seed = 1; seed <= RUNS; seed++) {
    const r = runSimulation(scenario, policy, seed);
    events += r.events;
    if (r.facts.violation) violations++;
  }
  const wall = performance.now() - wall0;
  const cpu = cpuMs(cpu0);
  const perSecWall = (RUNS * 1000) / wall;
  const perSecCpu = (RUNS * 1000) / cpu;
  process.stdout.write(
    `  ${policy.padEnd(13)} ${perSecWall.toFixed(0).padStart(5)} runs/s wall, ${perSecCpu.toFixed(0).padStart(5)} runs/s CPU` +
      ` | ${(events / RUNS).toFixed(0)} events/run, ${((cpu * 1000) / events).toFixed(2)} µs/event` +
      ` | 10,000 runs ≈ ${(10_000 / perSecCpu).toFixed(1)} s CPU | ${violations}/${RUNS} violated\n`,
  );
}

const root = await mkdtemp(join(tmpdir(), 'atlevel-sim-bench-'));
try {
  const t0 = performance.now();
  const run = runSimulation(scenario, 'pre-fix-2021', 1, { record: true });
  const t1 = performance.now();
  const files = renderArtifacts(run);
  const t2 = performance.now();
  await writeRunFolder(join(root, 'run'), files);
  const t3 = performance.now();
  const bytes = [...files.values()].reduce((n, s) => n + Buffer.byteLength(s), 0);
  process.stdout.write(
    `one run with artifacts: simulate+record ${(t1 - t0).toFixed(1)} ms, render ${(t2 - t1).toFixed(1)} ms, write ${(t3 - t2).toFixed(1)} ms` +
      ` (${files.size} files, ${(bytes / 1024).toFixed(0)} KiB)\n`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}

const small = await loadScenarioFile(
  new URL('../test/fixtures/sim/two-node-pause-image.yaml', import.meta.url).pathname,
);
for (const policy of ['pre-fix-2021', 'fixed'] as const) {
  const t0 = performance.now();
  const e = exploreExhaustive(small, policy, 1, 50_000);
  const s = (performance.now() - t0) / 1000;
  process.stdout.write(
    `exhaustive, two-node race, ${policy.padEnd(12)}: ${e.schedules} interleavings (${e.complete ? 'complete' : 'incomplete'}, ${e.pruned} pruned),` +
      ` ${e.violations} violated, ${s.toFixed(1)} s (${((e.schedules + e.pruned) / s).toFixed(0)} runs/s)\n`,
  );
}

// The model checker (--exhaustive) on the issue-40 scenario: every reachable state, wall and CPU time.
const threePlusThree = await loadScenarioFile(
  new URL('../examples/scenarios/three-plus-three.yaml', import.meta.url).pathname,
);
for (const policy of ['fixed', 'naive'] as const) {
  const cpu0 = process.cpuUsage();
  const k = checkModel(threePlusThree, policy, { budget: 5_000_000, keepGoing: true });
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  process.stdout.write(
    `model check, three-plus-three, ${policy.padEnd(6)}: ${k.states} states, ${k.transitions} transitions, ${k.terminalStates} terminal (${k.complete ? 'complete' : 'incomplete'}),` +
      ` violating states ${JSON.stringify(k.violatingStates)}, ${(k.elapsedMs / 1000).toFixed(1)} s wall, ${cpuS.toFixed(1)} s CPU (${(k.states / cpuS).toFixed(0)} states/s CPU)\n`,
  );
}
