/**
 * Usage errors: exit 2 and one line on stderr that says what to run instead; `atlevel help` finds
 * any command, subcommands too; a command group without its command is a usage error.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevel, bin, expectUsageError } from '../helpers/spawn-cli.js';

describe('atlevel help', () => {
  it('of a command that does not exist is a usage error', () => {
    expectUsageError(
      ['help', 'nosuch'],
      /^atlevel: unknown command nosuch \(run atlevel --help for usage\)$/,
    );
    expectUsageError(
      ['help', 'release', 'nosuch'],
      /unknown command release nosuch \(run atlevel release --help/,
    );
  });
  it('of a subcommand shows that subcommand', () => {
    const r = atlevel('help', 'release', 'diff');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: atlevel release diff /);
  });
  it('alone shows the commands, help among them', () => {
    const r = atlevel('help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}help \[command\.\.\.\] /m);
  });
});

describe('a command group without its command', () => {
  for (const args of [[], ['release'], ['cache']]) {
    it(`atlevel ${args.join(' ')} prints its help to stderr and exits 2`, () => {
      const r = atlevel(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^Usage: ${['atlevel', ...args].join(' ')} `));
    });
  }
});

describe("commander's own errors", () => {
  it('are one line, the hint naming the help of the command that failed', () => {
    expectUsageError(
      ['release', 'nosuch'],
      /unknown command 'nosuch' \(run atlevel release --help for usage\)$/,
    );
    expectUsageError(
      ['analyze', '--bogus'],
      /unknown option '--bogus' \(run atlevel analyze --help for usage\)$/,
    );
    expectUsageError(
      ['release', 'diff', 'a'],
      /missing required argument 'to' \(run atlevel release diff --help/,
    );
  });
});

describe('paths and a live cluster', () => {
  const example = join(projectRoot, 'examples/bug-2019850');
  it('name the live-cluster flag actually given', () => {
    expectUsageError(['analyze', example, '--context', 'foo'], /give input paths or --context, not both/);
    expectUsageError(['status', example, '--kubeconfig', 'kc'], /give input paths or --kubeconfig, not both/);
    expectUsageError(['analyze', example, '--live'], /give input paths or --live, not both/);
  });

  it('neither is a usage error that says what to give, and an empty path is named as one', () => {
    for (const command of ['analyze', 'status']) {
      expectUsageError([command], /^atlevel: no input given \(expected .*--kubeconfig FILE or --live/);
      expectUsageError([command, ''], /^atlevel: an input path is empty \(""\)/);
    }
  });
});

describe('help examples', () => {
  it("serve's example names the bundled example so that it runs from any folder", () => {
    const r = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8', cwd: tmpdir() });
    const path = /Example: atlevel serve (\S+)/.exec(r.stdout)?.[1] ?? '';
    expect(isAbsolute(path) || existsSync(join(tmpdir(), path))).toBe(true);
    expect(existsSync(isAbsolute(path) ? path : join(tmpdir(), path))).toBe(true);
  });
});
