/**
 * The digests of sliced downloads, computed off the main thread. Slices arrive out of order, so a
 * sliced file is read back as it is written: each batch at once when the object has a CRC32C (the
 * batches' values are joined at the end, checksum.ts FileDigests), else slice by slice in file order
 * for its MD5. Hashing ~160 MB costs a few hundred ms of CPU, which on the main thread delayed
 * reading the sockets of the slices still downloading (Node 20 has no asynchronous MD5 or CRC32C).
 * One worker thread per client (hash-worker.ts), started when the first sliced download begins, does
 * the reading and hashing; the main thread only posts the ranges written.
 *
 * If the worker cannot start or dies, the hashing falls back to the main thread (as it was done
 * before the worker): the check is what keeps a corrupt download out of the cache, and the main
 * thread can always do it, only more slowly; failing the download instead would turn a performance
 * measure into an outage (e.g. a process at its thread limit, or a worker file missing from a
 * repackaged install).
 */
import { existsSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Digests, dropAttempt, FileDigests, hashableInAnyOrder } from './checksum.js';
import type { HashRequest } from './hash-worker.js';

/** The checksums of one file, fed with its ranges. */
export interface HashJob {
  /** Whether ranges may be added in any order (the object has a CRC32C); else in file order. */
  readonly inAnyOrder: boolean;
  /**
   * Hash [start, end) of the file next, once those bytes are written (in file order unless
   * inAnyOrder), as part of `attempt` (inAnyOrder: a slice's attempt, see discard).
   */
  add(start: number, end: number, attempt?: number): void;
  /** Forget the ranges added under `attempt` (inAnyOrder only): the slice failed and is fetched again. */
  discard(attempt: number): void;
  /**
   * The digests of every range added (call after the last). Rejects on a read error, or with
   * HasherClosed when the hasher closed before the worker answered.
   */
  finish(): Promise<Digests>;
  /** Resolves once nothing reads the file for this job any more (then it may be closed). Never rejects. */
  settle(): Promise<void>;
}

/** The hasher was closed (the download is being cancelled) before the digests were known. */
export class HasherClosed extends Error {
  override readonly name = 'HasherClosed';
}

/** The worker is gone (could not start, crashed, or was terminated) before it answered. */
class WorkerGone extends Error {
  override readonly name = 'WorkerGone';
}

type Expected = { readonly md5Hash?: string; readonly crc32c?: string };

/**
 * Where the worker's module is: beside this one in dist/ (tsc output) and in dist/bundle/ (an entry
 * point of its own there, scripts/build.mjs); from the project root's dist/ when atlevel runs from
 * source (tests, tsx), which cannot start a TypeScript worker.
 */
function workerUrl(): URL | undefined {
  const candidates = [
    new URL('./hash-worker.js', import.meta.url),
    new URL('../../../dist/sources/url/hash-worker.js', import.meta.url),
  ];
  return candidates.find((u) => u.protocol === 'file:' && existsSync(fileURLToPath(u)));
}

export class RangeHasher {
  #worker: Worker | undefined;
  /** The worker could not start or died: every later job hashes on the main thread. */
  #broken = false;
  #closed = false;
  #nextJob = 1;
  /** Jobs whose `end` was posted, by id: the worker's answer settles them. */
  readonly #waiting = new Map<number, { resolve: (d: Digests) => void; reject: (e: Error) => void }>();
  /** Jobs the worker hashed, for the tests (that the worker path is the one taken). */
  offThreadJobs = 0;

  constructor(
    /** The worker's module; found beside this one (workerUrl) unless given (tests). */
    readonly workerModule?: URL,
  ) {}

  /** A job for `handle`'s file, checked against `expected`'s digests. */
  job(handle: FileHandle, expected: Expected): HashJob {
    const worker = this.#closed || this.#broken ? undefined : this.#start();
    if (!worker) return new MainThreadJob(handle, expected);
    const id = this.#nextJob++;
    const want: Expected = {
      ...(expected.md5Hash !== undefined ? { md5Hash: expected.md5Hash } : {}),
      ...(expected.crc32c !== undefined ? { crc32c: expected.crc32c } : {}),
    };
    this.#post({ op: 'begin', job: id, fd: handle.fd, expected: want });
    return new WorkerJob(this, id, handle, want);
  }

  /**
   * Stop the worker: jobs not yet answered reject (once the thread has stopped, so no read of theirs
   * is still in flight when the caller closes the file), and no job starts a worker again.
   */
  close(): void {
    this.#closed = true;
    const worker = this.#worker;
    // The promise settles with the exit code; 'exit' below does the bookkeeping.
    worker?.terminate().catch(() => undefined);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Post `end` for job `id`: resolves with the worker's answer, rejects with WorkerGone or a read error. */
  request(id: number): Promise<Digests> {
    if (!this.#worker) return Promise.reject(new WorkerGone('the hash worker is gone'));
    const answer = new Promise<Digests>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    // Awaited answers keep the process alive; an idle worker never does (see #start).
    if (this.#waiting.size === 1) this.#worker.ref();
    this.#post({ op: 'end', job: id });
    return answer;
  }

  post(req: HashRequest): void {
    this.#post(req);
  }

  #post(req: HashRequest): void {
    // A worker that is gone drops the message; its jobs are rejected by 'exit' or by request().
    this.#worker?.postMessage(req);
  }

  #start(): Worker | undefined {
    if (this.#worker) return this.#worker;
    const url = this.workerModule ?? workerUrl();
    if (!url) {
      this.#broken = true;
      return undefined;
    }
    let worker: Worker;
    try {
      // No inherited flags: the worker needs none, and some (--import of a loader) would slow its start.
      worker = new Worker(url, { name: 'atlevel-hash', execArgv: [] });
    } catch {
      this.#broken = true;
      return undefined;
    }
    // Idle, it must not keep the process alive; request() refs it while an answer is awaited.
    worker.unref();
    worker.on('message', (msg: unknown) => this.#answer(msg));
    // An 'error' (it could not load, or threw) is always followed by 'exit', which settles the jobs.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      this.#worker = undefined;
      this.#broken = true;
      const gone = new WorkerGone('the hash worker stopped');
      for (const { reject } of this.#waiting.values()) reject(gone);
      this.#waiting.clear();
    });
    this.#worker = worker;
    return worker;
  }

  #answer(msg: unknown): void {
    const m = (typeof msg === 'object' && msg !== null ? msg : {}) as Record<string, unknown>;
    const waiting = typeof m.job === 'number' ? this.#waiting.get(m.job) : undefined;
    if (!waiting || typeof m.job !== 'number') return;
    this.#waiting.delete(m.job);
    if (this.#waiting.size === 0) this.#worker?.unref();
    const digests = m.digests as Record<string, unknown> | undefined;
    const error = m.error as Record<string, unknown> | undefined;
    if (
      digests &&
      typeof digests.bytes === 'number' &&
      (digests.md5Hash === undefined || typeof digests.md5Hash === 'string') &&
      (digests.crc32c === undefined || typeof digests.crc32c === 'string')
    ) {
      this.offThreadJobs += 1;
      waiting.resolve(digests as unknown as Digests);
    } else if (error && typeof error.message === 'string') {
      const err: NodeJS.ErrnoException = new Error(error.message);
      if (typeof error.code === 'string') err.code = error.code;
      waiting.reject(err);
    } else {
      waiting.reject(new WorkerGone('the hash worker answered nonsense'));
    }
  }
}

const noop = (): void => undefined;

/** Ranges hashed by the worker; on the main thread instead if the worker is gone before it answered. */
class WorkerJob implements HashJob {
  readonly #ranges: { start: number; end: number; attempt: number | undefined }[] = [];
  #answer: Promise<Digests> | undefined;
  #finished: Promise<Digests> | undefined;
  readonly inAnyOrder: boolean;

  constructor(
    readonly hasher: RangeHasher,
    readonly id: number,
    readonly handle: FileHandle,
    readonly expected: Expected,
  ) {
    this.inAnyOrder = hashableInAnyOrder(expected);
  }

  add(start: number, end: number, attempt?: number): void {
    this.#ranges.push({ start, end, attempt });
    this.hasher.post({
      op: 'range',
      job: this.id,
      start,
      end,
      ...(attempt !== undefined ? { attempt } : {}),
    });
  }

  discard(attempt: number): void {
    dropAttempt(this.#ranges, attempt);
    this.hasher.post({ op: 'discard', job: this.id, attempt });
  }

  finish(): Promise<Digests> {
    this.#finished ??= this.#end().catch(async (err: unknown) => {
      if (!(err instanceof WorkerGone)) throw err;
      if (this.hasher.closed) throw new HasherClosed('the download was closed');
      // Every range added is written (finish comes after the last slice): hash them all here.
      const main = new MainThreadJob(this.handle, this.expected);
      for (const { start, end, attempt } of this.#ranges) main.add(start, end, attempt);
      return main.finish();
    });
    return this.#finished;
  }

  settle(): Promise<void> {
    // The worker's answer (or its exit) means it reads this file no more; a fallback in finish()
    // reads on, so that is waited for too when it was started.
    return this.#end()
      .then(noop, noop)
      .then(() => this.#finished?.then(noop, noop));
  }

  #end(): Promise<Digests> {
    if (!this.#answer) {
      this.#answer = this.hasher.request(this.id);
      // Settled by finish() or settle(); never an unhandled rejection meanwhile.
      this.#answer.catch(noop);
    }
    return this.#answer;
  }
}

/** Ranges read back and hashed on the main thread, each as soon as it is added (the fallback). */
class MainThreadJob implements HashJob {
  readonly #sums: FileDigests;
  #chain: Promise<void> = Promise.resolve();
  #buffer: Buffer | undefined;
  #finished: Promise<Digests> | undefined;

  constructor(
    readonly handle: FileHandle,
    expected: Expected,
  ) {
    this.#sums = new FileDigests(expected);
  }

  get inAnyOrder(): boolean {
    return this.#sums.inAnyOrder;
  }

  add(start: number, end: number, attempt?: number): void {
    this.#chain = this.#chain.then(() => this.#hashRange(start, end, attempt));
    // Settled by finish() or settle(); never an unhandled rejection meanwhile.
    this.#chain.catch(noop);
  }

  discard(attempt: number): void {
    // After the ranges added before it, as the worker takes its messages in order.
    this.#chain = this.#chain.then(() => this.#sums.discard(attempt));
    this.#chain.catch(noop);
  }

  finish(): Promise<Digests> {
    // Once: an MD5 is ended by its digest.
    this.#finished ??= this.#chain.then(() => this.#sums.digests());
    return this.#finished;
  }

  settle(): Promise<void> {
    return this.#chain.then(noop, noop);
  }

  async #hashRange(start: number, end: number, attempt: number | undefined): Promise<void> {
    // Large reads: each is a thread-pool round trip.
    this.#buffer ??= Buffer.allocUnsafe(4 * 1024 * 1024);
    const buffer = this.#buffer;
    const sink = this.#sums.range(start, attempt);
    for (let at = start; at < end; ) {
      const { bytesRead } = await this.handle.read(buffer, 0, Math.min(buffer.length, end - at), at);
      // A file shorter than the range: the byte count tells the downloader (a cut-off slice).
      if (bytesRead === 0) break;
      sink.update(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
    sink.end();
  }
}
