/**
 * Issue 10's adversarial audit, one test per numbered case: each runs bin/atlevel.js on the hostile
 * input as a child process and asserts its exit code, that stderr holds no trace, no internal error
 * and no raw control byte, that peak RSS stays under 1 GiB, and a loose wall-time bound (a hang
 * guard, not a speed goal). Run with `npm run test:hostile` (needs `npm run -s build`).
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as gen from './gen.js';
import { BIN, problems, type RunResult, runCli } from './run.js';

let dir: string;
let plain: string;
let run: string;

beforeAll(() => {
  if (!existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')))
    throw new Error('run `npm run -s build` first');
  dir = mkdtempSync(join(tmpdir(), 'atlevel-hostile-'));
  plain = gen.plainConfig(dir);
  run = gen.miniRun(dir);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The common bounds, then the expected exit code; the message names what went wrong. */
function expectRun(r: RunResult, code: number | readonly number[], maxMs: number): void {
  const codes = typeof code === 'number' ? [code] : code;
  // One line per run with what it cost, for the report (`npm run test:hostile | grep '^hostile:'`).
  console.log(
    `hostile: ${expect.getState().currentTestName} | exit ${r.code ?? r.signal} | peak ${r.peakMiB} MiB | ${r.ms} ms`,
  );
  const found = problems(r, codes);
  if (r.ms > maxMs) found.push(`took ${r.ms} ms, bound ${maxMs} ms`);
  expect(found, `stderr: ${r.stderr.slice(0, 600)}`).toEqual([]);
  if (codes.length === 1 && codes[0] === 2) {
    // Bad input is one clear line (commander's usage errors add one hint line).
    expect(r.stderr.trim().split('\n').length, r.stderr).toBeLessThanOrEqual(2);
    expect(r.stderr).toMatch(/^atlevel: /);
  }
}

function fifo(name: string): string {
  const p = join(dir, name);
  execFileSync('mkfifo', [p]);
  return p;
}

function freshRun(name: string): string {
  return gen.miniRun(dir, name);
}

const GA = join('artifacts', 'e2e', 'gather-extra', 'artifacts');

describe('1. zstd data', () => {
  it('a .tar starting with the zstd magic: exit 2, one line', async () => {
    const r = await runCli(['analyze', gen.zstdMagicTar(dir)]);
    expectRun(r, 2, 20_000);
  });
  it('a real .tar.zst renamed .tar: read or refused, never a crash', async (ctx) => {
    const tar = gen.realZstdTar(dir);
    if (!tar) return ctx.skip('no zstd tool to make the archive');
    expectRun(await runCli(['analyze', tar]), [0, 1, 2, 4], 20_000);
  });
  it('xz and garbage after an xz magic: never a crash', async () => {
    for (const tar of gen.xzTars(dir)) expectRun(await runCli(['analyze', tar]), [0, 1, 2, 4], 20_000);
  });
});

describe('2. heap exhaustion under the caps', () => {
  it('2a. a .json.gz inflating to 250 MiB of [{},{},…] in a CI run: exit 2 naming the limit', async () => {
    const r0 = freshRun('bomb-run');
    await gen.objectsBombGz(join(r0, GA, 'events.json.gz'), 250);
    const r = await runCli(['analyze', r0], { timeoutMs: 180_000 });
    expectRun(r, 2, 180_000);
    expect(r.stderr).toMatch(/--max-/);
  }, 200_000);
  it('2b. a 700-byte YAML billion laughs MachineConfig given to diff: exit 2', async () => {
    const r = await runCli(['diff', gen.laughsMachineConfig(dir), plain], { timeoutMs: 90_000 });
    expectRun(r, 2, 90_000);
  }, 100_000);
  it('2c. 16 gzip data: URLs of 60 MiB each: exit 2 naming --max-data-url', async () => {
    const r = await runCli(['diff', gen.dataUrlBombConfig(dir, 16, 60), plain]);
    expectRun(r, 2, 30_000);
    expect(r.stderr).toContain('--max-data-url');
  });
  it('2c. the run-wide data: URL total holds across both sides of a diff', async () => {
    const a = gen.dataUrlBombConfig(dir, 3, 60, 'du-a.json');
    const b = gen.dataUrlBombConfig(dir, 3, 60, 'du-b.json');
    const r = await runCli(['diff', a, b, '--max-data-url-total', '300MiB']);
    expectRun(r, 2, 30_000);
    expect(r.stderr).toContain('--max-data-url-total');
  });
});

describe('3. internal errors', () => {
  it('3a. a 3,000-deep array in spec.config: exit 2 naming --max-tree-depth', async () => {
    const r = await runCli(['diff', gen.deepConfig(dir, 3000), plain]);
    expectRun(r, 2, 20_000);
    expect(r.stderr).toContain('--max-tree-depth');
  });
  it('3a. the same config with the depth limit raised: compared, not a stack overflow', async () => {
    const r = await runCli([
      'diff',
      gen.deepConfig(dir, 3000, 'deep2.json'),
      plain,
      '--max-tree-depth',
      '100000',
    ]);
    expectRun(r, [0, 1], 20_000);
  });
  it('3a. a 100,000-deep array anywhere in a CI run folder: no stack overflow', async () => {
    const r0 = freshRun('deep-run');
    writeFileSync(join(r0, GA, 'nodes.json'), `{"kind":"List","items":${gen.deepArrayJson(100_000)}}`);
    expectRun(await runCli(['analyze', r0]), [0, 1, 2, 4], 30_000);
  });
  it('3a. 100,000-deep YAML and JSON as a MachineConfig, a scenario and a release: exit 2', async () => {
    const deep = gen.deepArrayJson(100_000);
    const mc = `apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: d\nspec:\n  config: ${deep}\n`;
    const runs: [string, string[]][] = [
      ['deep-mc.yaml', ['diff', '{}', plain]],
      ['deep-scenario.yaml', ['simulate', '--scenario', '{}']],
      ['deep-release.json', ['release', 'info', '{}']],
      ['deep-release-from.json', ['diff', plain, plain, '--release-from', '{}']],
    ];
    for (const [name, args] of runs) {
      const text = name.startsWith('deep-mc')
        ? mc
        : name.startsWith('deep-scenario')
          ? `name: x\ndescription: ${deep}\n`
          : `{"kind":"ImageStream","spec":{"tags":${deep}}}`;
      const f = gen.writeText(dir, name, text);
      expectRun(await runCli(args.map((a) => (a === '{}' ? f : a))), 2, 20_000);
    }
  });
  it('3b. Ignition sections named constructor and toString: compared, exit 1', async () => {
    const proto = gen.writeJson(
      dir,
      'proto.json',
      gen.machineConfig('proto', {
        ignition: { version: '3.2.0' },
        constructor: { a: 1 },
        toString: { b: 2 },
        hasOwnProperty: [1],
        __proto__x: 1,
      }),
    );
    const r = await runCli(['diff', proto, plain, '-o', 'json']);
    expectRun(r, 1, 20_000);
    expect(r.stdout).toContain('config.constructor');
    expect(r.stdout).toContain('config.toString');
  });
  it('3b. prototype names as command-line names: --only constructor, --scenario toString', async () => {
    expectRun(await runCli(['diff', plain, plain, '--only', 'constructor']), 2, 20_000);
    expectRun(await runCli(['simulate', '--scenario', 'toString']), 2, 20_000);
  });
  it('3c. a YAML alias cycle given to diff: exit 2', async () => {
    expectRun(await runCli(['diff', gen.cyclicMachineConfig(dir), plain]), 2, 20_000);
  });
  it('3c. a YAML alias cycle in a simulate scenario: exit 2', async () => {
    const f = gen.writeText(dir, 'cycle-scenario.yaml', 'name: cyc\nlatencies: &l\n  boot: *l\n');
    expectRun(await runCli(['simulate', '--scenario', f]), 2, 20_000);
  });
});

describe('4. hangs', () => {
  it('4a. a billion laughs simulate scenario: exit 2 without stringifying it', async () => {
    const f = gen.writeText(
      dir,
      'laughs-scenario.yaml',
      `${gen.laughsYaml()}\nname: bomb\nlatencies:\n  boot: *l8\n`,
    );
    expectRun(await runCli(['simulate', '--scenario', f], { timeoutMs: 60_000 }), 2, 60_000);
  }, 70_000);
  it('4a. a billion laughs in the scenario fields zod walks (pools, machineConfigs): exit 2', async () => {
    for (const field of ['pools', 'machineConfigs', 'changed', 'failures']) {
      const f = gen.writeText(
        dir,
        `laughs-${field}.yaml`,
        `${gen.laughsYaml()}\nname: bomb\n${field}: *l8\n`,
      );
      expectRun(await runCli(['simulate', '--scenario', f], { timeoutMs: 60_000 }), 2, 60_000);
    }
  }, 250_000);
  it('4b. a FIFO given to diff: exit 2, no hang', async () => {
    expectRun(await runCli(['diff', fifo('a.fifo'), plain], { timeoutMs: 20_000 }), 2, 20_000);
  });
  it('4b. a FIFO given to release info: exit 2, no hang', async () => {
    expectRun(await runCli(['release', 'info', fifo('r.fifo')], { timeoutMs: 20_000 }), 2, 20_000);
  });
  it('4b. a FIFO given to simulate --scenario: exit 2, no hang', async () => {
    expectRun(
      await runCli(['simulate', '--scenario', fifo('s.fifo.yaml')], { timeoutMs: 20_000 }),
      2,
      20_000,
    );
  });
  it('4b. a FIFO given to --release-from: exit 2, no hang', async () => {
    const r = await runCli(['diff', plain, plain, '--release-from', fifo('rf.fifo')], { timeoutMs: 20_000 });
    expectRun(r, 2, 20_000);
  });
  it('4b. a FIFO given to analyze: exit 2, no hang', async () => {
    expectRun(await runCli(['analyze', fifo('an.fifo')], { timeoutMs: 20_000 }), 2, 20_000);
  });
  it('4c. 100 files of 19k differing lines: the run-wide text-diff budget stops it (exit 2, the flag named)', async () => {
    const [a, b] = gen.slowDiffConfigs(dir, 100, 19_000);
    const r = await runCli(['diff', a, b, '--max-diff-time', '3s'], { timeoutMs: 60_000 });
    expectRun(r, 2, 60_000);
    expect(r.stderr).toContain('--max-diff-time');
  }, 70_000);
});

describe('5. terminal injection: no ESC/OSC byte from an input reaches stderr', () => {
  it('in a tar entry name', async () => {
    const r = await runCli(['analyze', gen.escapeNameTar(dir)]);
    expectRun(r, [0, 1, 2, 4], 20_000);
    expect(r.stderr).toContain('PWNED');
  });
  it('in a folder name', async () => {
    const root = join(dir, 'escfolder');
    const inner = join(root, gen.ESC_NAME, 'gather-extra', 'artifacts');
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(inner, 'clusterversion.json'), '{ broken');
    expectRun(await runCli(['analyze', root]), [0, 1, 2, 4], 20_000);
  });
  it('in a MachineConfig name and an Ignition path', async () => {
    const f = gen.writeJson(
      dir,
      'esc.json',
      gen.machineConfig(gen.ESC_NAME, {
        ignition: { version: '3.2.0' },
        storage: { files: [{ path: `/etc/${gen.ESC_NAME}`, contents: { source: 'data:,%zz' } }] },
      }),
    );
    const r = await runCli(['diff', f, plain]);
    expectRun(r, 2, 20_000);
    expect(r.stderr).toContain('PWNED');
  });
  it('in a file name given on the command line', async () => {
    const f = gen.writeText(dir, `${gen.ESC_NAME}.yaml`, 'not: [a machineconfig');
    expectRun(await runCli(['diff', f, plain]), 2, 20_000);
  });
});

describe('6. a file name that is not UTF-8', () => {
  it('a README with such a name in a CI run folder does not stop the run', async () => {
    const r0 = freshRun('utf8-run');
    const before = await runCli(['analyze', r0]);
    gen.nonUtf8Name(r0);
    const after = await runCli(['analyze', r0]);
    expectRun(after, [0, 1, 4], 20_000);
    expect(after.code).toBe(before.code);
  });
});

describe('7. --out', () => {
  it('--out naming an input: exit 2, the input untouched', async () => {
    const a = gen.plainConfig(dir, 'out-input.json');
    const bytes = readFileSync(a);
    const r = await runCli(['diff', a, plain, '--out', a]);
    expectRun(r, 2, 20_000);
    expect(readFileSync(a)).toEqual(bytes);
  });
  it('--out naming a file inside an input folder: exit 2, the file untouched', async () => {
    const r0 = freshRun('out-inside');
    const target = join(r0, 'build-log.txt');
    const bytes = readFileSync(target);
    const r = await runCli(['analyze', r0, '--out', target]);
    expectRun(r, 2, 20_000);
    expect(readFileSync(target)).toEqual(bytes);
  });
  it('--out naming a FIFO: exit 2, still a FIFO', async () => {
    const f = fifo('out.fifo');
    const r = await runCli(['diff', plain, plain, '--out', f], { timeoutMs: 20_000 });
    expectRun(r, 2, 20_000);
    expect(lstatSync(f).isFIFO()).toBe(true);
  });
  it('--out naming a symlink: exit 2, the link and its target untouched', async () => {
    const target = gen.writeText(dir, 'link-target.txt', 'precious\n');
    const link = join(dir, 'out-link');
    symlinkSync(target, link);
    const r = await runCli(['diff', plain, plain, '--out', link]);
    expectRun(r, 2, 20_000);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
  });
  it('--out naming a symlink to a device node stand-in (a FIFO): refused before anything opens it', async () => {
    const f = fifo('dev-standin.fifo');
    const link = join(dir, 'devnull-link');
    symlinkSync(f, link);
    const r = await runCli(['diff', plain, plain, '--out', link], { timeoutMs: 20_000 });
    expectRun(r, 2, 20_000);
    expect(lstatSync(f).isFIFO()).toBe(true);
  });
  it('--out to a new regular file still works, and replaces a regular file', async () => {
    const out = join(dir, 'report.txt');
    expectRun(await runCli(['diff', plain, plain, '--out', out]), 0, 20_000);
    expectRun(await runCli(['diff', plain, plain, '--out', out]), 0, 20_000);
    expect(readFileSync(out, 'utf8').length).toBeGreaterThan(0);
  });
  it('SIGINT while the report is being written leaves no .atlevel.tmp behind', async () => {
    const outDir = mkdtempSync(join(dir, 'sigint-'));
    const out = join(outDir, 'big.txt');
    const entry = new URL('../../dist/cli/output.js', import.meta.url).href;
    // 400 MB written through emit: the interrupt lands between the temp file's creation and the rename.
    const script = `const { emit } = await import(${JSON.stringify(entry)});
      setTimeout(() => process.kill(process.pid, 'SIGINT'), 30);
      await emit('x'.repeat(400 * 1024 * 1024), ${JSON.stringify(out)});`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const signal = await new Promise<NodeJS.Signals | null>((res) => child.on('close', (_c, s) => res(s)));
    expect(signal).toBe('SIGINT');
    expect(readdirSync(outDir).filter((n) => n.endsWith('.atlevel.tmp'))).toEqual([]);
  }, 60_000);
  it('simulate --artifacts: interrupted at any moment, the folder is whole or absent, no temp folder left', async () => {
    const base = mkdtempSync(join(dir, 'artifacts-'));
    for (const delay of [50, 150, 300, 450, 600, 800]) {
      const target = join(base, `run-${delay}`);
      const child = spawn(process.execPath, [BIN, 'simulate', '--artifacts', target], { stdio: 'ignore' });
      setTimeout(() => child.kill('SIGINT'), delay);
      await new Promise((res) => child.on('close', res));
      if (existsSync(target)) expect(existsSync(join(target, 'atlevel-simulation.json'))).toBe(true);
    }
    expect(readdirSync(base).filter((n) => n.endsWith('.atlevel.tmp'))).toEqual([]);
  }, 60_000);
  it('simulate --artifacts into a non-empty folder: exit 2, nothing merged into it', async () => {
    const target = mkdtempSync(join(dir, 'full-'));
    writeFileSync(join(target, 'mine.txt'), 'mine');
    const r = await runCli(['simulate', '--artifacts', target]);
    expectRun(r, 2, 30_000);
    expect(readdirSync(target)).toEqual(['mine.txt']);
  });
});

describe('8. content echoed in errors', () => {
  const CANARY = 'SECRET-CANARY:x:0:0:root';
  it('8a. a JSON syntax error does not quote the file', async () => {
    const r0 = freshRun('echo-run');
    writeFileSync(join(r0, GA, 'clusteroperators.json'), `"${CANARY}" trailing`);
    const r = await runCli(['analyze', r0]);
    expectRun(r, [0, 1, 2, 4], 20_000);
    expect(r.stderr + r.stdout).not.toContain('SECRET-CANARY');
  });
  it('8b. a symlink inside the input folder pointing outside it is not followed', async () => {
    const outside = gen.writeText(dir, 'outside-secret.json', `{"kind":"List","items":[],"x":"${CANARY}"`);
    const r0 = freshRun('symlink-run');
    symlinkSync(outside, join(r0, GA, 'nodes.json'));
    const r = await runCli(['analyze', r0, '-o', 'json']);
    expectRun(r, [0, 1, 2, 4], 20_000);
    expect(r.stderr + r.stdout).not.toContain('SECRET-CANARY');
  });
});

describe('9. minor', () => {
  it('a build-log date of Feb 30 does not become Mar 02', async () => {
    const r0 = freshRun('feb30-run');
    writeFileSync(
      join(r0, 'build-log.txt'),
      'Feb 30 03:23:03.719 W clusteroperator/machine-config condition/Progressing status/True changed: x\n',
    );
    const r = await runCli(['analyze', r0, '-o', 'json']);
    expectRun(r, [0, 1, 2, 4], 20_000);
    expect(r.stdout).not.toMatch(/-03-0[12]T03:23:03/);
  });
  it('a latency of 1e308 is refused (exit 2), not a vacuous OK', async () => {
    const f = gen.writeText(dir, 'lat.yaml', 'name: big\nlatencies:\n  watch: 1e308\n');
    const r = await runCli(['simulate', '--scenario', f]);
    expectRun(r, 2, 20_000);
    expect(r.stdout).not.toMatch(/^OK/m);
  });
  it('duplicate YAML keys: analyze and diff agree', async () => {
    const yaml = `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: dup
  name: dup
spec:
  config:
    ignition:
      version: 3.2.0
`;
    const f = gen.writeText(dir, 'dup.yaml', yaml);
    const folder = join(dir, 'dup-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'machineconfig.yaml'), yaml);
    const d = await runCli(['diff', f, plain]);
    const a = await runCli(['analyze', folder]);
    expectRun(d, [0, 1, 2], 20_000);
    expectRun(a, [0, 1, 2, 4], 20_000);
    expect(d.code === 2, `diff: ${d.stderr} analyze: ${a.stderr}`).toBe(a.code === 2);
  });
  it('a 255 MB file of NULs is refused without being read whole', async () => {
    const r0 = freshRun('nul-run');
    const f = join(r0, GA, 'clusteroperators.json');
    // A sparse file: 255 MB of NULs without writing them.
    writeFileSync(f, '');
    truncateSync(f, 255 * 1024 * 1024);
    const r = await runCli(['analyze', r0]);
    expectRun(r, [0, 1, 2, 4], 30_000);
    expect(r.peakMiB, 'peak RSS (MiB)').toBeLessThan(250);
  });
  it('a valid tar.gz followed by garbage is read', async () => {
    const r = await runCli(['analyze', gen.tarGzTrailingGarbage(dir, run)]);
    expectRun(r, [0, 1, 4], 20_000);
  });
});

describe('10. archives cut at an entry boundary', () => {
  // Every entry whole, only the end-of-archive marker missing: tar itself reads on without a word, so
  // the missing part of the run would go unnoticed.
  it('a .tar and a .tar.gz without the end-of-archive marker: exit 2, one line naming the cut', async () => {
    const { tar, tgz } = gen.tarsCutAtEntryBoundary(dir, run);
    for (const f of [tar, tgz]) {
      const r = await runCli(['analyze', f]);
      expectRun(r, 2, 20_000);
      expect(r.stderr).toMatch(
        new RegExp(
          `^atlevel: ${f.replace(/[.]/g, '\\.')}: truncated archive \\(no end-of-archive marker after entry \\d+, `,
        ),
      );
    }
  });
  it('a .tar.gz whose gzip stream ends without its trailer: exit 2, one line', async () => {
    const r = await runCli(['analyze', gen.tarsCutAtEntryBoundary(dir, run).tgzNoTrailer]);
    expectRun(r, 2, 20_000);
    expect(r.stderr).toMatch(/: corrupt gzip data: unexpected end of file\n$/);
  });
});
