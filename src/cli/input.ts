/**
 * What every command that reads input shares: the resource budget's flags (model/budget.ts, each
 * limit raised by the flag BUDGET_FLAGS names; docs/limits.md) and the one way a command turns its
 * input arguments into a request's ReadOptions (src/app reads them).
 */

import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { GivenReleases, ReadOptions } from '../app/read.js';
import {
  BUDGET_FLAGS,
  Budget,
  type BudgetLimits,
  DEFAULT_BUDGET_LIMITS,
  UsageError,
} from '../model/index.js';
import { NO_INPUTS_HINT } from '../sources/words.js';
import { type RemoteFlags, remoteOptions } from './remote-flags.js';
import { stdinOnce } from './stdin.js';

const LIMITS = Object.keys(BUDGET_FLAGS) as (keyof BudgetLimits)[];

/**
 * The limits of reading input, which every command that reads input applies. The others (data: URL
 * bytes, text-diff time) count only where MachineConfigs are compared: `diff`, and the cause-chain
 * diffs of analyze, report and ingest. A command that compares none does not offer their flags, which
 * it would silently ignore.
 */
export const READ_LIMITS: readonly (keyof BudgetLimits)[] = ['decompressedBytes', 'treeNodes', 'treeDepth'];

const HELP: Readonly<Record<keyof BudgetLimits, string>> = {
  decompressedBytes: 'most bytes to decompress over the run (e.g. 8GiB)',
  treeNodes: 'most nodes in one parsed YAML/JSON document, aliases expanded',
  treeDepth: 'deepest nesting of one parsed document',
  dataUrlBytesPerConfig: 'most decoded Ignition data: URL bytes in one MachineConfig (e.g. 512MiB)',
  dataUrlBytesTotal: 'most decoded Ignition data: URL bytes over the run',
  textDiffMillis: 'most time spent on text diffs over the run (e.g. 60s)',
};

/**
 * The key commander stores each limit's flag under (`--max-tree-nodes` → `maxTreeNodes`), so that a
 * command's parsed flags are typed (BudgetFlags) rather than looked up by a computed string.
 */
export const BUDGET_FLAG_KEYS = {
  decompressedBytes: 'maxDecompressed',
  treeNodes: 'maxTreeNodes',
  treeDepth: 'maxTreeDepth',
  dataUrlBytesPerConfig: 'maxDataUrl',
  dataUrlBytesTotal: 'maxDataUrlTotal',
  textDiffMillis: 'maxDiffTime',
} as const satisfies Record<keyof BudgetLimits, string>;

/** The budget flags of a command as commander parsed them (those addBudgetOptions added; each optional). */
export type BudgetFlags = {
  readonly [L in keyof BudgetLimits as (typeof BUDGET_FLAG_KEYS)[L]]?: string | undefined;
};

/**
 * Add the flags of `limits` (by default every limit) to a command that reads input; the command's
 * parsed flags are then typed with them (BudgetFlags), which commander cannot infer from flag names
 * made here.
 */
export function addBudgetOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(
  command: Command<Args, Opts, Globals>,
  limits: readonly (keyof BudgetLimits)[] = LIMITS,
): Command<Args, Opts & BudgetFlags, Globals> {
  for (const limit of limits) {
    command.option(
      `${BUDGET_FLAGS[limit]} <${unitOf(limit)}>`,
      `${HELP[limit]} (default ${formatDefault(limit)})`,
    );
  }
  return command as unknown as Command<Args, Opts & BudgetFlags, Globals>;
}

function unitOf(limit: keyof BudgetLimits): string {
  if (limit === 'textDiffMillis') return 'time';
  if (limit === 'treeNodes' || limit === 'treeDepth') return 'n';
  return 'size';
}

function formatDefault(limit: keyof BudgetLimits): string {
  const v = DEFAULT_BUDGET_LIMITS[limit];
  if (limit === 'textDiffMillis') return `${v / 1000}s`;
  if (limit === 'treeNodes' || limit === 'treeDepth') return String(v);
  return v >= 1024 ** 3 ? `${v / 1024 ** 3}GiB` : `${v / 1024 ** 2}MiB`;
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
};

/** `512MiB`, `8G`, `1000000`, `30s`, `2m`, `1500ms`: the value of one budget flag. */
function parseLimit(limit: keyof BudgetLimits, value: string): number {
  const flag = BUDGET_FLAGS[limit];
  const text = value.trim().toLowerCase();
  let n: number | undefined;
  if (limit === 'textDiffMillis') {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
    if (m) n = Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000);
  } else if (limit === 'treeNodes' || limit === 'treeDepth') {
    if (/^\d+$/.test(text)) n = Number(text);
  } else {
    const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(text);
    const unit = m ? SIZE_UNITS[m[2] ?? ''] : undefined;
    if (m && unit !== undefined && Object.hasOwn(SIZE_UNITS, m[2] ?? '')) n = Math.floor(Number(m[1]) * unit);
  }
  if (n === undefined || !Number.isSafeInteger(Math.round(n)) || n <= 0) {
    throw new UsageError(
      `${flag} ${JSON.stringify(value)} is not a ${unitOf(limit) === 'size' ? 'size (e.g. 512MiB, 8GiB)' : unitOf(limit) === 'time' ? 'duration (e.g. 30s, 2m)' : 'positive whole number'}`,
    );
  }
  return n;
}

/** The request's one budget from a command's budget flags: every stage of the command charges it. */
export function budgetFromFlags(flags: BudgetFlags): Budget {
  const given: Partial<Record<keyof BudgetLimits, number>> = {};
  for (const limit of LIMITS) {
    const value = flags[BUDGET_FLAG_KEYS[limit]];
    if (value !== undefined) given[limit] = parseLimit(limit, value);
  }
  return new Budget(given);
}

/**
 * How a use case (src/app) reads inputs, from the command's budget and URL flags. Called once per
 * command: the budget it makes is the request's one budget.
 */
export function readOptions(flags: BudgetFlags & RemoteFlags): ReadOptions {
  return { budget: budgetFromFlags(flags), remote: () => remoteOptions(flags) };
}

/**
 * The input arguments of a command that reads files, refused before anything is read when there are
 * none or one is empty; `-` may be given once, counting --release-from/--release-to (one pipe, one reader).
 */
export function checkInputs(paths: readonly string[], releases: GivenReleases = {}): void {
  // A usage error, not an input error: there is no file to name.
  // Only the commands that also read live clusters (analyze, status) take no path at all.
  if (paths.length === 0)
    throw new UsageError(
      `no input given (${NO_INPUTS_HINT}; or --kubeconfig FILE or --live for a live cluster)`,
    );
  if (paths.includes(''))
    throw new UsageError('an input path is empty (""): name a file, folder, tarball or URL');
  stdinOnce(paths, { '--release-from': releases.releaseFrom, '--release-to': releases.releaseTo });
}
