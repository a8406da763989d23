/**
 * Text on its way into PostgreSQL (issue 38): NUL and lone surrogates become U+FFFD in every string of
 * a JSON parameter, keys included, and in plain string parameters; well-formed text, astral
 * characters included, is left as it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pgJson, pgParams } from '../../src/store/text.js';

const unsafe = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

describe('pgJson and pgParams', () => {
  it('replace NUL and lone surrogates, in values and keys', () => {
    const json = pgJson([{ pool: 'wor\u0000ker\udc00', 'k\ud800': ['x\ud800y', 'ok 😀'] }]);
    expect(json).not.toMatch(unsafe);
    expect(JSON.parse(json)).toEqual([{ pool: 'wor\uFFFDker\uFFFD', 'k\uFFFD': ['x\uFFFDy', 'ok 😀'] }]);
    expect(pgParams(['a\u0000', 1, null, '\udfff\ud800'])).toEqual(['a\uFFFD', 1, null, '\uFFFD\uFFFD']);
  });

  it('leave nothing PostgreSQL refuses in any string, and change no well-formed one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (any, wellFormed) => {
        expect(pgJson({ any })).not.toMatch(unsafe);
        expect(JSON.parse(pgJson({ any })).any).toHaveLength(any.length);
        if (!wellFormed.includes('\u0000')) expect(JSON.parse(pgJson([wellFormed]))).toEqual([wellFormed]);
      }),
    );
  });
});
