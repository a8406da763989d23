/**
 * `atlevel ingest` of 1,000 simulated runs (ATLEVEL_BENCH_RUNS to change it): runs per second with
 * --jobs 2, against the plain analysis of the same runs on the same two workers without a store (the
 * store should add under 20%), and the store's size per run (PGlite, and PostgreSQL when
 * ATLEVEL_PG_URL is set). Plain analysis and ingest run in turn, ATLEVEL_BENCH_REPEAT times (3),
 * each ingest into a fresh copy of one empty store, and the medians are compared: one sample of
 * each swung the ratio by ±0.1 on a shared 2-core machine. Uses the built CLI (npm run build).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCorpus } from '../test/runs/corpus.js';
import { withScratchDatabase } from './pg-scratch.js';
import { codeCacheState, median, type Sample, timed } from './timing.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/atlevel.js');
const N = Number(process.env.ATLEVEL_BENCH_RUNS ?? 1000);
const REPEAT = Math.max(1, Number(process.env.ATLEVEL_BENCH_REPEAT ?? 3));
const dir = mkdtempSync(join(tmpdir(), 'atlevel-bench-ingest-'));

function du(path: string): number {
  return Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);
}

process.stdout.write(`code cache of the bundled CLI: ${codeCacheState(root, { workers: true })}\n`);
try {
  const corpus = join(dir, 'corpus');
  let t = performance.now();
  await writeCorpus(corpus, N);
  process.stdout.write(
    `corpus: ${N} simulated runs written in ${((performance.now() - t) / 1000).toFixed(1)}s (${(du(corpus) / N / 1024).toFixed(0)} KiB a run)\n`,
  );

  // The plain analysis: the same worker module and pool size as ingest, no store.
  const baselineScript = `
    const { Tinypool } = await import(${JSON.stringify(join(root, 'node_modules/tinypool/dist/index.js'))});
    const { expandInputs, identify } = await import(${JSON.stringify(join(root, 'dist/ingest/index.js'))});
    const runs = await expandInputs([${JSON.stringify(corpus)}]);
    const pool = new Tinypool({ filename: ${JSON.stringify(join(root, 'dist/app/ingest-worker.js'))}, minThreads: 2, maxThreads: 2 });
    await Promise.all(runs.map(async (r) => pool.run({ who: await identify(r), reading: {} })));
    await pool.destroy();`;
  // A file, not `node -e`: the workers inherit the process's flags, and --input-type is refused there.
  const baselineFile = join(dir, 'plain-analysis.mjs');
  writeFileSync(baselineFile, baselineScript);
  // The store is created first, so that its one-off creation (initdb in WebAssembly) is not counted.
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const emptyStore = join(dir, 'empty-store');
  t = performance.now();
  execFileSync(process.execPath, [bin, 'ingest', empty, '--db', emptyStore, '-q']);
  const createSeconds = (performance.now() - t) / 1000;
  const sizeEmpty = du(emptyStore);

  const db = join(dir, 'store');
  const plains: Sample[] = [];
  const ingests: Sample[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const plain = timed([process.execPath, baselineFile]);
    // timed() discards the output: a rate no analysis reaches means the script failed.
    if (N / plain.seconds > 1000)
      throw new Error(`the plain analysis failed; run it by hand: node ${baselineFile}`);
    plains.push(plain);
    rmSync(db, { recursive: true, force: true });
    cpSync(emptyStore, db, { recursive: true });
    ingests.push(timed([process.execPath, bin, 'ingest', corpus, '--db', db, '--jobs', '2', '-q']));
  }
  const size = du(db) - sizeEmpty;
  const again = timed([process.execPath, bin, 'ingest', corpus, '--db', db, '-q']);
  const med = (xs: Sample[], k: 'seconds' | 'cpu') => median(xs.map((x) => x[k]));
  const list = (xs: Sample[]) => xs.map((x) => x.seconds.toFixed(1)).join(', ');
  const plainS = med(plains, 'seconds');
  const ingestS = med(ingests, 'seconds');

  process.stdout.write(
    `median of ${REPEAT}, taken in turn:\n` +
      `plain analysis, 2 workers: ${plainS.toFixed(1)}s, ${(N / plainS).toFixed(1)} runs/s (cpu ${med(plains, 'cpu').toFixed(1)}s; samples ${list(plains)})\n` +
      `ingest into PGlite, --jobs 2: ${ingestS.toFixed(1)}s, ${(N / ingestS).toFixed(1)} runs/s (cpu ${med(ingests, 'cpu').toFixed(1)}s, peak RSS ${Math.max(...ingests.map((x) => x.maxRssMb)).toFixed(0)} MB; samples ${list(ingests)})\n` +
      `  ratio ingest / plain analysis: ${(ingestS / plainS).toFixed(2)} wall, ${(med(ingests, 'cpu') / med(plains, 'cpu')).toFixed(2)} cpu (goal: under 1.20)\n` +
      `  creating the empty PGlite store first: ${createSeconds.toFixed(1)}s (not counted above)\n` +
      `re-ingest (all ${N} already there): ${again.seconds.toFixed(1)}s\n` +
      `store size, PGlite: ${(size / N / 1024).toFixed(1)} KiB a run (${(size / 1024 / 1024).toFixed(1)} MiB for ${N} runs; the empty store is ${(sizeEmpty / 1024 / 1024).toFixed(1)} MiB)\n`,
  );

  const url = process.env.ATLEVEL_PG_URL;
  if (url) {
    await withScratchDatabase(url, 'ingest', async (db, admin, name) => {
      execFileSync(process.execPath, [bin, 'ingest', empty, '--db', db, '-q']);
      const before = Number((await admin.query('SELECT pg_database_size($1) AS n', [name])).rows[0].n);
      // Once: the first ingest fills the database, and PostgreSQL's CPU is the server's, not counted.
      const pgRun = timed([process.execPath, bin, 'ingest', corpus, '--db', db, '--jobs', '2', '-q']);
      const after = Number((await admin.query('SELECT pg_database_size($1) AS n', [name])).rows[0].n);
      process.stdout.write(
        `ingest into PostgreSQL, --jobs 2: ${pgRun.seconds.toFixed(1)}s, ${(N / pgRun.seconds).toFixed(1)} runs/s; ratio to the median plain analysis ${(pgRun.seconds / plainS).toFixed(2)}\n` +
          `store size, PostgreSQL: ${((after - before) / N / 1024).toFixed(1)} KiB a run\n`,
      );
    });
  } else {
    process.stdout.write('PostgreSQL: skipped (set ATLEVEL_PG_URL)\n');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
