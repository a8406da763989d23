/**
 * What serve's route handlers share: the server's options and limits, the request context
 * (ServeContext), path segments, content negotiation, JSON answers and error Statuses, bounded
 * request bodies, resourceVersion and continue tokens. No handler reads a file named by a URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogGate, PinnedLogs } from './logs.js';
import type { ResourceType } from './resources.js';
import { type ApiError, badRequest, notAcceptable, requestEntityTooLarge } from './status.js';
import type { KubeObject, ServedStore } from './store.js';

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

export const DEFAULT_LIMITS: Limits = {
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

/** What every route handler is given: the server's options, limits and the state they share. */
export interface ServeContext {
  readonly opts: HttpOptions;
  readonly limits: Limits;
  /** Open watches, cut on close or by fault injection. */
  readonly watches: Set<ServerResponse>;
  /** List snapshots by `rv typeKey selectors`, for continue tokens. */
  readonly snapshots: Map<string, readonly KubeObject[]>;
  readonly logGate: LogGate;
  /** Answer an error as the API server would (a Status), or cut a response already under way. */
  fail(res: ServerResponse, err: unknown): void;
}

/** A resource request's parsed path: the type, and the namespace, name and subresource it names. */
export interface Target {
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

/** A path segment as Kubernetes names allow it: no `.`/`..`, no slashes, no control characters. */
const SEGMENT = /^[A-Za-z0-9][-A-Za-z0-9_.:]*$/;

export function segments(pathname: string): string[] | undefined {
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
export function negotiate(req: IncomingMessage): Representation {
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
export function partial(o: KubeObject, apiVersion: string): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata };
}

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, err: ApiError): void {
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
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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
export function parseResourceVersion(param: string | null): number {
  if (param === null || param === '') return 0;
  if (!/^\d+$/.test(param)) throw badRequest(`invalid resourceVersion ${JSON.stringify(param.slice(0, 40))}`);
  return Number(param);
}

interface ContinueToken {
  readonly rv: number;
  readonly start: number;
}

export function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify(t)).toString('base64url');
}

export function decodeContinue(s: string): ContinueToken {
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
