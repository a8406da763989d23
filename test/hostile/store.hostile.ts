/**
 * Issue 38, the run store: `atlevel ingest` and `stats` given poisoned runs, and ingesters racing for
 * a stale lock. A run the store cannot hold is an ingest error and the others are stored; names with
 * NUL and lone surrogates are stored (as U+FFFD) on PGlite and, with ATLEVEL_PG_URL, on PostgreSQL;
 * `stats -o csv` never writes a cell a spreadsheet would run as a formula; the lock is never held by
 * two processes at once. Runs are one `atlevel simulate --artifacts` run, copied with a file that makes
 * each copy a run of its own (the content hash names it), and poisoned by rewriting its JSON.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadPid, raceLock } from './lock-race.js';
import { BIN, problems, type RunResult, runCli } from './run.js';

const PG_URL = process.env.ATLEVEL_PG_URL;
const DB_MODULE = pathToFileURL(join(BIN, '..', '..', 'dist', 'store', 'db.js')).href;

let dir: string;
let base: string;

beforeAll(() => {
  if (!existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')))
    throw new Error('run `npm run -s build` first');
  dir = mkdtempSync(join(tmpdir(), 'atlevel-hostile-store-'));
  base = join(dir, 'base');
  // The simulated run breaks the invariant (exit 1): it is a run all the same.
  try {
    execFileSync(process.execPath, [BIN, 'simulate', '--artifacts', base], { stdio: 'ignore' });
  } catch (err) {
    if ((err as { status?: number }).status !== 1) throw err;
  }
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of the simulated run at `to`, its own run; each `"name"` string in its JSON replaced. */
function runAt(to: string, renames: ReadonlyMap<string, string> = new Map()): void {
  cpSync(base, to, { recursive: true });
  writeFileSync(join(to, 'copy.txt'), `${to}\n`);
  if (renames.size === 0) return;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.jsonl?$/.test(e.name)) {
        let text = readFileSync(p, 'utf8');
        // As JSON text: the escapes (\u0000, \ud800) go in as they would come from a file.
        for (const [from, name] of renames) text = text.split(JSON.stringify(from)).join(name);
        writeFileSync(p, text);
      }
    }
  };
  walk(to);
}

/** JSON string literals, written with the escapes a hostile file would use. */
const NUL_OPERATOR_POOL = new Map([
  ['kube-apiserver', '"kube-api\\u0000server\\ud800"'],
  ['worker', '"wor\\u0000ker\\udc00"'],
]);
const FORMULAS = new Map([
  ['master', JSON.stringify('=HYPERLINK("http://evil.example/","x")')],
  ['worker', JSON.stringify('@SUM(1+1)')],
  ['etcd', JSON.stringify('-2+3')],
  ['dns', JSON.stringify('+cmd|calc')],
  ['network', JSON.stringify('\tnetwork')],
]);
/**
 * A pool name past PostgreSQL's index row limit (pseudo-random, so compression cannot bring it under):
 * a run the store cannot hold, whatever its text.
 */
function incompressible(n: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let x = 12_345;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}
const TOO_LONG = new Map([['worker', JSON.stringify(incompressible(12_000))]]);

function report(r: RunResult, what: string): void {
  console.log(`hostile: ${what} | exit ${r.code ?? r.signal} | peak ${r.peakMiB} MiB | ${r.ms} ms`);
}

/** A fresh PostgreSQL database on the server ATLEVEL_PG_URL names; dropped by the returned function. */
async function pgDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const db = `atlevel_hostile_${name}_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${db}`);
  const u = new URL(PG_URL as string);
  u.pathname = `/${db}`;
  return {
    url: u.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    },
  };
}

const stores: [string, () => Promise<{ db: string; done: () => Promise<void> }>][] = [
  ['PGlite', async () => ({ db: mkdtempSync(join(dir, 'store-')), done: async () => undefined })],
];
if (PG_URL)
  stores.push([
    'PostgreSQL',
    async () => {
      const d = await pgDatabase('store');
      return { db: d.url, done: d.drop };
    },
  ]);
else console.log('hostile: the PostgreSQL cases are skipped: ATLEVEL_PG_URL is not set (.ci/run sets it)');

describe.each(stores)('issue 38: the run store on %s', (engine, open) => {
  it('80 good runs and one the store cannot hold: 80 stored, 1 ingest error with its reason, exit 1 (0 with --exit-zero); again: the same', async () => {
    const runs = join(dir, `eighty-${engine}`);
    mkdirSync(runs);
    for (let i = 1; i <= 80; i++) runAt(join(runs, `run-${String(i).padStart(2, '0')}`));
    runAt(join(runs, 'run-poisoned'), TOO_LONG);
    const { db, done } = await open();
    try {
      const first = await runCli(['ingest', runs, '--db', db], { timeoutMs: 600_000 });
      report(first, `${engine}: ingest of 80 good runs and 1 poisoned`);
      expect(problems(first, [1]), first.stderr).toEqual([]);
      expect(first.stdout).toMatch(/: 80 stored, 0 already there, 1 ingest error;/);
      expect(first.stderr).toMatch(
        /ingest error: .*run-poisoned: the run store refused the run: .*index row/,
      );
      expect(first.peakMiB).toBeLessThan(1024);
      const again = await runCli(['ingest', runs, '--db', db, '--exit-zero'], { timeoutMs: 300_000 });
      report(again, `${engine}: the same ingest again, --exit-zero`);
      expect(problems(again, [0]), again.stderr).toEqual([]);
      expect(again.stdout).toMatch(/: 0 stored, 80 already there, 1 ingest error;/);
      const stats = await runCli(['stats', '--db', db, '-o', 'json'], { timeoutMs: 120_000 });
      expect(problems(stats, [0]), stats.stderr).toEqual([]);
      expect(JSON.parse(stats.stdout)).toMatchObject({ runs: 80, ingestErrors: 1 });
    } finally {
      await done();
    }
  });

  it('NUL and lone surrogates in operator and pool names are stored as U+FFFD; stats -o csv neutralises formulas', async () => {
    const runs = join(dir, `names-${engine}`);
    mkdirSync(runs);
    runAt(join(runs, 'good'));
    runAt(join(runs, 'nul'), NUL_OPERATOR_POOL);
    runAt(join(runs, 'formulas'), FORMULAS);
    const { db, done } = await open();
    try {
      const r = await runCli(['ingest', runs, '--db', db], { timeoutMs: 300_000 });
      report(r, `${engine}: ingest of runs named with NUL, lone surrogates and formulas`);
      expect(problems(r, [0]), r.stderr).toEqual([]);
      expect(r.stdout).toMatch(/: 3 stored, 0 already there, 0 ingest errors;/);
      const csv = await runCli(['stats', '--db', db, '-o', 'csv', '--operators'], { timeoutMs: 120_000 });
      expect(problems(csv, [0]), csv.stderr).toEqual([]);
      expect(csv.stdout).toContain('wor\uFFFDker\uFFFD');
      expect(csv.stdout).not.toContain('\u0000');
      // Every text cell: none starts as a formula; the formula names are there, quoted behind a '.
      const cells = csv.stdout
        .split('\r\n')
        .flatMap((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [])
        .map((c) => c.replace(/,$/, '').replace(/^"(.*)"$/s, '$1'));
      const numeric = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/;
      for (const c of cells) if (!numeric.test(c)) expect(c, c).not.toMatch(/^[=+\-@\t\r]/);
      expect(csv.stdout).toContain(`"'=HYPERLINK(""http://evil.example/"",""x"")"`);
      expect(csv.stdout).toContain(`"'@SUM(1+1)"`);
    } finally {
      await done();
    }
  });
});

describe('issue 38: the PGlite lock', () => {
  for (const contenders of [2, 4]) {
    it(`${contenders} processes racing 100 times for a lock that names a dead process: never two holders`, async () => {
      const race = mkdtempSync(join(dir, 'race-'));
      const r = await raceLock({ impl: DB_MODULE, dir: race, contenders, rounds: 100 });
      console.log(
        `hostile: stale-lock race, ${contenders} contenders × 100 rounds | taken ${r.taken} | two holders at once ${r.overlaps}`,
      );
      expect(r.errors).toEqual([]);
      expect(r.overlaps).toBe(0);
      // A round nobody took: its contenders came while the last holder still held it (a loaded
      // machine's sleep overran the round). Most rounds are races.
      expect(r.taken).toBeGreaterThan(50);
    });
  }

  it('4 ingesters started together on a store whose lock names a dead process: one writes, the others are refused, the store is whole', async () => {
    const runs = join(dir, 'race-runs');
    mkdirSync(runs);
    for (let i = 1; i <= 3; i++) runAt(join(runs, `run-${i}`));
    const store = mkdtempSync(join(dir, 'race-store-'));
    // The store made and migrated once, then left as a kill -9 leaves it.
    const init = await runCli(['ingest', join(runs, 'run-1'), '--db', store], { timeoutMs: 300_000 });
    expect(problems(init, [0]), init.stderr).toEqual([]);
    writeFileSync(join(store, 'atlevel.lock'), `${await deadPid()}\n`);
    const ran = await Promise.all(
      Array.from({ length: 4 }, () =>
        runCli(['ingest', runs, '--db', store, '--jobs', '1'], { timeoutMs: 300_000 }),
      ),
    );
    const wrote = ran.filter((r) => r.code === 0);
    for (const r of ran) {
      expect([0, 2], r.stderr).toContain(r.code);
      if (r.code === 2) expect(r.stderr).toMatch(/the run store is in use by process \d+/);
    }
    console.log(
      `hostile: 4 ingesters on a stale lock | ${wrote.length} wrote, ${ran.length - wrote.length} refused`,
    );
    expect(wrote.length).toBeGreaterThanOrEqual(1);
    // The store holds each run once, whoever wrote it.
    const stats = await runCli(['stats', '--db', store, '-o', 'json'], { timeoutMs: 120_000 });
    expect(problems(stats, [0]), stats.stderr).toEqual([]);
    expect(JSON.parse(stats.stdout)).toMatchObject({ runs: 3 });
    expect(existsSync(join(store, 'atlevel.lock'))).toBe(false);
    expect(readdirSync(store).filter((n) => n.startsWith('atlevel.lock'))).toEqual([]);
  });
});
