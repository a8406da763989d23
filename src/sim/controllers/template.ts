/**
 * The template controller (machine-config-controller): on every ControllerConfig change it
 * regenerates the template MachineConfigs of each built-in role from the ControllerConfig's images
 * and writes those whose content or controller-version annotation changed, then marks the
 * ControllerConfig `TemplateControllerCompleted` for its generation (docs/domain.md 1.5, 3.4). It also
 * keeps the `99-<role>-generated-registries` configs current (the container-runtime-config
 * controller's job, folded in here because only its controller-version annotation matters).
 */
import { MCO } from '../../model/index.js';
import type { Actor } from '../engine.js';
import type { Model } from '../model.js';
import type { MachineConfigObj } from '../objects.js';
import { meta, nextMeta, setCond } from '../objects.js';
import type { Release } from '../release.js';
import { Informer } from '../store.js';
import { templateConfigs } from '../templates.js';
import { WorkQueue } from './queue.js';

export const TEMPLATE_ROLES = ['master', 'worker'] as const;

const EMPTY_SPEC: MachineConfigObj['spec'] = {
  osImageURL: '',
  config: { files: [], units: [], sshKeys: [] },
  kernelArguments: [],
  extensions: [],
  fips: false,
  kernelType: '',
};

export class TemplateController {
  readonly actor: Actor;
  private readonly informer: Informer;
  private readonly queue: WorkQueue;
  private commit: string;
  private versionRaw: string;

  constructor(
    private readonly model: Model,
    release: Release,
  ) {
    this.actor = model.engine.actor('template-controller', true);
    this.commit = release.mcoCommit;
    this.versionRaw = release.mcoVersionRaw;
    this.queue = new WorkQueue(model.engine, this.actor, 'template sync', (key) => this.process(key));
    this.informer = new Informer(model.store, this.actor, ['ControllerConfig'], model.lat.watch, () =>
      this.queue.add('cc'),
    );
  }

  /** The machine-config-controller pod was replaced by one built from `release`. */
  restart(release: Release): void {
    this.commit = release.mcoCommit;
    this.versionRaw = release.mcoVersionRaw;
    this.informer.relist();
    this.queue.add('cc');
  }

  private process(key: string): void {
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.templateSync), this.actor, 'template write', () => {
      this.sync();
      this.queue.done(key, false);
    });
  }

  private sync(): void {
    const { store, engine } = this.model;
    const cc = this.informer.cache.get('ControllerConfig', 'machine-config-controller');
    if (!cc) return;
    const now = engine.now;
    const annotations = { [MCO.generatedByControllerVersion]: this.commit };
    const owner = { kind: 'ControllerConfig' as const, name: cc.meta.name };
    for (const role of TEMPLATE_ROLES) {
      const labels = { [MCO.role]: role };
      const wanted = [
        ...templateConfigs({ role, images: cc.images, osImageURL: cc.osImageURL }),
        {
          name: `99-${role}-generated-registries`,
          spec: EMPTY_SPEC,
          contentKey: `99-${role}-generated-registries|empty`,
        },
      ];
      for (const cfg of wanted) {
        const existing = store.get('MachineConfig', cfg.name);
        if (
          existing &&
          existing.contentKey === cfg.contentKey &&
          existing.meta.annotations[MCO.generatedByControllerVersion] === this.commit
        ) {
          continue;
        }
        store.write({
          kind: 'MachineConfig',
          meta: existing
            ? nextMeta(existing.meta, { annotations, generation: existing.meta.generation + 1 })
            : meta(cfg.name, now, { labels, annotations }),
          owner,
          spec: cfg.spec,
          contentKey: cfg.contentKey,
        });
      }
    }
    const latest = store.get('ControllerConfig', cc.meta.name) ?? cc;
    let conds = setCond(
      latest.conditions,
      'TemplateControllerCompleted',
      'True',
      '',
      `sync completed towards (${cc.meta.generation}) generation using controller version ${this.versionRaw}`,
      now,
    );
    conds = setCond(conds, 'TemplateControllerRunning', 'False', '', '', now);
    conds = setCond(conds, 'TemplateControllerFailing', 'False', '', '', now);
    if (conds !== latest.conditions || latest.observedGeneration !== cc.meta.generation) {
      store.write({
        ...latest,
        meta: nextMeta(latest.meta),
        observedGeneration: cc.meta.generation,
        conditions: conds,
      });
    }
  }
}
