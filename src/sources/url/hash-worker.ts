/**
 * The worker thread that checks sliced downloads (hasher.ts starts it): it reads ranges of a file
 * back as they are given and feeds them to the object's digests (checksum.ts FileDigests: CRC32C
 * ranges in any order, else MD5 in file order), so that the main thread only reads sockets and
 * writes files. The file descriptor is the downloader's own (a process has one fd table
 * for all its threads); the downloader closes it only after this worker answered the job's `end`.
 *
 * Messages (from hasher.ts, trusted but checked for shape, since a mistake here would hash the wrong
 * bytes silently):
 *  - { op: 'begin', job, fd, expected: { md5Hash?, crc32c? } }
 *  - { op: 'range', job, start, end, attempt? }: hash [start, end) next (in file order unless the job
 *    has a CRC32C)
 *  - { op: 'discard', job, attempt }: forget the ranges of a failed attempt
 *  - { op: 'end', job } → { job, digests } or { job, error: { message, code? } }
 */
import { readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { FileDigests } from './checksum.js';

export type HashRequest =
  | {
      readonly op: 'begin';
      readonly job: number;
      readonly fd: number;
      readonly expected: { readonly md5Hash?: string; readonly crc32c?: string };
    }
  | {
      readonly op: 'range';
      readonly job: number;
      readonly start: number;
      readonly end: number;
      readonly attempt?: number;
    }
  | { readonly op: 'discard'; readonly job: number; readonly attempt: number }
  | { readonly op: 'end'; readonly job: number };

interface Job {
  readonly fd: number;
  readonly sums: FileDigests;
  /** The first read error: later ranges are skipped and `end` reports it. */
  error?: { message: string; code?: string };
}

const jobs = new Map<number, Job>();
// Large reads, as the main thread's fallback does; one buffer, since messages are handled one at a time.
const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isExpected(v: unknown): v is { md5Hash?: string; crc32c?: string } {
  if (typeof v !== 'object' || v === null) return false;
  const { md5Hash, crc32c } = v as Record<string, unknown>;
  return (
    (md5Hash === undefined || typeof md5Hash === 'string') &&
    (crc32c === undefined || typeof crc32c === 'string')
  );
}

/** The message as a request, or a thrown error (a bug in hasher.ts: the worker dies, the main thread falls back). */
function parse(msg: unknown): HashRequest {
  const m = (typeof msg === 'object' && msg !== null ? msg : {}) as Record<string, unknown>;
  if (isCount(m.job)) {
    if (m.op === 'begin' && isCount(m.fd) && isExpected(m.expected)) return m as HashRequest;
    if (
      m.op === 'range' &&
      isCount(m.start) &&
      isCount(m.end) &&
      m.start <= m.end &&
      (m.attempt === undefined || isCount(m.attempt))
    )
      return m as HashRequest;
    if (m.op === 'discard' && isCount(m.attempt)) return m as HashRequest;
    if (m.op === 'end') return m as HashRequest;
  }
  throw new Error(`hash worker: not a request: ${JSON.stringify(msg)?.slice(0, 200)}`);
}

function hashRange(job: Job, start: number, end: number, attempt?: number): void {
  const sink = job.sums.range(start, attempt);
  for (let at = start; at < end; ) {
    // A synchronous read: this thread has nothing else to do, and the thread pool stays free for
    // the main thread's writes.
    const bytesRead = readSync(job.fd, buffer, 0, Math.min(buffer.length, end - at), at);
    // A file shorter than the range: the byte count tells the downloader (a cut-off slice).
    if (bytesRead === 0) break;
    sink.update(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
  sink.end();
}

function handle(req: HashRequest, port: NonNullable<typeof parentPort>): void {
  if (req.op === 'begin') {
    jobs.set(req.job, { fd: req.fd, sums: new FileDigests(req.expected) });
    return;
  }
  const job = jobs.get(req.job);
  if (!job) throw new Error(`hash worker: no job ${req.job}`);
  if (req.op === 'range') {
    if (job.error) return;
    try {
      hashRange(job, req.start, req.end, req.attempt);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      job.error = { message: String(e?.message ?? err), ...(e?.code ? { code: e.code } : {}) };
    }
    return;
  }
  if (req.op === 'discard') {
    job.sums.discard(req.attempt);
    return;
  }
  jobs.delete(req.job);
  port.postMessage(
    job.error ? { job: req.job, error: job.error } : { job: req.job, digests: job.sums.digests() },
  );
}

if (parentPort) {
  const port = parentPort;
  port.on('message', (msg: unknown) => handle(parse(msg), port));
}
