/**
 * `stats --since` reads a time as `status --at` does: a date is midnight UTC, a time needs its zone,
 * and a date that does not exist is refused rather than rolled into the next month.
 */
import { describe, expect, it } from 'vitest';
import { parseSince } from '../../src/cli/stats.js';
import { UsageError } from '../../src/model/index.js';

const NOW = Date.UTC(2026, 11, 6);

describe('stats --since', () => {
  it('takes a date, an RFC 3339 time and an age', () => {
    expect(parseSince('2021-11-01', NOW)).toBe(Date.UTC(2021, 10, 1));
    expect(parseSince('2021-11-01T12:30:00Z', NOW)).toBe(Date.UTC(2021, 10, 1, 12, 30));
    expect(parseSince('2021-11-01T13:30:00+01:00', NOW)).toBe(Date.UTC(2021, 10, 1, 12, 30));
    expect(parseSince('30d', NOW)).toBe(NOW - 30 * 86_400_000);
    expect(parseSince('12h', NOW)).toBe(NOW - 12 * 3_600_000);
  });

  it.each([
    ['2021-02-30', /there is no such date or time/],
    ['2021-11-01T24:00:00Z', /there is no such date or time/],
    ['2021-11-01T12:30:00', /no time zone/],
    ['2021-11-01T12:30', /want a date/],
    ['-1', /want a date/],
    ['yesterday', /want a date/],
  ])('refuses %j in one line naming the flag', (text, problem) => {
    expect(() => parseSince(text, NOW)).toThrow(UsageError);
    expect(() => parseSince(text, NOW)).toThrow(problem);
    expect(() => parseSince(text, NOW)).toThrow(/^--since "/);
  });
});
