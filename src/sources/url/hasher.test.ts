/**
 * The hash worker of sliced downloads (run from the built dist/sources/url/hash-worker.js, as atlevel
 * run from source finds it): the digests it computes from ranges of a file, its read errors, and the
 * main-thread fallback when the worker cannot start, dies mid-job, or is closed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { digestMismatch, storageDigests } from './checksum.js';
import { HasherClosed, RangeHasher } from './hasher.js';

const data = randomBytes(9 * 1024 * 1024 + 777);
const digests = storageDigests(data);
let dir: string;
let file: string;
const handles: FileHandle[] = [];
const hashers: RangeHasher[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-hasher-'));
  file = join(dir, 'object');
  writeFileSync(file, data);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const h of hashers.splice(0)) h.close();
  for (const h of handles.splice(0)) await h.close();
});

async function handle(path = file): Promise<FileHandle> {
  const h = await open(path, 'r');
  handles.push(h);
  return h;
}

function hasher(module?: string): RangeHasher {
  const h = new RangeHasher(module === undefined ? undefined : pathToFileURL(module));
  hashers.push(h);
  return h;
}

/** A worker module of the test's own, for the failures the real one does not have. */
function fakeWorker(name: string, code: string): string {
  const path = join(dir, name);
  writeFileSync(path, code);
  return path;
}

/** The file in three uneven ranges, in order, as slices are added. */
function addAll(job: { add(start: number, end: number): void }, size = data.length): void {
  const a = 5 * 1024 * 1024;
  const b = 8 * 1024 * 1024 + 3;
  job.add(0, a);
  job.add(a, b);
  job.add(b, size);
}

/** The same three ranges, last first: as slices of an object with a CRC32C may land. */
function addReversed(job: { add(start: number, end: number): void }, size = data.length): void {
  const a = 5 * 1024 * 1024;
  const b = 8 * 1024 * 1024 + 3;
  job.add(b, size);
  job.add(0, a);
  job.add(a, b);
}

describe('the hash worker', () => {
  it('computes the MD5 of ranges added in order, off the main thread', async () => {
    const h = hasher();
    const job = h.job(await handle(), { md5Hash: digests.md5Hash });
    addAll(job);
    const got = await job.finish();
    await job.settle();
    expect(got).toEqual({ bytes: data.length, md5Hash: digests.md5Hash });
    expect(h.offThreadJobs).toBe(1);
  });

  it('computes the CRC32C when the object has no MD5 (a composite object)', async () => {
    const h = hasher();
    const job = h.job(await handle(), { crc32c: digests.crc32c });
    addAll(job);
    expect(await job.finish()).toEqual({ bytes: data.length, crc32c: digests.crc32c });
    expect(h.offThreadJobs).toBe(1);
  });

  it('joins the CRC32Cs of ranges added in any order when the object has one', async () => {
    const h = hasher();
    const job = h.job(await handle(), digests);
    expect(job.inAnyOrder).toBe(true);
    expect(h.job(await handle(), { md5Hash: digests.md5Hash }).inAnyOrder).toBe(false);
    addReversed(job);
    expect(await job.finish()).toEqual({ bytes: data.length, crc32c: digests.crc32c });
    // A range read short (the file is cut off inside it) shows as missing bytes and a mismatch.
    const cut = join(dir, 'cut');
    writeFileSync(cut, data.subarray(0, data.length - 10));
    const short = h.job(await handle(cut), digests);
    addReversed(short);
    const got = await short.finish();
    expect(got.bytes).toBe(data.length - 10);
    expect(digestMismatch(digests, got)).toMatch(/^CRC32C /);
  });

  it('reports a changed byte as a mismatch, and a range past the end as fewer bytes', async () => {
    const h = hasher();
    const bad = Buffer.from(data);
    bad[12345] = (bad[12345] ?? 0) ^ 1;
    const badFile = join(dir, 'bad');
    writeFileSync(badFile, bad.subarray(0, data.length - 10));
    const job = h.job(await handle(badFile), { md5Hash: digests.md5Hash });
    addAll(job);
    const got = await job.finish();
    expect(got.bytes).toBe(data.length - 10);
    expect(digestMismatch(digests, got)).toMatch(/^MD5 \S+ is not the stored /);
  });

  it('runs jobs of several files side by side', async () => {
    const h = hasher();
    const jobs = [h.job(await handle(), digests), h.job(await handle(), digests)];
    for (const job of jobs) addAll(job);
    const got = await Promise.all(jobs.map((j) => j.finish()));
    for (const g of got) expect(digestMismatch(digests, g)).toBeUndefined();
    expect(h.offThreadJobs).toBe(2);
  });

  it('passes on a read error with its code', async () => {
    const h = hasher();
    const job = h.job(await handle(dir), digests);
    job.add(0, 100);
    const err = (await job.finish().catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(err.code).toBe('EISDIR');
    await job.settle();
  });
});

describe('falling back to the main thread', () => {
  it('when the worker cannot start', async () => {
    const h = hasher(fakeWorker('throws.mjs', 'throw new Error("cannot start");\n'));
    const job = h.job(await handle(), digests);
    addAll(job);
    // With a CRC32C to check, that is the digest, from ranges in any order.
    expect(await job.finish()).toEqual({ bytes: data.length, crc32c: digests.crc32c });
    expect(h.offThreadJobs).toBe(0);
    // Later jobs do not try again.
    const next = h.job(await handle(), { md5Hash: digests.md5Hash });
    addAll(next);
    expect((await next.finish()).md5Hash).toBe(digests.md5Hash);
    const reversed = h.job(await handle(), digests);
    addReversed(reversed);
    expect(await reversed.finish()).toEqual({ bytes: data.length, crc32c: digests.crc32c });
  });

  it('when the worker module is missing', async () => {
    const h = hasher(join(dir, 'missing.mjs'));
    const job = h.job(await handle(), { md5Hash: digests.md5Hash });
    addAll(job);
    expect((await job.finish()).md5Hash).toBe(digests.md5Hash);
  });

  it('when the worker dies before it answers', async () => {
    const h = hasher(
      fakeWorker(
        'dies.mjs',
        `import { parentPort } from 'node:worker_threads';
         parentPort.on('message', (m) => { if (m.op === 'end') process.exit(3); });\n`,
      ),
    );
    const job = h.job(await handle(), digests);
    addReversed(job);
    expect((await job.finish()).crc32c).toBe(digests.crc32c);
    expect(h.offThreadJobs).toBe(0);
  });

  it('but not when the hasher was closed: the job is cancelled, and settles', async () => {
    const h = hasher(
      fakeWorker(
        'silent.mjs',
        `import { parentPort } from 'node:worker_threads';
         parentPort.on('message', () => undefined);\n`,
      ),
    );
    const job = h.job(await handle(), digests);
    addAll(job);
    const finished = job.finish().catch((e: unknown) => e);
    h.close();
    expect(await finished).toBeInstanceOf(HasherClosed);
    await job.settle();
  });
});
