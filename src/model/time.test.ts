import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMoment, parseTime } from './time.js';

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

describe('parseMoment (a moment given on the command line)', () => {
  const at = (text: string) => {
    const m = parseMoment(text);
    return 'at' in m ? m.at : m.problem;
  };

  it('reads RFC 3339 times: Z or an offset, fractions, lower-case t and z, a space for the T', () => {
    expect(at('2021-11-03T03:30:00Z')).toBe(Date.UTC(2021, 10, 3, 3, 30, 0));
    expect(at('2021-11-03T04:30:00+01:00')).toBe(Date.UTC(2021, 10, 3, 3, 30, 0));
    expect(at('2021-11-02T22:00:00-05:30')).toBe(Date.UTC(2021, 10, 3, 3, 30, 0));
    expect(at('2021-11-03t03:30:00.8567z')).toBe(Date.UTC(2021, 10, 3, 3, 30, 0, 856));
    expect(at('2021-11-03 03:30:00.5Z')).toBe(Date.UTC(2021, 10, 3, 3, 30, 0, 500));
    expect(at('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    // Date.UTC would read year 0050 as 1950.
    expect(at('0050-01-01T00:00:00Z')).toBe(Date.parse('0050-01-01T00:00:00Z'));
  });

  it('refuses what Date.parse guesses at: bare numbers, words, dates, no zone, days that do not exist', () => {
    // Date.parse reads each of these first four as 2001-01-01 or 2000-01-01 (V8).
    for (const text of ['-1', '1', '0', 'foo 1', '2024', 'yesterday', '', '2021-11-03', '1636000000000']) {
      expect(at(text)).toBe('give an RFC 3339 time such as 2021-11-03T03:30:00Z');
    }
    expect(at('2021-11-03T03:30')).toBe('give an RFC 3339 time such as 2021-11-03T03:30:00Z');
    expect(at(' 2021-11-03T03:30:00Z')).toBe('give an RFC 3339 time such as 2021-11-03T03:30:00Z');
    expect(at('2021-11-03T03:30:00.Z')).toBe('give an RFC 3339 time such as 2021-11-03T03:30:00Z');
    expect(at('2021-11-03T03:30:00')).toMatch(/^it has no time zone/);
    for (const text of [
      '2021-02-29T00:00:00Z',
      '2021-02-30T00:00:00Z',
      '2021-13-01T00:00:00Z',
      '2021-00-01T00:00:00Z',
      '2021-11-00T00:00:00Z',
      '2021-11-03T24:00:00Z',
      '2021-11-03T23:60:00Z',
      '2021-11-03T23:59:60Z',
      '2021-11-03T03:30:00+24:00',
      '2021-11-03T03:30:00+01:60',
    ]) {
      expect(at(text)).toBe('there is no such date or time');
    }
  });

  it('agrees with Date.parse on every well-formed RFC 3339 time it accepts', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1000-01-01T00:00:00Z'),
          max: new Date('9998-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom('Z', '+01:00', '-05:30', '+14:00'),
        (d, zone) => {
          // The wall clock in that zone, written out as RFC 3339.
          const offset =
            zone === 'Z'
              ? 0
              : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
          const text = `${new Date(d.getTime() + offset * 60_000).toISOString().slice(0, 23)}${zone}`;
          expect(at(text)).toBe(Date.parse(text));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
