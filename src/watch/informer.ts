/**
 * List+watch of one stream, robust like a controller's reflector (client-go's, which kubectl and the
 * OpenShift controllers use): watch from the list's resourceVersion with bookmarks; when the stream
 * ends or breaks, watch again from the last resourceVersion seen, after a backoff with jitter; when
 * the server says that resourceVersion is gone (410), list again and turn the difference with what
 * was held into ADDED/MODIFIED/DELETED, so no change that is still visible is lost.
 */
import {
  ApiError,
  keyOf,
  type LiveClient,
  type LiveState,
  type RawObject,
  type Stream,
  streamId,
  type WatchEvent,
} from '../live/index.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

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
}

const DEFAULT_BACKOFF: Backoff = { baseMs: 50, maxMs: 5_000 };

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
    readonly backoff: Backoff = DEFAULT_BACKOFF,
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
    let failures = 0;
    signal.addEventListener('abort', () => this.#handle?.stop(), { once: true });
    while (!signal.aborted) {
      let gone = false;
      let got = 0;
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
        await handle.ended;
        this.connected = false;
        this.#handle = undefined;
      } catch (err) {
        this.connected = false;
        if (err instanceof ApiError && err.status === 410) gone = true;
        // An exec plugin that failed is one line naming it (live/exec.ts), whatever words the plugin
        // printed: not a connection to retry silently.
        else if (isInputError(err)) throw err;
        else if (!(err instanceof ApiError) && !isConnectionError(err)) throw err;
        else if (err instanceof ApiError && err.status !== 410 && err.status < 500 && err.status !== 429) {
          this.onProblem(`${this.client.server}${this.stream.path}: watch refused (HTTP ${err.status})`);
        }
      }
      if (signal.aborted) break;
      if (gone) {
        this.stats.relists++;
        try {
          await this.#relist();
          failures = 0;
          continue;
        } catch (err) {
          if (!(err instanceof ApiError) && !isConnectionError(err) && !isInputError(err)) throw err;
        }
      }
      // A stream that delivered events was healthy: reconnect at once, as a reflector does.
      failures = got > 0 ? 0 : failures + 1;
      this.stats.reconnects++;
      if (failures > 0) {
        const cap = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** Math.min(failures - 1, 10));
        await sleep(cap / 2 + Math.random() * (cap / 2), signal);
      }
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
    const before = this.state.put(kind, e.object, bytes);
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
    const list = await this.client.list(this.stream.path);
    const kind = this.stream.resource.kind;
    const seen = new Set<string>();
    for (const item of list.items) {
      const key = keyOf(item);
      seen.add(key);
      const held = this.state.get(kind, key);
      const rv = rvOf(item);
      if (held && rv !== undefined && !newer(rv, rvOf(held))) continue;
      this.#event({ type: held ? 'MODIFIED' : 'ADDED', object: item }, true);
    }
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

function isInputError(err: unknown): boolean {
  return err instanceof Error && err.name === 'InputError';
}
