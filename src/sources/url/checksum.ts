/**
 * The checksums Cloud Storage keeps for every object (JSON API object resource: `md5Hash` and `crc32c`,
 * base64 of the big-endian digest). MD5 comes from node:crypto; CRC32C (Castagnoli) is computed here
 * because Node 20 has none built in. Composite objects carry only a CRC32C.
 */
import { createHash, type Hash } from 'node:crypto';

const CRC32C_TABLE = (() => {
  const table = new Int32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[i] = c;
  }
  return table;
})();

/** Incremental digests of a byte stream, checked against the expected values when it ends. */
export class Checksums {
  readonly #md5: Hash | undefined;
  #crc = ~0;
  readonly #wantCrc: boolean;
  bytes = 0;

  constructor(readonly expected: { readonly md5Hash?: string; readonly crc32c?: string }) {
    this.#md5 = expected.md5Hash !== undefined ? createHash('md5') : undefined;
    // MD5 is native and enough when present; CRC32C only for objects that have no MD5.
    this.#wantCrc = this.#md5 === undefined && expected.crc32c !== undefined;
  }

  update(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    this.#md5?.update(chunk);
    if (this.#wantCrc) {
      let c = this.#crc;
      for (let i = 0; i < chunk.length; i++) c = CRC32C_TABLE[(c ^ chunk[i]!) & 0xff]! ^ (c >>> 8);
      this.#crc = c;
    }
  }

  /**
   * The digests of the bytes so far, base64 as Cloud Storage gives them: only those `expected` asks
   * for (MD5, else CRC32C). Ends the MD5: call once, after the last update.
   */
  digests(): Digests {
    return {
      bytes: this.bytes,
      ...(this.#md5 ? { md5Hash: this.#md5.digest('base64') } : {}),
      ...(this.#wantCrc ? { crc32c: crcBase64(this.#crc) } : {}),
    };
  }

  /** A sentence naming the digest that differs, or undefined when all that could be checked match. */
  mismatch(): string | undefined {
    return digestMismatch(this.expected, this.digests());
  }
}

/**
 * What a Checksums computed: the byte count and the digests it was asked for. Plain data, so that a
 * worker thread (hash-worker.ts) can compute it and the downloader compare it.
 */
export interface Digests {
  readonly bytes: number;
  readonly md5Hash?: string;
  readonly crc32c?: string;
}

/** A sentence naming the digest in `got` that differs from `expected`, or undefined when all match. */
export function digestMismatch(
  expected: { readonly md5Hash?: string; readonly crc32c?: string },
  got: Digests,
): string | undefined {
  if (got.md5Hash !== undefined && expected.md5Hash !== undefined && got.md5Hash !== expected.md5Hash) {
    return `MD5 ${got.md5Hash} is not the stored ${expected.md5Hash}`;
  }
  if (got.crc32c !== undefined && expected.crc32c !== undefined && got.crc32c !== expected.crc32c) {
    return `CRC32C ${got.crc32c} is not the stored ${expected.crc32c}`;
  }
  return undefined;
}

function crcBase64(crc: number): string {
  const buf = Buffer.alloc(4);
  buf.writeUInt32BE(~crc >>> 0);
  return buf.toString('base64');
}

/** The digests of a whole buffer in Cloud Storage's form (for the tests' fake server). */
export function storageDigests(data: Uint8Array): { md5Hash: string; crc32c: string } {
  let c = ~0;
  for (let i = 0; i < data.length; i++) c = CRC32C_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return { md5Hash: createHash('md5').update(data).digest('base64'), crc32c: crcBase64(c) };
}
