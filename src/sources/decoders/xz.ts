/**
 * xz (the .xz container of LZMA2): `.xz`, `.txz`. Node has no xz in node:zlib; `xz-decompress` is a
 * streaming decoder compiled to WebAssembly, with no native code.
 */
import { type Decoder, startsWith } from './types.js';

export const xz: Decoder = {
  name: 'xz',
  magicLength: 6,
  magic: (head) => startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]),
  suffixes: ['.xz'],
  tarSuffixes: ['.txz'],
  decode: async function* (input) {
    // Loaded on the first xz input only (as zstd.ts does): a plain-folder run never needs them.
    const [{ ReadableStream }, { default: xzDecompress }] = await Promise.all([
      import('node:stream/web'),
      import('xz-decompress'),
    ]);
    const compressed = ReadableStream.from(input) as unknown as globalThis.ReadableStream<Uint8Array>;
    const reader = new xzDecompress.XzReadableStream(compressed).getReader();
    try {
      while (true) {
        const next = await reader.read().catch((err: unknown) => {
          throw new Error(describe(err));
        });
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  },
};

/** xz-embedded's return codes (xz.h), which the decoder reports by number. */
function describe(err: unknown): string {
  const code = /error code (\d+)/.exec(String(err))?.[1];
  if (code === '8') return 'truncated (the data ends before the xz stream does)';
  if (code === '7') return 'the compressed data is damaged';
  if (code === '5') return 'not in the .xz format';
  if (code === '3' || code === '4') return 'needs more memory than allowed';
  return err instanceof Error ? err.message : String(err);
}
