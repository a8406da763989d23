/**
 * Tar archives, plain or in any compression of DECODERS (`.tar.gz`, `.tgz`, `.tar.zst`, ...), read in
 * memory as a stream (never unpacked to disk). The compression is decoded here, with the run's budget,
 * so tar only ever sees a plain archive. The archive is walked twice: once to list its files (layout detection needs the whole list), once to
 * read the chosen ones. Entry handlers never throw inside tar's callbacks: a failure is recorded,
 * the parser is aborted, and the walk rejects with it.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadEntry } from 'tar';
import type { Budget } from '../model/index.js';
import { InputError, printable } from '../model/index.js';
import { decodedChunks, errorText, formatBytes, MAX_GZIP_RATIO } from './bytes.js';
import { isArchiveContent } from './decoders/index.js';
import { fsProblem } from './folder.js';

export interface ArchiveFile {
  /** Path inside the archive, normalised (`./` and leading `/` removed). */
  readonly rel: string;
  readonly size: number;
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

function normaliseEntryPath(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

/**
 * Stream through the archive. `onEntry` returns a promise when it consumes the entry (it must read
 * it to the end, or fail); undefined to skip it.
 */
async function walkArchive(
  path: string,
  display: string,
  onEntry: (entry: ReadEntry, rel: string) => Promise<void> | undefined,
  budget: Budget | undefined,
): Promise<string[]> {
  // tar is loaded with the first archive: a run on folders never parses it (start-up cost).
  const { Parser } = await import('tar');
  let endedAt: number | undefined;
  try {
    return await walkOnce(Parser, path, display, onEntry, budget, {
      endedEarly: (at) => (endedAt ??= at),
    });
  } catch (err) {
    // Bytes after the compressed data cost the archive's tail: read it again, carefully there.
    if (endedAt === undefined) throw err;
    return walkOnce(Parser, path, display, onEntry, budget, { carefulFrom: endedAt });
  }
}

function walkOnce(
  Parser: typeof import('tar').Parser,
  path: string,
  display: string,
  onEntry: (entry: ReadEntry, rel: string) => Promise<void> | undefined,
  budget: Budget | undefined,
  tail: { endedEarly: (at: number) => void } | { carefulFrom: number },
): Promise<string[]> {
  const warnings: string[] = [];
  return new Promise<string[]>((resolve, reject) => {
    let failure: unknown;
    let validEntries = 0;
    let lastEntry = '';
    // tar's end-of-archive marker is two zero blocks; the parser says 'nullBlock' at the first, 'eof'
    // at the second, and otherwise ends quietly wherever the bytes stop (even after a complete entry).
    let zeroBlocks = 0;
    const tasks: Promise<void>[] = [];
    const file = createReadStream(path);
    const name = display.slice(display.lastIndexOf('/') + 1);
    const stream = Readable.from(
      decodedChunks(file, {
        file: display,
        name,
        nameSaysGzip: false,
        maxBytes: Number.MAX_SAFE_INTEGER,
        ...tail,
        onNote: (text) => {
          if (!warnings.includes(text)) warnings.push(text);
        },
        ...(budget ? { budget } : {}),
      }),
      { objectMode: false },
    );
    const parser = new Parser({
      noResume: true,
      // Decoded above; tar must not guess at the plain bytes (it would try zstd, which Node 20 lacks).
      zstd: false,
      brotli: false,
      maxDecompressionRatio: MAX_GZIP_RATIO,
      onReadEntry: (entry: ReadEntry) => {
        validEntries++;
        lastEntry = entry.path;
        zeroBlocks = 0;
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
        // A reader may stop before the entry's end (a lenient reader skips a binary file after its
        // first chunk), leaving the entry paused; tar emits no further entry, and never 'end', until
        // this one has ended, so the rest is drained here.
        tasks.push(task.then(() => void entry.resume()).catch(fail));
      },
    });
    function fail(err: unknown): void {
      if (failure !== undefined) return;
      failure = err instanceof InputError ? err : archiveError(display, err);
      stream.destroy();
      file.destroy();
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
    parser.on('nullBlock', () => {
      zeroBlocks = 1;
    });
    parser.on('eof', () => {
      zeroBlocks = 2;
    });
    parser.on('end', () => {
      if (failure !== undefined) return;
      if (validEntries === 0) {
        fail(new InputError(display, 'not a tar archive (no entries found)'));
        return;
      }
      // An archive cut at an entry boundary is as incomplete as one cut inside an entry (which tar
      // reports as TAR_BAD_ARCHIVE, an error above): the missing entries may be the very files the
      // analysis needs, so a report would silently rest on part of the run. Every tar writer (GNU and
      // BSD tar, Go's archive/tar, node-tar, Python's tarfile) writes the marker, so its absence means
      // a cut download or copy, and the same error keeps both cuts alike: exit 2, one line.
      if (zeroBlocks < 2) {
        const what = zeroBlocks === 1 ? 'only half the end-of-archive marker' : 'no end-of-archive marker';
        fail(
          new InputError(
            display,
            `truncated archive (${what} after entry ${validEntries}, ${printable(normaliseEntryPath(lastEntry), 100)})`,
          ),
        );
        return;
      }
      Promise.all(tasks).then(() => {
        if (failure === undefined) resolve(warnings);
      }, fail);
    });
    file.on('error', (err) => fail(new InputError(display, fsProblem(err))));
    stream.on('error', (err) =>
      fail(err instanceof InputError ? err : new InputError(display, fsProblem(err))),
    );
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
  // Listing is not charged: the entries read are, once, when readArchive decodes them again.
  const warnings = await walkArchive(
    path,
    display,
    (entry, rel) => {
      files.push({ rel, size: entry.size });
      return undefined;
    },
    undefined,
  );
  return { files, warnings };
}

/** Read the entries `wanted` selects, each through `read` (which consumes the entry's stream). */
export async function readArchive(
  path: string,
  display: string,
  wanted: (rel: string) => boolean,
  read: (rel: string, size: number, stream: AsyncIterable<Buffer>) => Promise<void>,
  maxEntryBytes: number,
  budget?: Budget,
): Promise<void> {
  await walkArchive(
    path,
    display,
    (entry, rel) => {
      if (!wanted(rel)) return undefined;
      if (entry.size > maxEntryBytes) {
        return Promise.reject(
          new InputError(`${display}!${rel}`, `size exceeds ${formatBytes(maxEntryBytes)}`),
        );
      }
      return read(rel, entry.size, entry as unknown as AsyncIterable<Buffer>);
    },
    budget,
  );
}

/** Whether a file's first decoded bytes are an archive's, whatever its name (DECODERS with `archive`). */
export async function looksLikeArchive(file: string, display: string): Promise<boolean> {
  const stream = createReadStream(file, { start: 0, end: 64 * 1024 - 1 });
  try {
    const head: Buffer[] = [];
    let length = 0;
    const opts = {
      file: display,
      name: display.slice(display.lastIndexOf('/') + 1),
      nameSaysGzip: false,
      maxBytes: Number.MAX_SAFE_INTEGER,
    };
    for await (const chunk of decodedChunks(stream, opts)) {
      head.push(chunk);
      length += chunk.length;
      if (length >= 512) break;
    }
    return isArchiveContent(Buffer.concat(head));
  } catch (err) {
    // Not decodable from its first bytes: not an archive; the file's reader says what is wrong.
    if (err instanceof InputError) return false;
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code !== undefined) throw new InputError(display, fsProblem(err));
    throw err;
  } finally {
    stream.destroy();
  }
}
