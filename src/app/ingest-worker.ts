/**
 * One run of an ingest, in a worker of the pool (or in-process with one job): load it, analyse it,
 * build the record the main thread writes. A module of its own, with a default export, because
 * tinypool starts workers from a file; what it is sent crosses threads, so it is plain data.
 */
import type { MessagePort } from 'node:worker_threads';
import { analyzeHistory } from '../analyze/index.js';
import { type RunIdentity, runRecord } from '../ingest/index.js';
import { Budget, type BudgetLimits, plural } from '../model/index.js';
import type { FetchStats } from '../sources/index.js';
import type { RunRecord } from '../store/index.js';
import { readHistory } from './read.js';

/** How each run is read: plain values, so they cross threads. */
export interface RunReading {
  /** The limits of the run's budget (model/budget.ts); each run has a budget of its own. */
  readonly limits?: Partial<BudgetLimits>;
  /** For URL runs (docs/urls.md). */
  readonly cacheDir?: string;
  readonly offline?: boolean;
  readonly storageEndpoint?: string;
  readonly mustGather?: boolean;
  /** Say on stderr what was fetched, retried and skipped. */
  readonly verbose?: boolean;
}

/** What a worker is sent. */
export interface IngestTask {
  readonly who: RunIdentity;
  readonly reading: RunReading;
  /** Told once when a worker takes the task: the run timeout counts from then, not from the queue. */
  readonly started?: MessagePort;
}

export default async function analyseRun(task: IngestTask): Promise<RunRecord> {
  task.started?.postMessage(null);
  task.started?.close();
  const r = task.reading;
  const budget = new Budget(r.limits ?? {});
  const verbose = r.verbose ? (line: string) => process.stderr.write(`atlevel: ${line}\n`) : undefined;
  const history = await readHistory([task.who.source], {
    budget,
    remote: {
      ...(r.cacheDir !== undefined ? { cacheDir: r.cacheDir } : {}),
      ...(r.offline ? { offline: true } : {}),
      ...(r.storageEndpoint !== undefined ? { endpoint: r.storageEndpoint } : {}),
      ...(r.mustGather ? { mustGather: true } : {}),
      ...(verbose
        ? {
            verbose,
            onStats: (s: FetchStats) =>
              verbose(
                `URL inputs: ${plural(s.requests, 'request')}, ${plural(s.downloadedFiles, 'file')} downloaded (${s.downloadedBytes} bytes), ${s.cachedFiles} read from the cache`,
              ),
          }
        : {}),
    },
  });
  return runRecord(task.who, history, analyzeHistory(history, { diffLimits: budget.limits }));
}
