import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectorMatches } from '../../src/status/selector.js';

const labels = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'role', 'zone'), fc.constantFrom('', 'x', 'y'));

describe('label selectors', () => {
  it('matchLabels matches exactly the label sets that contain it', () => {
    fc.assert(
      fc.property(labels, labels, (wanted, have) => {
        const contains = Object.entries(wanted).every(([k, v]) => have[k] === v);
        const nonEmpty = Object.keys(wanted).length > 0;
        expect(selectorMatches({ matchLabels: wanted }, have)).toBe(nonEmpty && contains);
      }),
    );
  });

  it('In and NotIn are complements, Exists and DoesNotExist too', () => {
    fc.assert(
      fc.property(
        labels,
        fc.constantFrom('a', 'b', 'zone'),
        fc.array(fc.constantFrom('', 'x', 'y')),
        (have, key, values) => {
          const inSel = selectorMatches({ matchExpressions: [{ key, operator: 'In', values }] }, have);
          const notIn = selectorMatches({ matchExpressions: [{ key, operator: 'NotIn', values }] }, have);
          expect(inSel).toBe(!notIn);
          const exists = selectorMatches({ matchExpressions: [{ key, operator: 'Exists' }] }, have);
          const absent = selectorMatches({ matchExpressions: [{ key, operator: 'DoesNotExist' }] }, have);
          expect(exists).toBe(!absent);
          expect(exists).toBe(Object.hasOwn(have, key));
        },
      ),
    );
  });

  it('a missing, empty or invalid selector selects nothing', () => {
    expect(selectorMatches(undefined, { a: 'x' })).toBe(false);
    expect(selectorMatches({}, { a: 'x' })).toBe(false);
    expect(
      selectorMatches({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, { a: '2' }),
    ).toBe(false);
  });
});
