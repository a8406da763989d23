/**
 * The cluster-version operator during an update (docs/domain.md 5): it loads the payload named by
 * spec.desiredUpdate, prepends a Partial history entry, then walks the run levels in order. Within a
 * level each component's manifests are applied (rolling its operator), then the component's
 * ClusterOperator is checked from the CVO's informer cache and re-checked with backoff (≤ 15 s)
 * until it reports the new `operator` version while Available and not Degraded (Progressing is
 * ignored, docs/domain.md 5.3). After the last level the history entry becomes Completed.
 */
import type { Actor } from '../engine.js';
import type { Model } from '../model.js';
import type { ClusterOperatorObj, ClusterVersionObj, Cond } from '../objects.js';
import { findCond, nextMeta, setCond } from '../objects.js';
import { LEVEL_MANIFESTS, MCO_LEVEL, OPERATORS } from '../operators.js';
import { Informer } from '../store.js';

export interface Deployable {
  deploy(version: string): void;
}

type Blocked = 'missing' | 'unavailable' | 'degraded' | 'updating';

interface Task {
  /**
   * The ClusterOperator's resourceVersion when the CVO rolled the operator. The CVO waits for the
   * operator's Deployment to roll out: the new pod's first status write stands for it. In an update
   * that changes the version the version report itself is that write; in a same-version update
   * (a rebuild, an architecture migration) the old status already names the version.
   */
  deployedRv: number;
  attempts: number;
  blocked: Blocked | undefined;
  degradedSince: number | undefined;
}

interface Level {
  readonly level: number;
  readonly operators: readonly string[];
  readonly manifests: number;
}

/** How long a degraded ClusterOperator may block before the CVO reports Failing (FailAfterInterval). */
const DEGRADED_GRACE = 40 * 60_000;

export class ClusterVersionOperator {
  readonly actor: Actor;
  private readonly informer: Informer;
  private readonly levels: Level[];
  private readonly total: number;
  private state: 'idle' | 'loading' | 'applying' | 'done' = 'idle';
  private levelIndex = 0;
  private done = 0;
  private readonly tasks = new Map<string, Task>();
  private upgradeableQueued = false;
  /** ClusterOperators currently Upgradeable=False, kept current from the informer. */
  private readonly notUpgradeable = new Map<string, Cond>();

  constructor(
    private readonly model: Model,
    private readonly operators: ReadonlyMap<string, Deployable>,
  ) {
    this.actor = model.engine.actor('cluster-version-operator');
    this.informer = new Informer(
      model.store,
      this.actor,
      ['ClusterVersion', 'ClusterOperator'],
      model.lat.watch,
      (obj) => {
        if (obj.kind === 'ClusterVersion') this.onClusterVersion(obj);
        else if (obj.kind === 'ClusterOperator') this.onClusterOperator(obj);
      },
    );
    const byLevel = new Map<number, string[]>();
    for (const op of OPERATORS) byLevel.set(op.level, [...(byLevel.get(op.level) ?? []), op.name]);
    byLevel.set(MCO_LEVEL, [...(byLevel.get(MCO_LEVEL) ?? []), 'machine-config']);
    for (const level of LEVEL_MANIFESTS.keys()) if (!byLevel.has(level)) byLevel.set(level, []);
    this.levels = [...byLevel.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([level, ops]) => ({
        level,
        operators: ops,
        manifests: LEVEL_MANIFESTS.get(level) ?? ops.length,
      }));
    this.total = this.levels.reduce((n, l) => n + l.manifests, 0);
  }

  private get target(): string {
    return this.model.to.version;
  }

  private onClusterVersion(cv: ClusterVersionObj): void {
    if ((this.state !== 'idle' && this.state !== 'done') || !cv.desiredUpdate) return;
    if (cv.desiredUpdate.image === cv.desired.image) return;
    // A new update after a completed one (a run of two updates): walk the run levels again.
    this.levelIndex = 0;
    this.done = 0;
    this.tasks.clear();
    this.state = 'loading';
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.queue), this.actor, 'observe desiredUpdate', () => {
      const image = cv.desiredUpdate?.image ?? '';
      this.writeCV((c) => ({
        ...c,
        observedGeneration: c.meta.generation,
        conditions: setCond(
          c.conditions,
          'Progressing',
          'True',
          '',
          `Working towards ${image}: downloading update`,
          engine.now,
        ),
      }));
      engine.schedule(engine.rng.sample(lat.payloadLoad), this.actor, 'payload loaded', () => this.accept());
    });
  }

  private accept(): void {
    const { engine, to, facts } = this.model;
    const now = engine.now;
    facts.cvoAcceptedAt = now;
    this.writeCV((c) => ({
      ...c,
      desired: { version: to.version, image: to.image },
      history: [
        {
          state: 'Partial',
          startedTime: now,
          completionTime: undefined,
          version: to.version,
          image: to.image,
          verified: false,
        },
        ...c.history.map((h) => (h.completionTime === undefined ? { ...h, completionTime: now } : h)),
      ],
      conditions: setCond(
        c.conditions,
        'ReleaseAccepted',
        'True',
        'PayloadLoaded',
        `Payload loaded version="${to.version}" image="${to.image}"`,
        now,
      ),
    }));
    this.state = 'applying';
    this.runLevel(0);
  }

  private runLevel(i: number): void {
    const level = this.levels[i];
    if (!level) {
      this.complete();
      return;
    }
    this.levelIndex = i;
    const { engine, lat } = this.model;
    const perComponent = Math.ceil(level.manifests / Math.max(1, level.operators.length));
    const applyFor = Math.round(engine.rng.sample(lat.manifestApply) * perComponent);
    engine.schedule(applyFor, this.actor, `apply level ${level.level}`, () => {
      if (level.level === MCO_LEVEL) this.applyMachineConfigManifests();
      for (const name of level.operators) {
        this.operators.get(name)?.deploy(this.target);
        const deployedRv = this.model.store.get('ClusterOperator', name)?.meta.rv ?? 0;
        this.tasks.set(name, { deployedRv, attempts: 0, blocked: undefined, degradedSince: undefined });
      }
      this.done += level.manifests - level.operators.length;
      if (level.operators.length === 0) {
        this.writeProgress();
        this.runLevel(i + 1);
        return;
      }
      for (const name of level.operators) this.check(name);
      this.writeProgress();
    });
  }

  /** The MCO's payload manifests include the osImageURL configmap it validates pools against. */
  private applyMachineConfigManifests(): void {
    const { store, to } = this.model;
    const cm = store.get('ConfigMap', 'machine-config-osimageurl');
    if (cm) {
      store.write({
        ...cm,
        meta: nextMeta(cm.meta),
        data: { osImageURL: to.osImageURL, releaseVersion: to.version },
      });
    }
  }

  private check(name: string): void {
    const task = this.tasks.get(name);
    if (!task) return;
    const { engine } = this.model;
    const co = this.informer.cache.get('ClusterOperator', name);
    const blocked = co && co.meta.rv <= task.deployedRv ? 'updating' : levelState(co, this.target);
    if (blocked === undefined) {
      this.tasks.delete(name);
      this.done += 1;
      if (this.tasks.size === 0) {
        this.writeProgress();
        this.runLevel(this.levelIndex + 1);
      } else {
        this.writeProgress();
      }
      return;
    }
    if (blocked === 'degraded') task.degradedSince ??= engine.now;
    else task.degradedSince = undefined;
    const changed = task.blocked !== blocked;
    task.blocked = blocked;
    task.attempts++;
    const backoff = Math.min(15_000, 1000 * 2 ** task.attempts) * (0.9 + 0.2 * engine.rng.next());
    engine.schedule(Math.round(backoff), this.actor, `check ${name}`, () => this.check(name));
    if (changed || blocked === 'degraded') this.writeProgress();
  }

  private failing(): { reason: string; message: string; summary: string } | undefined {
    const now = this.model.engine.now;
    for (const [name, task] of this.tasks) {
      if (task.blocked === 'unavailable') {
        return {
          reason: 'ClusterOperatorNotAvailable',
          message: `Cluster operator ${name} is not available`,
          summary: `the cluster operator ${name} has not yet successfully rolled out`,
        };
      }
      if (
        task.blocked === 'degraded' &&
        task.degradedSince !== undefined &&
        now - task.degradedSince >= DEGRADED_GRACE
      ) {
        return {
          reason: 'ClusterOperatorDegraded',
          message: `Cluster operator ${name} is degraded`,
          summary: `the cluster operator ${name} is degraded`,
        };
      }
    }
    return undefined;
  }

  private writeProgress(): void {
    if (this.state !== 'applying') return;
    const now = this.model.engine.now;
    const fail = this.failing();
    this.writeCV((c) => {
      let conds = c.conditions;
      if (fail) {
        conds = setCond(conds, 'Failing', 'True', fail.reason, fail.message, now);
        conds = setCond(
          conds,
          'Progressing',
          'True',
          fail.reason,
          `Unable to apply ${this.target}: ${fail.summary}`,
          now,
        );
      } else {
        const pct = Math.floor((this.done * 100) / this.total);
        let msg = `Working towards ${this.target}: ${this.done} of ${this.total} done (${pct}% complete)`;
        const waiting: string[] = [];
        const degraded: string[] = [];
        for (const [n, t] of this.tasks) {
          if (t.blocked === 'degraded') degraded.push(n);
          else if (t.blocked === 'updating' || t.blocked === 'missing') waiting.push(n);
        }
        if (degraded.length > 0) msg += `, waiting up to 40 minutes on ${degraded.sort().join(', ')}`;
        else if (waiting.length > 0) msg += `, waiting on ${waiting.sort().join(', ')}`;
        conds = setCond(conds, 'Failing', 'False', '', '', now);
        conds = setCond(conds, 'Progressing', 'True', '', msg, now);
      }
      return { ...c, conditions: this.upgradeable(conds) };
    });
  }

  private complete(): void {
    const { engine, facts, store } = this.model;
    const now = engine.now;
    this.state = 'done';
    this.writeCV((c) => {
      let conds = setCond(c.conditions, 'Available', 'True', '', `Done applying ${this.target}`, now);
      conds = setCond(conds, 'Failing', 'False', '', '', now);
      conds = setCond(conds, 'Progressing', 'False', '', `Cluster version is ${this.target}`, now);
      const [head, ...rest] = c.history;
      const history = head
        ? [{ ...head, state: 'Completed' as const, completionTime: now }, ...rest]
        : c.history;
      return { ...c, history, conditions: this.upgradeable(conds) };
    });
    facts.cvoCompletedAt = now;
    const master = store.get('MachineConfigPool', 'master');
    if (master && findCond(master.status.conditions, 'Updating')?.status === 'True' && !facts.violation) {
      facts.violation = true;
      facts.violationAt = now;
    }
    for (const hook of this.model.onCvoCompleted) hook();
  }

  private onClusterOperator(co: ClusterOperatorObj): void {
    const u = findCond(co.conditions, 'Upgradeable');
    const had = this.notUpgradeable.get(co.meta.name);
    if (u?.status === 'False') {
      if (had === u) return;
      this.notUpgradeable.set(co.meta.name, u);
    } else {
      if (had === undefined) return;
      this.notUpgradeable.delete(co.meta.name);
    }
    this.queueUpgradeable();
  }

  private queueUpgradeable(): void {
    if (this.upgradeableQueued || this.state === 'idle' || this.state === 'loading') return;
    this.upgradeableQueued = true;
    const { engine } = this.model;
    engine.schedule(1000, this.actor, 'upgradeable', () => {
      this.upgradeableQueued = false;
      this.writeCV((c) => ({ ...c, conditions: this.upgradeable(c.conditions) }));
    });
  }

  /** Aggregate ClusterOperator Upgradeable=False into the ClusterVersion's condition (docs/domain.md 5.5). */
  private upgradeable(conds: readonly Cond[]): readonly Cond[] {
    const now = this.model.engine.now;
    if (this.notUpgradeable.size === 0) return setCond(conds, 'Upgradeable', 'True', '', '', now);
    const blocked = [...this.notUpgradeable].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    if (blocked.length === 0) return setCond(conds, 'Upgradeable', 'True', '', '', now);
    if (blocked.length === 1) {
      const [name, u] = blocked[0] as [string, Cond];
      return setCond(
        conds,
        'Upgradeable',
        'False',
        u.reason,
        `Cluster operator ${name} should not be upgraded between minor versions: ${u.message}`,
        now,
      );
    }
    const lines = blocked.map(
      ([n, u]) =>
        `\n* Cluster operator ${n} should not be upgraded between minor versions: ${u.reason}: ${u.message}`,
    );
    return setCond(
      conds,
      'Upgradeable',
      'False',
      'ClusterOperatorsNotUpgradeable',
      `Multiple cluster operators should not be upgraded between minor versions:${lines.join('')}`,
      now,
    );
  }

  private writeCV(change: (cv: ClusterVersionObj) => ClusterVersionObj): void {
    const store = this.model.store;
    const cv = store.get('ClusterVersion', 'version');
    if (!cv) return;
    const next = change(cv);
    if (
      next.conditions === cv.conditions &&
      next.history === cv.history &&
      next.desired === cv.desired &&
      next.observedGeneration === cv.observedGeneration
    ) {
      return;
    }
    store.write({ ...next, meta: nextMeta(cv.meta) });
  }
}

/** Why a ClusterOperator is not yet at level for `target` (docs/domain.md 5.3), or undefined when it is. */
function levelState(co: ClusterOperatorObj | undefined, target: string): Blocked | undefined {
  if (!co) return 'missing';
  if (findCond(co.conditions, 'Available')?.status !== 'True') return 'unavailable';
  if (findCond(co.conditions, 'Degraded')?.status !== 'False') return 'degraded';
  const v = co.versions.find((x) => x.name === 'operator');
  if (v?.version !== target) return 'updating';
  return undefined;
}
