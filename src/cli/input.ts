/**
 * What every command that reads input shares: the resource budget's flags (model/budget.ts, each
 * limit raised by the flag BUDGET_FLAGS names; docs/limits.md) and the one way a command turns its
 * input arguments into a ClusterHistory: sources/ read the parts, timeline/ builds the history.
 */

import type { ReadOptions } from '../app/index.js';
import {
  BUDGET_FLAGS,
  Budget,
  type BudgetLimits,
  type ClusterHistory,
  DEFAULT_BUDGET_LIMITS,
  type HistoryParts,
  UsageError,
} from '../model/index.js';
import { type LoadOptions, loadHistoryParts, NO_INPUTS_HINT } from '../sources/index.js';
import { buildHistory } from '../timeline/index.js';
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

/** The camelCase key commander stores a `--max-foo-bar` flag under. */
function flagKey(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Add the flags of `limits` (by default every limit) to a command that reads input. */
export function addBudgetOptions<C extends { option(flags: string, description: string): unknown }>(
  command: C,
  limits: readonly (keyof BudgetLimits)[] = LIMITS,
): C {
  for (const limit of limits) {
    command.option(
      `${BUDGET_FLAGS[limit]} <${unitOf(limit)}>`,
      `${HELP[limit]} (default ${formatDefault(limit)})`,
    );
  }
  return command;
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

const BUDGETS = new WeakMap<object, Budget>();

/**
 * The run's budget from a command's parsed flags (those addBudgetOptions added): one Budget per
 * flags object, so every stage of one command charges the same counters.
 */
export function budgetFromFlags(flags: object): Budget {
  const made = BUDGETS.get(flags);
  if (made) return made;
  const given: Partial<Record<keyof BudgetLimits, number>> = {};
  const values = flags as Readonly<Record<string, unknown>>;
  for (const limit of LIMITS) {
    const value = values[flagKey(BUDGET_FLAGS[limit])];
    if (typeof value === 'string') given[limit] = parseLimit(limit, value);
  }
  const budget = new Budget(given);
  BUDGETS.set(flags, budget);
  return budget;
}

/** How a use case (src/app) reads inputs, from the command's budget and URL flags. */
export function readOptions(flags: object): ReadOptions {
  return { budget: budgetFromFlags(flags), remote: () => remoteOptions(flags as RemoteFlags) };
}

/** Read the inputs with the command's budget, at the moment the command runs. */
async function loadParts(
  paths: readonly string[],
  flags: object,
  opts: Partial<Omit<LoadOptions, 'now' | 'budget'>> = {},
): Promise<HistoryParts> {
  // A usage error, not an input error: there is no file to name.
  // Only the commands that also read live clusters (analyze, status) take no path at all.
  if (paths.length === 0)
    throw new UsageError(
      `no input given (${NO_INPUTS_HINT}; or --kubeconfig FILE or --live for a live cluster)`,
    );
  if (paths.includes(''))
    throw new UsageError('an input path is empty (""): name a file, folder, tarball or URL');
  // --release-from - and --release-to - read standard input too: one pipe, one reader.
  stdinOnce(paths, { '--release-from': opts.releaseFrom, '--release-to': opts.releaseTo });
  // URL inputs (docs/urls.md) are fetched as the command's remoteFlags say.
  const remote = await remoteOptions(flags as RemoteFlags);
  return loadHistoryParts(paths, { remote, ...opts, now: Date.now(), budget: budgetFromFlags(flags) });
}

/** Read the inputs and build the ClusterHistory every analysis reads. */
export async function loadHistory(
  paths: readonly string[],
  flags: object,
  opts: Partial<Omit<LoadOptions, 'now' | 'budget'>> = {},
): Promise<ClusterHistory> {
  return buildHistory(await loadParts(paths, flags, opts));
}
