/** Digests as users type them: in full, as atlevel prints them (shortened), or as bare hex. */
import { describe, expect, it } from 'vitest';
import type { ReleasePayload } from '../../src/model/history.js';
import { ComponentIndex, digestPrefixOf, shortDigestPrefix } from '../../src/release/components.js';

const hex = (c: string, tail: string) => c.repeat(64 - tail.length) + tail;
const A = `sha256:${hex('a', '01')}`;
const B = `sha256:${hex('a', '02')}`; // shares 62 digits with A
const C = `sha256:${hex('c', '')}`;
const payload = {
  version: '4.10.0',
  components: [
    { name: 'pod', pullSpec: `quay.io/x@${A}` },
    { name: 'cli', pullSpec: `quay.io/x@${B}` },
    { name: 'console', pullSpec: `quay.io/x@${C}` },
  ],
} as unknown as ReleasePayload;
const index = new ComponentIndex([payload]);
const names = (ref: string) => index.lookup(ref).map((m) => m.component.name);

describe('digest prefixes', () => {
  it('accepts the full digest, the printed prefix with or without the ellipsis, and bare hex', () => {
    for (const ref of [
      C,
      `quay.io/y@${C}`,
      'sha256:cccccccccccc…',
      'sha256:cccccccccccc',
      'cccccccccccc',
      'CCCCCCCCCCCCCC...',
      'SHA256:CCCCCCCCCCCC',
      ` ${C}\t`,
    ])
      expect(names(ref), ref).toEqual(['console']);
  });
  it('refuses fewer than 12 hex digits', () => {
    expect(digestPrefixOf('ccccccccccc')).toBeUndefined();
    expect(names('sha256:ccccccccccc…')).toEqual([]);
  });
  it('finds nothing for an ambiguous prefix, and names every digest it matches', () => {
    const prefix = `sha256:${'a'.repeat(20)}…`;
    expect(names(prefix)).toEqual([]);
    expect(index.digestsStartingWith(prefix)).toEqual([A, B]);
    expect(names(A.slice(0, 71))).toEqual(['pod']);
  });
});

describe('what is not a digest', () => {
  it('a full digest with more after it is mistyped, not the image of its first 64 digits', () => {
    expect(names(`${C}0`)).toEqual([]);
    expect(names(`quay.io/y@${C}x`)).toEqual([]);
  });
  it('a digest prefix too short to take says how many digits it has', () => {
    expect(shortDigestPrefix('ef')).toBe(2);
    expect(shortDigestPrefix('sha256:0adaefcf367…')).toBe(11);
    expect(shortDigestPrefix(' SHA256:AB... ')).toBe(2);
    expect(shortDigestPrefix('…')).toBe(0);
    // Long enough, or no digest's shape: looked up as they are.
    for (const ref of ['0adaefcf3675', 'sha256:0adaefcf3675…', 'quay.io/x:ef', 'pod', ''])
      expect(shortDigestPrefix(ref), ref).toBeUndefined();
  });
});
