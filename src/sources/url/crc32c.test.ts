/**
 * The fast CRC32C against a bit-at-a-time reference of the same polynomial, at every alignment and
 * length (the word loop starts at a 4-byte boundary and runs 16 bytes a step), and crc32cCombine
 * against the CRC of the joined bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cBase64, crc32cCombine } from './crc32c.js';

/** CRC32C one bit at a time (RFC 3720, appendix B.4): slow and obviously right. */
function reference(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (const byte of bytes) {
    c ^= byte;
    for (let bit = 0; bit < 8; bit++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  }
  return ~c >>> 0;
}

/** `bytes` copied to start `shift` bytes into a fresh buffer: a view at any alignment. */
function shifted(bytes: Uint8Array, shift: number): Uint8Array {
  const buf = new Uint8Array(bytes.length + shift);
  buf.set(bytes, shift);
  return buf.subarray(shift);
}

describe('crc32c', () => {
  it('gives the known check values', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    // RFC 3720 B.4: 32 bytes of zeros, of 0xff, and ascending.
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    // Cloud Storage's form: base64 of the big-endian value.
    expect(crc32cBase64(0xe3069283)).toBe('4waSgw==');
  });

  it('matches the bit-at-a-time reference at every alignment and length', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        (bytes, shift, start) => {
          expect(crc32c(shifted(bytes, shift), start)).toBe(reference(bytes, start));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('continues from the CRC of the bytes before', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (a, b) => {
        const joined = new Uint8Array([...a, ...b]);
        expect(crc32c(b, crc32c(a))).toBe(crc32c(joined));
      }),
    );
  });
});

describe('crc32cCombine', () => {
  it('joins the CRCs of two pieces into the CRC of both', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.uint8Array({ maxLength: 400 }), (a, b) => {
        const joined = new Uint8Array([...a, ...b]);
        expect(crc32cCombine(crc32c(a), crc32c(b), b.length)).toBe(reference(joined));
      }),
      { numRuns: 1000 },
    );
  });

  it('joins many slices in order, as a sliced download does', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 100 }), { maxLength: 12 }), (slices) => {
        let crc = 0;
        for (const s of slices) crc = crc32cCombine(crc, crc32c(s), s.length);
        expect(crc).toBe(reference(new Uint8Array(slices.flatMap((s) => [...s]))));
      }),
    );
  });

  it('runs a CRC through lengths past 2^31 bytes of zeros', () => {
    // Zeros appended to nothing leave a CRC of zeros: combine(0, crc(Z), |Z|) is crc(Z), whatever |Z|.
    const zeros = crc32c(new Uint8Array(1 << 16));
    expect(crc32cCombine(0, zeros, 1 << 16)).toBe(zeros);
    // 2^32 + 1 zero bytes after "a": splitting the length must give the same as combining in two steps.
    const a = crc32c(Buffer.from('a'));
    const big = 2 ** 32 + 1;
    const once = crc32cCombine(a, 0, big);
    const twice = crc32cCombine(crc32cCombine(a, 0, 2 ** 31), 0, 2 ** 31 + 1);
    expect(once).toBe(twice);
    expect(once).not.toBe(crc32cCombine(a, 0, 2 ** 32));
  });
});
