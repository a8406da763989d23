/**
 * `--width` on every command's text report: a line longer than the width is one that cannot be
 * broken (a pull spec, a path or URL alone after its indent and mark), or, for `diff`, a line of a
 * file's own (a hunk line or its ---/+++ header), never prose or a header left unwrapped.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevel, withoutNotes } from '../helpers/spawn-cli.js';

const run = join(projectRoot, 'examples/bug-2019850');
const release = join(run, 'release');
const mcs = join(run, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json');
const WIDTH = 80;

/** One word after the indent, perhaps after a one-character mark (`- `, `+ `, `~ `, `✗ `). */
const UNBREAKABLE = /^ *(?:\S )?\S+$/;
/** A line of a file's own in `diff`'s hunks: indented four, then the diff mark or header. */
const HUNK = /^ {4}(?:[-+@ ]|--- |\+\+\+ )/;

function tooLong(stdout: string, fileLines = false): string[] {
  return stdout
    .split('\n')
    .filter((l) => [...l].length > WIDTH)
    .filter((l) => !UNBREAKABLE.test(l) && !(fileLines && HUNK.test(l)));
}

describe(`--width ${WIDTH}`, () => {
  it.each([
    ['analyze', [run]],
    ['status', [run, '--details', 'all']],
    ['release diff', [join(release, 'release-from.json'), join(release, 'release-to.json')]],
    ['release info', [join(release, 'release-to.json')]],
    ['simulate', []],
  ])('%s: no breakable line is longer', (command, args) => {
    const r = atlevel(...command.split(' '), ...args, '--width', String(WIDTH));
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(tooLong(r.stdout)).toEqual([]);
  });

  it('diff: the header, change lines and images wrap; the hunks keep the files’ lines', () => {
    const r = atlevel(
      'diff',
      '--pool',
      'master',
      '--from',
      mcs,
      '--release-from',
      join(release, 'release-from.json'),
      '--release-to',
      join(release, 'release-to.json'),
      '--width',
      String(WIDTH),
    );
    expect(r.code).toBe(1);
    expect(tooLong(r.stdout, true)).toEqual([]);
    // The hunk line with the old pause image is whole, as in the file.
    expect(r.stdout).toMatch(/^ {4}-pause_image = "quay\.io\/\S+"$/m);
  });

  it('release diff: a changed reference keeps its mark on its line', () => {
    const r = atlevel(
      'release',
      'diff',
      join(release, 'release-from.json'),
      join(release, 'release-to.json'),
      '--width',
      String(WIDTH),
    );
    expect(r.stdout).toMatch(/^ {4}- quay\.io\/\S+@sha256:[0-9a-f]{64}$/m);
    expect(r.stdout).not.toMatch(/^ *[-+]$/m);
  });
});
