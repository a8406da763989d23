/**
 * A ClusterOperator other than machine-config: when the CVO rolls its Deployment it restarts, says
 * Progressing=True (most do), works for a while drawn from its own distribution, then reports the
 * new `operator` version and settles. Enough for the CVO's level checks and the monitor's lines.
 *
 * An operator the scenario models with an operand (operands.ts) applies the operand's template with
 * the release's image instead, and reports its version when the policy says (policy.ts
 * `operandLevel`): at once (`naive`), or once its watch shows the operand rolled out.
 */
import type { Actor } from '../engine.js';
import type { Model } from '../model.js';
import type { ClusterOperatorObj } from '../objects.js';
import { nextMeta, setCond } from '../objects.js';
import type { OperatorSpec } from '../operators.js';
import { imageOf, type RolloutController, rollOperatorDeployment, type Workloads } from '../workloads.js';

export class GenericOperator {
  readonly actor: Actor;
  private readonly operand: RolloutController | undefined;
  /** The version waiting for the operand's rollout (undefined when not waiting). */
  private waiting: string | undefined;
  /** The version reported while the operand still rolled out (`naive`): Progressing settles later. */
  private unsettled: string | undefined;

  constructor(
    private readonly model: Model,
    readonly spec: OperatorSpec,
    private readonly workloads?: Workloads,
  ) {
    this.actor = model.engine.actor(`operator/${spec.name}`);
    this.operand = workloads?.operands.get(spec.name);
    this.operand?.watch(() => this.onRolledOut());
  }

  /** The CVO applied this operator's manifests for `version`. */
  deploy(version: string): void {
    const { engine, lat } = this.model;
    const delay = engine.rng.sample(lat.operatorRollout);
    const own = this.workloads?.operatorDeployments.get(this.spec.name);
    if (own)
      rollOperatorDeployment(this.model, own, imageOf(this.model.to, own.spec.component), engine.now + delay);
    engine.schedule(delay, this.actor, 'rollout', () => this.begin(version));
  }

  private begin(version: string): void {
    const { engine, lat } = this.model;
    if (this.spec.progressing) {
      this.write((co) => ({
        ...co,
        meta: nextMeta(co.meta),
        conditions: setCond(
          co.conditions,
          'Progressing',
          'True',
          '',
          `Working towards ${version}`,
          engine.now,
        ),
      }));
    }
    const operand = this.operand;
    // An operand whose image this update does not change has nothing to roll out: the operator
    // updates as a generic one does (and draws the same latencies, so such runs keep their timings).
    if (!operand || operand.workload.image === imageOf(this.model.to, operand.workload.spec.component)) {
      engine.schedule(engine.rng.sample(this.spec.update), this.actor, 'updated', () => this.finish(version));
      return;
    }
    engine.schedule(engine.rng.sample(lat.operatorStep), this.actor, 'apply operand', () => {
      operand.apply(imageOf(this.model.to, operand.workload.spec.component));
      const done = operand.workload.rolledOutAt !== undefined;
      if (done) this.finish(version);
      else if (this.model.policy.operandLevel === 'manifests-applied') this.report(version);
      else this.waiting = version;
    });
  }

  /** The operand's rollout finished, as the operator's watch delivered it: its status sync follows. */
  private onRolledOut(): void {
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.operandStatusSync), this.actor, 'operand status', () =>
      this.operandDone(),
    );
  }

  private operandDone(): void {
    if (this.waiting !== undefined) {
      const version = this.waiting;
      this.waiting = undefined;
      this.finish(version);
    } else if (this.unsettled !== undefined) {
      this.unsettled = undefined;
      this.write((co) => ({
        ...co,
        meta: nextMeta(co.meta),
        conditions: setCond(
          co.conditions,
          'Progressing',
          'False',
          'AsExpected',
          this.spec.settled,
          this.model.engine.now,
        ),
      }));
    }
  }

  /** `naive`: the new version while the operand still rolls out (Progressing stays as it is). */
  private report(version: string): void {
    this.unsettled = version;
    this.write((co) => ({
      ...co,
      meta: nextMeta(co.meta),
      versions: co.versions.map((v) => (v.name === 'operator' ? { name: 'operator', version } : v)),
    }));
  }

  private finish(version: string): void {
    const now = this.model.engine.now;
    this.write((co) => ({
      ...co,
      meta: nextMeta(co.meta),
      versions: co.versions.map((v) => (v.name === 'operator' ? { name: 'operator', version } : v)),
      conditions: setCond(co.conditions, 'Progressing', 'False', 'AsExpected', this.spec.settled, now),
    }));
  }

  private write(change: (co: ClusterOperatorObj) => ClusterOperatorObj): void {
    const store = this.model.store;
    const co = store.get('ClusterOperator', this.spec.name);
    if (co) store.write(change(co));
  }
}
