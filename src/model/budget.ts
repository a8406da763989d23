/**
 * One resource budget per run. Untrusted inputs (CI artifacts, must-gathers, files people did not make)
 * can be crafted to inflate, nest or take time without bound; every stage that reads or decodes input
 * charges this one budget, so the limits hold for the run as a whole, not per file. docs/limits.md lists
 * each limit, its default and the flag that raises it.
 */
import { InputError } from './errors.js';
import { plural } from './words.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

export interface BudgetLimits {
  /** Bytes produced by decompression (gzip, zstd, xz, tar entries), summed over the run. */
  readonly decompressedBytes: number;
  /** Objects plus array elements plus scalars in one parsed tree, counted after YAML alias expansion. */
  readonly treeNodes: number;
  /** Nesting depth of one parsed tree. */
  readonly treeDepth: number;
  /** Decoded Ignition data: URL bytes in one MachineConfig. */
  readonly dataUrlBytesPerConfig: number;
  /** Decoded Ignition data: URL bytes over the whole run. */
  readonly dataUrlBytesTotal: number;
  /** Wall time spent in text diffs over the whole run, in milliseconds. */
  readonly textDiffMillis: number;
}

/** The flag that raises each limit, named in the error a user sees when it is hit. */
export const BUDGET_FLAGS: Readonly<Record<keyof BudgetLimits, string>> = {
  decompressedBytes: '--max-decompressed',
  treeNodes: '--max-tree-nodes',
  treeDepth: '--max-tree-depth',
  dataUrlBytesPerConfig: '--max-data-url',
  dataUrlBytesTotal: '--max-data-url-total',
  textDiffMillis: '--max-diff-time',
};

export const DEFAULT_BUDGET_LIMITS: BudgetLimits = {
  decompressedBytes: 4 * GIB,
  treeNodes: 20_000_000,
  treeDepth: 512,
  dataUrlBytesPerConfig: 256 * MIB,
  dataUrlBytesTotal: 1 * GIB,
  textDiffMillis: 20_000,
};

/** Counters charged against the limits. One instance per command invocation. */
export class Budget {
  readonly limits: BudgetLimits;
  #decompressed = 0;
  #dataUrlTotal = 0;
  #diffMillis = 0;

  constructor(limits: Partial<BudgetLimits> = {}) {
    this.limits = { ...DEFAULT_BUDGET_LIMITS, ...limits };
  }

  /** Charge decompressed bytes read from `file`; throws an input error naming the file once over. */
  chargeDecompressed(bytes: number, file: string): void {
    this.#decompressed += bytes;
    if (this.#decompressed > this.limits.decompressedBytes) this.#over('decompressedBytes', file);
  }

  /** Charge decoded data: URL bytes; `configBytes` is the running total for the config being decoded. */
  chargeDataUrl(bytes: number, configBytes: number, file: string): void {
    this.#dataUrlTotal += bytes;
    if (configBytes > this.limits.dataUrlBytesPerConfig) this.#over('dataUrlBytesPerConfig', file);
    if (this.#dataUrlTotal > this.limits.dataUrlBytesTotal) this.#over('dataUrlBytesTotal', file);
  }

  /** Decoded data: URL bytes left for the run (0 when spent). */
  dataUrlTotalLeft(): number {
    return Math.max(0, this.limits.dataUrlBytesTotal - this.#dataUrlTotal);
  }

  /** Milliseconds of text-diff time left for the run (0 when spent). */
  diffMillisLeft(): number {
    return Math.max(0, this.limits.textDiffMillis - this.#diffMillis);
  }

  chargeDiffMillis(ms: number): void {
    this.#diffMillis += ms;
  }

  /** Throw the one-line error for a limit that `file` exceeded. */
  over(limit: keyof BudgetLimits, file: string): never {
    return this.#over(limit, file);
  }

  #over(limit: keyof BudgetLimits, file: string): never {
    throw new InputError(
      file,
      `over the ${describeLimit(limit)} limit of ${formatLimit(limit, this.limits[limit])}`,
      `raise it with ${BUDGET_FLAGS[limit]} if the input is trusted`,
    );
  }
}

function describeLimit(limit: keyof BudgetLimits): string {
  switch (limit) {
    case 'decompressedBytes':
      return 'decompressed bytes per run';
    case 'treeNodes':
      return 'parsed nodes per document';
    case 'treeDepth':
      return 'nesting depth';
    case 'dataUrlBytesPerConfig':
      return 'decoded data: URL bytes per MachineConfig';
    case 'dataUrlBytesTotal':
      return 'decoded data: URL bytes per run';
    case 'textDiffMillis':
      return 'text-diff time per run';
  }
}

function formatLimit(limit: keyof BudgetLimits, value: number): string {
  if (limit === 'textDiffMillis') return `${value / 1000} s`;
  if (limit === 'treeNodes' || limit === 'treeDepth') return String(value);
  if (value >= GIB) return `${value / GIB} GiB`;
  // A limit under 1 MiB (given as a byte count) would round to "0 MiB": say the bytes.
  return value >= MIB ? `${Math.round(value / MIB)} MiB` : plural(value, 'byte');
}
