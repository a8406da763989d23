import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTime } from './time.js';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

describe('parseTime', () => {
  it('agrees with Date.parse on RFC 3339 stamps, including out-of-range fields and other zones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.integer({ min: 0, max: 61 }),
        fc.option(fc.stringMatching(/^[0-9]{0,7}$/)),
        fc.constantFrom('Z', 'z', '+01:00', '-05:30', ''),
        (y, mo, d, h, mi, s, frac, zone) => {
          const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac === null ? '' : `.${frac}`}${zone}`;
          const want = Date.parse(text);
          expect(parseTime(text)).toBe(Number.isNaN(want) ? undefined : want);
        },
      ),
      { numRuns: 20000 },
    );
  });

  it('reads the common forms, rolls a day past the month end over as Date does, and rejects junk', () => {
    expect(parseTime('2021-11-03T03:23:09Z')).toBe(Date.UTC(2021, 10, 3, 3, 23, 9));
    expect(parseTime('2021-11-03T03:23:09.8567Z')).toBe(Date.UTC(2021, 10, 3, 3, 23, 9, 856));
    expect(parseTime('2021-02-30T00:00:00Z')).toBe(Date.parse('2021-02-30T00:00:00Z'));
    expect(parseTime('2021-11-03T03:23:09.Z')).toBe(undefined);
    expect(parseTime('2021-11-03T03:2x:09Z')).toBe(undefined);
    expect(parseTime('')).toBe(undefined);
    expect(parseTime(null)).toBe(undefined);
  });
});
