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
import type { Served } from './access.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from './discovery.js';
import { LogGate, type PinnedLogs, sendLog } from './logs.js';
import { REPLAYED_AT } from './moment.js';
import { apiVersionOf, type ResourceType, typeKey } from './resources.js';
import { answerReview, REVIEW_PATHS, type ReviewKind } from './reviews.js';
import { type Matcher, parseFieldSelector, parseLabelSelector, SelectorError } from './selectors.js';
import {
  ApiError,
  badRequest,
  expired,
  type FieldError,
  forbidden,
  invalid,
  methodNotAllowed,
  methodNotSupported,
  notAcceptable,
  notFound,
  notSupported,
  requestEntityTooLarge,
  tooLargeResourceVersion,
} from './status.js';
import type { Change, KubeObject, ServedStore } from './store.js';
import { parseIncludeObject, toTable } from './table.js';

export interface HttpOptions {
  readonly store: ServedStore;
  /** Pod logs, `namespace/pod/container` → files pinned at start (logs.ts). */
  readonly logs: ReadonlyMap<string, PinnedLogs>;
  /** The recorded moment being served (ages in tables count from it). */
  readonly now: () => number;
  readonly version: Record<string, string>;
  /** Extra read-only JSON at `/atlevel/...` (replay progress). */
  readonly extra?: (path: string) => unknown;
  readonly limits?: Partial<Limits>;
  /** The address or name given to listen on: a Host naming it is this server (hostAllowed). */
  readonly bind?: string;
  /** Secrets are served with their values emptied (secrets.ts); the reviews say so. */
  readonly secretsRedacted?: boolean;
}

export interface Limits {
  readonly maxUrlBytes: number;
  readonly maxLimit: number;
  /** A non-watch request (headers and response) must be done within this. */
  readonly requestTimeoutMs: number;
  /** A connection with no request in flight is closed after this. */
  readonly idleTimeoutMs: number;
  /** Longest watch before the server ends it (clients re-watch). */
  readonly maxWatchSeconds: number;
  /** Unsent bytes one watch event may leave queued before the watch is cut (one huge object). */
  readonly maxWatchBufferBytes: number;
  readonly bookmarkIntervalMs: number;
  readonly maxLogBytes: number;
  /** Pod logs streamed at once; more wait in line (logs.ts). */
  readonly maxActiveLogs: number;
  /** Pod log requests waiting for a slot; past this, 429. */
  readonly maxWaitingLogs: number;
  /**
   * How long a list at a resourceVersion the server has not reached waits for it before the answer
   * "Too large resource version" (the apiserver's watch cache waits blockTimeout, 3 s).
   */
  readonly tooLargeWaitMs: number;
  /**
   * The largest review body read (a SelfSubjectAccessReview from kubectl is ~130 bytes); the API
   * server's limit is 3 MiB, but nothing this server reads needs more than a few hundred bytes.
   */
  readonly maxReviewBodyBytes: number;
}

const DEFAULT_LIMITS: Limits = {
  maxUrlBytes: 8192,
  maxLimit: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  maxWatchSeconds: 1800,
  maxWatchBufferBytes: 32 * 1024 * 1024,
  bookmarkIntervalMs: 10_000,
  maxLogBytes: 64 * 1024 * 1024,
  maxActiveLogs: 8,
  maxWaitingLogs: 256,
  tooLargeWaitMs: 3_000,
  maxReviewBodyBytes: 64 * 1024,
};

export interface Watches {
  /** Cut every open watch (fault injection: clients must resume). */
  dropAll(): number;
  readonly count: number;
}

interface Target {
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

/** A path segment as Kubernetes names allow it: no `.`/`..`, no slashes, no control characters. */
const SEGMENT = /^[A-Za-z0-9][-A-Za-z0-9_.:]*$/;

function segments(pathname: string): string[] | undefined {
  if (!pathname.startsWith('/')) return undefined;
  const raw = pathname.slice(1).replace(/\/$/, '');
  if (raw === '') return [];
  const out: string[] = [];
  for (const part of raw.split('/')) {
    let s: string;
    try {
      s = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (!SEGMENT.test(s) || s.includes('..')) return undefined;
    out.push(s);
  }
  return out;
}

/** An address as the socket reports it, an IPv4-mapped IPv6 one as plain IPv4. */
function plainAddress(a: string): string {
  const lower = a.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}

/**
 * Whether a request's Host names this server: \`localhost\`, the address the connection came in on, or
 * the --bind value. Anything else is refused, so that a page in a browser on this machine cannot reach
 * the server through a name of its own that resolves to 127.0.0.1 (DNS rebinding): the browser then
 * sends that name as Host. kubectl sends the kubeconfig's \`127.0.0.1:PORT\`.
 */
export function hostAllowed(
  host: string | undefined,
  localAddress: string | undefined,
  bind?: string,
): boolean {
  if (host === undefined) return false;
  let name: string;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close === -1) return false;
    name = host.slice(1, close);
  } else {
    const colon = host.indexOf(':');
    name = colon === -1 ? host : host.slice(0, colon);
    if (colon !== -1 && host.indexOf(':', colon + 1) !== -1) return false;
  }
  name = name.toLowerCase().replace(/\.$/, '');
  if (name === '') return false;
  if (name === 'localhost') return true;
  if (localAddress !== undefined && plainAddress(name) === plainAddress(localAddress)) return true;
  return bind !== undefined && plainAddress(name) === plainAddress(bind);
}

/** What the client asked to get back instead of the objects themselves. */
interface Representation {
  readonly as?: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** meta.k8s.io/v1 or meta.k8s.io/v1beta1, as asked. */
  readonly apiVersion: string;
}

const AS_IS: Representation = { apiVersion: '' };
type Transform = NonNullable<Representation['as']>;
const TRANSFORMS: ReadonlyMap<string, Transform> = new Map<string, Transform>([
  ['Table', 'Table'],
  ['PartialObjectMetadata', 'PartialObjectMetadata'],
  ['PartialObjectMetadataList', 'PartialObjectMetadataList'],
]);
const META_VERSIONS: ReadonlySet<string> = new Set(['v1', 'v1beta1']);

/**
 * The Accept header, negotiated as the API server negotiates it (apiserver endpoints/handlers/negotiation
 * acceptMediaTypeOptions, with the resource endpoint's AllowsMediaTypeTransform): the clauses in order; the
 * first one without `as` asks for the objects as they are; one with `as=Table`, `PartialObjectMetadata` or
 * `PartialObjectMetadataList` and `g=meta.k8s.io;v=v1` (or `v1beta1`) asks for that transformation; a
 * clause asking for any other transformation cannot be served and is passed over. When none is left the
 * answer is 406 NotAcceptable. This server writes JSON whatever the media type asked (no protobuf or YAML).
 */
function negotiate(req: IncomingMessage): Representation {
  const accept = req.headers.accept;
  if (accept === undefined || accept.trim() === '') return AS_IS;
  for (const clause of accept.split(',')) {
    const params = new Map<string, string>();
    for (const part of clause.split(';').slice(1)) {
      const eq = part.indexOf('=');
      if (eq !== -1) params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    const asked = params.get('as');
    const as = asked === undefined ? undefined : TRANSFORMS.get(asked);
    const group = params.get('g');
    const version = params.get('v');
    if (asked === undefined && group === undefined && version === undefined) return AS_IS;
    if (as !== undefined && group === 'meta.k8s.io' && version !== undefined && META_VERSIONS.has(version)) {
      return { as, apiVersion: `${group}/${version}` };
    }
  }
  throw notAcceptable('only the following media types are accepted: application/json');
}

/** meta.AsPartialObjectMetadata: the object's whole metadata, under the meta.k8s.io kind. */
function partial(o: KubeObject, apiVersion: string): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata };
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, err: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, err.code, err.body());
}

/**
 * A request body, up to `limit` bytes: a declared or actual length over it is 413, as apiserver
 * handlers' limitedReadBody answers, without reading further.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(requestEntityTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        reject(requestEntityTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    const onClose = () => onError(new Error('the client went away before sending its whole body'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * A resourceVersion parameter as a number: unset and "" read as 0, since the most recent state is the
 * one this server serves for both; anything but digits is 400.
 */
function parseResourceVersion(param: string | null): number {
  if (param === null || param === '') return 0;
  if (!/^\d+$/.test(param)) throw badRequest(`invalid resourceVersion ${JSON.stringify(param.slice(0, 40))}`);
  return Number(param);
}

interface ContinueToken {
  readonly rv: number;
  readonly start: number;
}

function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify(t)).toString('base64url');
}

function decodeContinue(s: string): ContinueToken {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (v && typeof v === 'object') {
      const { rv, start } = v as Record<string, unknown>;
      if (Number.isSafeInteger(rv) && Number.isSafeInteger(start) && (start as number) >= 0)
        return { rv: rv as number, start: start as number };
    }
  } catch {
    // fall through
  }
  throw badRequest('invalid continue token');
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

  constructor(opts: HttpOptions) {
    this.#opts = opts;
    this.#limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.#logGate = new LogGate(
      this.#limits.maxActiveLogs,
      this.#limits.maxWaitingLogs,
      this.#limits.requestTimeoutMs,
    );
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
      this.#route(req, res);
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

  #route(req: IncomingMessage, res: ServerResponse): void {
    const rawUrl = req.url ?? '/';
    if (Buffer.byteLength(rawUrl) > this.#limits.maxUrlBytes) {
      throw new ApiError(414, 'RequestURITooLong', 'request URI too long');
    }
    const q = rawUrl.indexOf('?');
    const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
    if (req.method !== 'GET') {
      // A review is looked up by its exact path: a POST anywhere else is refused unread.
      const review = req.method === 'POST' ? REVIEW_PATHS.get(rawPath) : undefined;
      if (review !== undefined) {
        void this.#review(req, res, review);
        return;
      }
      // Never read a body: answer and close, so a large upload costs nothing.
      res.setHeader('Connection', 'close');
      throw methodNotAllowed(req.method ?? '?');
    }
    // Segments come from the raw path: URL parsing would resolve `..` before anyone could refuse it.
    const segs = segments(rawPath);
    const url = new URL(rawUrl.startsWith('/') ? rawUrl : '/', 'http://localhost');
    if (!segs) throw notFound(`the server could not find the requested resource`);
    const path = segs.join('/');
    const store = this.#opts.store;
    const types = store.types();
    if (path === 'version') {
      sendJson(res, 200, this.#opts.version);
      return;
    }
    if (path === 'healthz' || path === 'readyz' || path === 'livez') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (segs[0] === 'atlevel' && this.#opts.extra) {
      const body = this.#opts.extra(segs.slice(1).join('/'));
      if (body !== undefined) {
        sendJson(res, 200, body);
        return;
      }
      throw notFound('the server could not find the requested resource');
    }
    if (path === 'api') {
      sendJson(res, 200, apiVersions());
      return;
    }
    if (path === 'apis') {
      sendJson(res, 200, apiGroupList(types));
      return;
    }
    const hasLogs = this.#opts.logs.size > 0;
    let group: string;
    let version: string;
    let rest: string[];
    if (segs[0] === 'api' && segs[1] === 'v1') {
      group = '';
      version = 'v1';
      rest = segs.slice(2);
    } else if (segs[0] === 'apis' && segs[1] !== undefined) {
      if (segs.length === 2) {
        const doc = apiGroup(types, segs[1]);
        if (!doc) throw notFound('the server could not find the requested resource');
        sendJson(res, 200, doc);
        return;
      }
      group = segs[1];
      version = segs[2] ?? '';
      rest = segs.slice(3);
    } else {
      throw notFound('the server could not find the requested resource');
    }
    if (rest.length === 0) {
      const doc = apiResourceList(types, group, version, hasLogs);
      if (!doc) throw notFound('the server could not find the requested resource');
      sendJson(res, 200, doc);
      return;
    }
    // A review can only be created: the API server has no route for a get, list or watch of one.
    if (REVIEW_PATHS.has(`/${path}`)) throw methodNotSupported();
    const target = this.#target(group, version, rest);
    const params = url.searchParams;
    if (target.subresource === 'log') {
      void this.#log(res, target, params);
      return;
    }
    if (target.subresource !== undefined) throw notFound('the server could not find the requested resource');
    const watch = params.get('watch');
    if (watch === 'true' || watch === '1') {
      if (target.name !== undefined) throw methodNotAllowed('watch of a single object by path');
      this.#watch(req, res, target, params);
      return;
    }
    if (target.name !== undefined) {
      this.#get(req, res, target, params);
      return;
    }
    this.#list(req, res, target, params);
  }

  /** What the server serves, for the reviews' answers (access.ts). */
  #served(): Served {
    return {
      types: this.#opts.store.types(),
      hasLogs: this.#opts.logs.size > 0,
      hasExtras: this.#opts.extra !== undefined,
      secretsRedacted: this.#opts.secretsRedacted === true,
    };
  }

  /** A SelfSubjectAccessReview or SelfSubjectRulesReview: read the capped body, answer from access.ts. */
  async #review(req: IncomingMessage, res: ServerResponse, kind: ReviewKind): Promise<void> {
    try {
      const body = await readBody(req, this.#limits.maxReviewBodyBytes);
      const answer = answerReview(kind, req.headers['content-type'], body, this.#served());
      sendJson(res, answer.code, answer.body);
    } catch (err) {
      if (res.socket === null || res.socket.destroyed) return;
      // The rest of a body over the limit is never read: the connection goes with the answer.
      if (err instanceof ApiError && err.code === 413) res.setHeader('Connection', 'close');
      this.#fail(res, err);
    }
  }

  #target(group: string, version: string, rest: readonly string[]): Target {
    const store = this.#opts.store;
    const find = (plural: string) => store.type(typeKey({ group, version, plural }));
    const missing = (plural: string) =>
      notFound(`the server doesn't have a resource type "${plural}"`, {
        ...(group ? { group } : {}),
        kind: plural,
      });
    // /namespaces/NS/PLURAL[/NAME[/SUB]]
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      const namespace = rest[1] as string;
      const plural = rest[2] as string;
      const type = find(plural);
      if (!type) throw missing(plural);
      if (!type.namespaced) throw notFound(`${plural} is not namespaced`);
      if (rest.length > 5) throw notFound('the server could not find the requested resource');
      return {
        type,
        namespace,
        ...(rest[3] !== undefined ? { name: rest[3] } : {}),
        ...(rest[4] !== undefined ? { subresource: rest[4] } : {}),
      };
    }
    const plural = rest[0] as string;
    const type = find(plural);
    if (!type) throw missing(plural);
    if (rest.length > 3) throw notFound('the server could not find the requested resource');
    if (type.namespaced && rest.length > 1)
      throw notFound('the server could not find the requested resource');
    return {
      type,
      ...(rest[1] !== undefined ? { name: rest[1] } : {}),
      ...(rest[2] !== undefined ? { subresource: rest[2] } : {}),
    };
  }

  /**
   * One object, at a resourceVersion as the API server's watch cache serves a get (storage/cacher/
   * cacher.go Get, watch_cache.go WaitUntilFreshAndGet): unset, "0" or any N the server has reached is
   * the current object, which is never older than N; an N not reached yet waits as a list does
   * (#whenReached) and is then the object, or 504 Too large resource version.
   */
  #get(req: IncomingMessage, res: ServerResponse, t: Target, q: URLSearchParams): void {
    const want = negotiate(req);
    const requested = parseResourceVersion(q.get('resourceVersion'));
    const store = this.#opts.store;
    if (requested > store.resourceVersion) {
      this.#whenReached(res, requested, () => this.#get(req, res, t, q));
      return;
    }
    const o = store.get(typeKey(t.type), t.namespace, t.name as string);
    if (!o) {
      throw notFound(`${t.type.plural}${t.type.group ? `.${t.type.group}` : ''} "${t.name}" not found`, {
        name: t.name as string,
        ...(t.type.group ? { group: t.type.group } : {}),
        kind: t.type.plural,
      });
    }
    if (want.as === 'Table') {
      const include = parseIncludeObject(q.get('includeObject'));
      sendJson(
        res,
        200,
        toTable(t.type.kind, [o], {
          now: this.#opts.now(),
          include: include ?? 'Metadata',
          resourceVersion: String(o.metadata.resourceVersion ?? ''),
          apiVersion: want.apiVersion,
        }),
      );
      return;
    }
    // handlers/response.go asPartialObjectMetadataList: one object is not a list.
    if (want.as === 'PartialObjectMetadataList')
      throw notAcceptable(
        `you requested PartialObjectMetadataList, but the requested object is not a list (${t.type.kind})`,
      );
    sendJson(res, 200, want.as === 'PartialObjectMetadata' ? partial(o, want.apiVersion) : o);
  }

  #matchers(t: Target, q: URLSearchParams): Matcher {
    const labels = parseLabelSelector(q.get('labelSelector'));
    const fields = parseFieldSelector(q.get('fieldSelector'), t.type);
    const ns = t.namespace;
    return (o) =>
      (ns === undefined || o.metadata.namespace === ns) && (!labels || labels(o)) && (!fields || fields(o));
  }

  /**
   * The list and watch options as the API server checks them before anything else (apimachinery
   * pkg/apis/meta/internalversion/validation, ValidateListOptions; the list handler answers its errors
   * as 422 Invalid, handlers/get.go ListResource). This server streams no initial events, so it
   * answers `sendInitialEvents` as a server with the WatchList feature gate off.
   */
  #validateOptions(q: URLSearchParams, watch: boolean): void {
    const match = q.get('resourceVersionMatch') ?? '';
    const rv = q.get('resourceVersion') ?? '';
    const cont = q.get('continue') ?? '';
    const sendInitialEvents = (q.get('sendInitialEvents') ?? '') !== '';
    const field = 'resourceVersionMatch';
    const errs: FieldError[] = [];
    if (watch) {
      if (sendInitialEvents) {
        if (match !== 'NotOlderThan')
          errs.push(
            forbidden(field, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
          );
        errs.push(
          forbidden(
            'sendInitialEvents',
            'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
          ),
        );
      }
      if (match !== '') {
        if (!sendInitialEvents)
          errs.push(
            forbidden(
              field,
              'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
            ),
          );
        if (match !== 'NotOlderThan') errs.push(notSupported(field, match, ['NotOlderThan']));
        if (cont !== '')
          errs.push(forbidden(field, 'resourceVersionMatch is forbidden when continue is provided'));
      }
    } else {
      if (match !== '') {
        if (rv === '')
          errs.push(forbidden(field, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
        if (cont !== '')
          errs.push(forbidden(field, 'resourceVersionMatch is forbidden when continue is provided'));
        if (match !== 'Exact' && match !== 'NotOlderThan')
          errs.push(notSupported(field, match, ['Exact', 'NotOlderThan', '']));
        if (match === 'Exact' && rv === '0')
          errs.push(forbidden(field, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
      if (sendInitialEvents)
        errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    }
    if (errs.length > 0) throw invalid('meta.k8s.io', 'ListOptions', '', errs);
  }

  /**
   * Run `then` once the store has reached resourceVersion `rv`, or answer "Too large resource version"
   * after the wait: the apiserver's watch cache blocks a list at a resourceVersion it has not seen yet
   * for up to blockTimeout, then gives up (storage/cacher/watch_cache.go waitUntilFreshAndBlock). During
   * a replay the store may get there meanwhile; a recording that is not replaying never does.
   */
  #whenReached(res: ServerResponse, rv: number, then: () => void): void {
    const store = this.#opts.store;
    let done = false;
    const finish = (reached: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      res.off('close', abandon);
      if (res.destroyed) return;
      try {
        if (!reached) throw tooLargeResourceVersion(rv, store.resourceVersion);
        then();
      } catch (err) {
        this.#fail(res, err);
      }
    };
    const abandon = () => finish(false);
    const unsubscribe = store.subscribe(() => {
      if (store.resourceVersion >= rv) finish(true);
    });
    const timer = setTimeout(() => finish(false), this.#limits.tooLargeWaitMs);
    res.on('close', abandon);
  }

  #list(req: IncomingMessage, res: ServerResponse, t: Target, q: URLSearchParams): void {
    const want = negotiate(req);
    // handlers/response.go asPartialObjectMetadata: a list is not one object.
    if (want.as === 'PartialObjectMetadata')
      throw notAcceptable(
        `you requested PartialObjectMetadata, but the requested object is a list (${t.type.kind}List)`,
      );
    this.#validateOptions(q, false);
    const store = this.#opts.store;
    const match = this.#matchers(t, q);
    const rvParam = q.get('resourceVersion');
    const requested = parseResourceVersion(rvParam);
    const limitParam = q.get('limit');
    let limit = 0;
    if (limitParam !== null && limitParam !== '') {
      if (!/^\d+$/.test(limitParam)) throw badRequest('limit must be a non-negative integer');
      limit = Math.min(Number(limitParam), this.#limits.maxLimit);
    }
    const include = parseIncludeObject(q.get('includeObject'));
    if (!include) throw badRequest('includeObject must be None, Metadata or Object');
    const key = `${typeKey(t.type)} ${t.namespace ?? ''} ${q.get('labelSelector') ?? ''} ${q.get('fieldSelector') ?? ''}`;
    const cont = q.get('continue');
    // API concepts, "Semantics for get and list": resourceVersion unset is the most recent state, "0"
    // any state, N with resourceVersionMatch Exact the state at N, and N alone or with NotOlderThan
    // a state at least as new as N, which is the current one (this server serves no stale caches).
    const exact = q.get('resourceVersionMatch') === 'Exact';
    if (!cont && requested > store.resourceVersion) {
      this.#whenReached(res, requested, () => this.#list(req, res, t, q));
      return;
    }
    let rv = store.resourceVersion;
    let start = 0;
    let items: readonly KubeObject[];
    if (cont) {
      const token = decodeContinue(cont);
      // The token says at which resourceVersion to go on; another one beside it is refused, as etcd3
      // store.go GetList refuses it (after decoding the token, with "0" let through as "any").
      if (rvParam !== null && rvParam !== '' && rvParam !== '0')
        throw badRequest('specifying resource version is not allowed when using continue');
      // A continue token reads the list at its resourceVersion, as etcd does, while the change log
      // still holds it.
      const snapshot =
        this.#snapshots.get(`${token.rv} ${key}`) ?? store.listAt(typeKey(t.type), token.rv)?.filter(match);
      if (!snapshot)
        throw expired(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        );
      items = snapshot;
      rv = token.rv;
      start = token.start;
    } else if (exact) {
      // The state at exactly that resourceVersion, rebuilt from the change log; older than the log's
      // window is what etcd says of a compacted revision (storage/etcd3 interpretListError): 410.
      const at = store.listAt(typeKey(t.type), requested);
      if (!at) throw expired('The resourceVersion for the provided list is too old.');
      items = at.filter(match);
      rv = requested;
    } else {
      items = store.list(typeKey(t.type)).filter(match);
    }
    let page = items;
    let next: string | undefined;
    let remaining: number | undefined;
    if (limit > 0 && start + limit < items.length) {
      page = items.slice(start, start + limit);
      next = encodeContinue({ rv, start: start + limit });
      remaining = items.length - start - limit;
      this.#remember(`${rv} ${key}`, items);
    } else if (start > 0) {
      page = items.slice(start);
    }
    const meta = {
      resourceVersion: String(rv),
      ...(next ? { continue: next } : {}),
      ...(remaining !== undefined ? { remainingItemCount: remaining } : {}),
    };
    if (want.as === 'Table') {
      const opts = {
        now: this.#opts.now(),
        include,
        resourceVersion: meta.resourceVersion,
        apiVersion: want.apiVersion,
        ...(next ? { continueToken: next } : {}),
        ...(remaining !== undefined ? { remaining } : {}),
      };
      // The envelope (columns, metadata) once; the rows, 500 at a time, as the client reads them.
      const envelope = toTable(t.type.kind, [], opts);
      this.#streamArray(res, envelope, 'rows', page.length, (from, to) =>
        (toTable(t.type.kind, page.slice(from, to), { ...opts, withColumns: false }).rows as unknown[]).map(
          (row) => JSON.stringify(row),
        ),
      );
      return;
    }
    if (want.as === 'PartialObjectMetadataList') {
      // What client-go's metadata client lists with: every item's metadata, under meta.k8s.io kinds.
      const envelope = {
        kind: 'PartialObjectMetadataList',
        apiVersion: want.apiVersion,
        metadata: meta,
        items: [],
      };
      this.#streamArray(res, envelope, 'items', page.length, (from, to) =>
        page.slice(from, to).map((o) => JSON.stringify(partial(o, want.apiVersion))),
      );
      return;
    }
    const envelope = {
      kind: `${t.type.kind}List`,
      apiVersion: apiVersionOf(t.type),
      metadata: meta,
      items: [],
    };
    this.#streamArray(res, envelope, 'items', page.length, (from, to) =>
      page.slice(from, to).map((o) => JSON.stringify(o)),
    );
  }

  /**
   * A JSON object whose `key` array is written in pieces with backpressure, so a 30k-event list (or
   * Table) never becomes one giant string. `envelope[key]` must be the last field, an empty array.
   */
  #streamArray(
    res: ServerResponse,
    envelope: Record<string, unknown>,
    key: string,
    count: number,
    render: (from: number, to: number) => string[],
  ): void {
    const head = JSON.stringify(envelope);
    const tail = `"${key}":[]}`;
    if (!head.endsWith(tail)) throw new Error(`streamArray: ${key} is not the envelope's last field`);
    if (count <= 500) {
      // One piece, with its length: what most answers are (a client's page, the nodes of a cluster).
      const text = `${head.slice(0, -2)}${render(0, count).join(',')}]}`;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write(head.slice(0, -2));
    let i = 0;
    const pump = () => {
      while (i < count) {
        const stop = Math.min(count, i + 500);
        const parts = render(i, stop);
        const chunk = (i > 0 ? ',' : '') + parts.join(',');
        i = stop;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end(']}');
    };
    pump();
  }

  #remember(key: string, items: readonly KubeObject[]): void {
    this.#snapshots.set(key, items);
    while (this.#snapshots.size > 32) {
      const first = this.#snapshots.keys().next().value;
      if (first === undefined) break;
      this.#snapshots.delete(first);
    }
  }

  #watch(req: IncomingMessage, res: ServerResponse, t: Target, q: URLSearchParams): void {
    const want = negotiate(req);
    this.#validateOptions(q, true);
    const store = this.#opts.store;
    const match = this.#matchers(t, q);
    const key = typeKey(t.type);
    const table = want.as === 'Table';
    const include = parseIncludeObject(q.get('includeObject')) ?? 'Metadata';
    const rvParam = q.get('resourceVersion');
    parseResourceVersion(rvParam); // refused as a list refuses it; the cursor is set below
    const timeoutParam = q.get('timeoutSeconds');
    let seconds = this.#limits.maxWatchSeconds;
    if (timeoutParam !== null && timeoutParam !== '') {
      if (!/^\d+$/.test(timeoutParam)) throw badRequest('timeoutSeconds must be a non-negative integer');
      seconds = Math.min(Number(timeoutParam), seconds);
    }
    const bookmarks = q.get('allowWatchBookmarks') === 'true' && !table;
    req.socket.setTimeout(0);
    let cursor: number;
    let initial: readonly KubeObject[] = [];
    if (rvParam === null || rvParam === '' || rvParam === '0') {
      initial = store.list(key).filter(match);
      cursor = store.resourceVersion;
    } else {
      // The changes after that resourceVersion, even one the server has not reached yet: the apiserver
      // opens such a watch at once and sends what comes after it ("clients can wait for events without
      // unnecessary blocking", storage/cacher/cacher.go waitUntilWatchCacheFreshAndForceAllEvents); only
      // a list waits and then answers "Too large resource version".
      cursor = Number(rvParam);
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
    res.flushHeaders();
    this.#watches.add(res);
    let first = true;
    const send = (type: string, object: unknown, at?: number) => {
      let body = object;
      if (table && type !== 'ERROR' && type !== 'BOOKMARK') {
        body = toTable(t.type.kind, [object as KubeObject], {
          now: this.#opts.now(),
          include,
          resourceVersion: String((object as KubeObject).metadata.resourceVersion ?? ''),
          withColumns: first,
          apiVersion: want.apiVersion,
        });
        first = false;
      } else if (want.as === 'PartialObjectMetadata' && type !== 'ERROR') {
        // Every event's object but a Status, bookmarks included (handlers/response.go doTransformObject).
        // A watch asked for PartialObjectMetadataList gets the objects as they are: the API server's
        // watch encoder sends the object when its transformation fails (watchEmbeddedEncoder.doEncode).
        body = partial(object as KubeObject, want.apiVersion);
      }
      const event =
        at === undefined
          ? { type, object: body }
          : { type, object: body, [REPLAYED_AT]: new Date(at).toISOString() };
      res.write(`${JSON.stringify(event)}\n`);
      // One object larger than the cap: nothing a client could read in reasonable time.
      if (res.writableLength > this.#limits.maxWatchBufferBytes) res.destroy();
    };
    const deliver = (c: Change) => {
      if (c.typeKey !== key) return;
      const now = match(c.object);
      const before = c.previous !== undefined && match(c.previous);
      if (c.type === 'MODIFIED') {
        if (now && before) send('MODIFIED', c.object, c.at);
        else if (now) send('ADDED', c.object, c.at);
        else if (before) send('DELETED', c.object, c.at);
      } else if (now || before) send(c.type, c.object, c.at);
    };
    /**
     * What is sent comes from the change log, from `cursor` on, and only while the client reads: a
     * slow client costs the server no buffer (the log holds the changes anyway). A client that stops
     * reading for longer than a request may take is cut, and resumes from the last resourceVersion it
     * saw; one that fell behind the log's window gets 410 Expired, as from a real server.
     */
    let waiting = false;
    let stall: NodeJS.Timeout | undefined;
    const awaitDrain = () => {
      waiting = true;
      stall = setTimeout(() => res.destroy(), this.#limits.requestTimeoutMs);
      res.once('drain', () => {
        clearTimeout(stall);
        waiting = false;
        pump();
      });
    };
    let sentInitial = 0;
    const pump = () => {
      if (waiting || res.destroyed || res.writableEnded) return;
      while (sentInitial < initial.length) {
        send('ADDED', initial[sentInitial++]);
        if (res.destroyed) return;
        if (res.writableNeedDrain) return awaitDrain();
      }
      if (cursor >= store.resourceVersion) return;
      const backlog = store.changesSince(cursor);
      if (!backlog) {
        send('ERROR', expired(`too old resource version: ${cursor} (${store.oldestResumable})`).body());
        res.end();
        return;
      }
      for (const c of backlog) {
        cursor = c.rv;
        deliver(c);
        if (res.destroyed) return;
        if (res.writableNeedDrain) return awaitDrain();
      }
    };
    const unsubscribe = store.subscribe(() => pump());
    let bookmarkTimer: NodeJS.Timeout | undefined;
    const timeout = setTimeout(() => res.end(), seconds * 1000);
    const cleanup = () => {
      unsubscribe();
      clearTimeout(timeout);
      clearTimeout(stall);
      if (bookmarkTimer) clearInterval(bookmarkTimer);
      this.#watches.delete(res);
    };
    res.on('close', cleanup);
    pump();
    if (bookmarks) {
      bookmarkTimer = setInterval(() => {
        // A bookmark says "you have seen everything up to here": only once the client has, and never
        // for a resourceVersion before the one the watch started from.
        if (waiting || cursor !== store.resourceVersion) return;
        send('BOOKMARK', {
          kind: t.type.kind,
          apiVersion: apiVersionOf(t.type),
          metadata: { resourceVersion: String(cursor) },
        });
      }, this.#limits.bookmarkIntervalMs);
    }
  }

  async #log(res: ServerResponse, t: Target, q: URLSearchParams): Promise<void> {
    let release: (() => void) | undefined;
    try {
      if (t.type.kind !== 'Pod' || t.namespace === undefined || t.name === undefined) {
        throw notFound('the server could not find the requested resource');
      }
      const pod = this.#opts.store.get(typeKey(t.type), t.namespace, t.name);
      if (!pod) throw notFound(`pods "${t.name}" not found`, { name: t.name, kind: 'pods' });
      const containers = ((pod.spec as { containers?: { name?: unknown }[] } | undefined)?.containers ?? [])
        .map((c) => c.name)
        .filter((n): n is string => typeof n === 'string');
      const container = q.get('container') ?? (containers.length === 1 ? containers[0] : undefined);
      if (container === undefined) {
        throw badRequest(
          `a container name must be specified for pod ${t.name}, choose one of: [${containers.join(' ')}]`,
        );
      }
      const files = this.#opts.logs.get(`${t.namespace}/${t.name}/${container}`);
      const previous = q.get('previous') === 'true';
      const file = previous ? files?.previous : files?.current;
      if (!file) {
        throw badRequest(
          `the input holds no ${previous ? 'previous ' : ''}log for container "${container}" in pod "${t.name}"`,
        );
      }
      const limitBytes = q.get('limitBytes');
      const tail = q.get('tailLines');
      const max = this.#limits.maxLogBytes;
      const asked = limitBytes !== null && /^\d+$/.test(limitBytes) ? Number(limitBytes) : 0;
      release = await this.#logGate.acquire(res);
      await sendLog(res, {
        file,
        cap: asked > 0 ? Math.min(asked, max) : max,
        ...(tail !== null && /^\d+$/.test(tail) ? { tailLines: Math.min(Number(tail), 1e9) } : {}),
        stallMs: this.#limits.requestTimeoutMs,
      });
    } catch (err) {
      if (res.destroyed) return;
      if (err instanceof ApiError) sendError(res, err);
      else sendError(res, new ApiError(500, 'InternalError', 'the log could not be read'));
    } finally {
      release?.();
    }
  }
}
