/**
 * List+watch of one stream, robust like a controller's reflector (client-go's, which kubectl and the
 * OpenShift controllers use): watch from the list's resourceVersion with bookmarks; when a healthy
 * stream ends (the server's timeout), watch again at once from the last resourceVersion seen; when
 * it breaks, is refused, or ends at once with nothing in it, watch again after a jittered exponential
 * backoff; when the server says that resourceVersion is gone (410), list again after that backoff and
 * turn the difference with what was held into ADDED/MODIFIED/DELETED, so no change that is still
 * visible is lost. The backoff is the reflector's (client-go tools/cache/reflector.go,
 * NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)): from 0.8–1.6 s doubling to 30–60 s,
 * back to the start after two minutes without a failure (docs/live.md, "A misbehaving server").
 */
import {
  ApiError,
  keyOf,
  type LiveClient,
  type LiveState,
  MAX_EVENTS,
  type RawObject,
  type Stream,
  streamId,
  type WatchEvent,
} from '../live/index.js';

type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  readonly stream: Stream;
  readonly type: ChangeType;
  readonly before: RawObject | undefined;
  readonly after: RawObject | undefined;
  /** When the change happened, when the server says (a replay's recorded moment). */
  readonly happenedAt?: number;
  /**
   * Seen only as the net effect of a relist after 410 Gone: it happened some time since the stream's
   * last event, so the moment it is seen does not date it.
   */
  readonly relisted?: true;
}

export interface InformerStats {
  watches: number;
  reconnects: number;
  relists: number;
  bookmarks: number;
  events: number;
  bytes: number;
}

export interface Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
  /** A backoff that has not been needed for this long starts again from baseMs. */
  readonly resetMs?: number;
}

/** client-go's reflector: 800 ms initial, 30 s cap, reset after 2 min, factor 2, jitter 1.0. */
export const REFLECTOR_BACKOFF: Backoff = { baseMs: 800, maxMs: 30_000, resetMs: 120_000 };

/** A watch that ends sooner than this with nothing in it did not work (client-go's "very short watch"). */
const SHORT_WATCH_MS = 1000;

/**
 * apimachinery's exponential backoff manager: each wait is the current step plus up to as much again
 * at random (jitter 1.0); the step doubles up to the cap, and returns to the start when the previous
 * wait began more than resetMs ago.
 */
export class BackoffTimer {
  #step: number;
  #last = Number.NEGATIVE_INFINITY;
  constructor(
    readonly backoff: Backoff,
    readonly random: () => number = Math.random,
  ) {
    this.#step = backoff.baseMs;
  }

  next(now = performance.now()): number {
    if (now - this.#last > (this.backoff.resetMs ?? REFLECTOR_BACKOFF.resetMs ?? 0))
      this.#step = this.backoff.baseMs;
    this.#last = now;
    const wait = this.#step + this.random() * this.#step;
    this.#step = Math.min(this.backoff.maxMs, this.#step * 2);
    return wait;
  }
}

/**
 * A relist after 410 Gone: the changes of this stream after resourceVersion `after` up to the list's
 * `listed` were seen only as their net effect (an object that changed twice in between shows its
 * latest state once), because the server no longer had them to send.
 */
export interface RelistGap {
  readonly stream: string;
  readonly after: string;
  readonly listed: string;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function rvOf(o: RawObject): string | undefined {
  const rv = o.metadata?.resourceVersion;
  return typeof rv === 'string' ? rv : undefined;
}

/** Whether `a` is a newer resourceVersion than `b` (numeric when both are, as etcd's are). */
function newer(a: string, b: string | undefined): boolean {
  if (b === undefined) return true;
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) > BigInt(b);
  return a !== b;
}

export class Informer {
  #rv: string;
  #handle: { stop(): void } | undefined;
  /** A watch is open: every change before it was opened has been delivered. */
  connected = false;

  constructor(
    readonly client: LiveClient,
    readonly state: LiveState,
    readonly stream: Stream,
    resourceVersion: string,
    readonly onChange: (c: Change) => void,
    readonly stats: InformerStats,
    readonly backoff: Backoff = REFLECTOR_BACKOFF,
    readonly onProblem: (text: string) => void = () => undefined,
    readonly onRelist: (gap: RelistGap) => void = () => undefined,
  ) {
    this.#rv = resourceVersion;
  }

  get id(): string {
    return streamId(this.stream);
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const timer = new BackoffTimer(this.backoff);
    signal.addEventListener('abort', () => this.#handle?.stop(), { once: true });
    let relist = false;
    while (!signal.aborted) {
      if (relist) {
        this.stats.relists++;
        try {
          await this.#relist();
          relist = false;
        } catch (err) {
          // A list the server answered with bad data is as bad as a bad file; one it did not
          // answer (or cut off) is tried again, after the wait.
          if (!(err instanceof ApiError) && !isConnectionError(err) && !isUnreachable(err)) throw err;
          await sleep(timer.next(), signal);
          continue;
        }
      }
      let gone = false;
      let got = 0;
      let healthy = false;
      const started = performance.now();
      try {
        this.stats.watches++;
        const handle = await this.client.watch(this.stream.path, this.#rv, (e) => {
          got++;
          if (e.type === 'ERROR') {
            const code = (e.object as { code?: unknown }).code;
            if (code === 410) gone = true;
            return;
          }
          this.#event(e);
        });
        this.#handle = handle;
        this.connected = true;
        if (signal.aborted) handle.stop();
        const ended = await handle.ended;
        this.connected = false;
        this.#handle = undefined;
        // Bad data from the server (an object that fails validation, a line past its cap) is an
        // input error like a bad file: one line, exit 2, not a connection to retry for ever.
        if (isInputError(ended)) throw ended;
        healthy = !gone && ended === undefined && (got > 0 || performance.now() - started >= SHORT_WATCH_MS);
      } catch (err) {
        this.connected = false;
        if (err instanceof ApiError && err.status === 410) gone = true;
        // An exec plugin that failed is one line naming it (live/exec.ts), whatever words the plugin
        // printed: not a connection to retry silently.
        else if (isInputError(err)) throw err;
        else if (!(err instanceof ApiError) && !isConnectionError(err)) throw err;
        else if (err instanceof ApiError && err.status < 500 && err.status !== 429) {
          this.onProblem(`${this.client.server}${this.stream.path}: watch refused (HTTP ${err.status})`);
        }
      }
      if (signal.aborted) break;
      this.stats.reconnects++;
      if (gone) relist = true;
      // A stream that ended as streams do (the server's timeout) is watched again at once, as a
      // reflector does; anything else waits first, a 410 included: the relist comes after the wait.
      if (!healthy) await sleep(timer.next(), signal);
    }
  }

  #event(e: WatchEvent, relisted = false): void {
    const rv = rvOf(e.object);
    if (e.type === 'BOOKMARK') {
      this.stats.bookmarks++;
      if (rv !== undefined) this.#rv = rv;
      return;
    }
    this.stats.events++;
    const kind = this.stream.resource.kind;
    const key = keyOf(e.object);
    const held = this.state.get(kind, key);
    // A resumed watch may repeat what was already seen: never report a change twice.
    if (held && rv !== undefined && e.type !== 'DELETED' && !newer(rv, rvOf(held))) {
      if (rv !== undefined && newer(rv, this.#rv)) this.#rv = rv;
      return;
    }
    if (rv !== undefined && newer(rv, this.#rv)) this.#rv = rv;
    if (e.type === 'DELETED') {
      const before = this.state.delete(kind, e.object);
      if (before)
        this.onChange({
          stream: this.stream,
          type: 'DELETED',
          before,
          after: undefined,
          ...when(e),
          ...(relisted ? { relisted } : {}),
        });
      return;
    }
    const bytes = JSON.stringify(e.object).length;
    this.stats.bytes += bytes;
    const { before, kept } = this.state.store(kind, e.object, bytes);
    if (!kept) {
      if (this.state.droppedEvents === 1) {
        this.onProblem(
          `${this.client.server}${this.stream.path}: a flood of Events: past ${MAX_EVENTS} only those the analyses read are kept`,
        );
      }
      return;
    }
    const after = this.state.get(kind, key);
    this.onChange({
      stream: this.stream,
      type: before ? 'MODIFIED' : 'ADDED',
      before,
      after,
      ...when(e),
      ...(relisted ? { relisted } : {}),
    });
  }

  /** List again after 410 Gone: what changed meanwhile becomes changes, in name order. */
  async #relist(): Promise<void> {
    const after = this.#rv;
    const kind = this.stream.resource.kind;
    const seen = new Set<string>();
    // Each item is compared as it is parsed, so a long list is never held whole.
    const list = await this.client.list(this.stream.path, {}, (item) => {
      const key = keyOf(item);
      seen.add(key);
      const held = this.state.get(kind, key);
      const rv = rvOf(item);
      if (held && rv !== undefined && !newer(rv, rvOf(held))) return;
      this.#event({ type: held ? 'MODIFIED' : 'ADDED', object: item }, true);
    });
    for (const held of [...this.state.all(kind)]) {
      const ns = held.metadata?.namespace;
      if (this.stream.namespace !== undefined && ns !== this.stream.namespace) continue;
      if (!seen.has(keyOf(held))) this.#event({ type: 'DELETED', object: held }, true);
    }
    this.#rv = list.resourceVersion;
    this.onRelist({ stream: this.id, after, listed: list.resourceVersion });
  }
}

function when(e: WatchEvent): { happenedAt?: number } {
  const t = e.replayedAt !== undefined ? Date.parse(e.replayedAt) : Number.NaN;
  return Number.isNaN(t) ? {} : { happenedAt: t };
}

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return (
    typeof code === 'string' ||
    (err instanceof Error && /socket|ECONN|EPIPE|closed|timed out|aborted/i.test(err.message))
  );
}

function isUnreachable(err: unknown): boolean {
  return isInputError(err) && (err as { unreachable?: unknown }).unreachable === true;
}

function isInputError(err: unknown): boolean {
  return err instanceof Error && err.name === 'InputError';
}
