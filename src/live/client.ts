/**
 * Read-only HTTP to the API server, through the client library's authentication (TLS settings,
 * client certificates, bearer tokens: `KubeConfig.applyToHTTPSOptions`) and exec plugins' (exec.ts), with
 * node:http(s) underneath so the JSON arrives untouched (timestamps stay strings; the typed client
 * turns them into Dates). Only GET is ever sent: get, list (paged with limit/continue) and watch.
 *
 * The server is untrusted input like any file (docs/live.md, "A misbehaving server"): every answer is
 * read as a stream and counted, never buffered whole past its cap; a list page is parsed item by item
 * (by the AnswerReading the sources give it: the JsonItemsReader the file inputs read their Lists
 * with, so the client is the transport only and never imports the sources); a watch line has a length cap; a
 * list follows at most MAX_PAGES continue tokens; every request has a deadline (`--request-timeout`);
 * and every object is held to the run budget's tree limits before anything reads it.
 */
import http from 'node:http';
import https from 'node:https';
import { Budget, InputError, type KindObject, type KnownKind } from '../model/index.js';
import type { LoadedConfig } from './config.js';

/**
 * How the bytes of an answer become objects, given by the sources (sources/live-reading.ts): the
 * streaming JSON reader, tree limits and kind schemas every file input is read with. The sources open
 * the client, never the other way round (.dependency-cruiser.cjs).
 */
export interface AnswerReading {
  /** The most bytes of one answer (a list's pages together, an object). */
  readonly maxResponseBytes: number;
  readonly formatBytes: (n: number) => string;
  /** Hold a parsed value to the budget's tree limits; an InputError when it is past them. */
  readonly checkTree: (value: unknown, file: string, budget: Budget, depth?: number) => void;
  /**
   * A list page read as it arrives: its items to `onItems` in batches, each held to the tree limits;
   * `end` gives the members beside `items` (metadata). Throws what `isNotAList` recognises when the
   * bytes are no object with an items array.
   */
  readonly listReader: (
    file: string,
    budget: Budget,
    largeItemBytes: number,
    onItems: (batch: readonly unknown[]) => void,
  ) => { write(chunk: Buffer): void; end(): ReadonlyMap<string, unknown> };
  readonly isNotAList: (err: unknown) => err is Error;
  /** An object checked by its kind's schema, as the file inputs check theirs. */
  readonly validate: <K extends KnownKind>(
    kind: K,
    raw: unknown,
    file: string,
    where: string,
  ) => KindObject<K>;
}

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

/**
 * The API server could not be reached, or its answer broke off: worth another try by a watch that
 * retries (an InputError still, one line and exit 2, for a command that reads once).
 */
class UnreachableError extends InputError {
  readonly unreachable = true;
}

export interface WatchHandle {
  /** Resolves when the server ends the stream (or it breaks, with the error). */
  readonly ended: Promise<Error | undefined>;
  stop(): void;
}

const PAGE = 500;

/**
 * Pages one list may take: 500,000 objects, far above the resources atlevel reads on any cluster,
 * and an end to a server that hands out continue tokens for ever.
 */
const MAX_PAGES = 1000;
/**
 * One watch event is one object, and etcd refuses objects over 1.5 MiB (its default request limit):
 * a line longer than this is not an event.
 */
const MAX_WATCH_LINE_BYTES = 16 * 1024 * 1024;
/** An error answer (a Status) is read only this far, for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** `--request-timeout`'s default: kubectl's is none, but a trickling server must not hold us. */
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** A watch asks the server to end it after 5–10 minutes; past that and this grace, it is cut. */
const WATCH_GRACE_MS = 60_000;

export interface ClientLimits {
  /** Whole-request deadline for get and list pages, in ms; 0: none (`--request-timeout 0`). */
  readonly requestTimeoutMs: number;
  /** Bytes of one answer (a list page, an object). */
  readonly maxResponseBytes: number;
  readonly maxLineBytes: number;
  readonly maxPages: number;
  /** Tree depth and node limits (`--max-tree-depth`, `--max-tree-nodes`). */
  readonly budget: Budget;
}

export class LiveClient {
  /** Requests sent, by kind of request, for the bench and --verbose. */
  readonly counts = { get: 0, list: 0, watch: 0 };
  readonly limits: ClientLimits;
  /** For an http:// server: the kubeconfig with TLS checks off (there is no TLS), as kubectl does. */
  #plain: Promise<LoadedConfig['kc']> | undefined;

  constructor(
    readonly config: LoadedConfig,
    readonly reading: AnswerReading,
    limits: Partial<ClientLimits> = {},
  ) {
    this.limits = {
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      maxResponseBytes: reading.maxResponseBytes,
      maxLineBytes: MAX_WATCH_LINE_BYTES,
      maxPages: MAX_PAGES,
      budget: new Budget(),
      ...limits,
    };
  }

  get server(): string {
    return this.config.server;
  }

  /**
   * client-node refuses an http:// server unless insecure-skip-tls-verify is set (it makes an agent
   * for it); kubectl connects, sending the same credentials. The same users and contexts, with the
   * clusters marked so, give the same headers without the refusal.
   */
  #kubeConfig(): Promise<LoadedConfig['kc']> {
    const kc = this.config.kc;
    if (!this.server.startsWith('http:')) return Promise.resolve(kc);
    this.#plain ??= import('@kubernetes/client-node').then(({ KubeConfig }) => {
      const plain = new KubeConfig();
      plain.loadFromOptions({
        clusters: kc.clusters.map((c) => ({ ...c, skipTLSVerify: true })),
        users: kc.users,
        contexts: kc.contexts,
        currentContext: kc.getCurrentContext(),
      });
      return plain;
    });
    return this.#plain;
  }

  async #options(): Promise<https.RequestOptions> {
    const opts: https.RequestOptions = {};
    await (await this.#kubeConfig()).applyToHTTPSOptions(opts);
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

  /**
   * Send one GET. `deadlineMs` (0: none) covers the whole exchange, body included: when it passes,
   * the response is destroyed with an error saying so, so a reader of the body sees it end.
   */
  async #request(path: string, query: Record<string, string>, deadlineMs: number) {
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
      let timer: NodeJS.Timeout | undefined;
      const expired = () => new Error(`no complete answer within ${deadlineMs / 1000} s (--request-timeout)`);
      request.on('response', (res) => {
        // A connection cut mid-stream destroys the response with an error: the caller sees it as
        // the stream ending (watch) or a failed read (get); it must never go unhandled.
        res.on('error', () => undefined);
        if (timer) {
          clearTimeout(timer);
          timer = setTimeout(() => res.destroy(expired()), Math.max(0, deadline - Date.now()));
          res.on('close', () => clearTimeout(timer));
        }
        resolve(res);
      });
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      const deadline = Date.now() + deadlineMs;
      if (deadlineMs > 0) timer = setTimeout(() => request.destroy(expired()), deadlineMs);
      request.end();
    });
  }

  #unreachable(path: string): (err: Error) => never {
    return (err: Error) => {
      // Already one line naming what is wrong (an exec plugin that failed): not a network problem.
      if (err instanceof InputError) throw err;
      throw new UnreachableError(
        this.server + path,
        `cannot reach the API server (${err.message})`,
        "check the kubeconfig's server and your network",
      );
    };
  }

  /** Read an answer other than 200 (its first bytes only) into the ApiError it means. */
  async #refusal(res: http.IncomingMessage, path: string): Promise<ApiError> {
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const c of res as AsyncIterable<Buffer>) {
        chunks.push(c);
        length += c.length;
        if (length >= MAX_ERROR_BODY_BYTES) break;
      }
    } catch {
      // The status code says enough.
    }
    res.destroy();
    let reason = '';
    try {
      const body: unknown = JSON.parse(
        Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8'),
      );
      const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
      if (typeof message === 'string') reason = message.slice(0, 500);
    } catch {
      reason = res.statusMessage ?? '';
    }
    return new ApiError(res.statusCode ?? 0, path, reason);
  }

  /**
   * Feed the body to `write`, counting it against the cap (`used` bytes of it already spent by the
   * earlier pages of the same list); returns the bytes read. Errors are one line.
   */
  async #readBody(
    res: http.IncomingMessage,
    path: string,
    write: (chunk: Buffer) => void,
    used = 0,
  ): Promise<number> {
    let length = 0;
    const cap = this.limits.maxResponseBytes;
    try {
      for await (const c of res as AsyncIterable<Buffer>) {
        length += c.length;
        if (used + length > cap) {
          res.destroy();
          throw new InputError(
            this.server + path,
            `${used > 0 ? 'the pages of the list add up to' : "the API server's answer is"} more than ${this.reading.formatBytes(cap)}; not read further`,
          );
        }
        write(c);
      }
    } catch (err) {
      // What `write` found wrong with the bytes (not a list, a tree over its limits) is about the
      // data; anything else broke the stream.
      if (err instanceof InputError || this.reading.isNotAList(err)) throw err;
      throw new UnreachableError(
        this.server + path,
        `the API server's answer broke off after ${this.reading.formatBytes(length)} (${(err as Error).message})`,
      );
    }
    if (!res.complete) {
      throw new UnreachableError(
        this.server + path,
        `the API server's answer broke off after ${this.reading.formatBytes(length)}`,
      );
    }
    return length;
  }

  /** GET one JSON object. */
  async get(path: string, query: Record<string, string> = {}): Promise<RawObject> {
    this.counts.get++;
    const res = await this.#request(path, query, this.limits.requestTimeoutMs).catch(this.#unreachable(path));
    if (res.statusCode !== 200) throw await this.#refusal(res, path);
    const chunks: Buffer[] = [];
    await this.#readBody(res, path, (c) => chunks.push(c));
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = undefined;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new InputError(this.server + path, 'the API server answered something that is not a JSON object');
    }
    this.reading.checkTree(body, this.server + path, this.limits.budget);
    return body as RawObject;
  }

  /** One page of a list, its items parsed as they arrive and held to the tree limits one by one. */
  async #page(path: string, query: Record<string, string>, onItem: (item: RawObject) => void, used: number) {
    const file = this.server + path;
    const res = await this.#request(path, query, this.limits.requestTimeoutMs).catch(this.#unreachable(path));
    if (res.statusCode !== 200) throw await this.#refusal(res, path);
    let odd = false;
    // One object is at most etcd's 1.5 MiB: parsed whole up to the line cap (which nests without
    // limit; the tree limits then hold it to the depth limit), not in pieces.
    const reader = this.reading.listReader(file, this.limits.budget, this.limits.maxLineBytes, (batch) => {
      for (const item of batch) {
        if (item && typeof item === 'object' && !Array.isArray(item)) onItem(item as RawObject);
        else odd = true;
      }
    });
    let members: ReadonlyMap<string, unknown>;
    let bytes: number;
    try {
      bytes = await this.#readBody(res, path, (c) => reader.write(c), used);
      members = reader.end();
    } catch (err) {
      if (this.reading.isNotAList(err)) {
        throw new InputError(
          file,
          `the API server answered something that is not a list (an object with an items array): ${err.message}`,
        );
      }
      throw err;
    }
    if (odd) throw new InputError(file, 'the list has an item that is not an object');
    const metadata = members.get('metadata');
    this.reading.checkTree(metadata, file, this.limits.budget, 2);
    const meta = (metadata && typeof metadata === 'object' ? metadata : {}) as {
      continue?: unknown;
      resourceVersion?: unknown;
    };
    return {
      bytes,
      token: typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : undefined,
      resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : undefined,
    };
  }

  /**
   * Every item of a list, page by page (a continue token reads one consistent snapshot). Given
   * `onItem`, each item goes to it as it is parsed and `items` stays empty, so a long list is never
   * held whole here.
   */
  async list(
    path: string,
    query: Record<string, string> = {},
    onItem?: (item: RawObject) => void,
  ): Promise<RawList> {
    this.counts.list++;
    const items: RawObject[] = [];
    const take = onItem ?? ((item: RawObject) => items.push(item));
    let token: string | undefined;
    let resourceVersion = '';
    const tokens = new Set<string>();
    let pages = 0;
    // One cap for the whole list, not per page: pages without end cannot add up past it either.
    let used = 0;
    do {
      if (++pages > this.limits.maxPages) {
        throw new InputError(
          this.server + path,
          `the list goes on past ${this.limits.maxPages} pages of ${PAGE} (continue tokens without end); not read further`,
        );
      }
      const page = await this.#page(
        path,
        { ...query, limit: String(PAGE), ...(token ? { continue: token } : {}) },
        take,
        used,
      );
      used += page.bytes;
      if (page.resourceVersion !== undefined) resourceVersion = page.resourceVersion;
      token = page.token;
      if (token !== undefined) {
        if (tokens.has(token)) {
          throw new InputError(
            this.server + path,
            'the list hands out a continue token it gave before (a loop); not read further',
          );
        }
        tokens.add(token);
      }
    } while (token);
    return { items, resourceVersion };
  }

  /**
   * Watch from `resourceVersion`, with bookmarks; `onEvent` gets each event in order. The stream ends
   * when the server closes it (its timeout, a restart) or it breaks; `ended` says which. An error
   * `onEvent` throws (an object that fails validation) ends the stream with that error.
   */
  async watch(
    path: string,
    resourceVersion: string,
    onEvent: (e: WatchEvent) => void,
    query: Record<string, string> = {},
  ): Promise<WatchHandle> {
    this.counts.watch++;
    const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
    const res = await this.#request(
      path,
      {
        ...query,
        watch: 'true',
        allowWatchBookmarks: 'true',
        ...(resourceVersion !== '' ? { resourceVersion } : {}),
        timeoutSeconds: String(timeoutSeconds),
      },
      // The server ends the watch at timeoutSeconds; one that keeps it open past that is cut.
      timeoutSeconds * 1000 + WATCH_GRACE_MS,
    );
    if (res.statusCode !== 200) throw await this.#refusal(res, path);
    let finish!: (e: Error | undefined) => void;
    const ended = new Promise<Error | undefined>((resolve) => {
      finish = resolve;
    });
    let done = false;
    const end = (e: Error | undefined) => {
      if (done) return;
      done = true;
      finish(e);
      res.destroy();
    };
    const file = `${this.server}${path} (watch)`;
    const line = (text: string) => {
      if (text.trim() === '') return;
      let event: unknown;
      try {
        event = JSON.parse(text);
      } catch {
        end(new Error('a watch event that is not JSON'));
        return;
      }
      this.reading.checkTree(event, file, this.limits.budget);
      const e = event as { type?: unknown; object?: unknown; replayedAt?: unknown };
      if (typeof e.type !== 'string' || !e.object || typeof e.object !== 'object' || Array.isArray(e.object))
        return;
      onEvent({
        type: e.type as WatchEvent['type'],
        object: e.object as RawObject,
        ...(typeof e.replayedAt === 'string' ? { replayedAt: e.replayedAt } : {}),
      });
    };
    // Lines split by hand, each held to the line cap while it is collected (readline has no cap).
    let parts: Buffer[] = [];
    let partsBytes = 0;
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      try {
        let at = 0;
        for (;;) {
          const nl = chunk.indexOf(0x0a, at);
          if (nl < 0) break;
          const piece = chunk.subarray(at, nl);
          const text =
            partsBytes > 0 ? Buffer.concat([...parts, piece]).toString('utf8') : piece.toString('utf8');
          parts = [];
          partsBytes = 0;
          if (text.length > this.limits.maxLineBytes)
            throw lineTooLong(file, this.limits.maxLineBytes, this.reading.formatBytes);
          line(text);
          if (done) return;
          at = nl + 1;
        }
        if (at < chunk.length) {
          partsBytes += chunk.length - at;
          if (partsBytes > this.limits.maxLineBytes)
            throw lineTooLong(file, this.limits.maxLineBytes, this.reading.formatBytes);
          parts.push(chunk.subarray(at));
        }
      } catch (err) {
        end(err as Error);
      }
    });
    res.on('end', () => {
      if (done) return;
      try {
        if (partsBytes > 0) line(Buffer.concat(parts).toString('utf8'));
        end(undefined);
      } catch (err) {
        end(err as Error);
      }
    });
    res.on('error', (err) => end(err));
    res.on('close', () => end(res.complete ? undefined : new Error('watch connection closed')));
    return {
      ended,
      stop: () => end(undefined),
    };
  }
}

function lineTooLong(file: string, cap: number, formatBytes: (n: number) => string): InputError {
  return new InputError(
    file,
    `a watch event longer than ${formatBytes(cap)} (no end of line); not read further`,
  );
}
