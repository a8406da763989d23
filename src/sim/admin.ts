/**
 * The cluster's administrator: the scenario's actions (scenario.ts UserAction), applied through the
 * API like `oc apply` and `oc patch` would, at their moment. A MachineConfig it creates is a user one
 * (no owner, no controller-version annotation); the render controller sees it like any other. Actions
 * after the CVO completed are day-2 changes: the first one marks `facts.day2At`.
 */
import { userMachineConfig } from './cluster.js';
import type { Actor } from './engine.js';
import type { Model } from './model.js';
import type { PoolObj } from './objects.js';
import { nextMeta } from './objects.js';
import type { UserAction } from './scenario.js';

export class Administrator {
  readonly actor: Actor;
  private pending: number;

  constructor(private readonly model: Model) {
    this.actor = model.engine.actor('administrator');
    const actions = model.scenario.actions ?? [];
    this.pending = actions.length;
    for (const action of actions) {
      if (action.after === 'cvo-completed') {
        model.onCvoCompleted.push(() => this.schedule(action));
      }
    }
  }

  /** The update was requested: start the clocks of the actions that count from it. */
  updateRequested(): void {
    for (const action of this.model.scenario.actions ?? []) {
      if (action.after === 'update-requested') this.schedule(action);
    }
  }

  /** Every action has been applied (the run waits for them before its end-of-run gather). */
  get done(): boolean {
    return this.pending === 0;
  }

  private schedule(action: UserAction): void {
    this.model.engine.schedule(action.delayMs, this.actor, `administrator: ${action.kind}`, () =>
      this.apply(action),
    );
  }

  private apply(action: UserAction): void {
    const { store, engine, facts } = this.model;
    const now = engine.now;
    this.pending -= 1;
    if (action.after === 'cvo-completed') facts.day2At ??= now;
    if (action.kind === 'create-machine-config' && action.machineConfig) {
      const mc = action.machineConfig;
      store.write(userMachineConfig(mc, now));
      facts.actions.push({ at: now, text: `created MachineConfig ${mc.name} (role ${mc.role})` });
    } else if (action.kind === 'resume-pool' && action.pool) {
      const pool = store.get('MachineConfigPool', action.pool) as PoolObj | undefined;
      if (!pool) return;
      store.write({
        ...pool,
        meta: nextMeta(pool.meta, { generation: pool.meta.generation + 1 }),
        paused: false,
      });
      facts.actions.push({ at: now, text: `resumed pool ${action.pool}` });
    }
  }
}
