/**
 * The machine-config daemon on one node (docs/domain.md 4.2): when its node's desiredConfig differs from
 * currentConfig it sets state Working, and, if the change needs a reboot, cordons and drains the
 * node, writes the files (staging a new OS image if osImageURL changed) and reboots; after the
 * kubelet is Ready again it sets currentConfig, state Done and uncordons. Changes that need no
 * reboot are written in place. A node named in the scenario's failures goes Degraded instead.
 */
import type { Actor } from '../engine.js';
import { COMPONENT, type Model } from '../model.js';
import type { NodeObj } from '../objects.js';
import { nextMeta } from '../objects.js';
import { postConfigAction } from '../render.js';
import type { NodeFailure } from '../scenario.js';

export class Daemon {
  readonly actor: Actor;
  private busy = false;
  private recovered = false;

  constructor(
    private readonly model: Model,
    private readonly nodeName: string,
    private readonly failure: NodeFailure | undefined,
  ) {
    this.actor = model.engine.actor(`machine-config-daemon/${nodeName}`);
    model.store.watch(this.actor, ['Node'], model.lat.watch, (obj) => this.onNode(obj as NodeObj), nodeName);
  }

  private onNode(node: NodeObj): void {
    if (this.busy || node.desiredConfig === '' || node.desiredConfig === node.currentConfig) return;
    if ((node.state === 'Degraded' || node.state === 'Unreconcilable') && !this.recovered) return;
    this.busy = true;
    const { engine, lat } = this.model;
    const target = node.desiredConfig;
    engine.schedule(engine.rng.sample(lat.mcdStart), this.actor, 'mcd start', () => this.begin(target));
  }

  private patch(change: Partial<Omit<NodeObj, 'kind' | 'meta'>>): NodeObj {
    const store = this.model.store;
    const latest = store.get('Node', this.nodeName) as NodeObj;
    return store.write({ ...latest, ...change, meta: nextMeta(latest.meta) });
  }

  private event(reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal'): void {
    this.model.rec?.event(
      this.model.engine.now,
      { kind: 'Node', name: this.nodeName, apiVersion: 'v1' },
      reason,
      message,
      type,
      COMPONENT.daemon,
      this.nodeName,
    );
  }

  private begin(target: string): void {
    const { store, engine, lat } = this.model;
    const node = this.patch({ state: 'Working', reason: '' });
    const from = store.get('MachineConfig', node.currentConfig);
    const to = store.get('MachineConfig', target);
    if (!to) {
      this.patch({
        state: 'Degraded',
        reason: `machineconfig.machineconfiguration.openshift.io "${target}" not found`,
      });
      this.busy = false;
      return;
    }
    const action = postConfigAction(from, to);
    const osChange = from !== undefined && from.spec.osImageURL !== to.spec.osImageURL;
    const master = node.roles.includes('master');
    const rng = engine.rng;
    if (action !== 'reboot') {
      engine.schedule(rng.sample(lat.writeFiles), this.actor, 'write files', () => this.finish(target));
      return;
    }
    engine.schedule(rng.sample(lat.queue), this.actor, 'cordon', () => {
      this.patch({ unschedulable: true });
      this.event('Drain', 'Draining node to update config.');
      const drain = rng.sample(master ? lat.drainMaster : lat.drainWorker);
      engine.schedule(drain, this.actor, 'drained', () => {
        const write = rng.sample(lat.writeFiles) + (osChange ? rng.sample(lat.osUpdate) : 0);
        engine.schedule(write, this.actor, 'files written', () => {
          if (this.failure && !this.recovered) {
            this.fail(target);
            return;
          }
          this.event('Reboot', `Node will reboot into config ${target}`);
          engine.schedule(rng.sample(lat.shutdown), this.actor, 'shutdown', () => {
            this.patch({ ready: false });
            engine.schedule(rng.sample(lat.boot), this.actor, 'booted', () => {
              this.patch({
                ready: true,
                readySince: engine.now,
                osImage: rhcosName(this.model, to.spec.osImageURL),
              });
              engine.schedule(rng.sample(lat.mcdFinish), this.actor, 'mcd done', () => this.finish(target));
            });
          });
        });
      });
    });
  }

  private fail(target: string): void {
    const failure = this.failure as NodeFailure;
    const reason = failure.reason.replaceAll('{config}', target);
    this.patch({ state: 'Degraded', reason });
    this.event('OperatorDegraded', reason, 'Warning');
    if (failure.recoverAfterMs !== undefined) {
      this.model.engine.schedule(failure.recoverAfterMs, this.actor, 'recover', () => {
        this.recovered = true;
        this.busy = false;
        this.onNode(this.model.store.get('Node', this.nodeName) as NodeObj);
      });
    }
  }

  private finish(target: string): void {
    const node = this.patch({ currentConfig: target, state: 'Done', reason: '', unschedulable: false });
    this.event('NodeDone', `Setting node ${this.nodeName}, currentConfig ${target} to Done`);
    this.busy = false;
    this.onNode(node);
  }
}

/** The OS a node reports once booted into `osImageURL` (nodeInfo.osImage). */
export function rhcosName(model: Pick<Model, 'from' | 'to'>, osImageURL: string): string {
  const version = osImageURL === model.to.osImageURL ? model.to.rhcosVersion : model.from.rhcosVersion;
  return `Red Hat Enterprise Linux CoreOS ${version} (Ootpa)`;
}
