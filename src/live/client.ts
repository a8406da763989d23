/**
 * Read-only HTTP to the API server, through the client library's authentication (TLS settings,
 * client certificates, bearer tokens: `KubeConfig.applyToHTTPSOptions`) and exec plugins' (exec.ts), with
 * node:http(s) underneath so the JSON arrives untouched (timestamps stay strings; the typed client
 * turns them into Dates). Only GET is ever sent: get, list (paged with limit/continue) and watch.
 */
import http from 'node:http';
import https from 'node:https';
import { createInterface } from 'node:readline';
import { InputError } from '../model/index.js';
import type { LoadedConfig } from './config.js';

/** JSON as the API server sent it; validated by the kinds' schemas before analyses see it. */
export type RawObject = Record<string, unknown> & {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; [k: string]: unknown };
};

export interface RawList {
  readonly items: RawObject[];
  readonly resourceVersion: string;
}

/** A watch event (https://kubernetes.io/docs/reference/using-api/api-concepts/#watch-bookmarks). */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: RawObject;
  /** `atlevel serve --replay` only: the recorded moment of the change (docs/serve.md). */
  readonly replayedAt?: string;
}

/** An HTTP answer other than 200: the status code and the Status object's reason, if any. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: HTTP ${status}${reason ? ` ${reason}` : ''}`);
  }
}

export interface WatchHandle {
  /** Resolves when the server ends the stream (or it breaks, with the error). */
  readonly ended: Promise<Error | undefined>;
  stop(): void;
}

const PAGE = 500;

export class LiveClient {
  /** Requests sent, by kind of request, for the bench and --verbose. */
  readonly counts = { get: 0, list: 0, watch: 0 };

  constructor(readonly config: LoadedConfig) {}

  get server(): string {
    return this.config.server;
  }

  async #options(): Promise<https.RequestOptions> {
    const opts: https.RequestOptions = {};
    await this.config.kc.applyToHTTPSOptions(opts);
    if (this.config.exec) {
      const credential = await this.config.exec.credential();
      if (credential.cert !== undefined) {
        opts.cert = credential.cert;
        opts.key = credential.key;
      }
      // A token written in the kubeconfig wins over the plugin's, as in client-go (and client-node).
      const headers = (opts.headers ?? {}) as Record<string, unknown>;
      if (credential.token !== undefined && headers.Authorization === undefined) {
        opts.headers = {
          ...headers,
          Authorization: `Bearer ${credential.token}`,
        } as http.OutgoingHttpHeaders;
      }
    }
    return opts;
  }

  async #request(path: string, query: Record<string, string>, timeoutMs: number | undefined) {
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const opts = await this.#options();
    const isHttps = url.protocol === 'https:';
    const headers = { ...(opts.headers ?? {}), accept: 'application/json' };
    const request = isHttps
      ? https.request(url, { ...opts, method: 'GET', headers })
      : // client-node makes an https agent even for http servers; plain http needs none.
        http.request(url, {
          method: 'GET',
          headers,
          ...(opts.auth ? { auth: opts.auth } : {}),
        });
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      request.on('response', (res) => {
        // A connection cut mid-stream destroys the response with an error: the caller sees it as
        // the stream ending (watch) or a failed read (get); it must never go unhandled.
        res.on('error', () => undefined);
        resolve(res);
      });
      request.on('error', reject);
      if (timeoutMs !== undefined)
        request.setTimeout(timeoutMs, () => request.destroy(new Error('timed out')));
      request.end();
    });
  }

  /** GET one JSON document (an object or one page of a list). */
  async get(path: string, query: Record<string, string> = {}): Promise<RawObject> {
    this.counts.get++;
    const res = await this.#request(path, query, 60_000).catch((err: Error) => {
      // Already one line naming what is wrong (an exec plugin that failed): not a network problem.
      if (err instanceof InputError) throw err;
      throw new InputError(
        this.server + path,
        `cannot reach the API server (${err.message})`,
        "check the kubeconfig's server and your network",
      );
    });
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (res.statusCode !== 200) {
      const reason =
        body && typeof body === 'object' ? String((body as { message?: unknown }).message ?? '') : '';
      throw new ApiError(res.statusCode ?? 0, path, reason);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new InputError(this.server + path, 'the API server answered something that is not a JSON object');
    }
    return body as RawObject;
  }

  /** Every item of a list, page by page (a continue token reads one consistent snapshot). */
  async list(path: string, query: Record<string, string> = {}): Promise<RawList> {
    this.counts.list++;
    const items: RawObject[] = [];
    let token: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.get(path, {
        ...query,
        limit: String(PAGE),
        ...(token ? { continue: token } : {}),
      });
      const list = page as { items?: unknown; metadata?: { continue?: unknown; resourceVersion?: unknown } };
      if (!Array.isArray(list.items)) {
        throw new InputError(this.server + path, 'the list has no items array');
      }
      for (const item of list.items) if (item && typeof item === 'object') items.push(item as RawObject);
      token =
        typeof list.metadata?.continue === 'string' && list.metadata.continue !== ''
          ? list.metadata.continue
          : undefined;
      if (typeof list.metadata?.resourceVersion === 'string') resourceVersion = list.metadata.resourceVersion;
    } while (token);
    return { items, resourceVersion };
  }

  /**
   * Watch from `resourceVersion`, with bookmarks; `onEvent` gets each event in order. The stream ends
   * when the server closes it (its timeout, a restart) or it breaks; `ended` says which.
   */
  async watch(
    path: string,
    resourceVersion: string,
    onEvent: (e: WatchEvent) => void,
    query: Record<string, string> = {},
  ): Promise<WatchHandle> {
    this.counts.watch++;
    const res = await this.#request(
      path,
      {
        ...query,
        watch: 'true',
        allowWatchBookmarks: 'true',
        ...(resourceVersion !== '' ? { resourceVersion } : {}),
        timeoutSeconds: String(300 + Math.floor(Math.random() * 300)),
      },
      undefined,
    );
    if (res.statusCode !== 200) {
      res.resume();
      throw new ApiError(res.statusCode ?? 0, path, res.statusMessage ?? '');
    }
    let finish!: (e: Error | undefined) => void;
    const ended = new Promise<Error | undefined>((resolve) => {
      finish = resolve;
    });
    let done = false;
    const end = (e: Error | undefined) => {
      if (done) return;
      done = true;
      finish(e);
    };
    const lines = createInterface({ input: res, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => {
      if (done || line.trim() === '') return;
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        end(new Error('a watch event that is not JSON'));
        res.destroy();
        return;
      }
      const e = event as { type?: unknown; object?: unknown; replayedAt?: unknown };
      if (typeof e.type !== 'string' || !e.object || typeof e.object !== 'object') return;
      onEvent({
        type: e.type as WatchEvent['type'],
        object: e.object as RawObject,
        ...(typeof e.replayedAt === 'string' ? { replayedAt: e.replayedAt } : {}),
      });
    });
    res.on('error', (err) => end(err));
    res.on('close', () => end(res.complete ? undefined : new Error('watch connection closed')));
    lines.on('close', () => end(undefined));
    // readline re-emits its input's errors (a cut connection) on itself.
    lines.on('error', (err) => end(err));
    return {
      ended,
      stop: () => {
        end(undefined);
        res.destroy();
      },
    };
  }
}
