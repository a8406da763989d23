/** The text reporters' toolkit (src/report/text.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colours, plural, table, visibleLength, wrap } from '../../src/report/text.js';

describe('plural', () => {
  it('says 1 file, 2 files, 0 files, and takes an irregular plural', () => {
    expect([plural(1, 'file'), plural(2, 'file'), plural(0, 'file')]).toEqual([
      '1 file',
      '2 files',
      '0 files',
    ]);
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });
});

describe('wrap', () => {
  const words = fc.array(fc.stringMatching(/^[a-z:/.@-]{1,30}$/), { minLength: 1, maxLength: 30 });
  it('keeps every word whole and in order, and lines within the width unless one word is wider', () => {
    fc.assert(
      fc.property(
        words,
        fc.integer({ min: 10, max: 80 }),
        fc.integer({ min: 0, max: 6 }),
        (ws, width, indent) => {
          const lines = wrap(ws.join(' '), width, indent);
          expect(lines.join(' ').split(/ +/).filter(Boolean)).toEqual(ws);
          for (const [i, line] of lines.entries()) {
            if (visibleLength(line) > width) expect(line.trim().includes(' ')).toBe(false);
            if (i > 0) expect(line.startsWith(' '.repeat(indent))).toBe(true);
          }
        },
      ),
    );
  });
  it('keeps runs of spaces inside a line and does not count colour escapes', () => {
    expect(wrap('OK  the pool  rolled', 80)).toEqual(['OK  the pool  rolled']);
    const c = colours(true);
    expect(wrap(`${c.red('aaaa')} bbbb`, 9)).toEqual([`${c.red('aaaa')} bbbb`]);
    expect(wrap('aaaa bbbb cccc', 9, 2)).toEqual(['aaaa bbbb', '  cccc']);
  });
});

describe('table', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      table(
        [
          ['a', 'bb', 'x'],
          ['ccc', 'd', 'y'],
        ],
        2,
      ),
    ).toEqual(['  a    bb  x', '  ccc  d   y']);
  });
});
