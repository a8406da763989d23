/**
 * Run as a kubectl or oc plugin (bin/kubectl-atlevel, bin/oc-atlevel), help and error hints name the
 * command as the user typed it; and the top-level help shows each command's arguments as its own
 * usage line does (optional where --kubeconfig makes them so).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { buildProgram } from '../../src/cli/main.js';
import { asInvoked, programName } from '../../src/cli/program.js';
import { projectRoot } from '../helpers/fixtures.js';

function plugin(file: string, ...args: string[]) {
  // No live default for a help page or a usage error; no cluster is read.
  const r = spawnSync(process.execPath, [join(projectRoot, 'bin', file), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, KUBECONFIG: '/nonexistent' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the name atlevel was run by', () => {
  it('is the plugin name as kubectl and oc run it, else atlevel', () => {
    expect(programName('/usr/local/bin/kubectl-atlevel')).toBe('kubectl atlevel');
    expect(programName('/usr/local/bin/oc-atlevel')).toBe('oc atlevel');
    expect(programName('/usr/local/bin/atlevel')).toBe('atlevel');
    expect(programName(undefined)).toBe('atlevel');
  });

  it('rewrites command lines only, never prose or file names', () => {
    const k = (s: string) => asInvoked(s, 'kubectl atlevel');
    expect(k('Usage: atlevel [options] [command]')).toBe('Usage: kubectl atlevel [options] [command]');
    expect(k('(run atlevel status --help for usage)')).toBe('(run kubectl atlevel status --help for usage)');
    expect(k('Example: atlevel analyze examples/x')).toBe('Example: kubectl atlevel analyze examples/x');
    expect(k('atlevel never overwrites its inputs')).toBe('atlevel never overwrites its inputs');
    expect(k('--out atlevel-report.html')).toBe('--out atlevel-report.html');
    expect(k('kubectl atlevel status')).toBe('kubectl atlevel status');
    expect(k('atlevel statusx')).toBe('atlevel statusx');
    expect(asInvoked('Usage: atlevel [options]', 'atlevel')).toBe('Usage: atlevel [options]');
  });

  it('kubectl atlevel --help says kubectl atlevel', () => {
    const r = plugin('kubectl-atlevel', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Usage: kubectl atlevel [options] [command]');
    const status = plugin('kubectl-atlevel', 'status', '--help');
    expect(status.stdout.split('\n')[0]).toBe('Usage: kubectl atlevel status [options] [paths...]');
    expect(status.stdout).toMatch(/Example: kubectl atlevel status /);
  });

  it('oc atlevel names itself in its usage errors', () => {
    const r = plugin('oc-atlevel', 'status', '--no-such-flag');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "atlevel: unknown option '--no-such-flag' (run oc atlevel status --help for usage)\n",
    );
    const help = plugin('oc-atlevel', 'help', 'nosuch');
    expect(help.stderr).toBe('atlevel: unknown command nosuch (run oc atlevel --help for usage)\n');
  });
});

describe('the top-level help', () => {
  it("shows each command's arguments as the command's own usage line does", async () => {
    const program = await buildProgram({ code: 0 }, 'all');
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const cmd = program.commands.find((c) => c.name() === name);
      // A group's own usage is `[options] [command]`; the top-level help says `<command>`.
      if (entry.usage === '<command>') expect(cmd?.commands.length, name).toBeGreaterThan(0);
      else
        expect(cmd?.usage().replace(/^\[options\] /, ''), name).toBe(
          entry.usage.replace(/^\[options\] /, ''),
        );
    }
  });

  it('shows analyze and status paths as optional: --kubeconfig needs none', () => {
    const r = spawnSync(process.execPath, [join(projectRoot, 'bin/atlevel.js'), '--help'], {
      encoding: 'utf8',
    });
    expect(r.stdout).toMatch(/^ {2}analyze \[options\] \[paths\.\.\.\]/m);
    expect(r.stdout).toMatch(/^ {2}status \[options\] \[paths\.\.\.\]/m);
  });
});
