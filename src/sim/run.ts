/**
 * One simulated upgrade: build the releases and the installed cluster, start every actor, let the
 * upgrade test drive the update, and return the facts (and, when recording, everything needed to
 * write the CI artifacts). Same scenario, policy and seed: same run, event for event.
 */

import { Administrator } from './admin.js';
import { type NodePlan, planNodes, seedCluster } from './cluster.js';
import { ClusterVersionOperator, type Deployable } from './controllers/cvo.js';
import { Daemon } from './controllers/daemon.js';
import { CO_NAME, MachineConfigOperator, type MachineConfigOperator as MCOType } from './controllers/mco.js';
import { NodeController } from './controllers/node-controller.js';
import { GenericOperator } from './controllers/operator.js';
import { RenderController } from './controllers/render.js';
import { TemplateController } from './controllers/template.js';
import { Engine, type Picker } from './engine.js';
import { type Model, NO_RACE, newFacts, type RaceHooks, type RunFacts } from './model.js';
import type { ClusterOperatorObj } from './objects.js';
import { UpgradeTest } from './observer.js';
import { OPERATORS } from './operators.js';
import { POLICIES, type PolicyName } from './policy.js';
import { Recorder } from './recorder.js';
import { buildRelease, type Release, type ReleaseSpec } from './release.js';
import { uniform } from './rng.js';
import type { Scenario } from './scenario.js';
import { Store } from './store.js';
import { Workloads } from './workloads.js';

/** A run stops at the latest this long after it started (virtual time). */
const RUN_LIMIT_MS = 4 * 60 * 60_000;
/** Time kept after the cluster settles, before the end-of-run gather. */
const TAIL_MS = 60_000;
/** After the upgrade test finishes, wait at most this long for the pools to settle (CI gathers late). */
const SETTLE_MS = 60 * 60_000;

export interface RunOptions {
  /** Keep what CI would capture (monitor lines, test log, events) for writing artifacts. */
  readonly record?: boolean;
  /** Exhaustive exploration's hooks. */
  readonly race?: RaceHooks;
  readonly picker?: Picker;
}

export interface RunResult {
  readonly scenario: Scenario;
  readonly policy: PolicyName;
  readonly seed: number;
  readonly from: Release;
  readonly to: Release;
  readonly facts: RunFacts;
  readonly store: Store;
  readonly rec: Recorder | undefined;
  readonly nodes: readonly NodePlan[];
  /** Every operator's Deployment and the scenario's operands, with their pods (the workload artifacts). */
  readonly workloads: Workloads;
  readonly endAt: number;
  /** Events the engine fired (a measure of the work done). */
  readonly events: number;
}

const releaseMemo = new WeakMap<ReleaseSpec, Release>();
const nodeMemo = new WeakMap<Scenario, NodePlan[]>();

function release(spec: ReleaseSpec): Release {
  let r = releaseMemo.get(spec);
  if (!r) {
    r = buildRelease(spec);
    releaseMemo.set(spec, r);
  }
  return r;
}

function poolsSettled(store: Store): boolean {
  for (const p of store.list('MachineConfigPool')) {
    if (p.paused) continue;
    const c = p.status.conditions;
    const is = (type: string) => c.some((x) => x.type === type && x.status === 'True');
    if (is('Degraded')) continue;
    if (!is('Updated') || is('Updating') || p.spec.name !== p.status.configuration.name) return false;
  }
  return true;
}

export function runSimulation(
  scenario: Scenario,
  policy: PolicyName,
  seed: number,
  options: RunOptions = {},
): RunResult {
  const engine = new Engine(seed);
  const store = new Store(engine);
  const rec = options.record ? new Recorder() : undefined;
  const from = release(scenario.from);
  const to = release(scenario.to);
  const model: Model = {
    engine,
    store,
    lat: scenario.latencies,
    scenario,
    policy: POLICIES[policy],
    from,
    to,
    facts: newFacts(),
    rec,
    race: options.race ?? NO_RACE,
    onCvoCompleted: [],
  };
  let nodes = nodeMemo.get(scenario);
  if (!nodes) {
    nodes = planNodes(scenario.pools);
    nodeMemo.set(scenario, nodes);
  }
  const workloads = new Workloads(model);
  workloads.seed(nodes);
  seedCluster(model, nodes, (op) => workloads.relatedNamespaces(op));
  // Every ClusterOperator write is checked against its workloads (the operand invariant's ground
  // truth); the recorder, when artifacts are written, sees every write.
  store.onWrite = rec
    ? (prev, next, at) => {
        if (next.kind === 'ClusterOperator')
          workloads.onClusterOperator(prev as ClusterOperatorObj, next, at);
        rec.onWrite(prev, next, at);
      }
    : (prev, next, at) => {
        if (next.kind === 'ClusterOperator')
          workloads.onClusterOperator(prev as ClusterOperatorObj, next, at);
      };

  const mcc = {
    template: new TemplateController(model, from),
    render: new RenderController(model, from),
    node: new NodeController(model),
  };
  const mco: MCOType = new MachineConfigOperator(model, mcc);
  const operators = new Map<string, Deployable>();
  for (const spec of OPERATORS) operators.set(spec.name, new GenericOperator(model, spec, workloads));
  operators.set(CO_NAME, mco);
  new ClusterVersionOperator(model, operators);
  for (const plan of nodes) {
    const failure = scenario.failures.find((f) => f.pool === plan.pool && f.index === plan.index);
    new Daemon(model, plan.name, failure);
  }
  const admin = new Administrator(model);
  // The gather happens at the end of the CI job, well after the upgrade test: let every pool
  // finish (or get stuck) first, and the administrator's later changes happen and roll out, so the
  // snapshot is what CI would have captured.
  /** The gather, once the (last) upgrade test finished. */
  const finish = (): void => {
    let finishedAt = engine.now;
    let waitedForAdmin = admin.done;
    const settle = (): void => {
      if (!waitedForAdmin && admin.done) {
        waitedForAdmin = true;
        finishedAt = engine.now;
      }
      if (!admin.done && engine.now - finishedAt < RUN_LIMIT_MS) {
        engine.schedule(30_000, test.actor, 'wait for the administrator', settle);
      } else if (poolsSettled(store) || engine.now - finishedAt >= SETTLE_MS) {
        engine.schedule(TAIL_MS, test.actor, 'end of run', () => engine.stop());
      } else {
        engine.schedule(30_000, test.actor, 'wait for pools to settle', settle);
      }
    };
    settle();
  };
  const second = scenario.secondUpdate;
  const test: UpgradeTest = new UpgradeTest(model, () => {
    if (!second || model.facts.testFailure !== undefined) {
      finish();
      return;
    }
    // Two updates in one run: once the first completed and its pools settled, the next CI step
    // updates again, from the first target to the second.
    if (model.facts.cvoCompletedAt !== undefined) model.facts.firstCompletedAt = model.facts.cvoCompletedAt;
    const waitForPools = (): void => {
      if (!poolsSettled(store)) {
        engine.schedule(30_000, test.actor, 'wait for pools before the next update', waitForPools);
        return;
      }
      model.from = model.to;
      model.to = release(second);
      const next = new UpgradeTest(model, finish, 'openshift-tests-2');
      next.start(engine.rng.sample(uniform(60_000, 180_000)), () => {
        // From here the summary's moments are the second update's; the ground truth (`violation`)
        // spans both.
        const f = model.facts;
        f.secondRequestedAt = engine.now;
        f.rendered.length = 0;
        f.targets.length = 0;
        delete f.mcoLevelAt;
        delete f.controllerConfigWrittenAt;
        delete f.masterUpdatedAt;
        delete f.poolsCompletedAt;
      });
    };
    waitForPools();
  });
  test.start(engine.rng.sample(uniform(3000, 9000)), () => admin.updateRequested());

  engine.picker = options.picker;
  engine.run(RUN_LIMIT_MS);
  model.facts.endedAt = engine.now;
  return {
    scenario,
    policy,
    seed,
    // the update the run ended with (the second, in a run of two)
    from: model.from,
    to: model.to,
    facts: model.facts,
    store,
    rec,
    nodes,
    workloads,
    endAt: engine.now,
    events: engine.fired,
  };
}
