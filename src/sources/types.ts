import type { Budget, Millis } from '../model/index.js';
import type { FetchStats, RemoteOptions } from './url/index.js';

export interface LoadOptions {
  /** `--release-from F` / `--release-to F`: release info files given explicitly. */
  readonly releaseFrom?: string;
  readonly releaseTo?: string;
  /** Refuse any single file (or decompressed stream) larger than this. Default 2 GiB. */
  readonly maxFileBytes?: number;
  /**
   * The moment the command runs: a build log's lines carry no year, and with nothing else to go by
   * the year is taken from here. Passed in by the caller, never read from the clock deep inside.
   */
  readonly now: Millis;
  /** The run's resource budget (model/budget.ts), shared by every input of the run. */
  readonly budget?: Budget;
  /** How URL inputs are fetched (endpoint, cache, --offline, progress); defaults apply when absent. */
  readonly remote?: RemoteOptions & { readonly onStats?: (stats: FetchStats) => void };
}
