/**
 * A flag that would do nothing where it was given is refused (exit 2, one line naming the flag it
 * needs), never silently ignored; a flag a command offers does what its help says.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

const bin = join(projectRoot, 'bin/atlevel.js');
const example = join(projectRoot, 'examples/bug-2019850');
const release = join(example, 'release/release-to.json');

function atlevel(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function refused(args: string[], message: RegExp): void {
  const r = atlevel(...args);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^atlevel: /);
  expect(lines[0]).toMatch(message);
}

describe('flags that would be ignored are refused', () => {
  it('simulate --budget without --exhaustive', () => {
    refused(['simulate', '--budget', '5'], /--budget needs --exhaustive/);
    expect(atlevel('simulate', '--budget', '5', '--exhaustive', '-o', 'json').code).not.toBe(2);
  });
  it('serve --speed and --start-after without --replay (refused before it listens)', () => {
    refused(['serve', example, '--speed', '5'], /--speed needs --replay/);
    refused(['serve', example, '--start-after', '5'], /--start-after needs --replay/);
  });
  it('release info --width with a lookup, whose answer is never wrapped', () => {
    refused(['release', 'info', release, '--image-for', 'pod', '--width', '40'], /--width .* --image-for/);
    refused(
      ['release', 'info', release, '--component-for', 'sha256:0adaefcf3675', '--width', '40'],
      /--width .* --component-for/,
    );
  });
  it('status and serve do not offer the data: URL and diff-time limits they would not apply', () => {
    refused(['status', example, '--max-data-url', '1'], /unknown option '--max-data-url'/);
    refused(['serve', example, '--max-diff-time', '1s'], /unknown option '--max-diff-time'/);
  });
});

describe('the budget flags analyze offers apply to its cause-chain diffs', () => {
  it('--max-data-url and --max-data-url-total stop the diff of the rendered configs', () => {
    refused(['analyze', example, '--max-data-url', '1'], /limit of 1 byte \(raise it with --max-data-url /);
    refused(['analyze', example, '--max-data-url-total', '1'], /raise it with --max-data-url-total /);
    expect(atlevel('analyze', example, '--max-data-url', '1GiB', '--brief').code).toBe(1);
  });
});

describe('simulate --artifacts and --out agree on a missing parent folder', () => {
  it('both refuse it, and create nothing', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'atlevel-parent-')), 'no', 'such');
    refused(['simulate', '--artifacts', join(missing, 'run')], /the folder it goes in does not exist/);
    refused(['simulate', '--out', join(missing, 'x')], /cannot write the output file \(ENOENT\)/);
    expect(existsSync(join(missing, '..'))).toBe(false);
  });
});
