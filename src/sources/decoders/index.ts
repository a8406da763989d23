/**
 * DECODERS: the compressions and archive forms atlevel recognises, one file each. A file's form is
 * found from its first bytes first and its name second (a `.gz` that is not gzip is an error); how to
 * add one is in CONTRIBUTING.md ("Inputs"). Decoding itself, with the size caps and the run's budget,
 * is in ../bytes.ts.
 */
import { gzip } from './gzip.js';
import { tar } from './tar.js';
import type { Decoder } from './types.js';
import { xz } from './xz.js';
import { zstd } from './zstd.js';

export type { Decoder } from './types.js';

const DECODERS: readonly Decoder[] = [gzip, zstd, xz, tar];

/** Enough leading bytes for every decoder's magic (tar's `ustar` sits at offset 257). */
export const MAGIC_BYTES = Math.max(2, ...DECODERS.map((d) => d.magicLength));

/** The compression the first bytes say, if any. */
export function compressionByMagic(head: Uint8Array): Decoder | undefined {
  return DECODERS.find((d) => d.decode !== undefined && d.magic(head.subarray(0, d.magicLength)));
}

/** The compression a name's ending says (`.gz`, `.tgz`), if any. */
export function compressionByName(name: string): Decoder | undefined {
  const lower = name.toLowerCase();
  return DECODERS.find(
    (d) =>
      d.decode !== undefined &&
      [...d.suffixes, ...(d.tarSuffixes ?? [])].some((s) => lower.endsWith(s) && lower.length > s.length),
  );
}

/** The name without the compression suffix it ends in (`events.json.gz` → `events.json`). */
export function withoutCompressionSuffix(name: string): string {
  const lower = name.toLowerCase();
  for (const d of DECODERS) {
    if (d.decode === undefined) continue;
    for (const s of d.suffixes)
      if (lower.endsWith(s) && lower.length > s.length) return name.slice(0, -s.length);
    for (const s of d.tarSuffixes ?? [])
      if (lower.endsWith(s) && lower.length > s.length) return `${name.slice(0, -s.length)}.tar`;
  }
  return name;
}

/** A name that says tar archive: `.tar`, or `.tar` in a known compression (`.tar.gz`, `.tgz`, ...). */
export function isArchiveName(name: string): boolean {
  return /\.tar$/i.test(withoutCompressionSuffix(name));
}

/** First decoded bytes that are an archive form's, whatever the name says. */
export function isArchiveContent(head: Uint8Array): boolean {
  return DECODERS.some((d) => d.archive === true && d.magic(head.subarray(0, d.magicLength)));
}
