/**
 * The input pipeline as the CLI composes it (cli/input.ts), for tests: sources/ read the parts at
 * "now", timeline/ builds the history.
 */
import type { ClusterHistory, HistoryParts } from '../../src/model/history.js';
import { type LoadOptions, loadHistoryParts as readParts } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/index.js';

type Options = Partial<LoadOptions>;

export function loadHistoryParts(
  paths: readonly string[],
  opts: Options = {},
  how?: { streamEchoes?: boolean },
): Promise<HistoryParts> {
  return readParts(paths, { now: Date.now(), ...opts }, how);
}

export async function loadHistory(paths: readonly string[], opts: Options = {}): Promise<ClusterHistory> {
  return buildHistory(await loadHistoryParts(paths, opts));
}
