/**
 * The built CLI as a shell runs it: a pipe closed early, exit codes, completion scripts. `npm test`
 * builds first (pretest).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { EXIT } from '../../src/cli/exit.js';
import { buildProgram } from '../../src/cli/main.js';
import { atlevelInProcess } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';
import { withoutNotes } from '../helpers/spawn-cli.js';

const bin = join(projectRoot, 'bin/atlevel.js');
const release = join(projectRoot, 'examples/bug-2019850/release');
const mcs = join(
  projectRoot,
  'examples/bug-2019850/artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json',
);
const work = mkdtempSync(join(tmpdir(), 'atlevel-unix-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(script: string) {
  const r = spawnSync('sh', ['-c', script], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ATLEVEL: `${process.execPath} ${bin}`, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a reader that closes the pipe early', () => {
  it.each([
    ['the HTML report', '$ATLEVEL analyze examples/bug-2019850 -o html | head -c 10', '<!doctype '],
    [
      'a release diff',
      `$ATLEVEL release diff ${release}/release-from.json ${release}/release-to.json | head -1`,
      'from 4.10.0',
    ],
    [
      'a release diff, 30 lines',
      `$ATLEVEL release diff ${release}/release-from.json ${release}/release-to.json | head -30`,
      'from 4.10.0',
    ],
    ['help', '$ATLEVEL help status | head -2', 'Usage: atlevel status'],
    ['analyze text', '$ATLEVEL analyze examples/bug-2019850 | head -c 1', ''],
    ['analyze JSON', '$ATLEVEL analyze examples/bug-2019850 -o json | head -c 1', '{'],
    ['analyze JUnit', '$ATLEVEL analyze examples/bug-2019850 -o junit | head -c 1', '<'],
    ['status', '$ATLEVEL status examples/bug-2019850 | head -c 1', ''],
    ['a MachineConfig diff', `$ATLEVEL diff --pool master --from ${mcs} | head -c 1`, ''],
    ['release info', `$ATLEVEL release info ${release}/release-to.json | head -c 1`, ''],
    ['simulate', '$ATLEVEL simulate | head -c 1', ''],
    ['simulate JSON', '$ATLEVEL simulate -o json | head -c 1', '{'],
    ['completion', '$ATLEVEL completion bash | head -c 1', '#'],
    ['the command list', '$ATLEVEL --help | head -1', 'Usage: atlevel'],
  ])('%s: ends quietly, no trace', (_, command, start) => {
    const r = sh(`cd ${projectRoot} && ${command}`);
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.stdout.startsWith(start)).toBe(true);
  });

  // `head` may read before it exits; a reader that closes its end before atlevel writes makes every
  // write fail with EPIPE, including the one of `--version`, which bin/atlevel.js answers alone.
  it.each([
    ['--version'],
    ['-V'],
    ['--help'],
    ['help status'],
    ['completion bash'],
    [`release diff ${release}/release-from.json ${release}/release-to.json`],
  ])('atlevel %s, to a reader already gone: no trace', (args) => {
    const r = sh(`$ATLEVEL ${args} | (exec 0<&-; sleep 1)`);
    expect(r.stderr).toBe('');
  });

  it('keeps the exit code of the command (set -o pipefail sees it)', () => {
    const r = sh(
      `cd ${projectRoot} && bash -c 'set -o pipefail; $ATLEVEL release diff ${release}/release-from.json ${release}/release-to.json | head -c 1 >/dev/null; echo "$?"'`,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(String(EXIT.failure));
  });
});

describe('exit codes', () => {
  it('are the documented five', () => {
    expect(EXIT).toEqual({ ok: 0, failure: 1, usage: 2, internal: 3, inconclusive: 4 });
  });
  it('2 and one prefixed line for a usage error from commander and from atlevel', () => {
    for (const args of [
      ['analyze'],
      ['status', 'x', '--width', '3'],
      ['analyze', 'x', '-o', 'json', '--brief'],
    ]) {
      const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(EXIT.usage);
      expect(r.stderr, args.join(' ')).toMatch(/^atlevel: /);
      expect(r.stderr).not.toMatch(/^error:/m);
    }
  });
});

describe('flags that shape text only', () => {
  it('are refused with another format, naming the flag', () => {
    const r = spawnSync(process.execPath, [bin, 'status', 'x', '-o', 'json', '--details', 'all'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/--details shapes text output only/);
  });
});

describe('start-up', () => {
  it('--help lists every command of the table, with its summary, without loading them', async () => {
    const program = await buildProgram({ code: EXIT.ok }, []);
    const help = program.helpInformation({ error: false });
    for (const name of Object.keys(COMMANDS)) expect(help).toMatch(new RegExp(`^  ${name} `, 'm'));
  });
  it("the table's usage terms are what the full definitions give", async () => {
    const program = await buildProgram({ code: EXIT.ok }, 'all');
    const plain = program.createHelp();
    for (const cmd of program.commands) {
      const entry = COMMANDS[cmd.name() as keyof typeof COMMANDS];
      if (!entry) continue;
      const real = plain.subcommandTerm(cmd).replace(/ \[command\]$/, ' <command>');
      expect(`${cmd.name()} ${entry.usage}`).toBe(
        real.replace(/^(\S+) \[options\] <command>$/, '$1 <command>'),
      );
    }
  });
});

describe('atlevel completion', () => {
  const script = join(work, 'atlevel.bash');
  function bashComplete(words: string[]): string[] {
    if (!existsSync(script)) {
      const r = spawnSync(process.execPath, [bin, 'completion', 'bash'], { encoding: 'utf8' });
      writeFileSync(script, r.stdout);
    }
    const q = words.map((w) => `'${w}'`).join(' ');
    const out = spawnSync(
      'bash',
      [
        '-c',
        `source ${script}; COMP_WORDS=(${q}); COMP_CWORD=${words.length - 1}; _atlevel; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8', cwd: projectRoot },
    );
    expect(out.stderr).toBe('');
    return out.stdout.split('\n').filter(Boolean);
  }

  it('bash: commands, subcommands, flags and -o choices come from the definitions', () => {
    expect(bashComplete(['atlevel', 'statu'])).toEqual(['status']);
    expect(bashComplete(['atlevel', 'release', ''])).toEqual(expect.arrayContaining(['diff', 'info']));
    expect(bashComplete(['atlevel', 'cache', ''])).toEqual(expect.arrayContaining(['fetch', 'ls', 'prune']));
    expect(bashComplete(['atlevel', 'analyze', '-o', ''])).toEqual(['text', 'json', 'yaml', 'junit', 'html']);
    expect(bashComplete(['atlevel', 'status', '--det'])).toEqual(['--details']);
    expect(bashComplete(['atlevel', 'release', 'info', '--comp'])).toEqual(['--component-for']);
    expect(bashComplete(['atlevel', 'simulate', '--policy', ''])).toContain('fixed');
  });

  it('bash: argument and value completions come from the definitions too', () => {
    expect(bashComplete(['atlevel', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete(['atlevel', 'help', ''])).toEqual(
      expect.arrayContaining([...Object.keys(COMMANDS), 'help']),
    );
    expect(bashComplete(['atlevel', 'help', 'release', ''])).toEqual(['diff', 'info']);
    // The built-in scenarios, then files (the scenario YAML files).
    expect(bashComplete(['atlevel', 'simulate', '--scenario', ''])).toEqual(
      expect.arrayContaining(['pause-image-only', 'no-config-change']),
    );
    expect(bashComplete(['atlevel', 'simulate', '--scenario', 'pause-im'])).toEqual(['pause-image-only']);
  });

  it('bash: a flag that takes several values completes them up to the next flag', () => {
    const rules = bashComplete(['atlevel', 'analyze', '--rule', '']);
    expect(rules).toContain('pool-degraded');
    // The second and third values of `--rule a b c` are rule ids too, not file names.
    expect(bashComplete(['atlevel', 'analyze', '--rule', 'pool-degraded', ''])).toEqual(rules);
    expect(
      bashComplete([
        'atlevel',
        'analyze',
        'examples',
        '--rule',
        'pool-degraded',
        'update-completed',
        'opera',
      ]),
    ).toEqual(rules.filter((r) => r.startsWith('opera')));
    // A flag ends them; after `--` every word is a path.
    expect(bashComplete(['atlevel', 'analyze', '--rule', 'pool-degraded', '--wid'])).toEqual(['--width']);
    expect(bashComplete(['atlevel', 'analyze', '--rule', 'pool-degraded', '--brief', 'package.j'])).toEqual([
      'package.json',
    ]);
    expect(bashComplete(['atlevel', 'analyze', '--rule', 'pool-degraded', '--', 'package.j'])).toEqual([
      'package.json',
    ]);
  });

  it('bash: a flag whose value is not a path completes no file names', () => {
    for (const [cmd, flag] of [
      ['analyze', '--width'],
      ['analyze', '--context'],
      ['analyze', '--max-decompressed'],
      ['status', '--storage-endpoint'],
      ['simulate', '--seed'],
      ['serve', '--port'],
    ] as const) {
      expect(bashComplete(['atlevel', cmd, flag, '']), `${cmd} ${flag}`).toEqual([]);
    }
    // Path values still do (completion runs in the project root).
    expect(bashComplete(['atlevel', 'analyze', '--out', 'package.j'])).toEqual(['package.json']);
    expect(bashComplete(['atlevel', 'analyze', 'package.j'])).toEqual(['package.json']);
  });

  it('zsh and fish scripts name every command', () => {
    for (const shell of ['zsh', 'fish']) {
      const r = spawnSync(process.execPath, [bin, 'completion', shell], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      for (const name of Object.keys(COMMANDS)) expect(r.stdout).toContain(name);
    }
    const fish = spawnSync(process.execPath, [bin, 'completion', 'fish'], { encoding: 'utf8' }).stdout;
    expect(fish).toContain("-s o -l output -x -a 'text json yaml junit html'");
  });

  it('fish: a variadic flag completes its later values from the same definitions as bash', () => {
    const fish = spawnSync(process.execPath, [bin, 'completion', 'fish'], { encoding: 'utf8' }).stdout;
    const line = (cmd: string, test: string) =>
      fish
        .split('\n')
        .filter(
          (l) =>
            l.startsWith(`complete -c atlevel -n '__fish_seen_subcommand_from ${cmd};`) && l.includes(test),
        );
    // analyze and stats both take `--rule <id...>`: the later values are the rule ids...
    for (const cmd of ['analyze', 'stats']) {
      const [values, ...more] = line(cmd, "; and __atlevel_values_of --rule'");
      expect(more, cmd).toEqual([]);
      expect(values, cmd).toMatch(/ -a '[^']*\bpool-degraded\b[^']*' -d /);
      expect(values, cmd).not.toContain(' -F');
    }
    // ...and, while they go on, analyze's paths do not complete.
    expect(line('analyze', '').filter((l) => l.endsWith(' -F'))).toEqual([
      expect.stringContaining("; and not __atlevel_values_of --rule' -F"),
    ]);
  });

  it('an unknown shell is a usage error', () => {
    const r = spawnSync(process.execPath, [bin, 'completion', 'tcsh'], { encoding: 'utf8' });
    expect(r.status).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/^atlevel: completion: unknown shell "tcsh"/);
  });
});

describe('release info --component-for', () => {
  const to = join(release, 'release-to.json');
  // In-process: these are the flag's answers, not the process's (the pipe tests above spawn release info).
  const run = (...args: string[]) => atlevelInProcess('release', 'info', to, ...args);
  it('takes a digest as atlevel prints it, and bare hex', async () => {
    for (const ref of ['sha256:67fb3c3a8677…', 'sha256:67fb3c3a8677', '67fb3c3a8677d0c7']) {
      const r = await run('--component-for', ref, '-o', 'json');
      expect(r.status, `${ref}: ${r.stderr}`).toBe(EXIT.ok);
      expect(r.stdout).toContain('"cluster-version-operator"');
    }
  });
  it('an ambiguous prefix is a usage error naming the matches', async () => {
    const refs = join(work, 'image-references');
    const tag = (name: string, last: string) => ({
      name,
      from: { kind: 'DockerImage', name: `quay.io/x@sha256:${'a'.repeat(63)}${last}` },
    });
    writeFileSync(
      refs,
      JSON.stringify({
        kind: 'ImageStream',
        apiVersion: 'image.openshift.io/v1',
        metadata: { name: '4.10.0' },
        spec: { tags: [tag('pod', '1'), tag('cli', '2')] },
      }),
    );
    const r = await atlevelInProcess('release', 'info', refs, '--component-for', 'aaaaaaaaaaaa…');
    expect(r.status).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/^atlevel: --component-for: "aaaaaaaaaaaa…" matches 2 images in /);
    expect(r.stderr).toMatch(/\bcli \(sha256:a+…\)/);
    expect(r.stderr).toMatch(/\bpod \(sha256:a+…\)/);
  });
  it('a prefix shorter than 12 hex digits is a usage error saying so, before any lookup', async () => {
    for (const [ref, digits] of [
      ['ef', '2 hex digits'],
      ['sha256:67fb3c3a867…', '11 hex digits'],
      ['0', '1 hex digit'],
    ] as const) {
      const r = await run('--component-for', ref);
      expect(r.status, ref).toBe(EXIT.usage);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `atlevel: --component-for: "${ref}" has ${digits}; a digest prefix needs at least 12, as atlevel prints them (sha256:0adaefcf3675…), or give the full digest or pull spec\n`,
      );
    }
    expect((await run('--component-for', ' ')).stderr).toMatch(
      /^atlevel: --component-for: give a pull spec or a digest/,
    );
  });
  it('takes upper case and blanks around the value', async () => {
    for (const ref of ['SHA256:67FB3C3A8677', ' sha256:67fb3c3a8677… ']) {
      const r = await run('--component-for', ref, '-o', 'json');
      expect(r.status, `${ref}: ${r.stderr}`).toBe(EXIT.ok);
      expect(r.stdout).toContain('"cluster-version-operator"');
    }
  });
  it('an unknown prefix is not a guess', async () => {
    const none = await run('--component-for', 'ffffffffffffffff');
    expect(none.status).toBe(EXIT.failure);
    expect(none.stderr).toMatch(/^atlevel: no component with image "ffffffffffffffff"/);
  });
});

const fishMissing =
  spawnSync('fish', ['--version'], { encoding: 'utf8' }).status === 0 ? '' : 'fish is not installed';
(fishMissing ? describe.skip : describe)(
  `atlevel completion fish, in a real fish${fishMissing ? ` (skipped: ${fishMissing})` : ''}`,
  () => {
    const script = join(work, 'atlevel.fish');
    /** What fish offers for `line` (its `complete -C`), the words only, as a user would see them. */
    function fishComplete(line: string): string[] {
      if (!existsSync(script)) {
        const r = spawnSync(process.execPath, [bin, 'completion', 'fish'], { encoding: 'utf8' });
        writeFileSync(script, r.stdout);
      }
      const out = spawnSync(
        'fish',
        ['--no-config', '-c', `source ${script}; complete -C ${JSON.stringify(line)}`],
        {
          encoding: 'utf8',
          cwd: projectRoot,
        },
      );
      expect(out.stderr).toBe('');
      return out.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0] ?? '');
    }

    it('a flag that takes several values completes them up to the next flag, as bash does', () => {
      const rules = fishComplete('atlevel analyze --rule ');
      expect(rules).toContain('pool-degraded');
      // The second and third values of `--rule a b c` are rule ids too, not file names.
      expect(fishComplete('atlevel analyze --rule pool-degraded ')).toEqual(rules);
      expect(fishComplete('atlevel analyze examples --rule pool-degraded update-completed opera')).toEqual(
        rules.filter((r) => r.startsWith('opera')),
      );
      expect(fishComplete('atlevel stats --rule pool-degraded ')).toEqual(rules);
      // A flag ends them; so do `--` and `--rule=a` (commander reads one value there).
      expect(fishComplete('atlevel analyze --rule pool-degraded --wid')).toEqual(['--width']);
      expect(fishComplete('atlevel analyze --rule pool-degraded --brief package.j')).toEqual([
        'package.json',
      ]);
      expect(fishComplete('atlevel analyze --rule pool-degraded -- package.j')).toEqual(['package.json']);
      expect(fishComplete('atlevel analyze --rule=pool-degraded package.j')).toEqual(['package.json']);
    });

    it("commands, flags and a flag's choices still complete", () => {
      expect(fishComplete('atlevel statu')).toEqual(['status']);
      expect(fishComplete('atlevel analyze -o ')).toEqual(['html', 'json', 'junit', 'text', 'yaml']);
      expect(fishComplete('atlevel analyze package.j')).toEqual(['package.json']);
    });
  },
);
