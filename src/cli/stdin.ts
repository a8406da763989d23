/**
 * `-` as an argument: standard input. Commands that open their inputs as trees (analyze, status,
 * serve, report) read it through sources/ (open/stdin.ts); `release info`, `release diff` and
 * `--release-from`/`--release-to` read one release file whole, through sources' readStdin; the
 * others refuse it in one line rather than look for a file named `-`. Standard input can be read
 * once, so `-` may be given once, counting inputs and flags together.
 */
import { UsageError } from '../model/index.js';
import { STDIN } from '../sources/words.js';

/**
 * Refuse `-` given more than once on one command line: among the inputs `args`, and the values of
 * the flags in `flags` (flag → value), which say where it was given when one of them is among the
 * takers.
 */
export function stdinOnce(
  args: readonly (string | undefined)[],
  flags: Readonly<Record<string, string | undefined>> = {},
): void {
  const inputs = args.filter((a) => a === STDIN).length;
  const byFlag = Object.entries(flags)
    .filter(([, value]) => value === STDIN)
    .map(([flag]) => flag);
  const times = inputs + byFlag.length;
  if (times <= 1) return;
  const where =
    byFlag.length === 0
      ? ''
      : ` (${[...(inputs > 0 ? [inputs > 1 ? 'as inputs' : 'as an input'] : []), ...byFlag.map((f) => `to ${f}`)].join(' and ')})`;
  throw new UsageError(
    `- (standard input) was given ${times === 2 ? 'twice' : `${times} times`}${where}; it can be read only once: give the other inputs as files`,
  );
}

/** Refuse `-` where the command does not read standard input; `instead` says what it takes. */
export function noStdin(command: string, args: readonly (string | undefined)[], instead: string): void {
  if (args.includes(STDIN)) throw new UsageError(`reading stdin is not supported by ${command}; ${instead}`);
}
