/**
 * `-`: standard input, holding a tarball (in any compression of DECODERS) or a single List or
 * document. It is copied to a private temporary file first, because an archive is walked twice
 * (listing, then reading) and a pipe can be read only once; the copy is removed when read.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { InputError, STDIN_NAME } from '../../model/index.js';
import { STDIN } from '../words.js';
import type { Opener } from './types.js';

export { STDIN };

/**
 * Standard input copied to `dir/stdin` (a pipe can be read only once, and an archive is walked
 * twice); a terminal is refused, `hint` saying what to pipe in instead.
 */
async function copyStdin(dir: string, hint: string): Promise<{ path: string; size: number }> {
  if (process.stdin.isTTY) throw new InputError(STDIN_NAME, 'is a terminal', hint);
  const path = join(dir, 'stdin');
  await pipeline(process.stdin, createWriteStream(path, { mode: 0o600 }));
  const size = (await stat(path)).size;
  // Blank lines piped in (`echo | atlevel analyze -`) are as empty as nothing: say so, rather than
  // that a file held no atlevel inputs.
  return { path, size: size <= BLANK_CHECK_BYTES && (await isBlank(path)) ? 0 : size };
}

/** Inputs at most this long are checked for holding only white space. */
const BLANK_CHECK_BYTES = 4096;

async function isBlank(path: string): Promise<boolean> {
  return (await readFile(path)).every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
}

/**
 * Standard input given to `read` as one file (a private temporary copy, removed after), named
 * STDIN_NAME: the file readers' decompression, limits and messages apply unchanged. `what` is what
 * to pipe in (`a release file`), for the refusal of a terminal or of empty input. For the commands
 * and flags that read one file whole: `release info|diff -`, `--release-from -`.
 */
export async function readStdin<T>(
  what: string,
  read: (path: string, display: string, size: number) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'atlevel-stdin-'));
  try {
    const { path, size } = await copyStdin(dir, `pipe ${what} into atlevel, or give its file instead of -`);
    if (size === 0) throw new InputError(STDIN_NAME, 'empty input', `pipe ${what} into atlevel`);
    return await read(path, STDIN_NAME, size);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const stdinOpener: Opener = {
  name: 'stdin',
  takes: 'path',
  claims: (arg) => arg === STDIN,
  open: async (_arg, _found, context) => {
    const dir = await context.tmpdir();
    try {
      const { path, size } = await copyStdin(
        dir,
        'pipe a tarball or a List into atlevel, e.g. atlevel analyze - < run.tar.gz',
      );
      if (await context.looksLikeArchive(path, STDIN_NAME)) return await context.archive(path, STDIN_NAME);
      if (size === 0)
        throw new InputError(STDIN_NAME, 'empty input', 'pipe a tarball or a List into atlevel');
      return await context.file(path, STDIN_NAME, size);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
