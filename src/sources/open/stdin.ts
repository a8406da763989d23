/**
 * `-`: standard input, holding a tarball (in any compression of DECODERS) or a single List or
 * document. It is copied to a private temporary file first, because an archive is walked twice
 * (listing, then reading) and a pipe can be read only once; the copy is removed when read.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { InputError } from '../../model/index.js';
import type { Opener } from './types.js';

/** How errors and notes name standard input. */
export const STDIN_NAME = '(stdin)';

export const stdinOpener: Opener = {
  name: 'stdin',
  claims: (arg) => arg === '-',
  open: async (_arg, _found, context) => {
    if (process.stdin.isTTY) {
      throw new InputError(
        STDIN_NAME,
        'is a terminal',
        'pipe a tarball or a List into atlevel, e.g. atlevel analyze - < run.tar.gz',
      );
    }
    const dir = await context.tmpdir();
    const copy = join(dir, 'stdin');
    try {
      await pipeline(process.stdin, createWriteStream(copy, { mode: 0o600 }));
      if (await context.looksLikeArchive(copy, STDIN_NAME)) return await context.archive(copy, STDIN_NAME);
      const { size } = await import('node:fs/promises').then((fs) => fs.stat(copy));
      if (size === 0)
        throw new InputError(STDIN_NAME, 'empty input', 'pipe a tarball or a List into atlevel');
      return await context.file(copy, STDIN_NAME, size);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
