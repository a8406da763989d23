/**
 * `.tar`, `.tar.gz` and `.tgz` inputs, read in memory as a stream (never unpacked to disk). The
 * archive is walked twice: once to list its files (layout detection needs the whole list), once to
 * read the chosen ones. Entry handlers never throw inside tar's callbacks: a failure is recorded,
 * the parser is aborted, and the walk rejects with it.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Parser, type ReadEntry } from 'tar';
import { InputError, printable } from '../model/errors.js';
import { errorText, formatBytes, isGzipMagic, MAX_GZIP_RATIO } from './bytes.js';
import { fsProblem } from './folder.js';

export interface ArchiveFile {
  /** Path inside the archive, normalised (`./` and leading `/` removed). */
  readonly rel: string;
  readonly size: number;
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

export function normaliseEntryPath(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

async function readHead(path: string, display: string): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const buffer = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buffer, 0, 2, 0);
    return buffer.subarray(0, bytesRead);
  } catch (err) {
    throw new InputError(display, fsProblem(err));
  } finally {
    await handle?.close();
  }
}

/**
 * Stream through the archive. `onEntry` returns a promise when it consumes the entry (it must read
 * it to the end, or fail); undefined to skip it.
 */
async function walkArchive(
  path: string,
  display: string,
  onEntry: (entry: ReadEntry, rel: string) => Promise<void> | undefined,
): Promise<string[]> {
  const head = await readHead(path, display);
  if (/\.(tgz|gz)$/i.test(path) && !isGzipMagic(head)) throw new InputError(display, 'not a gzip file');
  const warnings: string[] = [];
  return new Promise<string[]>((resolve, reject) => {
    let failure: unknown;
    let validEntries = 0;
    const tasks: Promise<void>[] = [];
    const stream = createReadStream(path);
    const parser = new Parser({
      noResume: true,
      maxDecompressionRatio: MAX_GZIP_RATIO,
      onReadEntry: (entry: ReadEntry) => {
        validEntries++;
        const rel = normaliseEntryPath(entry.path);
        if (failure !== undefined || !FILE_TYPES.has(entry.type) || rel === '') {
          entry.resume();
          return;
        }
        const task = onEntry(entry, rel);
        if (task === undefined) {
          entry.resume();
          return;
        }
        tasks.push(task.catch(fail));
      },
    });
    function fail(err: unknown): void {
      if (failure !== undefined) return;
      failure = err instanceof InputError ? err : archiveError(display, err);
      stream.destroy();
      try {
        parser.abort(new Error('aborted'));
      } catch {
        // abort emits 'error', handled below; nothing else to do.
      }
      reject(failure);
    }
    parser.on('warn', (code: string, message: unknown) => {
      const text = typeof message === 'string' ? message : errorText(message);
      if (code === 'TAR_BAD_ARCHIVE' || code === 'TAR_ABORT') fail(archiveError(display, new Error(text)));
      else warnings.push(`${code}: ${printable(text, 120)}`);
    });
    parser.on('error', (err: unknown) => fail(err));
    parser.on('end', () => {
      if (failure !== undefined) return;
      if (validEntries === 0) {
        fail(new InputError(display, 'not a tar archive (no entries found)'));
        return;
      }
      Promise.all(tasks).then(() => {
        if (failure === undefined) resolve(warnings);
      }, fail);
    });
    stream.on('error', (err) => fail(new InputError(display, fsProblem(err))));
    stream.pipe(parser);
  });
}

function archiveError(display: string, err: unknown): InputError {
  const text = errorText(err);
  if (/decompression ratio/i.test(text)) {
    return new InputError(
      display,
      `decompressed size exceeds ${MAX_GZIP_RATIO}× the compressed size; refusing a likely decompression bomb`,
    );
  }
  if (/unexpected end|truncated/i.test(text))
    return new InputError(display, `truncated archive (${printable(text, 100)})`);
  if (/incorrect header|invalid|unrecognized/i.test(text)) {
    return new InputError(display, `not a valid tar archive (${printable(text, 100)})`);
  }
  return new InputError(display, `cannot read archive: ${printable(text, 120)}`);
}

/** Every regular file in the archive, in archive order. */
export async function listArchive(
  path: string,
  display: string,
): Promise<{ files: ArchiveFile[]; warnings: string[] }> {
  const files: ArchiveFile[] = [];
  const warnings = await walkArchive(path, display, (entry, rel) => {
    files.push({ rel, size: entry.size });
    return undefined;
  });
  return { files, warnings };
}

/** Read the entries `wanted` selects, each through `read` (which consumes the entry's stream). */
export async function readArchive(
  path: string,
  display: string,
  wanted: (rel: string) => boolean,
  read: (rel: string, size: number, stream: AsyncIterable<Buffer>) => Promise<void>,
  maxEntryBytes: number,
): Promise<void> {
  await walkArchive(path, display, (entry, rel) => {
    if (!wanted(rel)) return undefined;
    if (entry.size > maxEntryBytes) {
      return Promise.reject(
        new InputError(`${display}!${rel}`, `size exceeds ${formatBytes(maxEntryBytes)}`),
      );
    }
    return read(rel, entry.size, entry as unknown as AsyncIterable<Buffer>);
  });
}
