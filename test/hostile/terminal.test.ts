/**
 * Issue 10, case 5: every string from an input passes one sanitiser (src/model/terminal.ts) before a
 * terminal sees it. This checks the function, and that no second copy of it grows back in src/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printable, terminalSafe } from '../../src/model/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('the one terminal sanitiser', () => {
  it('leaves no ESC, CSI, OSC, BEL, C1 or bidi control in any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(UNSAFE.test(terminalSafe(s))).toBe(false);
        expect(UNSAFE.test(printable(s))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps tabs, newlines and ordinary text', () => {
    expect(terminalSafe('a\tb\nc é ✓')).toBe('a\tb\nc é ✓');
    expect(terminalSafe('x\u001b]0;PWNED\u0007\u009b2J\u202e')).toBe('x?]0;PWNED??2J?');
  });

  it('is the only control-character filter in src/ (reporters and the CLI call it)', () => {
    const copies = sources(join(ROOT, 'src'))
      .filter((f) => !f.endsWith(join('model', 'terminal.ts')))
      // XML 1.0 cannot carry most C0 characters at all: a format rule, not a terminal one.
      .filter((f) => !f.endsWith(join('report', 'analyze-junit.ts')))
      .filter((f) => /\\u001f|\\x1f|\\u009f|\\x9f/i.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(copies).toEqual([]);
  });
});
