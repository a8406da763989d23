/**
 * Work queues and polls as controllers use them, in virtual time:
 * - WorkQueue: client-go's delaying, rate-limited queue. A key is never processed twice at once;
 *   adding it while it is processed runs it again afterwards; `addAfter` keeps the earliest time.
 * - Poll: `wait.Poll`/`PollImmediate`. The condition only reads the actor's cache, so instead of
 *   waking every interval the poll sleeps until the cache changes and then wakes at the next tick
 *   the real poll would have had: same outcome, far fewer events.
 */
import type { Actor, Engine } from '../engine.js';

interface Pending {
  at: number;
}

export class WorkQueue {
  private readonly pending = new Map<string, Pending>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly engine: Engine,
    private readonly actor: Actor,
    private readonly label: string,
    /** Process `key`; call `done(key, failed)` when finished (possibly later, after a modelled duration). */
    private readonly process: (key: string) => void,
  ) {}

  add(key: string): void {
    this.addAfter(key, 0);
  }

  addAfter(key: string, delay: number): void {
    const at = this.engine.now + delay;
    const p = this.pending.get(key);
    if (p && p.at <= at) return;
    const entry: Pending = { at };
    this.pending.set(key, entry);
    this.engine.scheduleAt(at, this.actor, this.label, () => {
      if (this.pending.get(key) !== entry) return; // superseded by an earlier add
      this.pending.delete(key);
      if (this.processing.has(key)) {
        this.dirty.add(key);
        return;
      }
      this.processing.add(key);
      this.process(key);
    });
  }

  /** Finish processing `key`; a failed key is retried after 5 ms·2^n (client-go's default limiter). */
  done(key: string, failed: boolean): void {
    this.processing.delete(key);
    if (failed) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      this.addAfter(key, Math.min(5 * 2 ** (n - 1), 1_000_000));
    } else {
      this.failures.delete(key);
    }
    if (this.dirty.delete(key)) this.add(key);
  }
}

export class Poll {
  private active = true;
  private tickPending = false;
  private lastTick = -1;
  private readonly start: number;

  constructor(
    private readonly engine: Engine,
    private readonly actor: Actor,
    private readonly label: string,
    private readonly interval: number,
    timeout: number,
    immediate: boolean,
    /** True when done. */
    private readonly condition: () => boolean,
    private readonly onDone: (ok: boolean) => void,
  ) {
    this.start = engine.now;
    this.tickPending = true;
    engine.schedule(immediate ? 0 : interval, actor, label, () => this.tick());
    engine.schedule(timeout, actor, `${label} timeout`, () => {
      if (!this.active) return;
      this.active = false;
      onDone(false);
    });
  }

  get isActive(): boolean {
    return this.active;
  }

  /** The actor's cache changed: wake at the poll's next tick. */
  poke(): void {
    if (!this.active || this.tickPending) return;
    const now = this.engine.now;
    const k = Math.ceil((now - this.start) / this.interval);
    let at = this.start + k * this.interval;
    if (at <= this.lastTick) at = this.lastTick + this.interval;
    this.tickPending = true;
    this.engine.scheduleAt(at, this.actor, this.label, () => this.tick());
  }

  cancel(): void {
    this.active = false;
  }

  private tick(): void {
    this.tickPending = false;
    if (!this.active) return;
    this.lastTick = this.engine.now;
    if (this.condition()) {
      this.active = false;
      this.onDone(true);
    }
  }
}
