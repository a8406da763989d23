/**
 * The built CLI run as a user runs it (a child process of bin/atlevel.js), for tests of exit codes
 * and of what reaches stdout and stderr. `npm test` builds first (pretest).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { projectRoot } from './fixtures.js';

export const bin = join(projectRoot, 'bin/atlevel.js');

export function atlevel(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** As `atlevel`, with `input` piped to its standard input (for `-`). */
export function atlevelPiped(
  input: string | Buffer,
  ...args: string[]
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input, timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A usage error as the project promises it: exit 2, nothing on stdout, one `atlevel: ` line matching `message`. */
export function expectUsageError(args: string[], message: RegExp): void {
  const r = atlevel(...args);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toEqual([expect.stringMatching(/^atlevel: /)]);
  expect(lines[0]).toMatch(message);
}

/**
 * stderr without the `atlevel: note: ...` lines analyze prints on how it read the inputs (issue 42:
 * notes go to stderr, never into the report): what is left is what a test asking for a quiet run means.
 */
export function withoutNotes(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !l.startsWith('atlevel: note: '))
    .join('\n');
}
