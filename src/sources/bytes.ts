/**
 * Turning a byte stream (a file on disk or an entry of a tar archive) into decoded chunks: the
 * compression is recognised by its magic bytes (decoders/, DECODERS), and the decompressed size is
 * capped while streaming and charged to the run's budget, so a decompression bomb is refused long
 * before it can fill memory.
 */
import type { Budget } from '../model/index.js';
import { InputError, printable } from '../model/index.js';
import { compressionByMagic, compressionByName, type Decoder, MAGIC_BYTES } from './decoders/index.js';

const GIB = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;

/** Default cap on any single file or decompressed stream (LoadOptions.maxFileBytes). */
export const DEFAULT_MAX_FILE_BYTES = 2 * GIB;
/** Files that are parsed whole (JSON, YAML) stop here: JSON.parse needs the whole text in memory. */
export const MAX_PARSED_BYTES = 256 * MIB;
/** Decompressed output more than this many times its input is a bomb, once the output is large. */
export const MAX_GZIP_RATIO = 1000;
const RATIO_CHECK_FROM = 64 * MIB;

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
  /** The name says `.gz` (or another compression): then the content must be that. */
  readonly nameSaysGzip: boolean;
  /** The base name, when known: its suffix says which compression it must be (`.zst`, ...). */
  readonly name?: string;
  /** Read line by line (build logs), so only maxFileBytes limits it. */
  readonly streamed?: boolean;
  /** The run's budget, charged for every decompressed byte. */
  readonly budget?: Budget;
  /** Told what the user should know that is not an error (bytes ignored after the data). */
  readonly onNote?: (text: string) => void;
  /** Shown every decoded chunk, in order (readAllText), to stop a bomb before the text is whole. */
  readonly scan?: (chunk: Buffer) => void;
  /** See DecodeContext (decoders/types.ts): for a caller that can read the input again. */
  readonly endedEarly?: (at: number) => void;
  readonly carefulFrom?: number;
}

/** What a decode saw, for the caller's provenance notes. */
export interface DecodeStats {
  gzip: boolean;
  bytesIn: number;
  bytesOut: number;
  /** The compression found, when any. */
  decoder?: string;
}

/**
 * The decoded chunks of `source`. Throws InputError when the cap is crossed, when a `.gz` is not
 * gzip, or when compressed data is corrupt. The caller owns `source` and must dispose of it on error.
 */
export async function* decodedChunks(
  source: AsyncIterable<Buffer>,
  opts: DecodeOptions,
  stats: DecodeStats = { gzip: false, bytesIn: 0, bytesOut: 0 },
): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  // Collect enough bytes to look for every decoder's magic.
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < MAGIC_BYTES) {
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
  const decoder = compressionByMagic(first);
  stats.gzip = decoder?.name === 'gzip';
  if (decoder) stats.decoder = decoder.name;
  const named = opts.name !== undefined ? compressionByName(opts.name) : undefined;
  if (!decoder && (opts.nameSaysGzip || named)) {
    throw new InputError(opts.file, `not a ${named?.name ?? 'gzip'} file`);
  }

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

  if (!decoder?.decode) {
    for await (const chunk of rest()) {
      stats.bytesOut += chunk.length;
      if (stats.bytesOut > opts.maxBytes) throw tooLarge(opts);
      yield chunk;
    }
    return;
  }
  yield* decompressed(decoder, rest(), opts, stats);
}

async function* decompressed(
  decoder: Decoder,
  input: AsyncIterable<Buffer>,
  opts: DecodeOptions,
  stats: DecodeStats,
): AsyncGenerator<Buffer> {
  const decode = decoder.decode as NonNullable<Decoder['decode']>;
  try {
    const context = {
      note: (text: string) => opts.onNote?.(text),
      ...(opts.endedEarly ? { endedEarly: opts.endedEarly } : {}),
      ...(opts.carefulFrom !== undefined ? { carefulFrom: opts.carefulFrom } : {}),
    };
    for await (const raw of decode(input, context)) {
      const chunk = toBuffer(raw);
      stats.bytesOut += chunk.length;
      opts.budget?.chargeDecompressed(chunk.length, opts.file);
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
    throw new InputError(opts.file, `corrupt ${decoder.name} data: ${printable(errorText(err), 120)}`);
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
  // Binary data is refused from its first bytes, before the rest is read (a file of NULs is not text).
  for await (const chunk of decodedChunks(source, opts, stats)) {
    if (chunks.length === 0) assertText(chunk, opts.file);
    opts.scan?.(chunk);
    chunks.push(chunk);
  }
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
