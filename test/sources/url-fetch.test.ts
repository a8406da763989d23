/**
 * The storage client and the cache against the local fake of the Cloud Storage JSON API: listing
 * with paging, gzip-encoded objects, and every injected fault ending in a retry that succeeds or in a
 * clear error naming the URL, never in a corrupt or partial cache entry.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { ObjectCache } from '../../src/sources/url/cache.js';
import { type RemoteInput, RemoteSession } from '../../src/sources/url/open.js';
import { FakeGcs } from '../helpers/fake-gcs.js';
import { EXAMPLE, NEEDED, putBug2019850Run, RUN_BUCKET, RUN_PATH, runUrls } from '../helpers/prow-run.js';

const fake = new FakeGcs({ pageSize: 2 });
let cacheDir: string;
const lines: string[] = [];
const FAST = { retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 }, idleTimeoutMs: 300 };

function session(extra: object = {}): RemoteSession {
  return new RemoteSession({ cacheDir, ...FAST, verbose: (l) => lines.push(l), ...extra });
}

async function open(url: string, extra: object = {}): Promise<RemoteInput> {
  const s = session(extra);
  try {
    return await s.open(url);
  } finally {
    s.close();
  }
}

/** Every file under the cache, relative: a failed download must leave no entry and no tmp folder. */
function cacheFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e);
      const r = rel ? `${rel}/${e}` : e;
      try {
        readdirSync(path);
        walk(path, r);
      } catch {
        out.push(r);
      }
    }
  };
  walk(cacheDir, '');
  return out;
}

const MC = `${RUN_PATH}/artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json`;
const EVENTS = `${RUN_PATH}/artifacts/e2e-aws-upgrade/gather-extra/artifacts/events.json`;
const isMc = (name: string) => name === MC;

beforeAll(async () => {
  putBug2019850Run(fake);
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'atlevel-url-fetch-'));
  lines.length = 0;
  fake.faults.length = 0;
  fake.served.clear();
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('a run by URL', () => {
  it('lists the run recursively (paged) and fetches only the objects a layout claims', async () => {
    const before = fake.requests.length;
    const input = await open(runUrls(fake).prow);
    expect(input.kind).toBe('tree');
    if (input.kind !== 'tree') return;
    expect(input.display).toBe(`gs://${RUN_BUCKET}/${RUN_PATH}`);
    expect(input.files.map((f) => f.rel).sort()).toEqual(
      [
        ...NEEDED.map(([rel]) => rel),
        'artifacts/release/artifacts/release-images-initial',
        'artifacts/release/artifacts/release-images-latest',
      ].sort(),
    );
    // Not one byte of the unneeded artifacts was served.
    expect(fake.servedBytes((n) => !input.files.some((f) => n.endsWith(f.rel)))).toBe(0);
    // Nothing below gather-extra's pods/ and nodes/ folders was asked for, not even by name.
    const asked = fake.requests.slice(before).map((r) => new URL(r.url, fake.origin));
    expect(asked.some((u) => decodeURIComponent(u.pathname).includes('artifacts/pods/'))).toBe(false);
    // The run's listing: its prefix with no delimiter, page after page (2 entries a page here),
    // beside the one listing (with the delimiter) that tells an object from a folder.
    const lists = asked.filter((u) => u.pathname.endsWith('/o'));
    const recursive = lists.filter((u) => !u.searchParams.has('delimiter'));
    expect(lists.length - recursive.length).toBe(1);
    expect(new Set(recursive.map((u) => u.searchParams.get('prefix')))).toEqual(new Set([`${RUN_PATH}/`]));
    expect(recursive.length).toBeGreaterThan(5);
    expect(lines.some((l) => /skipped folder .*gather-extra\/artifacts\/pods\//.test(l))).toBe(true);
    expect(lines.some((l) => /skipped .*must-gather\.tar \(24 MiB\)/.test(l))).toBe(true);
  });

  it('keeps gzip-encoded objects as stored; the cached bytes decode to the original', async () => {
    const input = await open(runUrls(fake).gcsweb);
    if (input.kind !== 'tree') throw new Error('expected a tree');
    const events = input.files.find((f) => f.rel.endsWith('events.json'))!;
    const original = readFileSync(
      join(EXAMPLE, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/events.json'),
    );
    expect(gunzipSync(readFileSync(events.path)).equals(original)).toBe(true);
  });

  it('a second open of a finished run sends no request at all', async () => {
    await open(runUrls(fake).prow);
    const before = fake.requests.length;
    const again = await open(runUrls(fake).prow);
    expect(fake.requests.length).toBe(before);
    expect(again.kind).toBe('tree');
    // --offline works from the same cache.
    const offline = await open(runUrls(fake).prow, { offline: true });
    expect(offline.kind).toBe('tree');
  });

  it('--offline without a cached copy is a clear error', async () => {
    const before = fake.requests.length;
    await expect(open(runUrls(fake).prow, { offline: true })).rejects.toThrow(
      /not in the cache .*--offline forbids fetching it/,
    );
    expect(fake.requests.length).toBe(before);
  });

  it('a single object by URL', async () => {
    const input = await open(
      runUrls(fake, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json').gcsweb,
    );
    expect(input.kind).toBe('file');
    if (input.kind !== 'file') return;
    expect(input.display).toBe(`gs://${RUN_BUCKET}/${MC}`);
    expect(input.name).toBe('machineconfigs.json');
    expect(
      readFileSync(input.path).equals(
        readFileSync(join(EXAMPLE, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json')),
      ),
    ).toBe(true);
  });
});

describe('faults: retried to success', () => {
  it.each([
    ['HTTP 500 twice', { kind: 'status', status: 500 } as const, 2],
    ['HTTP 429 with Retry-After', { kind: 'status', status: 429, retryAfter: '0' } as const, 1],
    ['a slow answer (within the timeout)', { kind: 'delay', ms: 100 } as const, 1],
    ['a stalled answer (timeout, then retry)', { kind: 'stall' } as const, 1],
    ['a truncated body', { kind: 'truncate', bytes: 1000 } as const, 1],
    ['a short Content-Length', { kind: 'wrong-length', delta: -10 } as const, 1],
    ['a long Content-Length', { kind: 'wrong-length', delta: 10 } as const, 1],
    ['a corrupt body (MD5 mismatch)', { kind: 'corrupt' } as const, 1],
    ['a redirect', { kind: 'redirect' } as const, 1],
  ])('%s', async (_label, fault, times) => {
    fake.fault((name, kind) => kind === 'media' && isMc(name), fault, times);
    const input = await open(runUrls(fake).prow);
    if (input.kind !== 'tree') throw new Error('expected a tree');
    const mc = input.files.find((f) => f.rel.endsWith('machineconfigs.json'))!;
    expect(
      readFileSync(mc.path).equals(
        readFileSync(join(EXAMPLE, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json')),
      ),
    ).toBe(true);
    if (fault.kind !== 'redirect' && fault.kind !== 'delay')
      expect(lines.some((l) => /^retrying .*machineconfigs\.json/.test(l))).toBe(true);
  });

  it('a listing that fails once (HTTP 503)', async () => {
    fake.fault((_p, kind) => kind === 'list', { kind: 'status', status: 503 }, 1);
    expect((await open(runUrls(fake).prow)).kind).toBe('tree');
  });

  it('a truncated gzip-encoded object', async () => {
    fake.fault((name, kind) => kind === 'media' && name === EVENTS, { kind: 'truncate', bytes: 500 }, 1);
    const input = await open(runUrls(fake).prow);
    if (input.kind !== 'tree') throw new Error('expected a tree');
    const events = input.files.find((f) => f.rel.endsWith('events.json'))!;
    expect(gunzipSync(readFileSync(events.path)).length).toBe(
      readFileSync(join(EXAMPLE, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/events.json')).length,
    );
  });
});

describe('faults: a clear error, and nothing half-written in the cache', () => {
  it.each([
    [
      'HTTP 500 every time',
      { kind: 'status', status: 500 } as const,
      /machineconfigs\.json.*: HTTP 500.*after 3 attempts/,
    ],
    [
      'a body always cut off',
      { kind: 'truncate', bytes: 1000 } as const,
      /machineconfigs\.json.*broke off|machineconfigs\.json.*received/,
    ],
    ['a body always corrupt', { kind: 'corrupt' } as const, /machineconfigs\.json.*corrupt download: MD5/],
    ['a server that never answers', { kind: 'stall' } as const, /machineconfigs\.json.*no answer for 0\.3 s/],
    ['a redirect loop', { kind: 'redirect' } as const, /machineconfigs\.json.*more than 5 redirects/],
  ])('%s', async (_label, fault, message) => {
    fake.fault((name, kind) => kind === 'media' && isMc(name), fault, Number.POSITIVE_INFINITY);
    const err = await open(runUrls(fake).prow).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toMatch(/\n/);
    // No entry for the failed object, no listing (the run is not fully cached), no tmp leftovers.
    const files = cacheFiles();
    expect(files.filter((f) => f.endsWith('/machineconfigs.json'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('tmp/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('v1/trees/'))).toEqual([]);
    // What was cached is sound: every entry's bytes match its recorded size.
    const cache = new ObjectCache(cacheDir);
    const { objects } = await cache.list();
    expect(objects.every((o) => !o.broken)).toBe(true);
  });

  it('HTTP 404 names the URL and the status', async () => {
    const err = await open(`${fake.origin}/gcs/${RUN_BUCKET}/no/such/thing.json`).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /no object or folder gs:\/\/origin-ci-test\/no\/such\/thing\.json/,
    );
    const bucket = await open(`${fake.origin}/gcs/no-such-bucket/x`).catch((e: unknown) => e);
    expect((bucket as Error).message).toMatch(/storage\/v1\/b\/no-such-bucket\/o\?.*: HTTP 404/);
  });

  it('a job folder is not a run', async () => {
    const err = await open(
      `${fake.origin}/view/gs/${RUN_BUCKET}/logs/periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade`,
    ).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/a job's folder of 1 run, not one run.*1455719487931158528/);
  });

  it('a run with no upgrade data says what was found', async () => {
    const other = new FakeGcs();
    other.put('origin-ci-test', 'logs/job/1/started.json', { data: Buffer.from('{}') });
    other.put('origin-ci-test', 'logs/job/1/artifacts/unit/artifacts/junit.xml', {
      data: Buffer.from('<x/>'),
    });
    await other.start();
    try {
      const err = await open(`${other.origin}/view/gs/origin-ci-test/logs/job/1`).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(
        /a CI run with 2 listed objects \(2 skipped\) but no upgrade data atlevel reads/,
      );
    } finally {
      await other.stop();
    }
  });

  it('a run whose first page of names does not show it is one is still read as a run', async () => {
    const other = new FakeGcs({ pageSize: 2 });
    const run = 'logs/job/2';
    // Names that sort before `artifacts/` fill the first page of the recursive listing.
    other.put('origin-ci-test', `${run}/.a`, { data: Buffer.from('x') });
    other.put('origin-ci-test', `${run}/.b`, { data: Buffer.from('x') });
    const gather = `${run}/artifacts/e2e/gather-extra/artifacts`;
    const cv = readFileSync(
      join(EXAMPLE, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/clusterversion.json'),
    );
    other.put('origin-ci-test', `${gather}/clusterversion.json`, { data: cv });
    // Below a folder a walk would not enter: never kept, whatever its name.
    other.put('origin-ci-test', `${gather}/pods/clusterversion.json`, { data: cv });
    other.put('origin-ci-test', `${run}/started.json`, { data: Buffer.from('{}') });
    await other.start();
    try {
      const input = await open(`${other.origin}/view/gs/origin-ci-test/${run}`);
      if (input.kind !== 'tree') throw new Error('expected a tree');
      expect(input.files.map((f) => f.rel)).toEqual([
        'artifacts/e2e/gather-extra/artifacts/clusterversion.json',
      ]);
      expect(lines.some((l) => /skipped folder .*gather-extra\/artifacts\/pods\//.test(l))).toBe(true);
      expect(other.servedBytes((n) => n.includes('/pods/'))).toBe(0);
    } finally {
      await other.stop();
    }
  });

  it('a connection refused names the URL', async () => {
    const err = await open(`http://127.0.0.1:9/view/gs/${RUN_BUCKET}/${RUN_PATH}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(
      /http:\/\/127\.0\.0\.1:9\/storage\/v1\/b\/origin-ci-test\/o.*connection refused \(after 3 attempts\)/,
    );
  });

  it('refuses an object over the size cap before fetching a byte', async () => {
    const err = await open(runUrls(fake).prow, { maxFileBytes: 100_000 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/size .* exceeds 97\.7 KiB; not fetched/);
    expect(fake.servedBytes()).toBe(0);
  });
});
