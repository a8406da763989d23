import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { cacheRoot, safeBaseName, versionKey } from '../../src/sources/url/cache.js';
import { storageDigests } from '../../src/sources/url/checksum.js';
import { visitInRun } from '../../src/sources/url/discover.js';
import { looksLikeUrl, parseCiUrl } from '../../src/sources/url/location.js';
import { backoffMs } from '../../src/sources/url/retry.js';

const RUN = 'logs/periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade/1455719487931158528';
const FILE = `${RUN}/artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json`;

describe('CI URL forms map to one bucket path', () => {
  it.each([
    [`https://prow.ci.openshift.org/view/gs/origin-ci-test/${RUN}`, 'origin-ci-test', RUN],
    [`https://prow.ci.openshift.org/view/gcs/origin-ci-test/${RUN}`, 'origin-ci-test', RUN],
    [
      `https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/origin-ci-test/${FILE}`,
      'origin-ci-test',
      FILE,
    ],
    [
      `https://storage.googleapis.com/origin-ci-test/${RUN}/build-log.txt`,
      'origin-ci-test',
      `${RUN}/build-log.txt`,
    ],
    [`gs://test-platform-results/${RUN}/`, 'test-platform-results', `${RUN}/`],
    [`https://prow.ci.openshift.org/view/gs/origin-ci-test/${RUN}?query=1#frag`, 'origin-ci-test', RUN],
    [
      `https://storage.googleapis.com/storage/v1/b/origin-ci-test/o/${encodeURIComponent(FILE)}`,
      'origin-ci-test',
      FILE,
    ],
    ['gs://origin-ci-test/logs/a%20b', 'origin-ci-test', 'logs/a%20b'],
    ['https://storage.googleapis.com/origin-ci-test/logs/a%20b', 'origin-ci-test', 'logs/a b'],
  ])('%s', (url, bucket, path) => {
    const loc = parseCiUrl(url);
    expect(loc.bucket).toBe(bucket);
    expect(loc.path).toBe(path);
    expect(loc.loopbackOrigin).toBeUndefined();
  });

  it('remembers a loopback origin (a local mirror or the tests fake serves the API itself)', () => {
    expect(parseCiUrl(`http://127.0.0.1:8080/view/gs/origin-ci-test/${RUN}`).loopbackOrigin).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it.each([
    ['https://example.com/some/page', /not a CI artifact URL/],
    ['ftp://storage.googleapis.com/b/x', /not a CI artifact URL|unsupported/],
    ['gs://', /names no bucket/],
    ['gs://UPPER/x', /not a valid Cloud Storage bucket name/],
    ['https://prow.ci.openshift.org/view/gs/', /names no bucket/],
    ['https://storage.googleapis.com/origin-ci-test/%E0%A4%A', /malformed percent-escapes/],
    ['https://storage.googleapis.com/origin-ci-test/a%0Ab', /line breaks/],
    ['http://[bad', /not a valid URL/],
  ])('refuses %s with one line', (url, message) => {
    expect(() => parseCiUrl(url)).toThrow(InputError);
    expect(() => parseCiUrl(url)).toThrow(message);
  });

  it('never throws anything but an InputError, whatever the string (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.string().map((s) => `gs://${s}`),
          fc.string().map((s) => `https://prow.ci.openshift.org/view/gs/${s}`),
        ),
        (s) => {
          try {
            const loc = parseCiUrl(s);
            expect(loc.bucket).toMatch(/^[a-z0-9][a-z0-9._-]+[a-z0-9]$/);
            expect(loc.path).not.toMatch(/[\r\n]/);
          } catch (err) {
            expect(err).toBeInstanceOf(InputError);
            expect((err as Error).message).not.toMatch(/\n/);
          }
        },
      ),
    );
  });

  it('tells URLs from paths', () => {
    expect(looksLikeUrl('gs://b/x')).toBe(true);
    expect(looksLikeUrl('HTTPS://x/y')).toBe(true);
    expect(looksLikeUrl('examples/bug-2019850')).toBe(false);
    expect(looksLikeUrl('./gs:/x')).toBe(false);
  });
});

describe('the run layout walked', () => {
  it.each([
    ['artifacts/', true],
    ['artifacts/e2e-aws-upgrade/', true],
    ['artifacts/e2e-aws-upgrade/gather-extra/', true],
    ['artifacts/e2e-aws-upgrade/gather-extra/artifacts/', true],
    ['artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit/', true],
    ['artifacts/e2e-aws-upgrade/gather-extra/artifacts/pods/', false],
    ['artifacts/e2e-aws-upgrade/gather-extra/logs/', false],
    ['artifacts/e2e-aws-upgrade/gather-must-gather/artifacts/must-gather/', false],
    ['other/', false],
  ])('%s visited: %s', (rel, visit) => {
    expect(visitInRun(rel)).toBe(visit);
  });
});

describe('cache keys and names', () => {
  it('keys by generation, else ETag, else digests', () => {
    const base = { bucket: 'b', name: 'x', size: 1 };
    expect(versionKey({ ...base, generation: '17', etag: 'e' })).toBe('g17');
    expect(versionKey({ ...base, etag: 'e' })).toMatch(/^e[0-9a-f]{24}$/);
    expect(versionKey({ ...base, md5Hash: 'm' })).toMatch(/^d[0-9a-f]{24}$/);
  });

  it('keeps the base name readers look at, and nothing that could escape the entry folder', () => {
    expect(safeBaseName('a/b/machineconfigs.json')).toBe('machineconfigs.json');
    expect(safeBaseName('a/must-gather.tar.gz')).toBe('must-gather.tar.gz');
    expect(safeBaseName('a/..')).toBe('_..');
    expect(safeBaseName('a/')).toBe('_');
    expect(safeBaseName('a/meta.json')).toBe('_meta.json');
    fc.assert(
      fc.property(fc.string(), (s) => {
        const n = safeBaseName(s);
        expect(n).not.toMatch(/[/\\\0]/);
        expect(['.', '..', '', 'meta.json']).not.toContain(n);
      }),
    );
  });

  it('lives under --cache-dir, else ATLEVEL_CACHE_DIR, else $XDG_CACHE_HOME/atlevel', () => {
    expect(cacheRoot('/x/y', {})).toBe('/x/y');
    expect(cacheRoot(undefined, { ATLEVEL_CACHE_DIR: '/c' })).toBe('/c');
    expect(cacheRoot(undefined, { XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/atlevel');
    expect(cacheRoot(undefined, { XDG_CACHE_HOME: 'relative' })).toMatch(/\.cache\/atlevel$/);
  });
});

describe('checksums and backoff', () => {
  it('computes Cloud Storage CRC32C and MD5 (known vectors)', () => {
    // CRC32C of "123456789" is 0xE3069283 (RFC 3720 B.4).
    expect(storageDigests(Buffer.from('123456789')).crc32c).toBe(
      Buffer.from('e3069283', 'hex').toString('base64'),
    );
    expect(storageDigests(Buffer.alloc(0)).md5Hash).toBe('1B2M2Y8AsgTpgAmY7PhCfg==');
  });

  it('waits a random time below the capped exponential step, and at least Retry-After', () => {
    const policy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffMs(policy, 1, undefined, () => 0.999)).toBeLessThan(100);
    expect(backoffMs(policy, 3, undefined, () => 0.999)).toBeLessThan(400);
    expect(backoffMs(policy, 10, undefined, () => 0.999)).toBeLessThan(1000);
    expect(backoffMs(policy, 1, 0.5, () => 0)).toBe(500);
    expect(backoffMs(policy, 1, 60, () => 0)).toBe(1000);
  });
});
