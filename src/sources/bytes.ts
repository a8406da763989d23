/**
 * Turning a byte stream (a file on disk or an entry of a tar archive) into decoded chunks: gzip is
 * recognised by its magic bytes, and the decompressed size is capped while streaming, so a
 * decompression bomb is refused long before it can fill memory.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError, printable } from '../model/errors.js';

export const GIB = 1024 * 1024 * 1024;
export const MIB = 1024 * 1024;

/** Default cap on any single file or decompressed stream (LoadOptions.maxFileBytes). */
export const DEFAULT_MAX_FILE_BYTES = 2 * GIB;
/** Files that are parsed whole (JSON, YAML) stop here: JSON.parse needs the whole text in memory. */
export const MAX_PARSED_BYTES = 256 * MIB;
/** gzip output more than this many times its input is a bomb, once the output is large. */
export const MAX_GZIP_RATIO = 1000;
const RATIO_CHECK_FROM = 64 * MIB;

export function isGzipMagic(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export function formatBytes(n: number): string {
  if (n >= GIB) return `${(n / GIB).toFixed(n % GIB === 0 ? 0 : 1)} GiB`;
  if (n >= MIB) return `${(n / MIB).toFixed(n % MIB === 0 ? 0 : 1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(n % 1024 === 0 ? 0 : 1)} KiB`;
  return `${n} bytes`;
}

export interface DecodeOptions {
  /** Display path for errors. */
  readonly file: string;
  /** Refuse more decoded bytes than this. */
  readonly maxBytes: number;
  /** The name says `.gz`: then the content must be gzip. */
  readonly nameSaysGzip: boolean;
  /** Read line by line (build logs), so only maxFileBytes limits it. */
  readonly streamed?: boolean;
}

/** What a decode saw, for the caller's provenance notes. */
export interface DecodeStats {
  gzip: boolean;
  bytesIn: number;
  bytesOut: number;
}

/**
 * The decoded chunks of `source`. Throws InputError when the cap is crossed, when a `.gz` is not
 * gzip, or when gzip data is corrupt. The caller owns `source` and must dispose of it on error.
 */
export async function* decodedChunks(
  source: AsyncIterable<Buffer>,
  opts: DecodeOptions,
  stats: DecodeStats = { gzip: false, bytesIn: 0, bytesOut: 0 },
): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  // Collect at least two bytes to look for the gzip magic.
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < 2) {
    const next = await it.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = toBuffer(next.value);
    head.push(chunk);
    headLength += chunk.length;
  }
  const first = head.length === 1 ? (head[0] as Buffer) : Buffer.concat(head);
  stats.gzip = isGzipMagic(first);
  if (opts.nameSaysGzip && !stats.gzip) throw new InputError(opts.file, 'not a gzip file');

  const rest = async function* (): AsyncGenerator<Buffer> {
    if (first.length > 0) {
      stats.bytesIn += first.length;
      yield first;
    }
    if (ended) return;
    while (true) {
      const next = await it.next();
      if (next.done) return;
      const chunk = toBuffer(next.value);
      stats.bytesIn += chunk.length;
      yield chunk;
    }
  };

  if (!stats.gzip) {
    for await (const chunk of rest()) {
      stats.bytesOut += chunk.length;
      if (stats.bytesOut > opts.maxBytes) throw tooLarge(opts);
      yield chunk;
    }
    return;
  }

  const input = Readable.from(rest(), { objectMode: false });
  const gunzip = createGunzip();
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      stats.bytesOut += chunk.length;
      if (stats.bytesOut > opts.maxBytes) throw tooLarge(opts, true);
      if (stats.bytesOut > RATIO_CHECK_FROM && stats.bytesOut > MAX_GZIP_RATIO * Math.max(1, stats.bytesIn)) {
        throw new InputError(
          opts.file,
          `decompressed size exceeds ${MAX_GZIP_RATIO}× the compressed size (${formatBytes(stats.bytesOut)} from ${formatBytes(stats.bytesIn)}); refusing a likely decompression bomb`,
        );
      }
      yield chunk;
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(opts.file, `corrupt gzip data: ${printable(errorText(err), 120)}`);
  } finally {
    input.unpipe(gunzip);
    input.destroy();
    gunzip.destroy();
  }
}

function tooLarge(opts: DecodeOptions, decompressed = false): InputError {
  return new InputError(
    opts.file,
    `${decompressed ? 'decompressed size' : 'size'} exceeds ${formatBytes(opts.maxBytes)}`,
    opts.streamed || opts.maxBytes < MAX_PARSED_BYTES
      ? 'raise the limit with maxFileBytes if this file is genuine'
      : `atlevel parses JSON and YAML files of up to ${formatBytes(MAX_PARSED_BYTES)} whole`,
  );
}

function toBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return Buffer.from(String(value));
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The whole decoded content as text (for formats parsed in one piece). Refuses binary data. */
export async function readAllText(
  source: AsyncIterable<Buffer>,
  opts: DecodeOptions,
  stats?: DecodeStats,
): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of decodedChunks(source, opts, stats)) chunks.push(chunk);
  // One chunk (a small file, or a file read whole) needs no copy.
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  chunks.length = 0;
  assertText(buffer, opts.file);
  const text = buffer.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Text files never hold NUL bytes; random bytes almost always do within the first few KB. */
export function assertText(head: Uint8Array, file: string): void {
  const limit = Math.min(head.length, 8192);
  for (let i = 0; i < limit; i++) {
    if (head[i] === 0) throw new InputError(file, 'binary data, not a text file');
  }
}
