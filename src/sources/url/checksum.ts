/**
 * The checksums Cloud Storage keeps for every object (JSON API object resource: `md5Hash` and `crc32c`,
 * base64 of the big-endian digest). MD5 comes from node:crypto; CRC32C (Castagnoli) from crc32c.ts,
 * because Node 20 has none built in. Composite objects carry only a CRC32C.
 */
import { createHash, type Hash } from 'node:crypto';
import { crc32c, crc32cBase64, crc32cCombine } from './crc32c.js';

/** Incremental digests of a byte stream, checked against the expected values when it ends. */
export class Checksums {
  readonly #md5: Hash | undefined;
  #crc = 0;
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
    if (this.#wantCrc) this.#crc = crc32c(chunk, this.#crc);
  }

  /**
   * The digests of the bytes so far, base64 as Cloud Storage gives them: only those `expected` asks
   * for (MD5, else CRC32C). Ends the MD5: call once, after the last update.
   */
  digests(): Digests {
    return {
      bytes: this.bytes,
      ...(this.#md5 ? { md5Hash: this.#md5.digest('base64') } : {}),
      ...(this.#wantCrc ? { crc32c: crc32cBase64(this.#crc) } : {}),
    };
  }

  /** A sentence naming the digest that differs, or undefined when all that could be checked match. */
  mismatch(): string | undefined {
    return digestMismatch(this.expected, this.digests());
  }
}

/** The bytes of one range of a file, fed to FileDigests in order; `end` once they are all in. */
export interface RangeSink {
  update(chunk: Uint8Array): void;
  end(): void;
}

/** Whether a file with these digests may be hashed in ranges in any order: it has a CRC32C to check. */
export function hashableInAnyOrder(expected: { readonly crc32c?: string }): boolean {
  return expected.crc32c !== undefined;
}

/** Remove, in place, the entries of `list` added under `attempt` (a failed slice attempt). */
export function dropAttempt(list: { readonly attempt?: number | undefined }[], attempt: number): void {
  for (let k = list.length - 1; k >= 0; k--) if (list[k]?.attempt === attempt) list.splice(k, 1);
}

/**
 * The digests of a file hashed range by range (a sliced download, hasher.ts). With a CRC32C to check,
 * the ranges may come in any order: each range's CRC32C is computed on its own and they are joined in
 * file order at the end (crc32c.ts), so the bytes of every slice are hashed as they are written,
 * whatever lands before them. With only an MD5, the ranges must come in file order.
 *
 * Ranges are added under an attempt (of a slice, any number unique within the file): the ranges of
 * an attempt that failed are discarded, and its retry adds the range again.
 */
export class FileDigests {
  /** Whether ranges may be given in any order (there is a CRC32C to check). */
  readonly inAnyOrder: boolean;
  readonly #inOrder: Checksums | undefined;
  readonly #ranges: {
    readonly start: number;
    readonly bytes: number;
    readonly crc: number;
    readonly attempt: number;
  }[] = [];

  constructor(expected: { readonly md5Hash?: string; readonly crc32c?: string }) {
    this.inAnyOrder = hashableInAnyOrder(expected);
    this.#inOrder = this.inAnyOrder ? undefined : new Checksums(expected);
  }

  /** A sink for the bytes of the range that starts at `start`. */
  range(start: number, attempt = 0): RangeSink {
    const inOrder = this.#inOrder;
    if (inOrder) return { update: (chunk) => inOrder.update(chunk), end: () => undefined };
    let crc = 0;
    let bytes = 0;
    return {
      update: (chunk) => {
        crc = crc32c(chunk, crc);
        bytes += chunk.length;
      },
      end: () => {
        this.#ranges.push({ start, bytes, crc, attempt });
      },
    };
  }

  /** Forget the ranges added under `attempt` (it failed; its retry adds them again). */
  discard(attempt: number): void {
    dropAttempt(this.#ranges, attempt);
  }

  /**
   * The digests of every range ended. Ranges are joined by their starts; the byte count is their
   * sum, so a range that was read short (a cut-off slice) shows as missing bytes.
   */
  digests(): Digests {
    if (this.#inOrder) return this.#inOrder.digests();
    let crc = 0;
    let bytes = 0;
    for (const r of [...this.#ranges].sort((a, b) => a.start - b.start)) {
      crc = crc32cCombine(crc, r.crc, r.bytes);
      bytes += r.bytes;
    }
    return { bytes, crc32c: crc32cBase64(crc) };
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

/** The digests of a whole buffer in Cloud Storage's form (for the tests' fake server). */
export function storageDigests(data: Uint8Array): { md5Hash: string; crc32c: string } {
  return {
    md5Hash: createHash('md5').update(data).digest('base64'),
    crc32c: crc32cBase64(crc32c(data)),
  };
}
