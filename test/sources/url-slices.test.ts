/**
 * Sliced downloads of large objects: ranged GETs in parallel, written at their offsets, the whole file
 * checked before it enters the cache (the slices' CRC32Cs joined; an object with only an MD5 is read
 * back and hashed by the worker); a bad slice is fetched again, and a server that ignores ranges gets
 * the single-stream download.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ObjectCache } from '../../src/sources/url/cache.js';
import { type ObjectInfo, SLICE_BYTES, StorageClient, StorageError } from '../../src/sources/url/gcs.js';
import { FakeGcs } from '../helpers/fake-gcs.js';

const BUCKET = 'b';
const BIG = 'run/artifacts/big.json';
/** The same bytes with only an MD5 published (a mirror that keeps no CRC32C). */
const BIG_MD5 = 'run/artifacts/big-md5.json';
const GENERATED = 'run/artifacts/generated.json';
const data = randomBytes(2 * SLICE_BYTES + 12_345);
const fake = new FakeGcs();
let cacheDir: string;
let client: StorageClient;

beforeAll(async () => {
  fake.put(BUCKET, BIG, { data });
  fake.put(BUCKET, BIG_MD5, { data, digests: 'md5' });
  fake.put(BUCKET, GENERATED, { generate: { size: 2 * SLICE_BYTES + 7, byte: 0x61 } });
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'atlevel-slices-'));
  client = new StorageClient({
    endpoint: fake.origin,
    concurrency: 4,
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
    idleTimeoutMs: 2000,
  });
  fake.faults.length = 0;
  fake.requests.length = 0;
});
afterEach(() => {
  client.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function info(name: string): Promise<ObjectInfo> {
  const listed = await client.list(BUCKET, 'run/artifacts/');
  const o = listed.items.find((i) => i.name === name);
  if (!o) throw new Error(`${name} not listed`);
  return o;
}

const media = () => fake.requests.filter((r) => r.url.includes('alt=media')).length;
const tmpLeft = () => readdirSync(join(cacheDir, 'tmp')).length;

describe('sliced downloads', () => {
  it('fetches a large object in slices and caches exactly its bytes', async () => {
    const o = await info(BIG);
    expect(o.crc32c).toBeDefined();
    expect(client.sliceable(o)).toBe(true);
    const entry = await new ObjectCache(cacheDir).fill(o, client);
    expect(readFileSync(entry.path).equals(data)).toBe(true);
    expect(media()).toBe(3);
    expect(tmpLeft()).toBe(0);
    // Checked by the hash worker (hasher.ts), each slice's CRC32C as soon as it was written.
    expect(client.hashedOffThread).toBe(1);
  });

  it('fetches again a slice that was corrupt (joined CRC32C) or cut off', async () => {
    const o = await info(BIG);
    fake.fault((n, k) => n === BIG && k === 'media', { kind: 'corrupt' }, 1);
    fake.fault((n, k) => n === BIG && k === 'media', { kind: 'truncate', bytes: 1000 }, 1);
    const entry = await new ObjectCache(cacheDir).fill(o, client);
    expect(readFileSync(entry.path).equals(data)).toBe(true);
    expect(tmpLeft()).toBe(0);
    // The corrupt attempt and the good one, both checked by the worker.
    expect(client.hashedOffThread).toBe(2);
  });

  it('takes back the hashed bytes of a slice cut off after several MiB, and hashes its retry', async () => {
    const o = await info(BIG);
    // Cut off after 3 MiB: more than one batch of the slice was written and hashed before it broke.
    fake.fault((n, k) => n === BIG && k === 'media', { kind: 'truncate', bytes: 3 * 1024 * 1024 }, 1);
    const entry = await new ObjectCache(cacheDir).fill(o, client);
    expect(readFileSync(entry.path).equals(data)).toBe(true);
    // One whole-file check, which passed: the broken attempt's ranges did not count.
    expect(client.hashedOffThread).toBe(1);
    expect(media()).toBe(4);
  });

  it('never caches a slice that is always corrupt: the CRC32C mismatch after every attempt', async () => {
    const o = await info(BIG);
    fake.fault((n, k) => n === BIG && k === 'media', { kind: 'corrupt' }, Number.POSITIVE_INFINITY);
    const cache = new ObjectCache(cacheDir);
    const err = await cache.fill(o, client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toMatch(
      /big\.json\?alt=media.*corrupt download: CRC32C \S+ is not the stored \S+ \(after 3 attempts\)/,
    );
    expect(client.hashedOffThread).toBe(3);
    expect(await cache.lookup(o)).toBeUndefined();
    expect(tmpLeft()).toBe(0);
  });

  it('checks an object with only an MD5 by reading it back in file order in the hash worker', async () => {
    const o = await info(BIG_MD5);
    expect(o.crc32c).toBeUndefined();
    expect(o.md5Hash).toBeDefined();
    const entry = await new ObjectCache(cacheDir).fill(o, client);
    expect(readFileSync(entry.path).equals(data)).toBe(true);
    expect(client.hashedOffThread).toBe(1);
  });

  it('fetches again an MD5-only object that was corrupt, and never caches one always corrupt', async () => {
    const o = await info(BIG_MD5);
    fake.fault((n, k) => n === BIG_MD5 && k === 'media', { kind: 'corrupt' }, 1);
    const entry = await new ObjectCache(cacheDir).fill(o, client);
    expect(readFileSync(entry.path).equals(data)).toBe(true);
    // The corrupt attempt and the good one, both checked by the worker.
    expect(client.hashedOffThread).toBe(2);
    rmSync(entry.path);
    fake.fault((n, k) => n === BIG_MD5 && k === 'media', { kind: 'corrupt' }, Number.POSITIVE_INFINITY);
    const cache = new ObjectCache(cacheDir);
    const err = await cache.fill(o, client).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /big-md5\.json\?alt=media.*corrupt download: MD5 \S+ is not the stored \S+ \(after 3 attempts\)/,
    );
    expect(tmpLeft()).toBe(0);
  });

  it('fails with the URL, and leaves nothing in the cache, when a slice always fails', async () => {
    const o = await info(BIG);
    fake.fault(
      (n, k) => n === BIG && k === 'media',
      { kind: 'status', status: 500 },
      Number.POSITIVE_INFINITY,
    );
    const cache = new ObjectCache(cacheDir);
    const err = await cache.fill(o, client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toMatch(/big\.json\?alt=media.*HTTP 500.*after 3 attempts/);
    expect(await cache.lookup(o)).toBeUndefined();
    expect(tmpLeft()).toBe(0);
  });

  it('falls back to one stream when the server answers a range with the whole object', async () => {
    const o = await info(GENERATED);
    expect(client.sliceable(o)).toBe(true);
    const entry = await new ObjectCache(cacheDir).fill(o, client);
    const got = readFileSync(entry.path);
    expect(got.length).toBe(o.size);
    expect(got.every((b) => b === 0x61)).toBe(true);
  });
});
