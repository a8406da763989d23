/**
 * `-` reads standard input where a command reads one file whole (release info, release diff,
 * --release-from/--release-to), is refused in one line where a command does not read it (diff,
 * ingest), and is taken once at most, counting inputs and flags together.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevelPiped as atlevel, withoutNotes } from '../helpers/spawn-cli.js';

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
    expect(r.stdout).toMatch(/7 changed/);
  });
  it('names stdin in its errors', () => {
    refused('hello', ['release', 'info', '-'], /^atlevel: \(stdin\): not a release payload/);
    refused('', ['release', 'info', '-'], /^atlevel: \(stdin\): empty input/);
  });
  it('blank lines on stdin are empty input too, for a release and for an input', () => {
    refused(' \n\t\r\n', ['release', 'info', '-'], /^atlevel: \(stdin\): empty input/);
    refused('\n\n', ['analyze', '-'], /^atlevel: \(stdin\): empty input/);
  });
});

describe('how reports name standard input: (stdin), never ((stdin)) nor -', () => {
  const fromFile = join(releases, 'release-from.json');
  it('release info, as text and as JSON', () => {
    const text = atlevel(to, 'release', 'info', '-');
    expect(text.stdout.split('\n')[0]).toMatch(/^4\.10\.0-0\.nightly-2021-11-03-020416 \S+ \(stdin\)$/);
    const json = JSON.parse(atlevel(to, 'release', 'info', '-', '-o', 'json').stdout) as { file: string };
    expect(json.file).toBe('(stdin)');
  });
  it('release info --image-for and --component-for when nothing matches', () => {
    for (const lookup of [
      ['--image-for', 'nope'],
      ['--component-for', 'sha256:000000000000'],
    ]) {
      const r = atlevel(to, 'release', 'info', '-', ...lookup);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/ in release 4\.10\.0-0\.nightly-2021-11-03-020416 \(stdin\)\n$/);
    }
  });
  it('release diff, as text and as JSON', () => {
    // Wider than a pipe's 200 columns, the `from` line (an absolute path) wraps: the `to` line is found.
    const text = atlevel(to, 'release', 'diff', fromFile, '-');
    expect(text.stdout.split('\n').find((l) => l.startsWith('to '))).toMatch(
      /^to {3}4\.10\.0-0\.nightly-2021-11-03-020416, \S+ \(stdin, 44 components\)$/,
    );
    const json = JSON.parse(atlevel(to, 'release', 'diff', fromFile, '-', '-o', 'json').stdout) as {
      to: { file: string };
    };
    expect(json.to.file).toBe('(stdin)');
  });
  it("analyze's note on a --release-to - set aside", () => {
    // The wrong release for the slot, while the inputs hold the right one: a note names both.
    const r = atlevel(from, 'analyze', run, '--release-to', '-', '-o', 'json');
    const notes = (JSON.parse(r.stdout) as { notes: string[] }).notes.filter((n) =>
      n.startsWith('--release-to'),
    );
    expect(notes).toEqual([
      expect.stringMatching(/^--release-to 4\.10\.0-0\.nightly-2021-11-02-191632 \(stdin\) not used: /),
    ]);
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
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.code).toBe(1);
    expect(releaseInputs(r.stdout)).toEqual([
      ['(stdin)', 'release 4.10.0-0.nightly-2021-11-02-191632 (44 components), given as --release-from'],
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
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.code).toBe(1);
    expect(releaseInputs(r.stdout)).toEqual([
      [join(releases, 'release-from.json'), expect.stringMatching(/given as --release-from$/)],
      ['(stdin)', 'release 4.10.0-0.nightly-2021-11-03-020416 (44 components), given as --release-to'],
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

describe('diff --release-from -', () => {
  // Two single MachineConfig files (diff A B, not names in a --from List).
  const tmp = mkdtempSync(join(tmpdir(), 'atlevel-stdin-diff-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const list = JSON.parse(
    readFileSync(join(projectRoot, 'test/fixtures/machineconfig/bug-2019850-machineconfigs.json'), 'utf8'),
  ) as { items: { metadata: { name: string } }[] };
  const [a, b] = [
    'rendered-master-78d48a9fbc8ba6a746040c11f8335d1a',
    'rendered-master-ebc4fc8c7b6a155d86684204394e4930',
  ].map((name) => {
    const file = join(tmp, `${name}.json`);
    writeFileSync(file, JSON.stringify(list.items.find((i) => i.metadata.name === name)));
    return file;
  }) as [string, string];

  it('of two MachineConfig files reads the release from stdin', () => {
    const r = atlevel(from, 'diff', a, b, '--release-from', '-', '-o', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { releases: { from: { version: string; file: string } } };
    expect(doc.releases.from).toMatchObject({
      version: '4.10.0-0.nightly-2021-11-02-191632',
      file: '(stdin)',
    });
  });
  it('is read once', () => {
    refused(
      from,
      ['diff', a, b, '--release-from', '-', '--release-to', '-'],
      /^atlevel: - \(standard input\) was given twice \(to --release-from and to --release-to\); /,
    );
  });
});

describe('status -', () => {
  it('names standard input as (stdin) when it lacks what status needs', () => {
    const clusterVersion = readFileSync(
      join(run, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/clusterversion.json'),
      'utf8',
    );
    refused(clusterVersion, ['status', '-'], /^atlevel: \(stdin\): no ClusterOperators found /);
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
