/**
 * The `ingest` use case: expand the inputs into runs (folders of runs, tarballs, listing files, CI
 * URLs), keep one shard of them, and analyse each into the run store, on a worker pool when more
 * than one run goes at once (docs/runs.md). The workers run ingest-worker.ts.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import {
  type Analyser,
  expandInputs,
  type IngestProgress,
  type IngestSummary,
  ingestRuns,
  inShard,
  type RunIdentity,
  type Shard,
} from '../ingest/index.js';
import { defaultDbPath, isPostgresUrl, type PutOutcome, type RunRecord, RunStore } from '../store/index.js';
import type { Conclusion } from './conclusion.js';
import analyseRun, { type IngestTask, type RunReading } from './ingest-worker.js';

export interface IngestRequest {
  /** Run folders, folders of runs, tarballs, listing files (.txt/.list), CI URLs. */
  readonly inputs: readonly string[];
  /** The run store: a folder for PGlite, or postgres://…; the default store when absent. */
  readonly db?: string;
  readonly shard?: Shard;
  /** Runs analysed at once (worker threads). */
  readonly jobs: number;
  /** Analyse runs already stored again and replace them. */
  readonly reanalyse?: boolean;
  /** Give up a run not analysed within this many ms, recorded as an ingest error; 0: no limit. */
  readonly runTimeoutMs: number;
  readonly reading: RunReading;
}

/** What the caller is told as the batch goes; all optional. */
export interface IngestEvents {
  /** Before anything is read (store undefined), and for each path a listing file names or a walk meets. */
  readonly checkInput?: (path: string | undefined) => void;
  readonly onNote?: (note: string) => void;
  readonly onProgress?: (p: IngestProgress) => void;
  readonly onStored?: (who: RunIdentity, outcome: PutOutcome) => void;
  readonly onError?: (source: string, message: string) => void;
}

export interface IngestOutcome {
  readonly summary: IngestSummary;
  /** Runs the inputs hold, before the shard was taken. */
  readonly found: number;
  /** Where the store is, as it names itself. */
  readonly where: string;
  readonly seconds: number;
  /** A failure when some runs of the batch are ingest errors (recorded, but not stored as analysed). */
  readonly conclusion: Conclusion;
}

/** Where the store is when the request names none. */
export function storeSpec(request: Pick<IngestRequest, 'db'>): string {
  return request.db ?? defaultDbPath();
}

/**
 * tinypool starts its workers from a file of its own found beside its module, so it must load from
 * node_modules, never from a bundle (scripts/build.mjs bundles the CLI): a specifier that is not a
 * string literal is left alone by the bundler.
 */
const TINYPOOL: string = 'tinypool';

/**
 * The module the workers run: ingest-worker.js beside this module (dist/app/, or dist/bundle/ where
 * it is an entry point of its own), else, from the sources (tsx), the compiled one or the source.
 */
function workerModule(): string {
  const candidates = [
    new URL('./ingest-worker.js', import.meta.url),
    new URL('../../dist/app/ingest-worker.js', import.meta.url),
  ];
  const found = candidates.find((u) => u.protocol === 'file:' && existsSync(fileURLToPath(u)));
  return (found ?? new URL('./ingest-worker.ts', import.meta.url)).href;
}

export async function ingest(request: IngestRequest, events: IngestEvents = {}): Promise<IngestOutcome> {
  const spec = storeSpec(request);
  const local = !isPostgresUrl(spec);
  // Before the inputs are walked (the store may be big), and each path a listing file names
  // before it is (the command line does not show them).
  if (local) events.checkInput?.(undefined);
  const all = await expandInputs(
    request.inputs,
    local && events.checkInput ? (path) => events.checkInput?.(path) : undefined,
    events.onNote,
  );
  const shard = request.shard;
  const runs = shard ? all.filter((r) => inShard(r, shard)) : all;
  const jobs = request.jobs;
  const started = performance.now();
  // Opened while the workers start and take their first runs (ingestRuns); awaited by every path
  // below, so a store that cannot be opened is still the error this request ends with.
  const opening = RunStore.open(spec, 'write');
  opening.catch(() => undefined);
  const reading = request.reading;
  let analyse: Analyser = (who, _signal, started) => {
    started();
    return analyseRun({ who, reading });
  };
  let destroy = async () => undefined as unknown;
  // A URL that hangs is only stopped by ending the thread that waits on it: with a run timeout, URL
  // runs go to a worker even with one job, so a given-up run leaves nothing running behind.
  const pooled =
    (jobs > 1 && runs.length > 1) || (request.runTimeoutMs > 0 && runs.some((r) => r.kind === 'url'));
  if (pooled) {
    const { Tinypool } = (await import(TINYPOOL)) as typeof import('tinypool');
    const pool = new Tinypool({
      filename: workerModule(),
      minThreads: Math.min(jobs, runs.length),
      maxThreads: Math.min(jobs, runs.length),
    });
    // An aborted task's worker is terminated (tinypool), and a fresh one takes its place. The worker
    // says when it takes the task, so a run waiting in the queue is not on the clock.
    analyse = async (who, signal, started) => {
      const { port1, port2 } = new MessageChannel();
      port1.once('message', started);
      try {
        return (await pool.run({ who, reading, started: port2 } satisfies IngestTask, {
          signal,
          transferList: [port2],
        })) as RunRecord;
      } finally {
        port1.close();
      }
    };
    destroy = () => pool.destroy();
  }
  try {
    // In-process analysis (no pool) cannot be stopped halfway: it waits for the store.
    const summary = await ingestRuns(runs, {
      store: pooled ? opening : await opening,
      analyse,
      parallel: jobs + 1,
      reanalyse: request.reanalyse === true,
      runTimeoutMs: request.runTimeoutMs,
      ...(events.onProgress ? { onProgress: events.onProgress } : {}),
      ...(events.onStored ? { onStored: events.onStored } : {}),
      ...(events.onError ? { onError: events.onError } : {}),
    });
    const store = await opening;
    return {
      summary,
      found: all.length,
      where: store.where,
      seconds: (performance.now() - started) / 1000,
      conclusion: summary.errors > 0 ? 'failure' : 'ok',
    };
  } finally {
    await destroy();
    await (await opening.catch(() => undefined))?.close();
  }
}
