/**
 * A local fake of the Cloud Storage JSON API subset atlevel uses (objects list with prefix, delimiter
 * and pageToken; object metadata; media download with generation, ETag and gzip Content-Encoding),
 * plus the URL forms people copy: Prow's `/view/gs/BUCKET/PATH`, gcsweb's `/gcs/BUCKET/PATH` and the
 * public `/BUCKET/PATH` download (what `curl` of storage.googleapis.com fetches). Listens on 127.0.0.1
 * only. Objects may be generated on the fly (never stored), and it counts the bytes it serves of each
 * object, so a test can prove that unneeded artifacts were never read.
 *
 * Faults are injected per request by rules: a status (500, 429 with Retry-After), a delay, a stall,
 * a truncated body, a wrong Content-Length, a redirect.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { storageDigests } from '../../src/sources/url/checksum.js';

export interface FakeObject {
  /** Stored bytes (gzip bytes when contentEncoding is gzip); or generated, see `generate`. */
  readonly data?: Buffer;
  /** Generated content: `size` bytes, chunk by chunk. Never stored; has no MD5/CRC32C. */
  readonly generate?: { readonly size: number; readonly byte: number };
  readonly contentEncoding?: 'gzip';
  readonly generation?: string;
  /**
   * Publish only this digest of a stored object (default both). Cloud Storage gives every object a
   * CRC32C and composite objects no MD5; an MD5 alone is what a mirror might keep.
   */
  readonly digests?: 'md5' | 'crc32c';
}

export type Fault =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'stall' }
  | { readonly kind: 'truncate'; readonly bytes: number }
  | { readonly kind: 'wrong-length'; readonly delta: number }
  | { readonly kind: 'redirect'; readonly to?: string }
  | { readonly kind: 'corrupt' };

export interface FaultRule {
  /** Matched against the decoded object name (media, metadata) or the list prefix. */
  readonly match: (name: string, kind: 'list' | 'meta' | 'media' | 'other') => boolean;
  readonly fault: Fault;
  /** How many requests it hits; Infinity for all. */
  times: number;
}

export interface FakeOptions {
  /** Added to every request (the bench's 50 ms). */
  readonly latencyMs?: number;
  /** Objects list page size (the API's maxResults default is 1000). */
  readonly pageSize?: number;
  /**
   * A cap on each response's body rate, bytes per second (off when absent): one response is one
   * connection's stream, and Cloud Storage serves each stream at a bounded rate (docs/urls.md).
   */
  readonly bytesPerSecond?: number;
}

interface Stored {
  readonly name: string;
  readonly obj: FakeObject;
  readonly size: number;
  readonly generation: string;
  readonly md5Hash?: string;
  readonly crc32c?: string;
}

export class FakeGcs {
  readonly buckets = new Map<string, Map<string, Stored>>();
  readonly faults: FaultRule[] = [];
  /** Bytes of each object's body served (bucket/name → bytes). */
  readonly served = new Map<string, number>();
  /**
   * Every request, with when it arrived (performance.now(), before the injected latency) and when its
   * answer was sent in full (`done`; absent while it is in flight, or for a connection cut off).
   */
  readonly requests: { method: string; url: string; at: number; done?: number }[] = [];
  #server: Server | undefined;
  #sockets = new Set<import('node:net').Socket>();
  #generation = 1_636_000_000_000_000;
  port = 0;
  /** The per-response rate cap in force (FakeOptions.bytesPerSecond); may be changed between runs. */
  bytesPerSecond: number | undefined;

  constructor(readonly opts: FakeOptions = {}) {
    this.bytesPerSecond = opts.bytesPerSecond;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  put(bucket: string, name: string, obj: FakeObject): void {
    let b = this.buckets.get(bucket);
    if (!b) {
      b = new Map();
      this.buckets.set(bucket, b);
    }
    const size = obj.data ? obj.data.length : (obj.generate?.size ?? 0);
    const both = obj.data ? storageDigests(obj.data) : undefined;
    const digests =
      both && obj.digests === 'md5'
        ? { md5Hash: both.md5Hash }
        : both && obj.digests === 'crc32c'
          ? { crc32c: both.crc32c }
          : both;
    this.#generation += 1;
    b.set(name, {
      name,
      obj,
      size,
      generation: obj.generation ?? String(this.#generation),
      ...(digests ?? {}),
    });
  }

  fault(match: FaultRule['match'], fault: Fault, times = 1): FaultRule {
    const rule = { match, fault, times };
    this.faults.push(rule);
    return rule;
  }

  /** Bytes served of objects whose name passes `filter`. */
  servedBytes(filter: (name: string) => boolean = () => true): number {
    let n = 0;
    for (const [key, bytes] of this.served) if (filter(key.slice(key.indexOf('/') + 1))) n += bytes;
    return n;
  }

  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => {
      const entry: FakeGcs['requests'][number] = {
        method: req.method ?? '',
        url: req.url ?? '',
        at: performance.now(),
      };
      this.requests.push(entry);
      res.once('finish', () => {
        entry.done = performance.now();
      });
      const go = () =>
        this.#handle(req, res).catch((err: unknown) => {
          if (!res.headersSent) res.writeHead(500).end(String(err));
          else res.destroy();
        });
      if (this.opts.latencyMs) setTimeout(go, this.opts.latencyMs);
      else void go();
    });
    server.on('connection', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.#server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #takeFault(name: string, kind: 'list' | 'meta' | 'media' | 'other'): Fault | undefined {
    for (const rule of this.faults) {
      if (rule.times > 0 && rule.match(name, kind)) {
        rule.times -= 1;
        return rule.fault;
      }
    }
    return undefined;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const parts = url.pathname.split('/').slice(1);
    if (parts[0] === 'storage' && parts[1] === 'v1' && parts[2] === 'b' && parts[4] === 'o') {
      const bucket = decodeURIComponent(parts[3] ?? '');
      if (parts.length === 5 || (parts.length === 6 && parts[5] === '')) return this.#list(bucket, url, res);
      const name = decodeURIComponent(parts.slice(5).join('/'));
      if (url.searchParams.get('alt') === 'media')
        return this.#media(bucket, name, url, acceptsGzip(req), res, 'media', req);
      return this.#meta(bucket, name, url, res);
    }
    const decode = (from: number) => parts.slice(from).map(decodeURIComponent).join('/');
    if (parts[0] === 'view' && parts[1] === 'gs') return this.#page(parts[2] ?? '', decode(3), res, 'prow');
    if (parts[0] === 'gcs') return this.#page(parts[1] ?? '', decode(2), res, 'gcsweb', req);
    // storage.googleapis.com/BUCKET/NAME: the public download of the current generation.
    return this.#media(parts[0] ?? '', decode(1), url, acceptsGzip(req), res, 'other', req);
  }

  #list(bucket: string, url: URL, res: ServerResponse): void {
    const prefix = url.searchParams.get('prefix') ?? '';
    const fault = this.#takeFault(prefix, 'list');
    if (fault && this.#early(fault, res)) return;
    const b = this.buckets.get(bucket);
    if (!b) {
      json(res, 404, { error: { code: 404, message: 'The specified bucket does not exist.' } });
      return;
    }
    const delimiter = url.searchParams.get('delimiter') ?? '';
    const pageSize = Math.min(Number(url.searchParams.get('maxResults') ?? 1000), this.opts.pageSize ?? 1000);
    // Entries in name order; with a delimiter, names below the next delimiter collapse to a prefix.
    const entries: { key: string; item?: Stored }[] = [];
    const seen = new Set<string>();
    for (const name of [...b.keys()].sort()) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      const cut = delimiter ? rest.indexOf(delimiter) : -1;
      if (cut >= 0) {
        const p = prefix + rest.slice(0, cut + delimiter.length);
        if (!seen.has(p)) {
          seen.add(p);
          entries.push({ key: p });
        }
      } else entries.push({ key: name, item: b.get(name)! });
    }
    const start = Number(
      url.searchParams.get('pageToken')
        ? Buffer.from(url.searchParams.get('pageToken')!, 'base64url').toString()
        : 0,
    );
    const page = entries.slice(start, start + pageSize);
    const next =
      start + pageSize < entries.length
        ? Buffer.from(String(start + pageSize)).toString('base64url')
        : undefined;
    const body: Record<string, unknown> = { kind: 'storage#objects' };
    const items = page.filter((e) => e.item).map((e) => resource(bucket, e.item!));
    const prefixes = page.filter((e) => !e.item).map((e) => e.key);
    if (items.length > 0) body.items = items;
    if (prefixes.length > 0) body.prefixes = prefixes;
    if (next) body.nextPageToken = next;
    this.#sendJson(res, 200, body, fault);
  }

  #meta(bucket: string, name: string, url: URL, res: ServerResponse): void {
    const fault = this.#takeFault(name, 'meta');
    if (fault && this.#early(fault, res)) return;
    const o = this.buckets.get(bucket)?.get(name);
    const gen = url.searchParams.get('generation');
    if (!o || (gen && gen !== o.generation)) {
      json(res, 404, { error: { code: 404, message: 'No such object' } });
      return;
    }
    this.#sendJson(res, 200, resource(bucket, o), fault);
  }

  #sendJson(res: ServerResponse, status: number, body: unknown, fault: Fault | undefined): void {
    const data = Buffer.from(JSON.stringify(body));
    this.#send(res, status, { 'content-type': 'application/json' }, data, fault);
  }

  /** Faults that replace the answer; true when handled. */
  #early(fault: Fault, res: ServerResponse): boolean {
    switch (fault.kind) {
      case 'status':
        res.writeHead(fault.status, {
          'content-type': 'application/json',
          ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}),
        });
        res.end(JSON.stringify({ error: { code: fault.status, message: 'injected' } }));
        return true;
      case 'stall':
        return true; // never answers; the client's idle timeout must fire
      default:
        return false;
    }
  }

  #media(
    bucket: string,
    name: string,
    url: URL,
    gzipOk: boolean,
    res: ServerResponse,
    kind: 'media' | 'other',
    req?: IncomingMessage,
  ): void {
    const fault = this.#takeFault(name, kind);
    if (fault && this.#early(fault, res)) return;
    if (fault?.kind === 'redirect') {
      const to = fault.to ?? `${url.pathname}${url.search}`;
      res.writeHead(302, { location: to }).end();
      return;
    }
    const o = this.buckets.get(bucket)?.get(name);
    const gen = url.searchParams.get('generation');
    if (!o || (gen && gen !== o.generation)) {
      json(res, 404, { error: { code: 404, message: `No such object: ${bucket}/${name}` } });
      return;
    }
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream',
      'x-goog-generation': o.generation,
      etag: `"${o.md5Hash ?? o.generation}"`,
    };
    const hashes = [...(o.crc32c ? [`crc32c=${o.crc32c}`] : []), ...(o.md5Hash ? [`md5=${o.md5Hash}`] : [])];
    if (hashes.length > 0) headers['x-goog-hash'] = hashes.join(',');
    const key = `${bucket}/${name}`;
    if (o.obj.generate) {
      const { size, byte } = o.obj.generate;
      this.#stream(res, key, headers, size, byte, fault);
      return;
    }
    let body = o.obj.data ?? Buffer.alloc(0);
    if (o.obj.contentEncoding === 'gzip') {
      // Decompressive transcoding unless the client accepts gzip (Cloud Storage's documented behaviour).
      if (gzipOk) headers['content-encoding'] = 'gzip';
      else {
        body = gunzipSync(body);
        delete headers['x-goog-hash'];
      }
    }
    const range = byteRange(req, body.length, o.obj.contentEncoding === 'gzip');
    if (range) {
      headers['content-range'] = `bytes ${range.start}-${range.end - 1}/${body.length}`;
      body = body.subarray(range.start, range.end);
    }
    this.#count(key, body.length);
    this.#send(res, range ? 206 : 200, headers, body, fault);
  }

  #count(key: string, n: number): void {
    this.served.set(key, (this.served.get(key) ?? 0) + n);
  }

  /** Send a body, applying the body-level faults. */
  #send(
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: Buffer,
    fault: Fault | undefined,
  ): void {
    const after = () => {
      switch (fault?.kind) {
        case 'truncate': {
          res.writeHead(status, { ...headers, 'content-length': String(body.length) });
          res.write(body.subarray(0, Math.min(fault.bytes, body.length)));
          // Close the connection mid-body: the client sees fewer bytes than announced.
          setTimeout(() => res.destroy(), 5);
          return;
        }
        case 'wrong-length': {
          const length = Math.max(0, body.length + fault.delta);
          res.writeHead(status, { ...headers, 'content-length': String(length) });
          if (fault.delta < 0) res.end(body.subarray(0, length));
          else {
            res.write(body);
            setTimeout(() => res.destroy(), 5);
          }
          return;
        }
        case 'corrupt': {
          const copy = Buffer.from(body);
          if (copy.length > 0) copy[copy.length >> 1] = (copy[copy.length >> 1] ?? 0) ^ 0xff;
          res.writeHead(status, { ...headers, 'content-length': String(copy.length) });
          res.end(copy);
          return;
        }
        default:
          res.writeHead(status, { ...headers, 'content-length': String(body.length) });
          this.#paced(res, body.length, (from, to) => body.subarray(from, to));
      }
    };
    if (fault?.kind === 'delay') setTimeout(after, fault.ms);
    else after();
  }

  /** A generated body, written chunk by chunk with backpressure; counts what was actually sent. */
  #stream(
    res: ServerResponse,
    key: string,
    headers: Record<string, string>,
    size: number,
    byte: number,
    fault: Fault | undefined,
  ): void {
    res.writeHead(200, { ...headers, 'content-length': String(size) });
    const chunk = Buffer.alloc(Math.min(size, 256 * 1024), byte);
    const pump = () =>
      this.#paced(res, size, (from, to) => {
        this.#count(key, to - from);
        return to - from === chunk.length ? chunk : chunk.subarray(0, to - from);
      });
    if (fault?.kind === 'delay') setTimeout(pump, fault.ms);
    else pump();
  }

  /**
   * Write `size` bytes, piece by piece from `piece(from, to)`, with backpressure, and no faster than
   * bytesPerSecond when a cap is set: each piece waits until the response's own schedule allows it.
   */
  #paced(res: ServerResponse, size: number, piece: (from: number, to: number) => Buffer): void {
    const rate = this.bytesPerSecond;
    const step = rate ? Math.max(16 * 1024, Math.min(256 * 1024, Math.floor(rate / 50))) : 256 * 1024;
    const began = performance.now();
    let sent = 0;
    const pump = (): void => {
      while (sent < size) {
        if (res.destroyed) return;
        if (rate) {
          const due = began + (sent / rate) * 1000;
          const wait = due - performance.now();
          if (wait > 1) {
            setTimeout(pump, wait);
            return;
          }
        }
        const to = Math.min(size, sent + step);
        const ok = res.write(piece(sent, to));
        sent = to;
        if (!ok) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  }

  #page(
    bucket: string,
    path: string,
    res: ServerResponse,
    kind: 'prow' | 'gcsweb',
    req?: IncomingMessage,
  ): void {
    const b = this.buckets.get(bucket);
    if (!b) return void res.writeHead(404).end('no such bucket');
    const o = b.get(path);
    if (kind === 'gcsweb' && o && req) {
      // gcsweb serves an object's content at its /gcs/ URL.
      const fake = new URL(
        `/storage/v1/b/${bucket}/o/${encodeURIComponent(path)}?alt=media`,
        'http://127.0.0.1',
      );
      this.#media(bucket, path, fake, acceptsGzip(req), res, 'other', req);
      return;
    }
    const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
    const names = [...b.keys()].filter((n) => n.startsWith(prefix)).slice(0, 50);
    const title =
      kind === 'prow' ? `Prow job ${escapeHtml(path)}` : `gcsweb ${escapeHtml(bucket)}/${escapeHtml(path)}`;
    const html = `<!doctype html><title>${title}</title><h1>${title}</h1><ul>${names.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  }
}

function resource(bucket: string, o: Stored): Record<string, unknown> {
  return {
    kind: 'storage#object',
    bucket,
    name: o.name,
    size: String(o.size),
    generation: o.generation,
    etag: `C${o.generation.slice(-8)}=`,
    ...(o.md5Hash ? { md5Hash: o.md5Hash } : {}),
    ...(o.crc32c ? { crc32c: o.crc32c } : {}),
    ...(o.obj.contentEncoding ? { contentEncoding: o.obj.contentEncoding } : {}),
    updated: '2021-11-03T04:00:00.000Z',
  };
}

/**
 * A single `Range: bytes=A-B` (or `A-`) of a stored, not gzip-encoded body, as [start, end); undefined
 * for no range or one the fake does not serve partially (it then sends the whole body, as HTTP allows).
 */
function byteRange(
  req: IncomingMessage | undefined,
  length: number,
  gzip: boolean,
): { start: number; end: number } | undefined {
  const m = /^bytes=(\d+)-(\d*)$/.exec(String(req?.headers.range ?? ''));
  if (!m || gzip) return undefined;
  const start = Number(m[1]);
  const end = m[2] === '' ? length : Math.min(length, Number(m[2]) + 1);
  if (start >= end) return undefined;
  return { start, end };
}

function acceptsGzip(req: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
