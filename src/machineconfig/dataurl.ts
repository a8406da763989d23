/**
 * RFC 2397 data URLs as Ignition uses them for file contents: `data:,<percent-encoded>` (what the MCO
 * templates emit), `data:<mediatype>;base64,<base64>` (what users write), optionally gzip-compressed
 * (Ignition >= 3.1 `contents.compression: gzip`). Decoding is bounded: a compressed payload that
 * expands past the cap is refused while it is being inflated, so a gzip bomb never grows the process.
 */
import { plural } from '../model/index.js';

/** Why a data URL could not be decoded; the caller knows the file and Ignition path to name. */
export class DataUrlError extends Error {
  override readonly name = 'DataUrlError';
  constructor(
    message: string,
    /** True when the contents were refused for passing the byte cap (not for being malformed). */
    readonly overCap = false,
  ) {
    super(message);
  }
}

export interface DecodedDataUrl {
  readonly mediaType: string;
  readonly base64: boolean;
  readonly bytes: Buffer;
}

/** Ignition files are config snippets; 64 MiB is far above any real one and far below harm. */
export const DEFAULT_MAX_DECODED_BYTES = 64 * 1024 * 1024;

const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;
const HEX = /^[0-9A-Fa-f]{2}$/;

export function isDataUrl(source: string): boolean {
  return source.slice(0, 5).toLowerCase() === 'data:';
}

/** Percent-decoding to bytes (not to a string: the bytes need not be UTF-8). Strict about `%XX`. */
export function percentDecode(text: string): Buffer {
  if (!text.includes('%')) return Buffer.from(text, 'utf8');
  try {
    // Native and fast for the common case (valid escapes of UTF-8 text); it throws on a bad escape
    // or on bytes that are not UTF-8, and the byte-wise decoder below handles (or reports) those.
    return Buffer.from(decodeURIComponent(text), 'utf8');
  } catch {
    return percentDecodeBytes(text);
  }
}

function percentDecodeBytes(text: string): Buffer {
  const out = Buffer.allocUnsafe(Buffer.byteLength(text, 'utf8'));
  let n = 0;
  let i = 0;
  while (i < text.length) {
    const pct = text.indexOf('%', i);
    const end = pct === -1 ? text.length : pct;
    if (end > i) n += out.write(text.slice(i, end), n, 'utf8');
    if (pct === -1) break;
    const hex = text.slice(pct + 1, pct + 3);
    if (!HEX.test(hex)) {
      throw new DataUrlError(`invalid percent escape "${text.slice(pct, pct + 3)}" at offset ${pct}`);
    }
    out[n++] = Number.parseInt(hex, 16);
    i = pct + 3;
  }
  return out.subarray(0, n);
}

const UNRESERVED = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/** Percent-encode bytes the way Ignition config generators do: everything outside URL-safe ASCII escaped. */
function percentEncode(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function encodeDataUrl(
  bytes: Uint8Array,
  opts: { base64?: boolean; mediaType?: string } = {},
): string {
  const media = opts.mediaType ?? '';
  return opts.base64
    ? `data:${media};base64,${Buffer.from(bytes).toString('base64')}`
    : `data:${media},${percentEncode(bytes)}`;
}

export function decodeDataUrl(source: string): DecodedDataUrl {
  if (!isDataUrl(source)) throw new DataUrlError('not a data URL (expected it to start with "data:")');
  const comma = source.indexOf(',');
  if (comma === -1) throw new DataUrlError('malformed data URL: no "," between the media type and the data');
  const header = source.slice(5, comma);
  const params = header.split(';');
  const base64 = params.length > 1 && params.at(-1)?.toLowerCase() === 'base64';
  const mediaParts = base64 ? params.slice(0, -1) : params;
  const mediaType = mediaParts.join(';') || 'text/plain;charset=US-ASCII';
  if (mediaParts[0] && !/^[!#$&^_.+\-0-9A-Za-z]+\/[!#$&^_.+\-0-9A-Za-z]+$/.test(mediaParts[0])) {
    throw new DataUrlError(
      `malformed data URL: media type "${mediaParts[0].slice(0, 60)}" is not type/subtype`,
    );
  }
  const body = source.slice(comma + 1);
  if (!base64) return { mediaType, base64, bytes: percentDecode(body) };
  // Base64 bodies may themselves be percent-escaped (RFC 2397 allows it) and may wrap lines.
  const compact = (body.includes('%') ? percentDecode(body).toString('latin1') : body).replace(/\s+/g, '');
  if (!BASE64_BODY.test(compact) || compact.length % 4 === 1) {
    throw new DataUrlError(
      'malformed data URL: the base64 data has characters or a length base64 cannot have',
    );
  }
  return { mediaType, base64, bytes: Buffer.from(compact, 'base64') };
}

/** The size a gzip stream's last member declares (ISIZE, modulo 4 GiB), for the error message. */
function declaredGzipSize(bytes: Buffer): number | undefined {
  const isGzip = bytes.length >= 18 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return isGzip ? bytes.readUInt32LE(bytes.length - 4) : undefined;
}

/** Apply Ignition `compression` (`gzip` or none), refusing output past `maxBytes`. */
export function decompress(bytes: Buffer, compression: string | undefined, maxBytes: number): Buffer {
  if (compression === undefined || compression === '') {
    if (bytes.length > maxBytes) {
      throw new DataUrlError(
        `contents are ${plural(bytes.length, 'byte')}, over the ${maxBytes}-byte cap`,
        true,
      );
    }
    return bytes;
  }
  if (compression !== 'gzip') throw new DataUrlError(`unsupported compression "${compression.slice(0, 40)}"`);
  const declared = declaredGzipSize(bytes);
  if (declared !== undefined && declared > maxBytes) {
    throw new DataUrlError(
      `gzip contents declare ${plural(declared, 'byte')}, over the ${maxBytes}-byte cap (refused without inflating)`,
      true,
    );
  }
  try {
    // maxOutputLength makes zlib stop (and throw) as soon as the output passes the cap.
    // node:zlib is loaded on the first compressed payload, not at import: most configs hold none, and
    // `atlevel diff`'s start-up is most of its time (docs/performance.md, "diff's start-up").
    const { gunzipSync } = process.getBuiltinModule('node:zlib');
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new DataUrlError(
        `gzip contents expand past the ${maxBytes}-byte cap (a compression bomb?)`,
        true,
      );
    }
    throw new DataUrlError(`gzip contents do not inflate (${code ?? (err as Error).message})`);
  }
}
