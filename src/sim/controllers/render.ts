/**
 * The render controller (docs/domain.md 3.2, 4.5): any pool, MachineConfig or ControllerConfig event
 * enqueues the affected pools after `renderDelay` (5 s). A sync merges the pool's MachineConfigs
 * into a rendered config, creates it if new (event RenderedConfigGenerated) and points the pool's
 * spec.configuration at it; if the pool already targets that name it re-applies the annotations in
 * place. It refuses to render from a ControllerConfig that is not completed or was written by
 * another MCO version, or from template configs stamped by another controller version.
 */
import { MCO } from '../../model/index.js';
import type { Actor } from '../engine.js';
import { COMPONENT, type Model } from '../model.js';
import type { AnyObj, MachineConfigObj, PoolObj } from '../objects.js';
import { isTrue, meta, nextMeta } from '../objects.js';
import type { Release } from '../release.js';
import { renderPool } from '../render.js';
import { Informer } from '../store.js';
import { WorkQueue } from './queue.js';

/** ControllerConfig annotation with the MCO build that wrote it (docs/domain.md 1.1, PR #2206). */
export const GENERATED_BY_VERSION = 'machineconfiguration.openshift.io/generated-by-version';

export class RenderController {
  readonly actor: Actor;
  private readonly informer: Informer;
  private readonly queue: WorkQueue;
  private commit: string;
  private versionRaw: string;

  constructor(
    private readonly model: Model,
    release: Release,
  ) {
    this.actor = model.engine.actor('render-controller', true);
    this.commit = release.mcoCommit;
    this.versionRaw = release.mcoVersionRaw;
    this.queue = new WorkQueue(model.engine, this.actor, 'render sync', (key) => this.process(key));
    this.informer = new Informer(
      model.store,
      this.actor,
      ['MachineConfigPool', 'MachineConfig', 'ControllerConfig'],
      model.lat.watch,
      (obj) => this.onEvent(obj),
    );
  }

  restart(release: Release): void {
    this.commit = release.mcoCommit;
    this.versionRaw = release.mcoVersionRaw;
    this.informer.relist();
    for (const p of this.informer.cache.list('MachineConfigPool')) this.enqueue(p.meta.name);
  }

  private enqueue(pool: string): void {
    this.queue.addAfter(pool, this.model.engine.rng.sample(this.model.lat.renderDelay));
  }

  private onEvent(obj: AnyObj): void {
    const cache = this.informer.cache;
    if (obj.kind === 'MachineConfigPool') {
      this.enqueue(obj.meta.name);
    } else if (obj.kind === 'MachineConfig') {
      if (obj.owner?.kind === 'MachineConfigPool') {
        this.enqueue(obj.owner.name);
        return;
      }
      const role = obj.meta.labels[MCO.role];
      for (const p of cache.list('MachineConfigPool'))
        if (role !== undefined && p.mcRoles.includes(role)) this.enqueue(p.meta.name);
    } else if (obj.kind === 'ControllerConfig') {
      for (const p of cache.list('MachineConfigPool')) this.enqueue(p.meta.name);
    }
  }

  private process(pool: string): void {
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.renderSync), this.actor, 'render', () => {
      this.queue.done(pool, !this.sync(pool));
    });
  }

  /** Returns false when the sync failed and should be retried. */
  private sync(name: string): boolean {
    const { store, engine, facts, rec } = this.model;
    const cache = this.informer.cache;
    const pool = cache.get('MachineConfigPool', name);
    const cc = cache.get('ControllerConfig', 'machine-config-controller');
    if (!pool || !cc) return true;
    if (!isTrue(cc.conditions, 'TemplateControllerCompleted') || cc.observedGeneration < cc.meta.generation)
      return false;
    if (cc.meta.annotations[GENERATED_BY_VERSION] !== this.versionRaw) return true; // "Ignoring controller config generated from ..."
    const sources: MachineConfigObj[] = [];
    for (const mc of cache.list('MachineConfig')) {
      if (mc.owner?.kind === 'MachineConfigPool') continue;
      const role = mc.meta.labels[MCO.role];
      if (role === undefined || !pool.mcRoles.includes(role)) continue;
      const stamped = mc.meta.annotations[MCO.generatedByControllerVersion];
      if (stamped !== undefined && stamped !== this.commit) return false; // stale template config: wait for the template controller
      sources.push(mc);
    }
    if (sources.length === 0) return false;
    sources.sort((a, b) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0));
    const rendered = renderPool(name, sources, cc.osImageURL);
    const releaseVersion = cc.meta.annotations[MCO.releaseImageVersion];
    const annotations: Record<string, string> = { [MCO.generatedByControllerVersion]: this.commit };
    if (releaseVersion !== undefined) annotations[MCO.releaseImageVersion] = releaseVersion;
    const now = engine.now;
    const existing = store.get('MachineConfig', rendered.name);
    if (!existing) {
      store.write({
        kind: 'MachineConfig',
        meta: meta(rendered.name, now, { annotations }),
        owner: { kind: 'MachineConfigPool', name },
        spec: rendered.spec,
        contentKey: rendered.contentKey,
      });
      facts.rendered.push({ pool: name, name: rendered.name, at: now, created: true });
      rec?.event(
        now,
        poolRef(name),
        'RenderedConfigGenerated',
        releaseVersion !== undefined
          ? `${rendered.name} successfully generated (release version: ${releaseVersion}, controller version: ${this.commit})`
          : `${rendered.name} successfully generated`,
        'Normal',
        COMPONENT.render,
      );
    } else if (pool.spec.name === rendered.name) {
      if (!sameAnnotations(existing.meta.annotations, annotations)) {
        store.write({
          ...existing,
          meta: nextMeta(existing.meta, { annotations: { ...existing.meta.annotations, ...annotations } }),
        });
        facts.rendered.push({ pool: name, name: rendered.name, at: now, created: false });
      }
      return true;
    }
    if (pool.spec.name === rendered.name) return true;
    const latest = store.get('MachineConfigPool', name) as PoolObj;
    store.write({
      ...latest,
      meta: nextMeta(latest.meta, { generation: latest.meta.generation + 1 }),
      spec: { name: rendered.name, source: rendered.source },
    });
    facts.targets.push({ pool: name, name: rendered.name, at: now });
    return true;
  }
}

function sameAnnotations(
  have: Readonly<Record<string, string>>,
  want: Readonly<Record<string, string>>,
): boolean {
  for (const [k, v] of Object.entries(want)) if (have[k] !== v) return false;
  return true;
}

export function poolRef(name: string) {
  return { kind: 'MachineConfigPool', name, apiVersion: 'machineconfiguration.openshift.io/v1' } as const;
}
