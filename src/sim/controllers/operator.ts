/**
 * A ClusterOperator other than machine-config: when the CVO rolls its Deployment it restarts, says
 * Progressing=True (most do), works for a while drawn from its own distribution, then reports the
 * new `operator` version and settles. Enough for the CVO's level checks and the monitor's lines.
 */
import type { Actor } from '../engine.js';
import type { Model } from '../model.js';
import type { ClusterOperatorObj } from '../objects.js';
import { nextMeta, setCond } from '../objects.js';
import type { OperatorSpec } from '../operators.js';

export class GenericOperator {
  readonly actor: Actor;

  constructor(
    private readonly model: Model,
    readonly spec: OperatorSpec,
  ) {
    this.actor = model.engine.actor(`operator/${spec.name}`);
  }

  /** The CVO applied this operator's manifests for `version`. */
  deploy(version: string): void {
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.operatorRollout), this.actor, 'rollout', () => this.begin(version));
  }

  private begin(version: string): void {
    const { engine } = this.model;
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
    engine.schedule(engine.rng.sample(this.spec.update), this.actor, 'updated', () => this.finish(version));
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
