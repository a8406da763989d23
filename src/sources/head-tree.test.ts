import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadTree, MAX_DEPTH } from './head-tree.js';

/** Strings from few pieces: shared prefixes, prefixes of each other, characters on either side of 0x7f and 0xffff. */
const piece = fc.constantFrom(
  '',
  'a',
  'b',
  'ab',
  'clusteroperator/',
  'x-1',
  'x-2',
  ' ',
  '\u0000',
  'é',
  '\uffff',
  '😀',
);
const key = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));

describe('HeadTree', () => {
  it('finds what a Map keyed by the slice finds, for any keys and any slices', () => {
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 30 }),
        fc.array(fc.tuple(key, key, key), { maxLength: 30 }),
        (keys, queries) => {
          const tree = new HeadTree<number>();
          const map = new Map<string, number>();
          keys.forEach((k, i) => {
            expect(tree.add(k, i)).toBe(true);
            if (!map.has(k)) map.set(k, i);
          });
          expect(tree.size).toBe(map.size);
          // Each key, and arbitrary strings, looked up inside a longer text.
          const inside = keys.map((k): [string, string, string] => ['<', k, '>']);
          for (const [before, middle, after] of [...inside, ...queries]) {
            const text = `${before}${middle}${after}`;
            const from = before.length;
            expect(tree.get(text, from, from + middle.length)).toBe(map.get(middle));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('refuses keys deeper than MAX_DEPTH and never finds a wrong one', () => {
    // Each key a prefix of the next: every key hangs one branch below the one before.
    const tree = new HeadTree<number>();
    const added = new Map<string, number>();
    for (let n = 1; n <= 3 * MAX_DEPTH; n++) {
      const k = 'a'.repeat(n);
      if (tree.add(k, n)) added.set(k, n);
    }
    expect(added.size).toBeGreaterThan(MAX_DEPTH / 2);
    expect(added.size).toBeLessThan(3 * MAX_DEPTH);
    expect(tree.size).toBe(added.size);
    for (let n = 0; n <= 3 * MAX_DEPTH + 1; n++) {
      const text = `x${'a'.repeat(n)}y`;
      const found = tree.get(text, 1, n + 1);
      // Found: the right one. Not found: refused when added, or too deep to reach now.
      if (found !== undefined) expect(found).toBe(n);
      else if (added.has('a'.repeat(n))) expect(n).toBeGreaterThan(MAX_DEPTH / 2);
    }
  });
});
