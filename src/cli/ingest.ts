/**
 * `atlevel ingest PATH|URL...`: analyse many runs into the run store (docs/runs.md). The flags become
 * an IngestRequest for the use case (app/ingest.ts, which runs the worker pool); this module draws
 * the progress bar and prints the closing line. Exit codes: 0 every run stored, 1 the batch ran but some runs
 * are ingest errors (recorded and listed; 0 with --exit-zero), 2 bad arguments or an unusable store,
 * 3 internal error.
 */
import { availableParallelism } from 'node:os';
import type { Command } from '@commander-js/extra-typings';
import cliProgress from 'cli-progress';
import { type IngestRequest, ingest, storeSpec } from '../app/ingest.js';
import { type IngestProgress, parseShard } from '../ingest/index.js';
import { printable, UsageError } from '../model/index.js';
import { defaultDbPath } from '../store/index.js';
import { type ExitBox, exitOf } from './exit.js';
import { addBudgetOptions, type BudgetFlags, budgetFromFlags } from './input.js';
import { writeNotes } from './notes.js';
import { checkDataFolder, checkInputsOutside } from './output.js';
import { mustGatherFlag, type RemoteFlags, remoteFlags } from './remote-flags.js';
import { noStdin } from './stdin.js';

/**
 * A path, URL or error message on its way to the terminal: the store folder is the user's --db as
 * given, and run sources and errors name files inside the inputs, any of which may hold an ESC or
 * other control character. Paths run long, so the cap is well above printable's default.
 */
const shown = (text: string): string => printable(text, 1000);

/** --run-timeout's default: far above a CI run's fetch and analysis, far below forever. */
const DEFAULT_RUN_TIMEOUT = '10m';

const TIMEOUT_UNITS: ReadonlyMap<string, number> = new Map([
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
]);

/** `90s`, `10m`, `1h`, or a number of seconds; `0` for no limit. */
export function parseRunTimeout(text: string): number {
  const m = /^\s*(\d+)\s*([smh]?)\s*$/.exec(text);
  const ms = m ? Number(m[1]) * (TIMEOUT_UNITS.get(m[2] || 's') ?? 1000) : Number.NaN;
  // setTimeout fires at once for a delay past 2^31-1 ms (24.8 days), which would give up every run.
  if (!m || !(ms <= MAX_TIMER_MS))
    throw new UsageError(
      `--run-timeout ${JSON.stringify(text)}: want a whole number of seconds, minutes or hours (90s, 10m, 1h) up to 596h, or 0 for no limit`,
    );
  return ms;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function ingestOptions(cmd: Command) {
  const c = addBudgetOptions(cmd)
    .argument(
      '<inputs...>',
      'run folders, folders of runs, .tar/.tar.gz runs, listing files (.txt/.list: one path or URL a line), CI URLs',
    )
    .option(
      '--db <path|url>',
      `the run store: a folder for PGlite, or postgres://… (default ${defaultDbPath()})`,
    )
    .option(
      '--shard <I/N>',
      'ingest only shard I of N (every ingester given the same inputs agrees on the split)',
    )
    .option('-j, --jobs <n>', `analyse N runs at once (default: the cores, ${availableParallelism()})`)
    .option('--reanalyze', 'analyse runs already stored again and replace them')
    .option(
      '--run-timeout <duration>',
      'give up a run whose fetch and analysis take longer (90s, 10m, 1h; 0: no limit) and record it as an ingest error',
      DEFAULT_RUN_TIMEOUT,
    )
    .option('-q, --quiet', 'no progress bar and no per-error lines, only the closing line')
    .option('--exit-zero', 'exit 0 even when some runs were ingest errors (bad input still exits 2)');
  return mustGatherFlag(remoteFlags(c));
}

/** How each run is read, from the budget and URL flags: plain values, so they cross threads. */
function reading(flags: BudgetFlags & RemoteFlags): IngestRequest['reading'] {
  // Parsed once here, so a bad value is a usage error before anything is read.
  return {
    limits: { ...budgetFromFlags(flags).limits },
    ...(flags.cacheDir !== undefined ? { cacheDir: flags.cacheDir } : {}),
    ...(flags.offline ? { offline: true } : {}),
    ...(flags.storageEndpoint !== undefined ? { storageEndpoint: flags.storageEndpoint } : {}),
    ...(flags.mustGather ? { mustGather: true } : {}),
    ...(flags.verbose ? { verbose: true } : {}),
  };
}

function progressBar(quiet: boolean): { update(p: IngestProgress): void; stop(): void } {
  if (quiet || !process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format:
        'ingest [{bar}] {value}/{total} | stored {stored} | skipped {skipped} | errors {errors} | eta {eta_formatted}',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      if (!started) bar.start(p.total, p.done, { ...p });
      started = true;
      bar.setTotal(p.total);
      bar.update(p.done, { ...p });
    },
    stop: () => bar.stop(),
  };
}

export function defineIngest(cmd: Command, exit: ExitBox): void {
  ingestOptions(cmd)
    .addHelpText(
      'after',
      '\nExit codes: 0 every run was stored or already there, 1 the batch ran but some runs are ingest errors (recorded; 0 with --exit-zero),\n' +
        '2 bad input or usage, 3 internal error.\n' +
        `A run not analysed within --run-timeout (default ${DEFAULT_RUN_TIMEOUT}; 0 for none) is given up and recorded as an ingest error.\n` +
        'Examples:\n' +
        '  atlevel ingest runs/                       every run under runs/, into the default store\n' +
        '  atlevel ingest --db postgres://ci@db/atlevel --shard 3/8 runs.txt',
    )
    .action(async (inputs, flags) => {
      const jobs = flags.jobs === undefined ? availableParallelism() : Number(flags.jobs);
      if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256)
        throw new UsageError(`--jobs ${JSON.stringify(flags.jobs)} wants a whole number from 1 to 256`);
      const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
      const runTimeoutMs = parseRunTimeout(flags.runTimeout);
      noStdin('ingest', inputs, 'give run folders, tarballs, listing files or CI URLs');
      const request: IngestRequest = {
        inputs,
        ...(flags.db !== undefined ? { db: flags.db } : {}),
        ...(shard ? { shard } : {}),
        jobs,
        reanalyse: flags.reanalyze === true,
        runTimeoutMs,
        reading: reading(flags),
      };
      const spec = storeSpec(request);
      const named =
        flags.db !== undefined ? '--db' : process.env.ATLEVEL_DB ? 'ATLEVEL_DB' : 'the default run store';
      // Either way round: the store inside an input would be read back as a run by a later ingest,
      // and an input inside the store (STORE/pgdata) is the store's database read as a run while
      // this ingest writes it. The runs found by walking a folder lie inside it, or where a
      // symbolic link in it leads: each such target is checked as it is met.
      const checkInput = (path: string | undefined) => {
        const extra = path === undefined ? [] : [path];
        checkDataFolder(
          spec,
          named,
          'keep the run store outside the runs it reads: a later ingest of them would read it as a run',
          extra,
        );
        checkInputsOutside(
          spec,
          named,
          extra.length > 0 ? extra : inputs,
          "name runs outside the run store: its files are the store's own database, not a run",
        );
      };
      const bar = progressBar(flags.quiet === true);
      try {
        const outcome = await ingest(request, {
          checkInput,
          onNote: (note) => writeNotes([note]),
          onProgress: (p) => bar.update(p),
          onStored: (who, outcome) => {
            if (flags.verbose)
              process.stderr.write(`atlevel: ${outcome} ${shown(who.id)} (${shown(who.source)})\n`);
          },
          onError: (source, message) => {
            if (!flags.quiet)
              process.stderr.write(`atlevel: ingest error: ${shown(source)}: ${shown(message)}\n`);
          },
        });
        bar.stop();
        const { summary, found, where, seconds } = outcome;
        // One update stored under two ids is counted twice by stats: said, run by run, and counted.
        if (!flags.quiet)
          for (const u of summary.sameUpdates)
            process.stderr.write(
              `atlevel: note: ${shown(u.source)} (${shown(u.runId)}) holds the same update as the stored run ${shown(u.other)} (${shown(u.otherSource)}): the same start, end and versions; stats counts each run, so this update twice\n`,
            );
        const analysed = summary.stored + summary.errors;
        process.stdout.write(
          `ingested ${summary.total} run${summary.total === 1 ? '' : 's'}${shard ? ` (shard ${shard.index}/${shard.count} of ${found})` : ''} into ${shown(where)}: ` +
            `${summary.stored} stored${summary.replaced ? ` (${summary.replaced} replaced)` : ''}, ${summary.skipped} already there, ${summary.errors} ingest error${summary.errors === 1 ? '' : 's'}` +
            `${summary.duplicates ? `, ${summary.duplicates} named twice` : ''}; ${seconds.toFixed(1)}s` +
            (analysed > 0
              ? `, ${(analysed / seconds).toFixed(1)} runs/s on ${jobs} worker${jobs === 1 ? '' : 's'}`
              : '') +
            '\n' +
            // A line of its own: the closing line above keeps the shape scripts read.
            (summary.sameUpdates.length > 0
              ? `${summary.sameUpdates.length} run${summary.sameUpdates.length === 1 ? '' : 's'} stored now hold${summary.sameUpdates.length === 1 ? 's' : ''} the same update as another stored run (same start, end and versions): stats counts each run, so that update twice\n`
              : ''),
        );
        // Some runs of the batch could not be stored: the batch ran, but the caller's script must be
        // able to tell (exit 1), unless it asked for the pre-0.2 behaviour with --exit-zero.
        exit.code = exitOf(outcome.conclusion, flags.exitZero === true);
      } finally {
        bar.stop();
      }
    });
}
