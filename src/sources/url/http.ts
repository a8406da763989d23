/**
 * HTTP GET for the storage client, on node:http/https rather than the global fetch: fetch decodes a
 * gzip Content-Encoding itself and, in Node 20, returns a truncated gzip body without an error, which
 * would let a cut-off download into the cache. Here the body arrives exactly as stored, so its length
 * and hash can be checked against the object's metadata before anything is kept.
 *
 * Redirects are followed (a few hops), every request has an idle timeout and a deadline for the
 * whole exchange, body included (a server that trickles a byte at a time never trips an idle
 * timeout), and connections are kept alive and reused (one Agent per client).
 */
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { printable } from '../../model/index.js';

/** A failure that may pass on a new attempt: connection errors, timeouts, 429, 5xx, cut-off bodies. */
export class TransientError extends Error {
  override readonly name = 'TransientError';
  constructor(
    message: string,
    /** Seconds the server asked us to wait (Retry-After), if it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The server answered with a status that another attempt will not change (404, 403, ...). */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
  ) {
    super(`HTTP ${status}${statusText ? ` ${statusText}` : ''}`);
  }
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: IncomingMessage;
  /** The URL that answered, after redirects. */
  readonly url: string;
}

export interface HttpOptions {
  /** Abort a request that receives nothing for this long (headers or body). */
  readonly idleTimeoutMs: number;
  /**
   * Abort a request not answered in full within this long, headers and body together; the body
   * then ends with a TransientError. Redirect hops share it.
   */
  readonly deadlineMs?: number;
  readonly maxRedirects?: number;
}

/**
 * The deadline of a request for `bytes` bytes: a minute, plus the time to receive them at 256 KiB/s
 * (a slow link still finishes; a server trickling a byte at a time does not hold a request for ever).
 */
export function deadlineFor(bytes: number, baseMs = 60_000): number {
  return baseMs + Math.ceil(bytes / 256);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One keep-alive agent per scheme, owned by a client and destroyed when it closes. */
export class Connections {
  readonly #http: HttpAgent;
  readonly #https: HttpsAgent;
  constructor(maxSockets: number) {
    this.#http = new HttpAgent({ keepAlive: true, maxSockets });
    this.#https = new HttpsAgent({ keepAlive: true, maxSockets });
  }

  /**
   * GET `url`. Resolves once the headers of the final (non-redirect) response arrive; the caller
   * reads or destroys `body`. Statuses are returned as they are: the caller decides what is an error.
   * Throws TransientError for network failures and timeouts.
   */
  async get(url: string, headers: Record<string, string>, opts: HttpOptions): Promise<HttpResponse> {
    let current = url;
    const maxRedirects = opts.maxRedirects ?? 5;
    const deadline = Date.now() + (opts.deadlineMs ?? deadlineFor(0));
    for (let hop = 0; ; hop++) {
      const res = await this.#once(current, headers, opts.idleTimeoutMs, deadline);
      if (!REDIRECTS.has(res.status)) return res;
      res.body.resume();
      const location = res.headers.location;
      if (!location) throw new HttpStatusError(current, res.status, 'redirect without a Location');
      if (hop >= maxRedirects) {
        throw new HttpStatusError(current, res.status, `more than ${maxRedirects} redirects`);
      }
      const next = new URL(location, current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new HttpStatusError(current, res.status, `redirect to a ${printable(next.protocol, 20)} URL`);
      }
      current = next.href;
    }
  }

  #once(
    url: string,
    headers: Record<string, string>,
    idleTimeoutMs: number,
    deadline: number,
  ): Promise<HttpResponse> {
    const target = new URL(url);
    const https = target.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    return new Promise<HttpResponse>((resolve, reject) => {
      const late = () => new TransientError("no complete answer before the request's deadline");
      let timer: NodeJS.Timeout | undefined;
      const req = send(target, { method: 'GET', headers, agent: https ? this.#https : this.#http }, (res) => {
        // The same idle timeout guards the body: a server that stops sending mid-body is cut off.
        res.socket.setTimeout(idleTimeoutMs);
        // And the deadline: one that sends a byte now and then is cut off too.
        clearTimeout(timer);
        timer = setTimeout(() => res.destroy(late()), Math.max(0, deadline - Date.now()));
        res.once('close', () => clearTimeout(timer));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, url });
      });
      timer = setTimeout(() => req.destroy(late()), Math.max(0, deadline - Date.now()));
      req.setTimeout(idleTimeoutMs, () => {
        req.destroy(new TransientError(`no answer for ${idleTimeoutMs / 1000} s`));
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(asTransient(err));
      });
      req.end();
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/** Network-level errors are worth another attempt; say what happened in a few words. */
function asTransient(err: unknown): Error {
  if (err instanceof TransientError || err instanceof HttpStatusError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'ECONNREFUSED':
      return new TransientError('connection refused');
    case 'ECONNRESET':
    case 'EPIPE':
      return new TransientError('connection reset');
    case 'ETIMEDOUT':
      return new TransientError('timed out');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TransientError('host not found');
    case 'ECONNABORTED':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return new TransientError('connection closed early');
    default:
      return new TransientError(printable(code ? `${code}: ${message}` : message, 160));
  }
}

/** Retry-After as seconds (the delta form; an HTTP date is also accepted). */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}
