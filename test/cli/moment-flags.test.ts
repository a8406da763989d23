/**
 * The flags that name a moment (`status --at`/`--now`, `serve --at`, `diff --pool --at`) take an
 * RFC 3339 time and nothing else, refused alike everywhere: Date.parse read `-1` as 2001-01-01 and
 * `2021-02-30` as March 2nd, so a wrong value used to be assessed (or blamed on the inputs' span).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevel, expectUsageError } from '../helpers/spawn-cli.js';

const BUG = join(projectRoot, 'examples/bug-2019850');

const COMMANDS: readonly [string, string[]][] = [
  ['status --at', ['status', BUG, '--at']],
  ['status --now', ['status', BUG, '--now']],
  ['serve --at', ['serve', BUG, '--at']],
  ['diff --pool --at', ['diff', '--pool', 'master', '--from', BUG, '--at']],
];

describe.each(COMMANDS)('%s', (name, args) => {
  const flag = name.split(' ').at(-1) as string;

  it('refuses a bare negative number, naming the flag and the value', () => {
    expectUsageError(
      [...args, '-1'],
      new RegExp(`^atlevel: ${flag} "-1" is not a time: give an RFC 3339 time`),
    );
  });

  it('refuses a time with no zone, a day that does not exist, and a word', () => {
    expectUsageError(
      [...args, '2021-11-03T03:30:00'],
      new RegExp(`${flag} "2021-11-03T03:30:00" .*no time zone`),
    );
    expectUsageError(
      [...args, '2021-02-30T00:00:00Z'],
      new RegExp(`${flag} "2021-02-30T00:00:00Z" is not a time: there is no such date or time$`),
    );
    expectUsageError([...args, 'foo 1'], new RegExp(`${flag} "foo 1" is not a time`));
  });
});

describe('a moment in another zone is the same moment', () => {
  it('status --at 04:26:00+01:00 is status --at 03:26:00Z', () => {
    const utc = atlevel('status', BUG, '--at', '2021-11-03T03:26:00Z', '-o', 'json');
    const paris = atlevel('status', BUG, '--at', '2021-11-03T04:26:00+01:00', '-o', 'json');
    expect(utc.code).toBe(1);
    expect(JSON.parse(paris.stdout).evaluatedAt).toBe('2021-11-03T03:26:00Z');
    expect(paris.stdout).toBe(utc.stdout);
  });
});
