/**
 * `-` as an argument: standard input. Commands that open their inputs as trees (analyze, status,
 * serve, report) read it through sources/ (open/stdin.ts); `release info` and `release diff` read one
 * release file whole, through readStdin here; the others refuse it in one line rather than look for
 * a file named `-`. Standard input can be read once, so `-` may be given once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, UsageError } from '../model/index.js';
import { copyStdin, STDIN_NAME } from '../sources/index.js';

export const STDIN = '-';

/** Refuse `-` given more than once on one command line. */
export function stdinOnce(args: readonly (string | undefined)[]): void {
  if (args.filter((a) => a === STDIN).length > 1) {
    throw new UsageError(
      '- (standard input) was given twice; it can be read only once: give the other inputs as files',
    );
  }
}

/** Refuse `-` where the command does not read standard input; `instead` says what it takes. */
export function noStdin(command: string, args: readonly (string | undefined)[], instead: string): void {
  if (args.includes(STDIN)) throw new UsageError(`reading stdin is not supported by ${command}; ${instead}`);
}

/**
 * Standard input given to `read` as a file (a private temporary copy, removed after), named
 * `(stdin)` in errors: the file readers' decompression, limits and messages apply unchanged.
 */
export async function readStdin<T>(
  what: string,
  read: (path: string, display: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'atlevel-stdin-'));
  try {
    const { path, size } = await copyStdin(dir, `pipe ${what} into atlevel, or give its file instead of -`);
    if (size === 0) throw new InputError(STDIN_NAME, 'empty input', `pipe ${what} into atlevel`);
    return await read(path, STDIN_NAME);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
