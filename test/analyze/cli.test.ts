/**
 * `atlevel analyze` and `atlevel report` on the command line: exit codes from the verdict (README.md,
 * "Exit codes"), shared by `report` and `analyze -o html`; --brief with -o json refused; a release
 * file of the wrong version warned about, naming both versions.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';

const cli = inProcessCli('analyze', []);
const BUG = join(projectRoot, 'examples/bug-2019850');
const FIXED = join(projectRoot, 'examples/bug-2019850-fixed');

describe('exit codes', () => {
  it('fail 1, pass 0, --exit-zero 0 (inconclusive 4: below)', async () => {
    expect((await cli.run('analyze', BUG)).code).toBe(1);
    // The fixed example is a simulator run with its workloads: every rule that applies is checked.
    expect((await cli.run('analyze', FIXED)).code).toBe(0);
    expect(
      (await cli.run('analyze', FIXED, '--rule', 'operator-level-before-required-pool-target')).code,
    ).toBe(0);
    expect((await cli.run('analyze', BUG, '--exit-zero')).code).toBe(0);
  });

  it('report and analyze -o html exit alike', async () => {
    for (const input of [BUG, FIXED]) {
      const html = await cli.run('analyze', input, '-o', 'html');
      const report = await cli.run('report', input);
      expect(report.code).toBe(html.code);
      expect(report.out).toContain('<html');
    }
  });

  it('inconclusive exits 4 and says so', async () => {
    const { code, out } = await cli.run(
      'analyze',
      join(BUG, 'build-log.txt'),
      '--rule',
      'operator-level-before-required-pool-target',
    );
    expect(code).toBe(4);
    expect(out).toMatch(/^INCONCLUSIVE: /);
  });

  it('--brief with -o json is refused, not ignored', async () => {
    expect((await cli.run('analyze', BUG, '-o', 'json', '--brief')).code).toBe(2);
    expect(cli.stderr()).toContain('--brief');
  });

  it('a --release-from of another version warns, naming both versions', async () => {
    const { code } = await cli.run('analyze', BUG, '--release-from', join(BUG, 'release/release-to.json'));
    expect(code).toBe(1);
    expect(cli.stderr()).toContain(
      'is release 4.10.0-0.nightly-2021-11-03-020416, but the update in the inputs is from 4.10.0-0.nightly-2021-11-02-191632',
    );
  });
});

describeFixtures('a --release-to of another release', () => {
  // Neither file is the update's target: the releases found in the example keep their roles.
  it.each([
    ['openshift__release-controller/pr-740/cmd/release-controller/testdata/4.23.json'],
    ['openshift__machine-config-operator/install/image-references'],
  ])('%s does not swap the releases found in the inputs', async (file) => {
    const { code, out } = await cli.run('analyze', BUG, '--release-to', fixture(file));
    expect(code).toBe(1);
    // Notes are on stderr (issue 42), never in the report.
    expect(cli.stderr()).toContain(
      'atlevel: note: release payload 4.10.0-0.nightly-2021-11-03-020416 (' +
        join(BUG, 'release/release-to.json') +
        ') taken as the release updated to',
    );
    expect(cli.stderr()).toMatch(/release-from\.json\) taken as the release updated from/);
    expect(out).not.toContain('note:');
    expect(out).not.toContain('could not tell whether it is from or to');
    // The cause chain cites the two releases of the update, not the given file.
    expect(out).not.toContain('4.22@sha256');
    expect(cli.stderr()).toMatch(/warning: --release-to .* not used: .*release-to\.json among the inputs/);
  });
});

describeFixtures('a --release-to without a version', () => {
  it('says it carries no version, never "release unknown"', async () => {
    const mco = fixture('openshift__machine-config-operator/install/image-references');
    const { out } = await cli.run('analyze', BUG, '--release-to', mco);
    expect(cli.stderr()).toContain(
      `--release-to ${mco} carries no version; cannot check it against 4.10.0-0.nightly-2021-11-03-020416, the update's target`,
    );
    expect(`${out}${cli.stderr()}`).not.toContain('release unknown');
  });
});

describe('stdout is the report', () => {
  it('notes go to stderr with the atlevel prefix, in every format; JSON keeps its notes field', async () => {
    for (const format of ['text', 'json', 'junit', 'html']) {
      const { out } = await cli.run('analyze', BUG, '-o', format);
      expect(out, format).not.toMatch(/^note: /m);
      const notes = cli.stderr().trimEnd().split('\n');
      expect(notes.length, format).toBeGreaterThan(0);
      for (const line of notes) expect(line, format).toMatch(/^atlevel: note: /);
      expect(cli.stderr(), format).toContain(`atlevel: note: ${BUG}: read as CI run`);
      if (format === 'json') {
        const doc = JSON.parse(out) as { notes: string[] };
        expect(doc.notes.map((n) => `atlevel: note: ${n}`)).toEqual(notes);
      }
      cli.clearStderr();
    }
  });
});

describeFixtures('no update', () => {
  it('exits 0 with NO UPDATE, never PASS', async () => {
    const { code, out } = await cli.run(
      'analyze',
      fixture('openshift__must-gather-clean/test/files/extracted-subset/must-gather-aws'),
    );
    expect(code).toBe(0);
    expect(out).toMatch(/^NO UPDATE: /);
    expect(out).not.toContain('PASS');
  });
});
