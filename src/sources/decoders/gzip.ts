/**
 * gzip (RFC 1952): `.gz`, `.tgz`. Concatenated members are one stream, as gzip(1) reads them; bytes
 * after the last member that are not another member are ignored with a note, as gzip(1) warns
 * "trailing garbage ignored" and still succeeds.
 */
import { type Decoder, startsWith } from './types.js';

/** Input is fed in pieces this size, so one piece's output (at most ~1000× it) stays small. */
const PIECE = 64 * 1024;

export const gzip: Decoder = {
  name: 'gzip',
  magicLength: 2,
  magic: (head) => startsWith(head, [0x1f, 0x8b]),
  suffixes: ['.gz'],
  tarSuffixes: ['.tgz'],
  decode: async function* (input, { note, endedEarly, carefulFrom }) {
    // Loaded here, not at import: every command that reads inputs imports the decoders to recognise
    // compressed files, and most never inflate one (docs/performance.md, "diff's start-up").
    const { createGunzip } = await import('node:zlib');
    const gunzip = createGunzip();
    // Output is taken from 'data' events rather than async iteration, which drops what zlib had
    // already produced when it then fails on the bytes after the last member.
    const queue: Buffer[] = [];
    let ended = false;
    let failure: unknown;
    gunzip.on('data', (chunk: Buffer) => queue.push(chunk));
    const finished = new Promise<void>((resolve) => {
      gunzip.on('end', () => {
        ended = true;
        resolve();
      });
      gunzip.on('error', (err) => {
        failure ??= err;
        ended = true;
        resolve();
      });
    });
    // After an error zlib never calls a write back: the end of the stream settles it too.
    const write = (piece: Buffer) =>
      Promise.race([new Promise<void>((resolve) => gunzip.write(piece, () => resolve())), finished]);
    let out = 0;
    let offset = 0;
    let pieceStart = 0;
    try {
      for await (const chunk of input) {
        for (let at = 0; at < chunk.length && !ended; ) {
          const size = carefulFrom !== undefined && offset + at + PIECE > carefulFrom ? 1 : PIECE;
          pieceStart = offset + at;
          await write(chunk.subarray(at, at + size));
          at += size;
          while (queue.length > 0) {
            const next = queue.shift() as Buffer;
            out += next.length;
            yield next;
          }
        }
        offset += chunk.length;
        if (ended) break;
      }
      if (!ended) gunzip.end();
      await finished;
      while (queue.length > 0) {
        const next = queue.shift() as Buffer;
        out += next.length;
        yield next;
      }
      if (failure !== undefined) {
        // zlib checks a member's header only there; after output, that is the end of the gzip data.
        // zlib drops the output of the write that met them, so the caller may need to read again.
        const afterEnd = /incorrect header check|unknown compression method/.test(String(failure));
        if (out > 0 && afterEnd) {
          note('ignored bytes after the end of the gzip data');
          if (carefulFrom === undefined) endedEarly?.(pieceStart);
          return;
        }
        // The whole gzip data and the bytes after it fit in the piece that failed, whose output zlib
        // dropped: ask for a careful read from that piece, which tells garbage from a corrupt member.
        if (afterEnd && carefulFrom === undefined) endedEarly?.(pieceStart);
        throw failure;
      }
    } finally {
      gunzip.destroy();
    }
  },
};
