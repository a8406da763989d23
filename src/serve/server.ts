/**
 * The HTTP side: a read-only Kubernetes API over a ServedStore, on node:http. Routing accepts only
 * the shapes of Kubernetes API paths and looks every name up in memory; nothing is ever read from a
 * path taken from a URL (pod logs come from an index built at load time). Writes are 405 but for the
 * self reviews (reviews.ts: they ask what the client may do and store nothing), unknown paths 404,
 * bad selectors 400. Non-watch requests time out; a watch is written from the change log only
 * as fast as its client reads, and one whose client stops reading is closed; the client resumes from
 * the last resourceVersion it saw, which the change log still holds, so nothing is lost.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  DEFAULT_LIMITS,
  type HttpOptions,
  hostAllowed,
  type Limits,
  type ServeContext,
  sendError,
} from './http.js';
import { LogGate } from './logs.js';
import { dispatch } from './routes/index.js';
import { SelectorError } from './selectors.js';
import { ApiError, badRequest } from './status.js';
import type { KubeObject } from './store.js';

export type { HttpOptions, Limits } from './http.js';

export interface Watches {
  /** Cut every open watch (fault injection: clients must resume). */
  dropAll(): number;
  readonly count: number;
}

export class ApiServer {
  readonly #opts: HttpOptions;
  readonly #limits: Limits;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #watches = new Set<ServerResponse>();
  /** List snapshots by `rv typeKey selectors`, for continue tokens. */
  readonly #snapshots = new Map<string, readonly KubeObject[]>();
  readonly #logGate: LogGate;
  /** What the route handlers share (routes/): this server's options, limits and state. */
  readonly #context: ServeContext;

  constructor(opts: HttpOptions) {
    this.#opts = opts;
    this.#limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.#logGate = new LogGate(
      this.#limits.maxActiveLogs,
      this.#limits.maxWaitingLogs,
      this.#limits.requestTimeoutMs,
    );
    this.#context = {
      opts,
      limits: this.#limits,
      watches: this.#watches,
      snapshots: this.#snapshots,
      logGate: this.#logGate,
      fail: (res, err) => this.#fail(res, err),
    };
    this.#server = createServer(
      {
        requestTimeout: this.#limits.requestTimeoutMs,
        headersTimeout: Math.min(this.#limits.requestTimeoutMs, 10_000),
        keepAliveTimeout: 5_000,
        maxHeaderSize: 16 * 1024,
        // How often Node checks the two timeouts above (its default is 30 s): a client trickling its
        // headers byte by byte is cut about when its time is up, not half a minute later.
        connectionsCheckingInterval: Math.min(1_000, this.#limits.requestTimeoutMs),
      },
      (req, res) => this.#handle(req, res),
    );
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.setTimeout(this.#limits.idleTimeoutMs, () => socket.destroy());
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.#server.once('error', onError);
      this.#server.listen(port, host, () => {
        this.#server.off('error', onError);
        resolve(this.#server.address() as AddressInfo);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      for (const w of this.#watches) w.destroy();
      for (const s of this.#sockets) s.destroy();
    });
  }

  readonly watches: Watches = {
    dropAll: () => {
      const n = this.#watches.size;
      // Cut the connection itself, as a restarting server or a broken network does.
      for (const w of this.#watches) w.socket?.destroy();
      return n;
    },
    get count() {
      return 0;
    },
  };

  get watchCount(): number {
    return this.#watches.size;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    try {
      if (!hostAllowed(req.headers.host, req.socket.localAddress, this.#opts.bind)) {
        res.setHeader('Connection', 'close');
        throw new ApiError(
          403,
          'Forbidden',
          `Host ${JSON.stringify((req.headers.host ?? '').slice(0, 100))} is not this server's address: atlevel serve answers only requests to localhost or the address it listens on`,
        );
      }
      dispatch(this.#context, req, res);
    } catch (err) {
      this.#fail(res, err);
    }
  }

  #fail(res: ServerResponse, err: unknown): void {
    if (err instanceof ApiError) sendError(res, err);
    else if (err instanceof SelectorError) sendError(res, badRequest(err.message));
    else {
      sendError(res, new ApiError(500, 'InternalError', `internal error: ${(err as Error).message}`));
    }
  }
}
