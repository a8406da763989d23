/**
 * `atlevel ingest` as a user runs it: inputs as folders, a tarball and a listing file; identity by
 * Prow id or content hash; --shard splits deterministically; a kill mid-batch loses nothing and the
 * next ingest resumes; bad arguments are one line and exit 2.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandInputs, identify, inShard, parseShard, prowIdOf } from '../../src/ingest/index.js';
import { corpusRun, writeCorpus } from './corpus.js';
import { atlevel } from './helpers.js';

let dir: string;
const N = 24;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-ingest-'));
  await writeCorpus(join(dir, 'corpus'), N);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('run identity and shards', () => {
  it('reads the Prow job and build id from paths and URLs', () => {
    expect(prowIdOf('/x/logs/periodic-ci-foo-e2e-aws-upgrade/1454367856155283456/artifacts')).toEqual({
      job: 'periodic-ci-foo-e2e-aws-upgrade',
      buildId: '1454367856155283456',
    });
    expect(
      prowIdOf(
        'https://prow.ci.openshift.org/view/gs/test-platform-results/pr-logs/pull/openshift_mco/2918/pull-ci-e2e-gcp-upgrade/1460000000000000000',
      ),
    ).toEqual({ job: 'pull-ci-e2e-gcp-upgrade', buildId: '1460000000000000000' });
    expect(prowIdOf('/home/me/runs/run-1')).toBeUndefined();
    expect(prowIdOf('/a/2918/1460000000000000000')).toBeUndefined();
  });

  it('--shard I/N splits the runs into disjoint parts that cover them all, whatever the order', async () => {
    const runs = await expandInputs([join(dir, 'corpus')]);
    expect(runs).toHaveLength(N);
    const parts = [1, 2, 3].map((i) =>
      runs.filter((r) => inShard(r, parseShard(`${i}/3`))).map((r) => r.source),
    );
    expect(parts.flat().sort()).toEqual(runs.map((r) => r.source).sort());
    expect(new Set(parts.flat()).size).toBe(N);
    for (const p of parts) expect(p.length).toBeGreaterThan(0);
    const reversed = [...runs].reverse().filter((r) => inShard(r, parseShard('2/3')));
    expect(reversed.map((r) => r.source).sort()).toEqual([...(parts[1] as string[])].sort());
    expect(() => parseShard('4/3')).toThrow(/--shard "4\/3"/);
    expect(() => parseShard('1-3')).toThrow(/want I\/N/);
  });

  it('names a run outside a Prow path by its content: a copy elsewhere is the same run', async () => {
    const src = corpusRun(join(dir, 'corpus'), 0).dir;
    await cp(src, join(dir, 'copy-a'), { recursive: true });
    await cp(src, join(dir, 'copy-b'), { recursive: true });
    const [a, b] = await expandInputs([join(dir, 'copy-a'), join(dir, 'copy-b')]);
    const ia = await identify(a as never);
    const ib = await identify(b as never);
    expect(ia.identity).toBe('content');
    expect(ia.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ib.id).toBe(ia.id);
  });
});

describe('atlevel ingest', () => {
  it('takes a listing file naming a folder and a tarball, and stores each once', async () => {
    const one = corpusRun(join(dir, 'corpus'), 1).dir;
    await create(
      { gzip: true, file: join(dir, 'run-2.tar.gz'), cwd: corpusRun(join(dir, 'corpus'), 2).dir },
      ['.'],
    );
    await writeFile(
      join(dir, 'runs.txt'),
      `# two runs\n${one}\nrun-2.tar.gz  # a tarball, relative to the listing\n`,
    );
    const db = join(dir, 'store-listing');
    const first = await atlevel(['ingest', join(dir, 'runs.txt'), '--db', db, '-v']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/ingested 2 runs .*: 2 stored, 0 already there, 0 ingest errors/);
    expect(first.stderr).toMatch(/stored prow:periodic-ci-[^ ]+\/1454000000000000001 /);
    expect(first.stderr).toMatch(/stored sha256:[0-9a-f]{64} \(.*run-2\.tar\.gz\)/);
    const again = await atlevel(['ingest', join(dir, 'runs.txt'), one, '--db', db]);
    expect(again.stdout).toMatch(/ingested 2 runs .*: 0 stored, 2 already there/);
  });

  it('resumes after a kill: nothing lost, nothing stored twice', async () => {
    const db = join(dir, 'store-kill');
    let killed = false;
    const cut = await atlevel(
      ['ingest', join(dir, 'corpus'), '--db', db, '--jobs', '1', '-v'],
      (text, child) => {
        if (!killed && (text.match(/atlevel: stored /g) ?? []).length >= 3) {
          killed = true;
          child.kill('SIGKILL');
        }
      },
    );
    expect(cut.code).toBeNull();
    const stored = (cut.stderr.match(/atlevel: stored /g) ?? []).length;
    expect(stored).toBeGreaterThanOrEqual(3);
    const resumed = await atlevel(['ingest', join(dir, 'corpus'), '--db', db]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const m = /(\d+) stored, (\d+) already there, 0 ingest errors/.exec(resumed.stdout);
    expect(Number(m?.[1]) + Number(m?.[2])).toBe(N);
    expect(Number(m?.[2])).toBeGreaterThanOrEqual(stored);
    const done = await atlevel(['ingest', join(dir, 'corpus'), '--db', db]);
    expect(done.stdout).toMatch(new RegExp(`0 stored, ${N} already there`));
  });

  it('bad arguments: one line naming the problem, exit 2, no store made', async () => {
    const missing = await atlevel(['ingest', join(dir, 'nope'), '--db', join(dir, 'store-bad')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/nope: no such file or folder/),
    ]);
    const shard = await atlevel([
      'ingest',
      join(dir, 'corpus'),
      '--shard',
      '0/2',
      '--db',
      join(dir, 'store-bad'),
    ]);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toMatch(/--shard "0\/2"/);
    const stats = await atlevel(['stats', '--db', join(dir, 'store-bad')]);
    expect(stats.code).toBe(2);
    expect(stats.stderr).toMatch(/no run store here/);
    // The workers start analysing while the store opens: a store that cannot be opened still ends
    // the command with its one line, not with the runs' results or a trace.
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a folder\n');
    const under = await atlevel(['ingest', join(dir, 'corpus'), '--db', join(file, 'db'), '--jobs', '2']);
    expect(under.code).toBe(2);
    expect(under.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/a-file\/db: cannot keep a run store here: ENOTDIR/),
    ]);
    expect(under.stdout).toBe('');
  });

  it('says the store, runs and errors without their control characters', async () => {
    const esc = join(dir, 'esc');
    await cp(corpusRun(join(dir, 'corpus'), 4).dir, join(esc, 'ok\u001b]0;owned\u0007'), { recursive: true });
    await mkdir(join(esc, 'bad\u001b[2J'));
    await writeFile(join(esc, 'bad\u001b[2J', 'x.json'), '{"not json');
    const r = await atlevel(['ingest', esc, '--db', join(dir, 'store\u001b[31m\u009b'), '--jobs', '1', '-v']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/into .*store\?\[31m\?: 1 stored, 0 already there, 1 ingest error/);
    expect(r.stderr).toMatch(/stored sha256:\S+ \(.*ok\?\]0;owned\?\)/);
    expect(r.stderr).toMatch(/ingest error: .*bad\?\[2J: .*bad\?\[2J\/x\.json: /);
    for (const text of [r.stdout, r.stderr])
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('refuses a --db that is an input or inside one (a listed run included), before writing anything', async () => {
    const corpus = join(dir, 'corpus');
    const run = corpusRun(corpus, 3).dir;
    const listing = join(dir, 'listed.txt');
    await writeFile(listing, `${run}\n`);
    for (const [args, problem] of [
      [[corpus, '--db', join(corpus, 'store')], /corpus\/store: --db is inside the input folder .*corpus /],
      [[corpus, `--db=${join(corpus, 'x', 'store')}`], /--db is inside the input folder/],
      [[corpus, '--db', corpus], /corpus: --db names one of the inputs/],
      [[listing, '--db', listing], /listed\.txt: --db names one of the inputs/],
      // The run is named only inside the listing.
      [[listing, '--db', join(run, 'store')], /--db is inside the input folder /],
    ] as const) {
      const r = await atlevel(['ingest', ...args, '--jobs', '1']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(problem)]);
      expect(r.stderr).toMatch(/keep the run store outside the runs it reads/);
    }
    expect(existsSync(join(corpus, 'store'))).toBe(false);
    expect(existsSync(join(corpus, 'x'))).toBe(false);
    expect(existsSync(join(run, 'store'))).toBe(false);
    // A PostgreSQL URL is no path: it is not checked against the inputs.
    const url = await atlevel([
      'ingest',
      corpus,
      '--db',
      'postgres://nobody@127.0.0.1:1/atlevel',
      '--jobs',
      '1',
    ]);
    expect(url.code).toBe(2);
    expect(url.stderr).toMatch(/cannot connect to PostgreSQL/);
  });

  it('refuses an input inside the run store (its own database read as a run), before writing anything', async () => {
    // A store folder as ingest leaves it; the refusal comes before the store is opened.
    const store = join(dir, 'inside', 'store');
    await mkdir(join(store, 'pgdata', 'base'), { recursive: true });
    await writeFile(join(store, 'pgdata', 'PG_VERSION'), '18\n');
    symlinkSync(join(store, 'pgdata'), join(dir, 'inside', 'alias'));
    symlinkSync(store, join(dir, 'inside', 'store-link'));
    const listing = join(dir, 'inside', 'store-runs.txt');
    await writeFile(listing, `${corpusRun(join(dir, 'corpus'), 4).dir}\nstore/pgdata/base\n`);
    const before = readdirSync(store, { recursive: true }).sort();
    const inStore =
      /the input is inside the run store .*inside\/store\/? \(--db\) \(name runs outside the run store/;
    for (const [args, problem] of [
      [[join(store, 'pgdata'), '--db', store], inStore],
      // A trailing slash on either side, and a symbolic link to the input or to the store.
      [[`${join(store, 'pgdata')}/`, '--db', `${store}/`], inStore],
      [[join(dir, 'inside', 'alias'), '--db', store], /inside\/alias: the input is inside the run store/],
      [[join(store, 'pgdata'), '--db', join(dir, 'inside', 'store-link')], /store-link \(--db\)/],
      // Named only in a listing file: said with its line.
      [[listing, '--db', store], /store-runs\.txt:2: .*pgdata\/base: the input is inside the run store/],
      // The store itself as the input: the store-in-an-input check says it first.
      [[store, '--db', store], /--db names one of the inputs/],
    ] as const) {
      const r = await atlevel(['ingest', ...args, '--jobs', '1']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(problem)]);
    }
    // ATLEVEL_DB names the store as --db does.
    process.env.ATLEVEL_DB = store;
    try {
      const env = await atlevel(['ingest', join(store, 'pgdata', 'base'), '--jobs', '1']);
      expect(env.code).toBe(2);
      expect(env.stderr).toMatch(/the input is inside the run store .* \(ATLEVEL_DB\)/);
    } finally {
      delete process.env.ATLEVEL_DB;
    }
    // Nothing written: no lock, no new file.
    expect(readdirSync(store, { recursive: true }).sort()).toEqual(before);
    // A store that does not exist yet holds nothing: the missing input is said as such, nothing made.
    const none = join(dir, 'inside', 'no-store');
    const missing = await atlevel(['ingest', join(none, 'pgdata'), '--db', none, '--jobs', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-store\/pgdata: no such file or folder/);
    expect(existsSync(none)).toBe(false);
  });

  it('refuses a store inside a folder a listing file names, though the runs found there do not hold it', async () => {
    const parent = join(dir, 'parent');
    await cp(corpusRun(join(dir, 'corpus'), 5).dir, join(parent, 'run'), { recursive: true });
    const listing = join(dir, 'parent.txt');
    await writeFile(listing, `${parent}\n`);
    const r = await atlevel(['ingest', listing, '--db', join(parent, 'store'), '--jobs', '1']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/parent\.txt:1: .*parent\/store: --db is inside the input folder .*parent /),
    ]);
    expect(existsSync(join(parent, 'store'))).toBe(false);
  });

  it('stats refuses an --out inside the run store, however the store is named', async () => {
    const store = join(dir, 'stats-store');
    await mkdir(join(store, 'pgdata'), { recursive: true });
    const version = join(store, 'pgdata', 'PG_VERSION');
    await writeFile(version, '18\n');
    const r = await atlevel(['stats', '--db', store, '--out', version]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /PG_VERSION: --out is inside the run store .*stats-store \(--db\) \(write the report outside/,
      ),
    ]);
    // Named by ATLEVEL_DB, the store is not on the command line: --out's own checks do not see it.
    process.env.ATLEVEL_DB = store;
    try {
      const env = await atlevel(['stats', '--out', version]);
      expect(env.code, env.stderr).toBe(2);
      expect(env.stderr).toMatch(/--out is inside the run store .* \(ATLEVEL_DB\)/);
      const fresh = await atlevel(['stats', '--out', join(store, 'report.txt')]);
      expect(fresh.code).toBe(2);
    } finally {
      delete process.env.ATLEVEL_DB;
    }
    expect(readFileSync(version, 'utf8')).toBe('18\n');
    expect(existsSync(join(store, 'report.txt'))).toBe(false);
  });
});
