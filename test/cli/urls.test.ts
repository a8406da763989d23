/**
 * CI runs by URL, end to end against the local fake of Cloud Storage: `atlevel analyze` of the Prow
 * URL gives the report of the bundled example folder (modulo input names), a second run works with the
 * fake stopped, the seed's diff-machine-config.sh is one `atlevel diff` on the gcsweb URL, and bad
 * URLs exit 2 with one line and write nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { FakeGcs } from '../helpers/fake-gcs.js';
import { projectRoot } from '../helpers/fixtures.js';
import { EXAMPLE, putBug2019850Run, RUN_BUCKET, RUN_PATH, runUrls } from '../helpers/prow-run.js';
import { withoutNotes } from '../helpers/spawn-cli.js';

const cli = inProcessCli('urls');
const fake = new FakeGcs();
let cacheDir = '';
const NO_WRAP = ['--width', '1000'];
const MC_REL = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json';

/**
 * The input names are the only difference: the run's gs:// root for the example folder, and the two
 * release payloads, which the run keeps where ci-operator writes them (release-images-initial and
 * -latest: the image-references ImageStream) and the example keeps as `oc adm release info -o json`.
 */
function asLocal(report: string): string {
  return report
    .replaceAll(`gs://${RUN_BUCKET}/${RUN_PATH}`, 'examples/bug-2019850')
    .replaceAll('artifacts/release/artifacts/release-images-initial', 'release/release-from.json')
    .replaceAll('artifacts/release/artifacts/release-images-latest', 'release/release-to.json');
}

beforeAll(async () => {
  putBug2019850Run(fake);
  await fake.start();
  cacheDir = mkdtempSync(join(tmpdir(), 'atlevel-urls-cache-'));
});
afterAll(async () => {
  await fake.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('atlevel analyze <Prow URL>', () => {
  let first = '';

  it('gives the report of the example folder, modulo input names', async () => {
    // Unwrapped (NO_WRAP): input names of different lengths would wrap the two texts differently.
    const local = await cli.run('analyze', EXAMPLE, ...NO_WRAP);
    const remote = await cli.run('analyze', runUrls(fake).prow, '--cache-dir', cacheDir, ...NO_WRAP);
    expect(remote.code).toBe(local.code);
    expect(remote.code).toBe(1);
    first = remote.out;
    // The notes on how the inputs were read (layouts, what was fetched) differ by nature; they are on stderr.
    expect(asLocal(remote.out)).toBe(local.out.replaceAll(EXAMPLE, 'examples/bug-2019850'));
    // Notes are on stderr, never in the report (issue 42).
    expect(cli.stderr()).toMatch(
      /atlevel: note: gs:\/\/origin-ci-test\/logs\/.*: a CI run; fetched 15 of 23 listed objects/,
    );
    expect(remote.out).not.toMatch(/^note: /m);
  });

  it('gives the same findings in JSON', async () => {
    const local = JSON.parse((await cli.run('analyze', EXAMPLE, '-o', 'json')).out);
    const remote = JSON.parse(
      asLocal((await cli.run('analyze', runUrls(fake).gcsweb, '--cache-dir', cacheDir, '-o', 'json')).out),
    );
    const strip = (r: Record<string, unknown>) =>
      JSON.parse(
        JSON.stringify({ ...r, inputs: undefined, notes: undefined }).replaceAll(
          EXAMPLE,
          'examples/bug-2019850',
        ),
      );
    expect(strip(remote)).toEqual(strip(local));
  });

  it('runs again with the fake stopped (cache only), and with --offline', async () => {
    await fake.stop();
    try {
      const again = await cli.run('analyze', runUrls(fake).prow, '--cache-dir', cacheDir, ...NO_WRAP);
      expect(again.code).toBe(1);
      expect(again.out).toBe(first);
      const offline = await cli.run(
        'analyze',
        runUrls(fake).prow,
        '--cache-dir',
        cacheDir,
        '--offline',
        ...NO_WRAP,
      );
      expect(offline.out).toBe(first);
    } finally {
      await fake.start(fake.port);
    }
  });

  it('runs as a real process (bin/atlevel.js), the endpoint given by ATLEVEL_STORAGE_ENDPOINT', async () => {
    const r = await promisify(execFile)(
      process.execPath,
      [join(projectRoot, 'bin/atlevel.js'), 'analyze', runUrls(fake).gs, '--cache-dir', cacheDir, '--brief'],
      { env: { ...process.env, ATLEVEL_STORAGE_ENDPOINT: fake.origin, NO_COLOR: '1' } },
    ).catch((err: { code: number; stdout: string; stderr: string }) => err);
    expect('code' in r ? r.code : 0).toBe(1);
    expect(r.stdout).toMatch(/^FAIL: 2 invariant violations/);
    expect(withoutNotes(r.stderr)).toBe('');
  });
});

describe("the seed's diff-machine-config.sh as one command on the gcsweb URL", () => {
  it('diffs the two rendered masters by name prefix: the pause image, named as the release component pod', async () => {
    const url = runUrls(fake, MC_REL).gcsweb;
    const remote = await cli.run(
      'diff',
      '--from',
      url,
      'rendered-master-5d1c',
      'rendered-master-08a4',
      '--path',
      'kubelet.service',
      '--cache-dir',
      cacheDir,
    );
    const local = await cli.run(
      'diff',
      '--from',
      join(EXAMPLE, MC_REL),
      'rendered-master-5d1c',
      'rendered-master-08a4',
      '--path',
      'kubelet.service',
    );
    expect(remote.code).toBe(1);
    expect(remote.out).toContain(
      '--pod-infra-container-image=quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb',
    );
    expect(remote.out.replaceAll(`gs://${RUN_BUCKET}/${RUN_PATH}`, EXAMPLE)).toBe(local.out);
  });

  it('takes the release files by URL too', async () => {
    const r = await cli.run(
      'diff',
      '--from',
      runUrls(fake, MC_REL).storage,
      'rendered-master-5d1c',
      'rendered-master-08a4',
      '--release-from',
      runUrls(fake, 'artifacts/release/artifacts/release-images-initial').gs,
      '--release-to',
      runUrls(fake, 'artifacts/release/artifacts/release-images-latest').gs,
      '--cache-dir',
      cacheDir,
      '--storage-endpoint',
      fake.origin,
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/release components: pod\n/);
    expect(r.out).toMatch(/pod: sha256:ef6684475a8f… → sha256:0adaefcf3675…/);
  });
});

describe('bad URLs: exit 2, one line, nothing written', () => {
  const cases: [string, () => string[], RegExp][] = [
    [
      'a job folder',
      () => [
        `${fake.origin}/view/gs/${RUN_BUCKET}/logs/periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade`,
      ],
      /a job's folder of 1 run, not one run/,
    ],
    [
      'nothing there',
      () => [`${fake.origin}/gcs/${RUN_BUCKET}/logs/nope/123`],
      /no object or folder gs:\/\/origin-ci-test\/logs\/nope\/123/,
    ],
    [
      'a page that is no CI URL',
      () => ['https://example.com/job/1'],
      /not a CI artifact URL atlevel recognises/,
    ],
    ['a missing bucket', () => [`${fake.origin}/gcs/no-such-bucket/logs/x`], /HTTP 404/],
    [
      '--offline with an empty cache',
      () => [runUrls(fake).prow, '--offline', '--cache-dir', join(cacheDir, 'empty')],
      /not in the cache/,
    ],
  ];
  it.each(cases)('%s', async (_label, args, message) => {
    const given = args();
    const cache = given.includes('--cache-dir') ? [] : ['--cache-dir', cacheDir];
    const r = await cli.run('analyze', ...given, ...cache);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    const err = cli.stderr();
    expect(err).toMatch(message);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).not.toMatch(/internal error|at .*\.ts:\d+/);
  });
});

describe('atlevel cache fetch', () => {
  it('fills the cache with what analyze reads, so that analyze --offline works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-urls-fetch-'));
    try {
      const { main } = await import('../../src/cli/main.js');
      expect(await main(['cache', 'fetch', runUrls(fake).prow, '--cache-dir', dir])).toBe(0);
      expect(cli.stderr()).toMatch(/a CI run; fetched 15 of 23 listed objects \(588\.1 KiB\)/);
      expect(cli.stderr()).toMatch(/: 15 downloaded \(588\.1 KiB\), 0 already cached\n$/);
      const offline = await cli.run('analyze', runUrls(fake).prow, '--cache-dir', dir, '--offline');
      expect(offline.code).toBe(1);
      expect(await main(['cache', 'fetch', runUrls(fake).prow, '--cache-dir', dir, '--offline'])).toBe(0);
      expect(cli.stderr()).toMatch(/: 0 downloaded \(0 bytes\), 15 already cached\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes URLs only', async () => {
    const { main } = await import('../../src/cli/main.js');
    expect(await main(['cache', 'fetch', EXAMPLE])).toBe(2);
    expect(cli.stderr()).toMatch(/is not a CI URL: cache fetch takes URLs only\n$/);
  });
});

describe('atlevel cache ls|prune', () => {
  it('lists what is cached and prunes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-urls-prune-'));
    try {
      await cli.run('analyze', runUrls(fake).prow, '--cache-dir', dir);
      const ls = await cli.run('cache', 'ls', '--cache-dir', dir);
      expect(ls.code).toBe(0);
      expect(ls.out).toMatch(/gs:\/\/origin-ci-test\/logs\/.*\/build-log\.txt#\d+ {2}4\.9 KiB {2}used /);
      expect(ls.out).toMatch(/listing gs:\/\/origin-ci-test\/logs\/.*1455719487931158528 \(run, 23 objects/);
      expect(ls.out).toMatch(/15 objects, 588\.1 KiB; 1 run listing$/m);
      const { main } = await import('../../src/cli/main.js');
      expect(await main(['cache', 'prune', '--cache-dir', dir])).toBe(0);
      expect(cli.stderr()).toMatch(/removed 0 objects .* kept 15 objects/);
      expect(await main(['cache', 'prune', '--all', '--cache-dir', dir])).toBe(0);
      expect(cli.stderr()).toMatch(
        /removed 15 objects \(588\.1 KiB\), 1 run listing, 0 unfinished downloads; kept 0 objects/,
      );
      expect((await cli.run('cache', 'ls', '--cache-dir', dir)).out).toMatch(
        /0 objects, 0 bytes; 0 run listings/,
      );
      expect(await main(['cache', 'prune', '--older-than', 'soon', '--cache-dir', dir])).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it('never leaves a report file behind on a bad URL', async () => {
  const out = join(cli.dir, 'never.txt');
  const { main } = await import('../../src/cli/main.js');
  expect(await main(['analyze', 'https://example.com/x', '--out', out])).toBe(2);
  expect(existsSync(out)).toBe(false);
});
