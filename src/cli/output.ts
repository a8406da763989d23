import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputError } from '../model/errors.js';
import { isClosedPipe } from './pipe.js';

/**
 * Write a report to `--out FILE` or stdout. A file is written to a temporary name beside it and
 * renamed, so a failure never leaves half a report (nor clobbers the previous one).
 */
export async function emit(text: string, outPath: string | undefined): Promise<void> {
  if (outPath === undefined || outPath === '-') {
    await new Promise<void>((resolve, reject) => {
      process.stdout.write(text, (err) => (err && !isClosedPipe(err) ? reject(err) : resolve()));
    });
    return;
  }
  const tmp = join(dirname(outPath), `.${randomBytes(6).toString('hex')}.atlevel.tmp`);
  try {
    await writeFile(tmp, text);
    await rename(tmp, outPath);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new InputError(
      outPath,
      `cannot write the output file (${code})`,
      'check that the folder exists and is writable',
    );
  }
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColour(stream: NodeJS.WriteStream = process.stdout): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}
