/**
 * The part of Cloud Storage's JSON API that atlevel uses, anonymously (public buckets):
 *
 * - objects list: GET {endpoint}/storage/v1/b/BUCKET/o?prefix=P&delimiter=/&pageToken=T
 *   → { items: [object resource], prefixes: [string], nextPageToken }
 * - object metadata: GET {endpoint}/storage/v1/b/BUCKET/o/NAME → object resource
 * - media download: GET {endpoint}/storage/v1/b/BUCKET/o/NAME?alt=media&generation=G
 *
 * (https://cloud.google.com/storage/docs/json_api/v1/objects/list, …/objects/get.) Downloads ask for
 * `Accept-Encoding: gzip`, so an object stored gzip-encoded arrives as stored (not transcoded) and its
 * size and MD5/CRC32C can be checked; readers recognise gzip by its magic bytes and decode it with
 * their size caps. Every response is validated here, at the edge: a listing is untrusted input.
 */
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import * as z from 'zod';
import { printable } from '../../model/index.js';
import { BatchedWriter } from './batched-write.js';
import { Checksums, type Digests, digestMismatch } from './checksum.js';
import { HasherClosed, type HashJob, RangeHasher } from './hasher.js';
import { Connections, deadlineFor, HttpStatusError, retryAfterSeconds, TransientError } from './http.js';
import { Limiter } from './limit.js';
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from './retry.js';

/** What atlevel keeps of an object resource. */
export interface ObjectInfo {
  readonly bucket: string;
  readonly name: string;
  /** Stored bytes (compressed, for a gzip-encoded object). */
  readonly size: number;
  readonly generation?: string;
  readonly etag?: string;
  readonly md5Hash?: string;
  readonly crc32c?: string;
  readonly contentEncoding?: string;
  readonly updated?: string;
}

export interface Listing {
  readonly items: ObjectInfo[];
  /** Sub-folders (with the delimiter): full prefixes ending in the delimiter. */
  readonly prefixes: string[];
}

/** One page of a listing. */
export interface ListPage extends Listing {
  readonly nextPageToken?: string;
}

export interface StorageClientOptions {
  /** e.g. https://storage.googleapis.com, or http://127.0.0.1:PORT for a mirror or a test fake. */
  readonly endpoint: string;
  /** Requests in flight at once (listings and downloads together), small objects aside. */
  readonly concurrency: number;
  readonly retry?: RetryPolicy;
  readonly idleTimeoutMs?: number;
  /** The fixed part of each request's deadline (deadlineFor); tests make it small. */
  readonly deadlineBaseMs?: number;
  /** Pages of one listing before giving up (a folder of 1000 × this many entries). */
  readonly maxListPages?: number;
  /** Called for every retry, for --verbose. */
  readonly onRetry?: (what: string, reason: string, attempt: number) => void;
  /** Called with each chunk's size as download bytes arrive, for the progress bar. */
  readonly onBytes?: (n: number) => void;
}

/** A storage error a user can act on: which URL, what status or failure. Becomes an InputError. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly url: string,
    readonly problem: string,
    readonly status?: number,
  ) {
    super(`${url}: ${problem}`);
  }
}

const MAX_NAME_BYTES = 1024;
/**
 * Large objects are fetched in slices of this size, each a ranged GET on a connection of its own
 * (as gsutil's and gcloud's sliced downloads do): Cloud Storage serves each connection at a bounded
 * rate, so one 70 MB object on one connection would take seconds while the other connections idle.
 */
export const SLICE_BYTES = 8 * 1024 * 1024;
/**
 * Objects up to this size are fetched through slots of their own (as many again as `concurrency`):
 * their cost is the round trip, not the transfer, so they need not wait for a large transfer to free
 * a slot, nor hold one while a slice could use it.
 */
const SMALL_OBJECT_BYTES = 1024 * 1024;

/**
 * The [start, end) ranges of an object of `size` bytes: as few slices as keep each at most
 * SLICE_BYTES, all of (nearly) the same length, so that they finish together rather than one short
 * remainder leaving a long slice to finish alone.
 */
function sliceRanges(size: number): [number, number][] {
  const count = Math.max(1, Math.ceil(size / SLICE_BYTES));
  const step = Math.ceil(size / count);
  const ranges: [number, number][] = [];
  for (let start = 0; start < size; start += step) ranges.push([start, Math.min(size, start + step)]);
  return ranges;
}

/** What every slice of one sliced download shares: where it comes from and goes to. */
interface SliceTarget {
  readonly url: string;
  readonly obj: ObjectInfo;
  readonly handle: import('node:fs/promises').FileHandle;
  /** Set when a slice failed for good: the others stop. */
  readonly stop: { failed: boolean };
}

/** A slice stopped because another slice of the same object failed: never the cause to report. */
class SliceCancelled extends StorageError {}

/** A server that answered a ranged GET with the whole object: fetch it as one stream instead. */
class RangeIgnored extends Error {
  override readonly name = 'RangeIgnored';
}
const SIZE = z.union([z.string().regex(/^\d{1,16}$/), z.number().int().nonnegative()]);

const OBJECT = z.object({
  name: z.string().min(1),
  size: SIZE,
  generation: z.union([z.string().regex(/^\d{1,32}$/), z.number().int()]).optional(),
  etag: z.string().max(200).optional(),
  md5Hash: z.string().max(64).optional(),
  crc32c: z.string().max(16).optional(),
  contentEncoding: z.string().max(100).optional(),
  updated: z.string().max(64).optional(),
});

const LIST = z.object({
  items: z.array(z.unknown()).optional(),
  prefixes: z.array(z.string()).optional(),
  nextPageToken: z.string().max(4096).optional(),
});

export class StorageClient {
  readonly endpoint: string;
  readonly #limiter: Limiter;
  readonly #small: Limiter;
  readonly #http: Connections;
  readonly #retry: RetryPolicy;
  readonly #idleTimeoutMs: number;
  readonly #maxListPages: number;
  readonly #opts: StorageClientOptions;
  /** Checks sliced downloads off the main thread; its worker starts with the first of them. */
  readonly #hasher = new RangeHasher();
  /** Slice attempts so far: each one's ranges are hashed under its number (#sliceAttempt). */
  #attempts = 0;
  /** Requests sent, for --verbose and the bench. */
  requests = 0;
  #closed = false;

  constructor(opts: StorageClientOptions) {
    this.endpoint = opts.endpoint.replace(/\/+$/, '');
    this.#limiter = new Limiter(opts.concurrency);
    this.#small = new Limiter(opts.concurrency);
    this.#http = new Connections(2 * opts.concurrency);
    this.#retry = opts.retry ?? DEFAULT_RETRY;
    this.#idleTimeoutMs = opts.idleTimeoutMs ?? 30_000;
    this.#maxListPages = opts.maxListPages ?? 200;
    this.#opts = opts;
  }

  objectUrl(bucket: string, name: string): string {
    return `${this.endpoint}/storage/v1/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(name)}`;
  }

  /**
   * All entries under `prefix` (one folder level with a delimiter; every object below it without),
   * following nextPageToken; `first` is a page already fetched (listPage), continued from its token.
   */
  async list(bucket: string, prefix: string, delimiter?: string, first?: ListPage): Promise<Listing> {
    const items: ObjectInfo[] = [...(first?.items ?? [])];
    const prefixes: string[] = [...(first?.prefixes ?? [])];
    let token = first ? first.nextPageToken : '';
    for (let pages = first ? 1 : 0; token !== undefined; pages++) {
      if (pages >= this.#maxListPages) {
        throw new StorageError(
          this.#listUrl(bucket, prefix, delimiter),
          `more than ${this.#maxListPages} pages of entries; give a URL further down the tree`,
        );
      }
      const next = await this.listPage(bucket, prefix, delimiter, token || undefined);
      items.push(...next.items);
      prefixes.push(...next.prefixes);
      token = next.nextPageToken;
    }
    return { items, prefixes };
  }

  /** One page of a listing (at most 1000 entries, the API's maximum), and the token of the next. */
  async listPage(bucket: string, prefix: string, delimiter?: string, token?: string): Promise<ListPage> {
    const url = this.#listUrl(bucket, prefix, delimiter, token);
    const body = await this.#getJson(url);
    const parsed = LIST.safeParse(body);
    if (!parsed.success) throw new StorageError(url, 'the listing is not an objects list response');
    const items: ObjectInfo[] = [];
    for (const raw of parsed.data.items ?? []) {
      const item = toObjectInfo(bucket, raw);
      if (!item) throw new StorageError(url, 'the listing holds an entry that is not an object resource');
      if (item.name.startsWith(prefix)) items.push(item);
    }
    const prefixes = (parsed.data.prefixes ?? []).filter((p) => p.startsWith(prefix) && p !== prefix);
    const next = parsed.data.nextPageToken;
    return { items, prefixes, ...(next ? { nextPageToken: next } : {}) };
  }

  /** The object resource of `name`, or undefined when there is no such object (404). */
  async metadata(bucket: string, name: string): Promise<ObjectInfo | undefined> {
    const url = this.objectUrl(bucket, name);
    let body: unknown;
    try {
      body = await this.#getJson(url);
    } catch (err) {
      if (err instanceof StorageError && err.status === 404) return undefined;
      throw err;
    }
    const info = toObjectInfo(bucket, body);
    if (!info) throw new StorageError(url, 'the answer is not an object resource');
    return info;
  }

  /**
   * Write the stored bytes of `obj` (the generation listed) to `sink`, checked against its size and
   * digests. On a transient failure the attempt is retried from the start with a fresh sink from
   * `openSink`; the previous one is discarded by the caller's `discard`. Resolves with the byte count.
   */
  async download(
    obj: ObjectInfo,
    openSink: () => Promise<Writable>,
    discard: (sink: Writable) => Promise<void>,
  ): Promise<number> {
    const params = new URLSearchParams({ alt: 'media' });
    if (obj.generation !== undefined) params.set('generation', obj.generation);
    const url = `${this.objectUrl(obj.bucket, obj.name)}?${params}`;
    const limiter = obj.size <= SMALL_OBJECT_BYTES ? this.#small : this.#limiter;
    return limiter.run(() =>
      withRetry(
        this.#retry,
        async () => {
          const sink = await openSink();
          try {
            return await this.#downloadOnce(url, obj, sink);
          } catch (err) {
            await discard(sink);
            throw err;
          }
        },
        (err, n) => this.#opts.onRetry?.(url, err.message, n),
      ).catch((err: unknown) => {
        throw toStorageError(url, err);
      }),
    );
  }

  /**
   * Whether `obj` is fetched in slices: larger than one slice, pinned to a generation (so every slice
   * reads the same bytes), and not gzip-encoded (a gzip object is served whole, or transcoded).
   */
  sliceable(obj: ObjectInfo): boolean {
    return (
      obj.size > SLICE_BYTES &&
      obj.generation !== undefined &&
      !(obj.contentEncoding ?? '').toLowerCase().includes('gzip')
    );
  }

  /**
   * Fetch the stored bytes of a sliceable `obj` into `file` (created or overwritten), in slices of
   * at most SLICE_BYTES (sliceRanges) fetched in parallel (each through the shared limit, each retried on its own) and
   * written at their offsets; then check the whole file against the object's size and MD5/CRC32C,
   * re-reading it from disk (the slices arrive out of order). A corrupt result is fetched again, up to
   * the retry policy's attempts. Resolves with the byte count, or false when the server ignores
   * ranges (the caller then downloads it as one stream).
   */
  async downloadSliced(obj: ObjectInfo, file: string): Promise<number | false> {
    const params = new URLSearchParams({ alt: 'media' });
    if (obj.generation !== undefined) params.set('generation', obj.generation);
    const url = `${this.objectUrl(obj.bucket, obj.name)}?${params}`;
    try {
      return await withRetry(
        this.#retry,
        async () => {
          const digests = await this.#slicesOnce(url, obj, file);
          if (digests.bytes !== obj.size) {
            throw new TransientError(`received ${digests.bytes} bytes of ${obj.size} (a cut-off slice)`);
          }
          const bad = digestMismatch(obj, digests);
          if (bad) throw new TransientError(`corrupt download: ${bad}`);
          return digests.bytes;
        },
        (err, n) => this.#opts.onRetry?.(url, err.message, n),
      );
    } catch (err) {
      if (err instanceof RangeIgnored) return false;
      throw toStorageError(url, err);
    }
  }

  /**
   * Every slice of `obj` into `file`; the first slice that fails for good stops the others. The
   * digests are computed while later slices still download: each slice is read back (from the page
   * cache) and hashed by the hash worker (hasher.ts), so that the main thread stays free to read the
   * sockets. With a CRC32C (Cloud Storage gives every object one) the bytes of every slice are hashed
   * as they are written (each batch of BatchedWriter), so that little is left to hash once the last
   * slice lands; with only an MD5, a slice is hashed once it and all before it are written.
   */
  async #slicesOnce(url: string, obj: ObjectInfo, file: string): Promise<Digests> {
    const handle = await open(file, 'w+');
    const stop = { failed: false };
    const job = this.#hasher.job(handle, obj);
    let hashing: Promise<void> = Promise.resolve();
    /** The slices' chain, settled: never rejects, so the file is closed only once it is done. */
    let hashed: Promise<unknown> = Promise.resolve();
    try {
      const slices: Promise<void>[] = [];
      for (const [start, end] of sliceRanges(obj.size)) {
        const slice = this.#limiter.run(() =>
          withRetry(
            this.#retry,
            () => this.#sliceAttempt({ url, obj, handle, stop }, start, end, job),
            (err, n) => this.#opts.onRetry?.(`${url} bytes ${start}-${end - 1}`, err.message, n),
          ),
        );
        slices.push(slice);
        if (!job.inAnyOrder) hashing = hashing.then(() => slice).then(() => job.add(start, end));
      }
      // Settled here so that a failed slice is never an unhandled rejection of the hashing chain.
      hashed = hashing.then(
        () => undefined,
        (err: unknown) => err,
      );
      const settled = await Promise.allSettled(
        slices.map((p) =>
          p.catch((err: unknown) => {
            stop.failed = true;
            throw err;
          }),
        ),
      );
      // A server that ignores ranges says so on every slice: that is the answer, not the cancellations.
      const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      const ignored = failures.find((e) => e instanceof RangeIgnored);
      if (ignored) throw ignored;
      // Each slice had its retries: a slice that still failed is final, not retried again whole.
      // The slice that failed is the answer; those it cancelled may have settled first.
      const cause = failures.find((e) => !(e instanceof SliceCancelled)) ?? failures[0];
      if (failures.length > 0) throw toStorageError(url, cause);
      const chainError = await hashed;
      if (chainError !== undefined) throw chainError;
      return await job.finish().catch((err: unknown) => {
        // Closed meanwhile (another download failed): cancelled, like the slices.
        if (err instanceof HasherClosed) this.#checkOpen(url);
        throw err;
      });
    } finally {
      await hashed;
      // The worker reads this file through the same descriptor: it is closed only once they are done.
      await job.settle();
      await handle.close();
    }
  }

  /**
   * One attempt at a slice. With inAnyOrder, its bytes go to the hash job as they are written, under
   * an attempt number of their own, and are taken back if the attempt fails.
   */
  async #sliceAttempt(to: SliceTarget, start: number, end: number, job: HashJob): Promise<void> {
    if (!job.inAnyOrder) return this.#sliceOnce(to, start, end);
    const attempt = ++this.#attempts;
    try {
      await this.#sliceOnce(to, start, end, (s, e) => job.add(s, e, attempt));
    } catch (err) {
      job.discard(attempt);
      throw err;
    }
  }

  async #sliceOnce(
    { url, obj, handle, stop }: SliceTarget,
    start: number,
    end: number,
    onWritten?: (start: number, end: number) => void,
  ): Promise<void> {
    this.#checkOpen(url);
    if (stop.failed) throw new SliceCancelled(url, 'cancelled: another slice failed');
    this.requests += 1;
    const res = await this.#http.get(
      url,
      { 'accept-encoding': 'gzip', range: `bytes=${start}-${end - 1}` },
      { idleTimeoutMs: this.#idleTimeoutMs, deadlineMs: this.#deadline(end - start) },
    );
    if (
      res.status === 200 ||
      String(res.headers['content-encoding'] ?? '')
        .toLowerCase()
        .includes('gzip')
    ) {
      // The whole object (or a compressed one): ranges are not honoured here.
      res.body.destroy();
      throw new RangeIgnored(url);
    }
    if (res.status !== 206) {
      res.body.resume();
      throw statusError(res.url, res.status, res.body.statusMessage ?? '', res.headers['retry-after']);
    }
    const range = String(res.headers['content-range'] ?? '');
    if (range !== `bytes ${start}-${end - 1}/${obj.size}`) {
      res.body.destroy();
      throw new TransientError(
        `asked for bytes ${start}-${end - 1}/${obj.size}, got range "${printable(range, 80)}"`,
      );
    }
    let at = start;
    const writer = new BatchedWriter(handle, start, onWritten);
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (stop.failed || this.#closed) throw new StorageError(url, 'cancelled: another download failed');
        if (at + chunk.length > end)
          throw new TransientError(`received more than the ${end - start} bytes of a slice`);
        // Straight from the socket's buffer to its place in the file, in batches: no copy, no
        // whole-slice buffer.
        await writer.push(chunk);
        at += chunk.length;
        this.#opts.onBytes?.(chunk.length);
      }
      await writer.end();
    } catch (err) {
      res.body.destroy();
      // A write still in flight must land before another attempt writes the same range.
      await writer.settle();
      if (err instanceof TransientError || err instanceof StorageError) throw err;
      throw new TransientError(`the slice broke off after ${at - start} bytes (${describe(err)})`);
    }
    if (at !== end) {
      throw new TransientError(`received ${at - start} bytes of a ${end - start}-byte slice (cut off)`);
    }
  }

  /** Stop: requests in flight fail, and no attempt starts again. */
  close(): void {
    this.#closed = true;
    this.#http.close();
    this.#hasher.close();
  }

  /** Sliced downloads whose digests the hash worker computed (the rest fell back to the main thread). */
  get hashedOffThread(): number {
    return this.#hasher.offThreadJobs;
  }

  #deadline(bytes: number): number {
    return deadlineFor(bytes, this.#opts.deadlineBaseMs);
  }

  #checkOpen(url: string): void {
    if (this.#closed) throw new StorageError(url, 'cancelled: another download failed');
  }

  async #downloadOnce(url: string, obj: ObjectInfo, sink: Writable): Promise<number> {
    this.#checkOpen(url);
    this.requests += 1;
    const res = await this.#http.get(
      url,
      { 'accept-encoding': 'gzip' },
      { idleTimeoutMs: this.#idleTimeoutMs, deadlineMs: this.#deadline(obj.size) },
    );
    if (res.status !== 200) {
      res.body.resume();
      throw statusError(res.url, res.status, res.body.statusMessage ?? '', res.headers['retry-after']);
    }
    const answered = String(res.headers['content-encoding'] ?? '').toLowerCase();
    const stored = (obj.contentEncoding ?? '').toLowerCase();
    // A server that gzips on the fly (a proxy, a mirror) sends the stored bytes compressed: undo it.
    const dynamicGzip = answered.includes('gzip') && !stored.includes('gzip');
    // A server that decodes a gzip-stored object anyway (ignoring Accept-Encoding) sends other bytes
    // than the ones listed: only the HTTP framing (Content-Length) can be checked then.
    const transcoded = stored.includes('gzip') && !answered.includes('gzip');
    const sums = new Checksums(obj);
    const declared = Number(res.headers['content-length'] ?? Number.NaN);
    let received = 0;
    const source: AsyncIterable<Buffer> = dynamicGzip ? res.body.pipe(createGunzip()) : res.body;
    try {
      for await (const chunk of source) {
        received += chunk.length;
        sums.update(chunk);
        this.#opts.onBytes?.(chunk.length);
        // Capped at the listed size whatever the encoding: an answer the server decoded (it
        // ignored Accept-Encoding) cannot be checked against the listing, and is not let grow past it.
        if (sums.bytes > obj.size) {
          if (transcoded) {
            throw new StorageError(
              url,
              `the server sent the gzip-stored object decoded, past the ${obj.size} bytes the listing gave; not fetched`,
            );
          }
          throw new TransientError(`received more than the ${obj.size} bytes the listing gave`);
        }
        if (!sink.write(chunk)) await new Promise<void>((resolve) => sink.once('drain', resolve));
      }
    } catch (err) {
      res.body.destroy();
      if (err instanceof TransientError || err instanceof StorageError) throw err;
      throw new TransientError(`the download broke off after ${received} bytes (${describe(err)})`);
    }
    if (!dynamicGzip && Number.isFinite(declared) && received !== declared) {
      throw new TransientError(`received ${received} bytes where Content-Length said ${declared}`);
    }
    if (!transcoded) {
      if (sums.bytes !== obj.size) {
        throw new TransientError(
          `received ${sums.bytes} bytes of ${obj.size} (a cut-off or wrong-length answer)`,
        );
      }
      const bad = sums.mismatch();
      if (bad) throw new TransientError(`corrupt download: ${bad}`);
    }
    await new Promise<void>((resolve, reject) =>
      sink.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    return sums.bytes;
  }

  #listUrl(bucket: string, prefix: string, delimiter?: string, token?: string): string {
    const params = new URLSearchParams({ prefix });
    if (delimiter) params.set('delimiter', delimiter);
    if (token) params.set('pageToken', token);
    // The API's default and maximum: a recursive listing costs one round trip per 1000 objects.
    params.set('maxResults', '1000');
    params.set(
      'fields',
      'items(name,size,generation,etag,md5Hash,crc32c,contentEncoding,updated),prefixes,nextPageToken',
    );
    return `${this.endpoint}/storage/v1/b/${encodeURIComponent(bucket)}/o?${params}`;
  }

  /** GET a JSON document (listings, metadata): small, read whole, capped at 32 MiB. */
  #getJson(url: string): Promise<unknown> {
    return this.#limiter
      .run(() =>
        withRetry(
          this.#retry,
          async () => {
            this.#checkOpen(url);
            this.requests += 1;
            const res = await this.#http.get(
              url,
              { accept: 'application/json' },
              { idleTimeoutMs: this.#idleTimeoutMs, deadlineMs: this.#deadline(0) },
            );
            if (res.status !== 200) {
              res.body.resume();
              throw statusError(
                res.url,
                res.status,
                res.body.statusMessage ?? '',
                res.headers['retry-after'],
              );
            }
            const chunks: Buffer[] = [];
            let length = 0;
            try {
              for await (const chunk of res.body as AsyncIterable<Buffer>) {
                length += chunk.length;
                if (length > 32 * 1024 * 1024) {
                  res.body.destroy();
                  throw new StorageError(url, 'the answer is larger than 32 MiB; not a listing');
                }
                chunks.push(chunk);
              }
            } catch (err) {
              if (err instanceof StorageError) throw err;
              throw new TransientError(`the answer broke off (${describe(err)})`);
            }
            const declared = Number(res.headers['content-length'] ?? Number.NaN);
            if (Number.isFinite(declared) && declared !== length) {
              throw new TransientError(`received ${length} bytes where Content-Length said ${declared}`);
            }
            try {
              return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
            } catch {
              // A cut-off body that still matched its (wrong) length: worth another try.
              throw new TransientError('the answer is not valid JSON');
            }
          },
          (err, n) => this.#opts.onRetry?.(url, err.message, n),
        ),
      )
      .catch((err: unknown) => {
        throw toStorageError(url, err);
      });
  }
}

function statusError(
  url: string,
  status: number,
  text: string,
  retryAfter: string | string[] | undefined,
): Error {
  if (status === 429 || status === 408 || status >= 500) {
    const after = retryAfterSeconds(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    return new TransientError(`HTTP ${status}${text ? ` ${text}` : ''}`, after);
  }
  return new HttpStatusError(url, status, text);
}

function toStorageError(url: string, err: unknown): Error {
  if (err instanceof StorageError) return err;
  if (err instanceof HttpStatusError) return new StorageError(err.url, err.message, err.status);
  if (err instanceof TransientError) return new StorageError(url, err.message);
  return err instanceof Error ? err : new Error(String(err));
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return printable(code ? `${code}: ${message}` : message, 120);
}

/** An object resource as atlevel keeps it, or undefined when it is not one. */
function toObjectInfo(bucket: string, raw: unknown): ObjectInfo | undefined {
  const parsed = OBJECT.safeParse(raw);
  if (!parsed.success) return undefined;
  const o = parsed.data;
  if (Buffer.byteLength(o.name, 'utf8') > MAX_NAME_BYTES || /[\r\n\0]/.test(o.name)) return undefined;
  const size = Number(o.size);
  if (!Number.isSafeInteger(size)) return undefined;
  return {
    bucket,
    name: o.name,
    size,
    ...(o.generation !== undefined ? { generation: String(o.generation) } : {}),
    ...(o.etag !== undefined ? { etag: o.etag } : {}),
    ...(o.md5Hash !== undefined ? { md5Hash: o.md5Hash } : {}),
    ...(o.crc32c !== undefined ? { crc32c: o.crc32c } : {}),
    ...(o.contentEncoding !== undefined ? { contentEncoding: o.contentEncoding } : {}),
    ...(o.updated !== undefined ? { updated: o.updated } : {}),
  };
}
