/**
 * origin's upgrade test as an observer (docs/domain.md 6; origin test/e2e/upgrade/upgrade.go and
 * monitor.go): it sets spec.desiredUpdate, waits for the CVO to acknowledge it (5 s polls), polls
 * the ClusterVersion every 10 s until the update is Completed, then lists the pools every 10 s until
 * all are updated, recording the invariant violation when the master pool is Updating after the
 * CVO said it was done. It reads the API directly (no cache), and logs what the real test logs.
 */
import type { Actor } from './engine.js';
import { uidFor } from './hash.js';
import type { Model } from './model.js';
import type { ClusterVersionObj, PoolObj } from './objects.js';
import { findCond, nextMeta } from './objects.js';

const INVARIANT = 'the "master" pool should be updated before the CVO reports available at the new version';
const MINUTE = 60_000;

export class UpgradeTest {
  readonly actor: Actor;
  private generation = 0;
  private lastMessage = '';
  private masterError: string | undefined;
  private readonly uid: string;

  constructor(
    private readonly model: Model,
    private readonly onFinished: () => void,
    actorName = 'openshift-tests',
  ) {
    this.actor = model.engine.actor(actorName);
    this.uid = uidFor(`upgrade-attempt:${model.scenario.name}:${model.to.version}`);
  }

  /** Start the test `delay` ms into the run; `requested` runs once the update is requested. */
  start(delay: number, requested?: () => void): void {
    this.requested = requested;
    this.model.engine.schedule(delay, this.actor, 'test start', () => this.requestUpgrade());
  }

  private requested: (() => void) | undefined;

  private log(text: string): void {
    this.model.rec?.log(this.model.engine.now, text);
  }

  private clusterEvent(reason: string, note: string, warning: boolean): void {
    this.model.rec?.event(
      this.model.engine.now,
      {
        kind: 'ClusterVersion',
        name: 'cluster',
        namespace: 'openshift-cluster-version',
        apiVersion: 'config.openshift.io/v1',
      },
      reason,
      note,
      warning ? 'Warning' : 'Normal',
      'openshift-tests.openshift.io/upgrade',
    );
  }

  /** Run `fn` after one API round trip. */
  private api(label: string, fn: () => void): void {
    const { engine, lat } = this.model;
    engine.schedule(engine.rng.sample(lat.testApi), this.actor, label, fn);
  }

  private requestUpgrade(): void {
    const { store, to, facts, engine } = this.model;
    // The test passes an image, so the semantic version it prints is empty.
    this.log(`Starting upgrade to version= image=${to.image} attempt=${this.uid}`);
    this.clusterEvent('UpgradeStarted', `version/ image/${to.image}`, false);
    this.api('update ClusterVersion', () => {
      const cv = store.get('ClusterVersion', 'version') as ClusterVersionObj;
      const written = store.write({
        ...cv,
        meta: nextMeta(cv.meta, { generation: cv.meta.generation + 1 }),
        desiredUpdate: { version: '', image: to.image, force: true },
      });
      this.generation = written.meta.generation;
      facts.upgradeRequestedAt = engine.now;
      this.requested?.();
      this.pollEvery(5000, 2 * MINUTE, this.acknowledged(), (ok) => {
        if (!ok)
          this.fail(
            'Timed out waiting for cluster to acknowledge upgrade: timed out waiting for the condition',
          );
        else {
          this.log('Cluster version operator acknowledged upgrade request');
          this.pollEvery(10_000, 150 * MINUTE, this.checkCompleted(), (done) => this.upgradeFinished(done));
        }
      });
    });
  }

  /** wait.PollImmediate: check now, then every `interval` until the check says done or `timeout` passes. */
  private pollEvery(
    interval: number,
    timeout: number,
    check: (done: (ok: boolean) => void) => void,
    finish: (ok: boolean) => void,
  ): void {
    const { engine } = this.model;
    const deadline = engine.now + timeout;
    const start = engine.now;
    let n = 0;
    const tick = (): void => {
      check((ok) => {
        if (ok) {
          finish(true);
          return;
        }
        n++;
        const next = start + n * interval;
        if (next > deadline) finish(false);
        else engine.scheduleAt(next, this.actor, 'poll', tick);
      });
    };
    tick();
  }

  private acknowledged(): (done: (ok: boolean) => void) => void {
    return (done) =>
      this.api('get ClusterVersion', () => {
        const cv = this.model.store.get('ClusterVersion', 'version') as ClusterVersionObj;
        this.logConditions(cv);
        done(cv.observedGeneration >= this.generation);
      });
  }

  /** versionMonitor.Check: log each of Progressing/Degraded/Failing that is True. */
  private logConditions(cv: ClusterVersionObj): void {
    for (const type of ['Progressing', 'Degraded', 'Failing']) {
      const c = findCond(cv.conditions, type);
      if (c?.status === 'True') {
        this.lastMessage = c.message;
        this.log(`cluster upgrade is ${type}: ${c.message}`);
      }
    }
  }

  private checkCompleted(): (done: (ok: boolean) => void) => void {
    return (done) =>
      this.api('get ClusterVersion', () => {
        const cv = this.model.store.get('ClusterVersion', 'version') as ClusterVersionObj;
        this.logConditions(cv);
        done(reached(cv, this.model.to.image));
      });
  }

  private upgradeFinished(ok: boolean): void {
    const { to, facts, engine } = this.model;
    if (!ok) {
      const err = `Cluster did not complete upgrade: timed out waiting for the condition${this.lastMessage ? `: ${this.lastMessage}` : ''}`;
      this.clusterEvent('UpgradeFailed', `failed to reach cluster version: ${err}`, true);
      this.fail(err);
      return;
    }
    this.log(`Completed upgrade to ${to.image}`);
    facts.testCompletedUpgradeAt = engine.now;
    // The test formats this note from the ClusterVersion it got back when it set desiredUpdate, whose
    // status still named the old release (and it prints the version twice): kept as the test does.
    const old = this.model.from.version;
    this.clusterEvent('UpgradeVersion', `version/${old} image/${old}`, false);
    this.api('record junit', () => {
      this.log('Waiting on pools to be upgraded');
      this.pollEvery(10_000, 30 * MINUTE, this.checkPools(), (done) => this.poolsFinished(done));
    });
  }

  private checkPools(): (done: (ok: boolean) => void) => void {
    return (done) =>
      this.api('list pools', () => {
        const names = [...this.model.store.list('MachineConfigPool')].map((p) => p.meta.name).sort();
        let allUpdated = true;
        const next = (i: number): void => {
          const name = names[i];
          if (name === undefined) {
            done(allUpdated);
            return;
          }
          this.api('get pool', () => {
            const pool = this.model.store.get('MachineConfigPool', name);
            const { upToDate, updating } = this.isPoolUpdated(pool);
            allUpdated &&= upToDate;
            if (name === 'master' && updating && this.masterError === undefined) {
              this.masterError = INVARIANT;
              this.log(`Invariant violation detected: ${INVARIANT}`);
              this.model.facts.testDetectedAt ??= this.model.engine.now;
            }
            next(i + 1);
          });
        };
        next(0);
      });
  }

  /** IsPoolUpdated: paused pools count as up to date; otherwise Updated && !Updating && !Degraded. */
  private isPoolUpdated(pool: PoolObj | undefined): { upToDate: boolean; updating: boolean } {
    if (!pool) return { upToDate: false, updating: false };
    const c = pool.status.conditions;
    const updated = findCond(c, 'Updated')?.status === 'True';
    const updating = findCond(c, 'Updating')?.status === 'True';
    const degraded = findCond(c, 'Degraded')?.status === 'True';
    const name = pool.meta.name;
    if (pool.paused) {
      this.log(
        `Pool ${name} is paused, treating as up-to-date (Updated: ${updated}, Updating: ${updating}, Degraded: ${degraded})`,
      );
      return { upToDate: true, updating };
    }
    if (updated && !updating && !degraded) return { upToDate: true, updating };
    this.log(
      `Pool ${name} is still reporting (Updated: ${updated}, Updating: ${updating}, Degraded: ${degraded})`,
    );
    return { upToDate: false, updating };
  }

  private poolsFinished(ok: boolean): void {
    const { facts, engine } = this.model;
    if (!ok) {
      const err = 'Pools did not complete upgrade: timed out waiting for the condition';
      this.clusterEvent('UpgradeFailed', `failed to upgrade nodes: ${err}`, true);
      this.fail(err);
      return;
    }
    this.log('All pools completed upgrade');
    facts.poolsCompletedAt = engine.now;
    if (this.masterError !== undefined) {
      this.clusterEvent(
        'UpgradeFailed',
        `master was updating after cluster version reached level: ${this.masterError}`,
        true,
      );
      this.fail(this.masterError);
      return;
    }
    this.clusterEvent(
      'UpgradeComplete',
      `version/${this.model.from.version} image/${this.model.from.image}`,
      false,
    );
    this.onFinished();
  }

  private fail(message: string): void {
    this.model.facts.testFailure = message;
    this.onFinished();
  }
}

/** versionMonitor.Reached, ignoring its error returns (a completed update is what matters here). */
function reached(cv: ClusterVersionObj, image: string): boolean {
  if (cv.desired.image !== image) return false;
  const h = cv.history[0];
  if (h?.state !== 'Completed' || h.image !== image) return false;
  return findCond(cv.conditions, 'Progressing')?.status !== 'True';
}
