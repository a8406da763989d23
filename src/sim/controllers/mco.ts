/**
 * The machine-config operator of the target release (docs/domain.md 1.4, 1.5). Started when the CVO
 * rolls its Deployment at level 80; every watched event (pools, nodes, MachineConfigs, the
 * ControllerConfig, configmaps) queues a sync. A sync evaluates Progressing first, then runs
 * RenderConfig → MachineConfigPools → MachineConfigDaemon → MachineConfigController (rolls the
 * controller pod if its image changed, writes the ControllerConfig, waits for the template
 * controller) → MachineConfigServer → RequiredPools (polls its pool cache every second for up to 10
 * minutes, asking the policy whether the master pool's current rendered config is valid), and
 * finally writes Degraded, Available, Upgradeable, the version and the extension. The version is
 * bumped unless Progressing and Degraded are both True: a sync that passes on stale data reports
 * level, which is the bug.
 */
import { MCO } from '../../model/index.js';
import type { Actor } from '../engine.js';
import { COMPONENT, type Model } from '../model.js';
import type { ClusterOperatorObj, Cond, OperandVersion, PoolObj } from '../objects.js';
import { findCond, isTrue, nextMeta, setCond } from '../objects.js';
import { poolSummary } from '../pool-status.js';
import type { Release } from '../release.js';
import { controllerConfigImages } from '../release.js';
import { Informer } from '../store.js';
import type { Deployable } from './cvo.js';
import type { NodeController } from './node-controller.js';
import { Poll } from './queue.js';
import { GENERATED_BY_VERSION, type RenderController } from './render.js';
import type { TemplateController } from './template.js';

export const CO_NAME = 'machine-config';
const MINUTE = 60_000;

/** The machine-config-controller pod: the three controllers restart together. */
export interface MachineConfigController {
  readonly template: TemplateController;
  readonly render: RenderController;
  readonly node: NodeController;
}

interface SyncError {
  readonly task: string;
  readonly message: string;
}

export class MachineConfigOperator implements Deployable {
  readonly actor: Actor;
  private informer: Informer | undefined;
  private queued = false;
  private syncing = false;
  private dirty = false;
  private failures = 0;
  private poll: Poll | undefined;
  private mcdRolled: boolean;
  private mccRolled: boolean;
  private mcsRolled: boolean;
  private ccGeneration = 0;
  private raceOpen = false;
  private raceDecided = false;
  private release: Release;

  constructor(
    private readonly model: Model,
    private readonly mcc: MachineConfigController,
  ) {
    this.actor = model.engine.actor('machine-config-operator', true);
    this.release = model.to;
    const sameImage =
      model.from.byName.get('machine-config-operator')?.pullSpec ===
      model.to.byName.get('machine-config-operator')?.pullSpec;
    this.mcdRolled = sameImage;
    this.mccRolled = sameImage;
    this.mcsRolled = sameImage;
  }

  private get version(): string {
    return this.release.version;
  }

  deploy(): void {
    const { engine, lat } = this.model;
    const model = this.model;
    if (this.release !== model.to) {
      // A second update in the run: the operator pod is replaced by the new release's.
      const sameImage =
        this.release.byName.get('machine-config-operator')?.pullSpec ===
        model.to.byName.get('machine-config-operator')?.pullSpec;
      this.release = model.to;
      this.mcdRolled = sameImage;
      this.mccRolled = sameImage;
      this.mcsRolled = sameImage;
      this.failures = 0;
      this.raceOpen = false;
      this.raceDecided = false;
    }
    engine.schedule(engine.rng.sample(lat.mcoRollout), this.actor, 'operator pod started', () =>
      this.start(),
    );
  }

  private start(): void {
    const { store, facts, engine, lat } = this.model;
    facts.mcoStartedAt = engine.now;
    if (this.informer) {
      // the new pod lists everything afresh
      this.informer.relist();
      this.enqueue();
      return;
    }
    this.informer = new Informer(
      store,
      this.actor,
      ['MachineConfigPool', 'Node', 'MachineConfig', 'ControllerConfig', 'ConfigMap'],
      lat.watch,
      () => {
        this.poll?.poke();
        this.enqueue();
      },
    );
    this.enqueue();
  }

  private enqueue(): void {
    if (this.syncing) {
      this.dirty = true;
      return;
    }
    if (this.queued) return;
    this.queued = true;
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.queue), this.actor, 'operator sync', () => {
      this.queued = false;
      this.sync();
    });
  }

  private sync(): void {
    this.syncing = true;
    this.dirty = false;
    this.syncProgressing();
    this.step(0);
  }

  /** A sync step that needs no rollout: a few API calls. */
  private afterStep(label: string, next: () => void): void {
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.operatorStep), this.actor, label, next);
  }

  /** The sync functions in their fixed order (docs/domain.md 1.5). */
  private step(i: number): void {
    const { engine, lat, store } = this.model;
    const rng = engine.rng;
    switch (i) {
      case 0:
        this.afterStep('RenderConfig', () => this.step(1));
        return;
      case 1:
        this.afterStep('MachineConfigPools', () => this.step(2));
        return;
      case 2:
        if (!this.mcdRolled) {
          let rollout = 0;
          for (const _ of store.list('Node')) rollout += rng.sample(lat.daemonPodRestart);
          engine.schedule(rollout, this.actor, 'MachineConfigDaemon rollout', () => {
            this.mcdRolled = true;
            this.step(3);
          });
        } else {
          this.afterStep('MachineConfigDaemon', () => this.step(3));
        }
        return;
      case 3:
        if (!this.mccRolled) {
          engine.schedule(rng.sample(lat.mccRollout), this.actor, 'MachineConfigController rollout', () => {
            this.mccRolled = true;
            this.mcc.template.restart(this.release);
            this.mcc.render.restart(this.release);
            this.mcc.node.restart();
            this.syncControllerConfig();
          });
        } else {
          this.afterStep('MachineConfigController', () => this.syncControllerConfig());
        }
        return;
      case 4:
        if (!this.mcsRolled) {
          let rollout = 0;
          for (const n of store.list('Node'))
            if (n.roles.includes('master')) rollout += rng.sample(lat.daemonPodRestart);
          engine.schedule(rollout, this.actor, 'MachineConfigServer rollout', () => {
            this.mcsRolled = true;
            this.step(5);
          });
        } else {
          this.afterStep('MachineConfigServer', () => this.step(5));
        }
        return;
      default:
        this.syncRequiredPools();
    }
  }

  /** Write the ControllerConfig for this release and wait (≤ 5 min) for the template controller. */
  private syncControllerConfig(): void {
    const { store, engine, policy, facts } = this.model;
    const cc = store.get('ControllerConfig', 'machine-config-controller');
    if (!cc) {
      this.endSync({
        task: 'MachineConfigController',
        message: 'controllerconfig machine-config-controller not found',
      });
      return;
    }
    const images = controllerConfigImages(this.release);
    const annotations: Record<string, string> = { [GENERATED_BY_VERSION]: this.release.mcoVersionRaw };
    if (policy.stampsReleaseVersion) annotations[MCO.releaseImageVersion] = this.version;
    const specChanged =
      cc.osImageURL !== this.release.osImageURL ||
      cc.releaseImage !== this.release.image ||
      Object.entries(images).some(([k, v]) => cc.images[k] !== v);
    const annotationsChanged = Object.entries(annotations).some(([k, v]) => cc.meta.annotations[k] !== v);
    if (specChanged || annotationsChanged) {
      const written = store.write({
        ...cc,
        meta: nextMeta(cc.meta, {
          annotations: { ...cc.meta.annotations, ...annotations },
          generation: specChanged ? cc.meta.generation + 1 : cc.meta.generation,
        }),
        images,
        osImageURL: this.release.osImageURL,
        releaseImage: this.release.image,
      });
      this.ccGeneration = written.meta.generation;
      facts.controllerConfigWrittenAt ??= engine.now;
      if (!this.raceOpen) {
        this.raceOpen = true;
        this.model.race.open();
      }
    } else {
      this.ccGeneration = cc.meta.generation;
    }
    this.poll = new Poll(
      engine,
      this.actor,
      'wait ControllerConfig',
      1000,
      5 * MINUTE,
      false,
      () => this.controllerConfigCompleted(),
      (ok) => {
        this.poll = undefined;
        if (ok) this.step(4);
        else {
          this.endSync({
            task: 'MachineConfigController',
            message:
              'timed out waiting for the condition during waitForControllerConfigToBeCompleted: controllerconfig is not completed',
          });
        }
      },
    );
  }

  private controllerConfigCompleted(): boolean {
    const cc = this.informer?.cache.get('ControllerConfig', 'machine-config-controller');
    if (!cc) return false;
    return (
      cc.observedGeneration >= this.ccGeneration &&
      isTrue(cc.conditions, 'TemplateControllerCompleted') &&
      !isTrue(cc.conditions, 'TemplateControllerRunning') &&
      !isTrue(cc.conditions, 'TemplateControllerFailing')
    );
  }

  private syncRequiredPools(): void {
    const { engine } = this.model;
    let lastErr = '';
    let lastKey = '';
    this.poll = new Poll(
      engine,
      this.actor,
      'RequiredPools',
      1000,
      10 * MINUTE,
      false,
      () => {
        const err = this.checkRequiredPools();
        if (this.raceOpen && !this.raceDecided) {
          this.raceDecided = true;
          this.model.race.close();
        }
        if (err === undefined) return true;
        // Each failed iteration records the error and re-evaluates Upgradeable; skip the rewrite
        // when neither the error nor any pool changed since the last iteration.
        const key = `${err}|${this.poolVersions()}`;
        if (key === lastKey) return false;
        lastKey = key;
        lastErr = err;
        this.writeStatus((co) => ({
          ...co,
          conditions: this.upgradeable(co.conditions),
          extension: { ...this.extension(), lastSyncError: err },
        }));
        return false;
      },
      (ok) => {
        this.poll = undefined;
        if (ok) this.endSync(undefined);
        else {
          this.endSync({
            task: 'RequiredPools',
            message: `timed out waiting for the condition during syncRequiredMachineConfigPools: ${lastErr}`,
          });
        }
      },
    );
  }

  /** One iteration of syncRequiredMachineConfigPools over the operator's pool cache (docs/domain.md 1.4). */
  private checkRequiredPools(): string | undefined {
    const cache = this.informer?.cache;
    if (!cache) return 'caches not synced';
    const pools = [...cache.list('MachineConfigPool')].sort((a, b) => (a.meta.name < b.meta.name ? -1 : 1));
    for (const pool of pools) {
      const s = pool.status;
      if (isTrue(s.conditions, 'Degraded')) {
        return `error pool ${pool.meta.name} is not ready, retrying. Status: (pool degraded: true total: ${s.machineCount}, ready ${s.readyMachineCount}, updated ${s.updatedMachineCount}, unavailable ${s.unavailableMachineCount})`;
      }
      if (pool.meta.labels[MCO.requiredForUpgrade] === undefined) continue;
      const osImageURL = cache.get('ConfigMap', 'machine-config-osimageurl')?.data.osImageURL ?? '';
      const invalid = this.model.policy.validate({
        pool,
        controllerVersion: this.release.mcoCommit,
        releaseVersion: this.version,
        osImageURL,
        getMachineConfig: (name) => cache.get('MachineConfig', name),
      });
      if (invalid !== undefined)
        return `pool ${pool.meta.name} has not progressed to latest configuration: ${invalid}, retrying`;
      if (pool.meta.generation <= s.observedGeneration && isTrue(s.conditions, 'Updated')) continue;
      return `error required pool ${pool.meta.name} is not ready, retrying. Status: (total: ${s.machineCount}, ready ${s.readyMachineCount}, updated ${s.updatedMachineCount}, unavailable ${s.unavailableMachineCount}, degraded ${s.degradedMachineCount})`;
    }
    return undefined;
  }

  /** syncProgressingStatus, evaluated before the sync functions run. */
  private syncProgressing(): void {
    const { engine, rec } = this.model;
    this.writeStatus((co) => {
      const now = engine.now;
      const atLevel = operatorVersion(co.versions) === this.version;
      const conds = atLevel
        ? setCond(co.conditions, 'Progressing', 'False', '', `Cluster version is ${this.version}`, now)
        : setCond(co.conditions, 'Progressing', 'True', '', `Working towards ${this.version}`, now);
      if (!atLevel && findCond(co.conditions, 'Progressing')?.status !== 'True') {
        rec?.event(
          now,
          coRef(),
          'OperatorVersionChanged',
          `clusteroperator/machine-config-operator started a version change from ${fmtVersions(co.versions)} to ${fmtVersions([{ name: 'operator', version: this.version }])}`,
          'Normal',
          COMPONENT.operator,
        );
      }
      return { ...co, conditions: conds };
    });
  }

  /** syncDegradedStatus, syncAvailableStatus, syncUpgradeableStatus, syncVersion: the end of every sync. */
  private endSync(err: SyncError | undefined): void {
    const { engine, facts, rec, lat } = this.model;
    const now = engine.now;
    this.writeStatus((co) => {
      const atLevel = operatorVersion(co.versions) === this.version;
      let conds = co.conditions;
      if (err) {
        const message = atLevel
          ? `Failed to resync ${this.version} because: ${err.message}`
          : `Unable to apply ${this.version}: ${err.message}`;
        const wasDegraded = isTrue(conds, 'Degraded');
        conds = setCond(conds, 'Degraded', 'True', `${err.task}Failed`, message, now);
        conds = isTrue(conds, 'Progressing')
          ? setCond(conds, 'Progressing', 'True', '', `Unable to apply ${this.version}: ${err.message}`, now)
          : setCond(
              conds,
              'Progressing',
              'False',
              '',
              `Error while reconciling ${this.version}: ${err.message}`,
              now,
            );
        if (!wasDegraded) facts.mcoDegraded.push({ at: now, message });
        rec?.event(
          now,
          coRef(),
          `OperatorDegraded: ${err.task}Failed`,
          message,
          'Warning',
          COMPONENT.operator,
        );
      } else {
        conds = setCond(conds, 'Degraded', 'False', '', '', now);
      }
      conds =
        err && err.task !== 'RequiredPools'
          ? setCond(
              conds,
              'Available',
              'False',
              '',
              `Cluster not available for ${fmtVersions(co.versions)}`,
              now,
            )
          : setCond(
              conds,
              'Available',
              'True',
              'AsExpected',
              `Cluster has deployed ${fmtVersions(co.versions)}`,
              now,
            );
      conds = this.upgradeable(conds);
      let versions = co.versions;
      if (!(isTrue(conds, 'Progressing') && isTrue(conds, 'Degraded')) && !atLevel) {
        versions = [{ name: 'operator', version: this.version }];
        rec?.event(
          now,
          coRef(),
          'OperatorVersionChanged',
          `clusteroperator/machine-config-operator version changed from ${fmtVersions(co.versions)} to ${fmtVersions(versions)}`,
          'Normal',
          COMPONENT.operator,
        );
        facts.mcoLevelAt ??= now;
      }
      const extension = err ? { ...this.extension(), lastSyncError: err.message } : this.extension();
      return { ...co, conditions: conds, versions, extension };
    });
    this.syncing = false;
    if (err) {
      this.failures++;
      engine.schedule(
        Math.min(5 * 2 ** (this.failures - 1), 1_000_000) + engine.rng.sample(lat.queue),
        this.actor,
        'requeue',
        () => this.enqueue(),
      );
    } else {
      this.failures = 0;
    }
    if (this.dirty) this.enqueue();
  }

  /** syncUpgradeableStatus: PoolUpdating / DegradedPool (docs/domain.md 1.5). */
  private upgradeable(conds: readonly Cond[]): readonly Cond[] {
    const now = this.model.engine.now;
    let degraded = false;
    let updating = false;
    for (const p of this.informer?.cache.list('MachineConfigPool') ?? []) {
      if (isTrue(p.status.conditions, 'Degraded')) degraded = true;
      if (isTrue(p.status.conditions, 'Updating')) updating = true;
    }
    if (degraded) {
      return setCond(
        conds,
        'Upgradeable',
        'False',
        'DegradedPool',
        'One or more machine config pools are degraded, please see `oc get mcp` for further details and resolve before upgrading',
        now,
      );
    }
    if (updating) {
      return setCond(
        conds,
        'Upgradeable',
        'False',
        'PoolUpdating',
        'One or more machine config pools are updating, please see `oc get mcp` for further details',
        now,
      );
    }
    return setCond(conds, 'Upgradeable', 'True', 'AsExpected', '', now);
  }

  private poolVersions(): string {
    let key = '';
    for (const p of this.informer?.cache.list('MachineConfigPool') ?? []) key += `${p.meta.rv},`;
    return key;
  }

  private extension(): Record<string, string> {
    const out: Record<string, string> = {};
    const pools: PoolObj[] = [...(this.informer?.cache.list('MachineConfigPool') ?? [])];
    for (const p of pools) out[p.meta.name] = poolSummary(p);
    return out;
  }

  private writeStatus(change: (co: ClusterOperatorObj) => ClusterOperatorObj): void {
    const store = this.model.store;
    const co = store.get('ClusterOperator', CO_NAME);
    if (!co) return;
    const next = change(co);
    if (
      next.conditions === co.conditions &&
      next.versions === co.versions &&
      sameExtension(next.extension, co.extension)
    )
      return;
    store.write({ ...next, meta: nextMeta(co.meta) });
  }
}

function sameExtension(a: ClusterOperatorObj['extension'], b: ClusterOperatorObj['extension']): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}

function operatorVersion(versions: readonly OperandVersion[]): string | undefined {
  return versions.find((v) => v.name === 'operator')?.version;
}

/** Go's %v of []OperandVersion: `[{operator 4.10.0-...}]`. */
function fmtVersions(versions: readonly OperandVersion[]): string {
  return `[${versions.map((v) => `{${v.name} ${v.version}}`).join(' ')}]`;
}

function coRef() {
  return {
    kind: 'ClusterOperator',
    name: CO_NAME,
    namespace: 'openshift-machine-config-operator',
    apiVersion: 'config.openshift.io/v1',
  } as const;
}
