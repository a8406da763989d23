/**
 * Usage errors: exit 2 and one line on stderr that says what to run instead; `atlevel help` finds
 * any command, subcommands too; a command group without its command is a usage error.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';
import { atlevel, bin, expectUsageError } from '../helpers/spawn-cli.js';
import { describeKubectl, KUBECTL } from '../serve/helpers.js';

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
    const path = /^ {2}atlevel serve (\S+)/m.exec(r.stdout)?.[1] ?? '';
    expect(path).not.toBe('');
    expect(isAbsolute(path) || existsSync(join(tmpdir(), path))).toBe(true);
    expect(existsSync(isAbsolute(path) ? path : join(tmpdir(), path))).toBe(true);
  });
});

describeKubectl("serve's help example", () => {
  it('runs as printed: serve in one terminal, kubectl get mcp -w in another, and the watch shows both pools', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'atlevel-serve-example-'));
    const help = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8', cwd }).stdout;
    // One command a line, each its own terminal: nothing chained after serve, which never exits.
    const lines = help.split('\n').filter((l) => /^ {2}(atlevel serve|kubectl) /.test(l));
    expect(lines.map((l) => l.trim().split(' ')[0])).toEqual(['atlevel', 'kubectl']);
    const [serveArgs, kubectlArgs] = lines.map((l) => l.trim().split(/\s+/).slice(1)) as [string[], string[]];
    expect(serveArgs.join(' ')).not.toMatch(/&&|;|\|/);
    const server = spawn(process.execPath, [bin, ...serveArgs], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let watch: ChildProcess | undefined;
    try {
      let served = '';
      server.stdout.on('data', (c) => {
        served += String(c);
      });
      while (!served.includes('replay:')) {
        if (server.exitCode !== null) throw new Error(`serve exited ${server.exitCode}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      watch = spawn(KUBECTL, kubectlArgs, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd } });
      let seen = '';
      watch.stdout?.on('data', (c) => {
        seen += String(c);
      });
      const deadline = Date.now() + 20_000;
      while (!(/^master /m.test(seen) && /^worker /m.test(seen)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(seen).toMatch(/^NAME +CONFIG +UPDATED/);
      expect(seen).toMatch(/^master +rendered-master-/m);
      expect(seen).toMatch(/^worker +rendered-worker-/m);
    } finally {
      watch?.kill();
      server.kill('SIGTERM');
      const code = await new Promise((r) =>
        server.exitCode !== null ? r(server.exitCode) : server.on('exit', r),
      );
      expect(code).toBe(0);
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
