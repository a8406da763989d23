import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POLICY_NAMES, type PolicyName } from '../../src/sim/policy.js';
import { runSimulation } from '../../src/sim/run.js';
import { BUILTIN_SCENARIOS, builtinScenario, type Scenario } from '../../src/sim/scenario.js';

/** Property runs per check here; `atlevel simulate --runs 10000` does the full sweep. */
const RUNS = Number(process.env.ATLEVEL_SIM_PROPERTY_RUNS ?? 25);

function scenario(name: string): Scenario {
  const s = builtinScenario(name);
  if (!s) throw new Error(`no scenario ${name}`);
  return s;
}

const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });

describe('the seed bug: pause-image-only with the November 2021 operator', () => {
  const run = runSimulation(scenario('pause-image-only'), 'pre-fix-2021', 1);
  const f = run.facts;
  const master = f.targets.find((t) => t.pool === 'master');

  it('breaks the invariant and the upgrade test sees it', () => {
    expect(f.violation).toBe(true);
    expect(f.testDetectedAt).toBeDefined();
    expect(f.testFailure).toBe(
      'the "master" pool should be updated before the CVO reports available at the new version',
    );
  });

  it('machine-config reports level before the new rendered-master exists, and the CVO completes before the pool finishes', () => {
    expect(f.mcoLevelAt).toBeDefined();
    expect(master).toBeDefined();
    const level = f.mcoLevelAt as number;
    const target = master?.at as number;
    expect(target).toBeGreaterThan(level);
    // The render controller's 5 s delay is the window: the config appears within seconds, not minutes.
    expect(target - level).toBeLessThan(10_000);
    expect(f.cvoCompletedAt as number).toBeGreaterThan(level);
    expect(f.masterUpdatedAt as number).toBeGreaterThan(f.cvoCompletedAt as number);
    expect(
      f.rendered
        .filter((r) => r.created)
        .map((r) => r.pool)
        .sort(),
    ).toEqual(['master', 'worker']);
  });

  it('takes about as long as the CI run of the seed: the machine-config operator acts some 20–40 minutes in', () => {
    expect(f.controllerConfigWrittenAt as number).toBeGreaterThan(20 * 60_000);
    expect(f.controllerConfigWrittenAt as number).toBeLessThan(45 * 60_000);
  });
});

describe('policies across seeds (property tests)', () => {
  it('pause-image-only: pre-fix-2021 breaks the invariant for every seed', () => {
    fc.assert(
      fc.property(
        seeds,
        (seed) => runSimulation(scenario('pause-image-only'), 'pre-fix-2021', seed).facts.violation,
      ),
      { numRuns: RUNS },
    );
  });

  it('fixed never breaks the invariant, in any built-in scenario that changes the version', () => {
    // A same-version update (a rebuild, an architecture migration) is the exception: every
    // ClusterOperator already names the version, so the CVO counts machine-config done once its new
    // pod reports, before any pool rolls (docs/simulate.md). No policy of the operator changes that.
    for (const name of BUILTIN_SCENARIOS) {
      if (scenario(name).from.version === scenario(name).to.version) continue;
      fc.assert(
        fc.property(seeds, (seed) => {
          const f = runSimulation(scenario(name), 'fixed', seed).facts;
          return !f.violation && f.testDetectedAt === undefined;
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('a same-version update breaks the invariant under every policy: the CVO does not wait for the pools', () => {
    for (const name of ['same-version-rebuild', 'multi-arch-migration']) {
      for (const policy of POLICY_NAMES) {
        fc.assert(
          fc.property(seeds, (seed) => runSimulation(scenario(name), policy, seed).facts.violation),
          { numRuns: 3 },
        );
      }
    }
  });

  it('os-only: naive breaks the invariant (the pre-2021 bug class) while pre-fix-2021 does not', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const naive = runSimulation(scenario('os-only'), 'naive', seed).facts;
        const preFix = runSimulation(scenario('os-only'), 'pre-fix-2021', seed).facts;
        return naive.violation && !preFix.violation;
      }),
      { numRuns: RUNS },
    );
  });

  it('the same seed gives the same run, event for event', () => {
    fc.assert(
      fc.property(
        seeds,
        fc.constantFrom(...BUILTIN_SCENARIOS),
        fc.constantFrom(...POLICY_NAMES),
        (seed, name, policy: PolicyName) => {
          const a = runSimulation(scenario(name), policy, seed);
          const b = runSimulation(scenario(name), policy, seed);
          expect(b.events).toBe(a.events);
          expect(b.endAt).toBe(a.endAt);
          expect(b.facts).toEqual(a.facts);
        },
      ),
      { numRuns: Math.max(5, Math.floor(RUNS / 2)) },
    );
  });
});

describe('the other built-in scenarios', () => {
  it('no-config-change: rendered names stay; the fixed operator re-stamps them in place and no node reboots', () => {
    const run = runSimulation(scenario('no-config-change'), 'fixed', 3);
    const f = run.facts;
    expect(f.targets).toEqual([]);
    expect(f.rendered.length).toBeGreaterThanOrEqual(2);
    expect(f.rendered.every((r) => !r.created)).toBe(true);
    expect(f.mcoLevelAt).toBeDefined();
    expect(f.violation).toBe(false);
    for (const n of run.store.list('Node')) expect(n.currentConfig).toBe(n.desiredConfig);
    const master = run.store.get('MachineConfigPool', 'master');
    const cfg = run.store.get('MachineConfig', master?.status.configuration.name ?? '');
    expect(cfg?.meta.annotations['machineconfiguration.openshift.io/release-image-version']).toBe(
      run.to.version,
    );
  });

  it('mco-only: every rendered config moves to the new controller version', () => {
    const run = runSimulation(scenario('mco-only'), 'pre-fix-2021', 4);
    expect(run.to.mcoCommit).not.toBe(run.from.mcoCommit);
    const master = run.store.get('MachineConfigPool', 'master');
    const cfg = run.store.get('MachineConfig', master?.status.configuration.name ?? '');
    expect(cfg?.meta.annotations['machineconfiguration.openshift.io/generated-by-controller-version']).toBe(
      run.to.mcoCommit,
    );
    expect(run.facts.violation).toBe(false);
  });

  it('paused-worker-pool: workers keep the old config, the test treats the pool as up to date', () => {
    const run = runSimulation(scenario('paused-worker-pool'), 'fixed', 5);
    const worker = run.store.get('MachineConfigPool', 'worker');
    expect(worker?.paused).toBe(true);
    expect(worker?.spec.name).not.toBe(worker?.status.configuration.name);
    expect(worker?.status.conditions.find((c) => c.type === 'Updating')?.message).toMatch(
      /^Pool is paused; will not update to rendered-worker-/,
    );
    expect(run.facts.poolsCompletedAt).toBeDefined();
    expect(run.facts.testFailure).toBeUndefined();
    for (const n of run.store.list('Node')) {
      if (n.roles.includes('worker')) expect(n.currentConfig).toBe(worker?.status.configuration.name);
    }
  });

  it('degraded-node: the worker pool degrades, machine-config never reports level, the CVO never completes', () => {
    const run = runSimulation(scenario('degraded-node'), 'pre-fix-2021', 6);
    const f = run.facts;
    expect(f.mcoLevelAt).toBeUndefined();
    expect(f.cvoCompletedAt).toBeUndefined();
    expect(f.mcoDegraded.length).toBeGreaterThan(0);
    expect(f.mcoDegraded[0]?.message).toMatch(
      /^Unable to apply .*: timed out waiting for the condition during syncRequiredMachineConfigPools: error pool worker is not ready, retrying\. Status: \(pool degraded: true/,
    );
    expect(f.testFailure).toMatch(/^Cluster did not complete upgrade: timed out waiting for the condition: /);
    const worker = run.store.get('MachineConfigPool', 'worker');
    expect(worker?.status.degradedMachineCount).toBe(1);
    const co = run.store.get('ClusterOperator', 'machine-config');
    expect(co?.conditions.find((c) => c.type === 'Degraded')).toMatchObject({
      status: 'True',
      reason: 'RequiredPoolsFailed',
    });
    const cv = run.store.get('ClusterVersion', 'version');
    expect(cv?.conditions.find((c) => c.type === 'Failing')).toMatchObject({
      status: 'True',
      reason: 'ClusterOperatorDegraded',
    });
  });
});
