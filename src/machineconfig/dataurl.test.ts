import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DataUrlError, decodeDataUrl, decompress, encodeDataUrl, percentDecode } from './dataurl.js';

const MIB = 1024 * 1024;

describe('decodeDataUrl', () => {
  it('decodes the percent-encoded form the MCO templates emit', () => {
    // From MCO pkg/server/testdata/machine-configs/test-config.yaml (/etc/coreos/update.conf).
    const d = decodeDataUrl(
      'data:,GROUP%3Dstable%0ASERVER%3Dhttp%3A%2F%2Flocalhost%3A32003%2Fv1%2Fupdate%0A',
    );
    expect(d.base64).toBe(false);
    expect(d.mediaType).toBe('text/plain;charset=US-ASCII');
    expect(d.bytes.toString('utf8')).toBe('GROUP=stable\nSERVER=http://localhost:32003/v1/update\n');
  });

  it('decodes an empty data URL to no bytes', () => {
    expect(decodeDataUrl('data:,').bytes.length).toBe(0);
  });

  it('decodes base64 with a media type and charset', () => {
    const d = decodeDataUrl('data:text/plain;charset=utf-8;base64,aGVsbG8gd29ybGQK');
    expect(d.base64).toBe(true);
    expect(d.mediaType).toBe('text/plain;charset=utf-8');
    expect(d.bytes.toString()).toBe('hello world\n');
  });

  it('keeps non-UTF-8 bytes as bytes', () => {
    expect([...decodeDataUrl('data:,%FF%00%C3%A9').bytes]).toEqual([0xff, 0x00, 0xc3, 0xa9]);
  });

  it('refuses a data URL without a comma', () => {
    expect(() => decodeDataUrl('data:text/plain;base64')).toThrow(/no "," between/);
  });

  it('refuses a broken percent escape, saying where', () => {
    expect(() => decodeDataUrl('data:,abc%G1')).toThrow('invalid percent escape "%G1" at offset 3');
    expect(() => decodeDataUrl('data:,abc%4')).toThrow(DataUrlError);
  });

  it('refuses base64 with characters base64 cannot have', () => {
    expect(() => decodeDataUrl('data:;base64,aGVs*bG8=')).toThrow(/base64 data/);
    expect(() => decodeDataUrl('data:;base64,aGVsb')).toThrow(/base64 data/);
  });

  it('refuses something that is not a data URL', () => {
    expect(() => decodeDataUrl('https://example.com/x')).toThrow(/not a data URL/);
  });

  it('round-trips any bytes through the percent and base64 forms', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.boolean(), (bytes, base64) => {
        const url = encodeDataUrl(bytes, { base64 });
        expect([...decodeDataUrl(url).bytes]).toEqual([...bytes]);
      }),
    );
  });

  it('round-trips any text, including multi-byte characters, through the percent form', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(percentDecode(encodeDataUrl(Buffer.from(text)).slice('data:,'.length)).toString('utf8')).toBe(
          text,
        );
      }),
    );
  });
});

describe('decompress', () => {
  it('inflates gzip contents', () => {
    const text = 'kernel.panic = 10\n'.repeat(100);
    expect(decompress(gzipSync(text), 'gzip', MIB).toString()).toBe(text);
  });

  it('refuses an unknown compression', () => {
    expect(() => decompress(Buffer.from('x'), 'zstd', MIB)).toThrow('unsupported compression "zstd"');
  });

  it('refuses gzip that does not inflate', () => {
    expect(() => decompress(Buffer.from('not gzip at all, not at all'), 'gzip', MIB)).toThrow(
      /do not inflate/,
    );
  });

  it('refuses uncompressed contents over the cap', () => {
    expect(() => decompress(Buffer.alloc(2048), undefined, 1024)).toThrow(
      '2048 bytes, over the 1024-byte cap',
    );
  });

  it('refuses a gzip stream whose trailer declares more than the cap, without inflating it', () => {
    const member = gzipSync(Buffer.alloc(MIB));
    // 10 GiB declared (ISIZE is the size modulo 4 GiB: 10 GiB mod 4 GiB = 2 GiB).
    member.writeUInt32LE((10 * 1024 * MIB) % 2 ** 32, member.length - 4);
    expect(() => decompress(member, 'gzip', 64 * MIB)).toThrow(
      /declare 2147483648 bytes.*refused without inflating/,
    );
  });

  it('stops a 10 GiB gzip bomb at the cap', () => {
    // 160 concatenated gzip members of 64 MiB of zeros each: 10 GiB once inflated, about 10 MB here.
    // (The memory bound is measured in a separate process, in test/machineconfig/bomb.test.ts.)
    const member = gzipSync(Buffer.alloc(64 * MIB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 160 }, () => member));
    expect(bomb.length).toBeLessThan(15 * MIB);
    expect(() => decompress(bomb, 'gzip', 64 * MIB)).toThrow(/expand past the 67108864-byte cap/);
  });
});
