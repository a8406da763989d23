/**
 * An ingest into a run store in-process: the CLI's loop (ingest/index.ts ingestRuns over the expanded
 * arguments), each run analysed as the CLI's workers analyse it (app/ingest-worker.ts), one at a time.
 * For tests of what is stored and said, without worker threads.
 */
import analyseRun from '../../src/app/ingest-worker.js';
import { expandInputs, ingestRuns } from '../../src/ingest/index.js';
import type { RunStore } from '../../src/store/index.js';

export async function ingestInProcess(store: RunStore, args: readonly string[], reanalyse = false) {
  return ingestRuns(await expandInputs(args), {
    store,
    analyse: (who, _signal, started) => {
      started();
      return analyseRun({ who, reading: {} });
    },
    parallel: 1,
    ...(reanalyse ? { reanalyse } : {}),
  });
}
