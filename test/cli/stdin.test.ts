/**
 * `-` reads standard input where a command reads one file whole (release info, release diff,
 * --release-from/--release-to), is refused in one line where a command does not read it (diff,
 * ingest), and is taken once at most, counting inputs and flags together.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevelPiped as atlevel } from '../helpers/spawn-cli.js';

const run = join(projectRoot, 'examples/bug-2019850');
const releases = join(run, 'release');
const from = readFileSync(join(releases, 'release-from.json'), 'utf8');
const to = readFileSync(join(releases, 'release-to.json'), 'utf8');

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

describe('- as --release-from or --release-to', () => {
  /** The analysis's inputs that are releases given by flag, as analyze -o json lists them. */
  const releaseInputs = (stdout: string) =>
    (JSON.parse(stdout) as { inputs: { path: string; reader: string; contributed: string }[] }).inputs
      .filter((i) => i.reader === 'release')
      .map((i) => [i.path, i.contributed]);

  it('analyze --release-from - reads the release from stdin', () => {
    const r = atlevel(from, 'analyze', run, '--release-from', '-', '-o', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(releaseInputs(r.stdout)).toEqual([
      ['(stdin)', 'release 4.10.0-0.nightly-2021-11-02-191632 (23 components), given as --release-from'],
    ]);
  });
  it('analyze --release-to - reads the release from stdin, beside a --release-from file', () => {
    const r = atlevel(
      to,
      'analyze',
      run,
      '--release-from',
      join(releases, 'release-from.json'),
      '--release-to',
      '-',
      '-o',
      'json',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(releaseInputs(r.stdout)).toEqual([
      [join(releases, 'release-from.json'), expect.stringMatching(/given as --release-from$/)],
      ['(stdin)', 'release 4.10.0-0.nightly-2021-11-03-020416 (23 components), given as --release-to'],
    ]);
  });
  it('names stdin in its errors', () => {
    refused('', ['analyze', run, '--release-to', '-'], /^atlevel: \(stdin\): empty input/);
    refused('{}', ['analyze', run, '--release-from', '-'], /^atlevel: \(stdin\): not a release payload/);
  });
  it('is read once, counting the inputs and both flags', () => {
    refused(
      to,
      ['analyze', '-', '--release-from', '-'],
      /^atlevel: - \(standard input\) was given twice \(as an input and to --release-from\); /,
    );
    refused(
      to,
      ['analyze', run, '--release-from', '-', '--release-to', '-'],
      /^atlevel: - \(standard input\) was given twice \(to --release-from and to --release-to\); /,
    );
    refused(
      to,
      ['report', '-', '--release-to', '-', '--out', join(projectRoot, 'never-written.html')],
      /^atlevel: - \(standard input\) was given twice \(as an input and to --release-to\); /,
    );
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
