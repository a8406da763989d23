/**
 * The node controller (docs/domain.md 2.2–2.4, 4.3): pool and node events enqueue the pool after its
 * 5 s `updateDelay`. A sync of an unpaused pool picks, within maxUnavailable, the nodes not yet
 * targeting the pool's config (in list order, as 4.10 did) and sets their desiredConfig, marking
 * the rest with the UpdateInProgress taint; then it recomputes the pool's status from its (possibly
 * stale) node cache and writes it if anything changed.
 */
import type { Actor } from '../engine.js';
import { COMPONENT, type Model } from '../model.js';
import type { AnyObj, NodeObj, PoolObj } from '../objects.js';
import { findCond, nextMeta } from '../objects.js';
import {
  calculateStatus,
  isMcdFailing,
  isUnavailable,
  maxUnavailable,
  primaryPoolName,
  statusEqual,
} from '../pool-status.js';
import { Informer } from '../store.js';
import { WorkQueue } from './queue.js';
import { poolRef } from './render.js';

export class NodeController {
  readonly actor: Actor;
  private readonly informer: Informer;
  private readonly queue: WorkQueue;

  constructor(private readonly model: Model) {
    this.actor = model.engine.actor('node-controller', true);
    this.queue = new WorkQueue(model.engine, this.actor, 'node sync', (key) => this.process(key));
    this.informer = new Informer(
      model.store,
      this.actor,
      ['MachineConfigPool', 'Node'],
      model.lat.watch,
      (obj, old) => this.onEvent(obj, old),
    );
  }

  restart(): void {
    this.informer.relist();
    for (const p of this.informer.cache.list('MachineConfigPool')) this.enqueue(p.meta.name);
  }

  private enqueue(pool: string): void {
    this.queue.addAfter(pool, this.model.engine.rng.sample(this.model.lat.nodeControllerDelay));
  }

  private onEvent(obj: AnyObj, old: AnyObj | undefined): void {
    if (obj.kind === 'MachineConfigPool') {
      this.enqueue(obj.meta.name);
      return;
    }
    if (obj.kind !== 'Node') return;
    const prev = old as NodeObj | undefined;
    if (
      prev &&
      prev.ready === obj.ready &&
      prev.unschedulable === obj.unschedulable &&
      prev.currentConfig === obj.currentConfig &&
      prev.desiredConfig === obj.desiredConfig &&
      prev.state === obj.state
    ) {
      return;
    }
    const pool = primaryPoolName(obj, this.informer.cache.list('MachineConfigPool'));
    if (pool !== undefined) this.enqueue(pool);
  }

  private process(pool: string): void {
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.nodeControllerSync), this.actor, 'node sync', () => {
      this.sync(pool);
      this.queue.done(pool, false);
    });
  }

  private sync(name: string): void {
    const { store, engine, rec } = this.model;
    const cache = this.informer.cache;
    const pool = cache.get('MachineConfigPool', name);
    if (!pool || pool.spec.name === '') return;
    const nodes: NodeObj[] = [];
    for (const n of cache.list('Node'))
      if (primaryPoolName(n, cache.list('MachineConfigPool')) === name) nodes.push(n);
    const now = engine.now;
    const target = pool.spec.name;
    if (!pool.paused) {
      const chosen = candidates(pool, nodes);
      for (const n of chosen) {
        const latest = store.get('Node', n.meta.name) as NodeObj;
        if (latest.desiredConfig === target) continue;
        store.write({ ...latest, meta: nextMeta(latest.meta), desiredConfig: target, updateTaint: false });
      }
      if (chosen.length > 0) {
        rec?.event(
          now,
          poolRef(name),
          'SetDesiredConfig',
          chosen.length === 1
            ? `Targeted node ${(chosen[0] as NodeObj).meta.name} to config ${target}`
            : `Set target for ${chosen.length} nodes to config ${target}`,
          'Normal',
          COMPONENT.node,
        );
      }
      for (const n of nodes) {
        if (chosen.includes(n)) continue;
        const wantTaint = n.desiredConfig !== target;
        if (n.updateTaint === wantTaint) continue;
        const latest = store.get('Node', n.meta.name) as NodeObj;
        if (latest.updateTaint !== wantTaint)
          store.write({ ...latest, meta: nextMeta(latest.meta), updateTaint: wantTaint });
      }
    }
    const status = calculateStatus(pool, nodes, now);
    if (statusEqual(status, pool.status)) return;
    const latest = store.get('MachineConfigPool', name) as PoolObj;
    const written = store.write({ ...latest, meta: nextMeta(latest.meta), status });
    if (name === 'master') this.masterFacts(written);
  }

  private masterFacts(pool: PoolObj): void {
    const facts = this.model.facts;
    const now = this.model.engine.now;
    if (
      findCond(pool.status.conditions, 'Updating')?.status === 'True' &&
      facts.cvoCompletedAt !== undefined &&
      !facts.violation &&
      // between two updates' completions the pool rolls for the second one
      (facts.secondRequestedAt === undefined || facts.cvoCompletedAt > facts.secondRequestedAt) &&
      // a day-2 change's rollout is not the update's (docs/simulate.md, administrator actions)
      (facts.day2At === undefined || now < facts.day2At)
    ) {
      facts.violation = true;
      facts.violationAt = now;
    }
    if (
      findCond(pool.status.conditions, 'Updated')?.status === 'True' &&
      facts.targets.some((t) => t.pool === 'master') &&
      (facts.day2At === undefined || now < facts.day2At)
    ) {
      facts.masterUpdatedAt = now;
    }
  }
}

/** getAllCandidateMachines + the first-N pick of 4.10 (no sorting). */
function candidates(pool: PoolObj, nodes: readonly NodeObj[]): NodeObj[] {
  const target = pool.spec.name;
  const max = maxUnavailable(pool, nodes.length);
  let unavailable = 0;
  for (const n of nodes) if (isUnavailable(n)) unavailable++;
  if (unavailable >= max) return [];
  let capacity = max - unavailable;
  let failing = 0;
  const out: NodeObj[] = [];
  for (const n of nodes) {
    if (n.desiredConfig === target) {
      if (isMcdFailing(n)) failing++;
      continue;
    }
    out.push(n);
  }
  if (failing >= capacity) return [];
  capacity -= failing;
  return out.slice(0, capacity);
}
