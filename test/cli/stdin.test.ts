/**
 * `-` reads standard input where a command reads one file whole (release info, release diff), is
 * refused in one line where a command does not read it (diff, ingest), and is taken once at most.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

const bin = join(projectRoot, 'bin/atlevel.js');
const releases = join(projectRoot, 'examples/bug-2019850/release');
const to = readFileSync(join(releases, 'release-to.json'), 'utf8');

function atlevel(input: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input, timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function refused(input: string, args: string[], message: RegExp): void {
  const r = atlevel(input, ...args);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(message)]);
}

describe('- as a release file', () => {
  it('release info - reads the release from stdin', () => {
    const r = atlevel(to, 'release', 'info', '-', '--image-for', 'pod');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/@sha256:0adaefcf3675/);
  });
  it('release diff takes one side from stdin', () => {
    const r = atlevel(to, 'release', 'diff', join(releases, 'release-from.json'), '-');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/8 changed/);
  });
  it('names stdin in its errors', () => {
    refused('hello', ['release', 'info', '-'], /^atlevel: \(stdin\): not a release payload/);
    refused('', ['release', 'info', '-'], /^atlevel: \(stdin\): empty input/);
  });
});

describe('- where it cannot be read', () => {
  it('given twice', () => {
    refused(to, ['release', 'diff', '-', '-'], /^atlevel: - \(standard input\) was given twice/);
    refused('', ['analyze', '-', '-'], /^atlevel: - \(standard input\) was given twice/);
  });
  it('by diff and ingest', () => {
    refused('', ['diff', '-', '-'], /^atlevel: reading stdin is not supported by diff; /);
    refused('', ['ingest', '-'], /^atlevel: reading stdin is not supported by ingest; /);
  });
});
