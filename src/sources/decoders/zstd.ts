/**
 * Zstandard (RFC 8878): `.zst`, `.tzst`. Node 20 has no zstd in node:zlib, so this uses the pure-JS
 * streaming decoder `fzstd`.
 */
import { type Decoder, startsWith } from './types.js';

export const zstd: Decoder = {
  name: 'zstd',
  magicLength: 4,
  magic: (head) => startsWith(head, [0x28, 0xb5, 0x2f, 0xfd]),
  suffixes: ['.zst'],
  tarSuffixes: ['.tzst'],
  decode: async function* (input) {
    // Loaded on the first zstd input only: most runs read plain folders, and every process that
    // reads inputs would otherwise parse the decoder at start-up.
    const { Decompress } = await import('fzstd');
    const out: Uint8Array[] = [];
    const decoder = new Decompress((chunk) => {
      out.push(chunk);
    });
    for await (const chunk of input) {
      decoder.push(chunk);
      // fzstd reuses nothing it has handed out, so the chunks can be yielded as they are.
      while (out.length > 0) yield out.shift() as Uint8Array;
    }
    decoder.push(new Uint8Array(0), true);
    while (out.length > 0) yield out.shift() as Uint8Array;
  },
};
