/**
 * serve removes the kubeconfig it wrote by default when it stops (it would point at a closed port),
 * and leaves one named by --kubeconfig-out. Its notes on stderr carry atlevel's one prefix.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

const bin = join(projectRoot, 'bin/atlevel.js');
const example = join(projectRoot, 'examples/bug-2019850');
const work = mkdtempSync(join(tmpdir(), 'atlevel-serve-kc-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Start serve, wait for its kubeconfig line, stop it with `signal`; the kubeconfig path it printed, its exit. */
async function serveAndStop(
  args: string[],
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ kubeconfig: string; code: number | null; out: string }> {
  const child = spawn(process.execPath, [bin, 'serve', example, ...args], {
    env: { ...process.env, TMPDIR: work },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c) => {
    out += String(c);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  while (!/^kubeconfig: \S+/m.test(out)) {
    // A refusal exits 2 at once: fail then, not at the test's timeout.
    if (child.exitCode !== null)
      throw new Error(`serve exited ${child.exitCode} before printing its kubeconfig`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const kubeconfig = /^kubeconfig: (\S+)/m.exec(out)?.[1] ?? '';
  expect(existsSync(kubeconfig)).toBe(true);
  child.kill(signal);
  const code = await exited;
  return { kubeconfig, code, out };
}

describe('serve and its kubeconfig', () => {
  it('a stop by SIGINT (Ctrl-C), SIGTERM or SIGHUP is the end asked for: exit 0, as kubectl port-forward on Ctrl-C', async () => {
    // serve concludes nothing, so no signal makes a verdict of its exit (docs/serve.md).
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const { kubeconfig, code, out } = await serveAndStop([], signal);
      expect(code, signal).toBe(0);
      expect(out, signal).toMatch(/^atlevel serve: stopped$/m);
      expect(existsSync(kubeconfig), signal).toBe(false);
    }
  });
  it('removes the default one it wrote when it stops', async () => {
    const { kubeconfig, code } = await serveAndStop([]);
    expect(code).toBe(0);
    expect(kubeconfig.startsWith(work)).toBe(true);
    expect(existsSync(kubeconfig)).toBe(false);
  });
  it('keeps one named by --kubeconfig-out', async () => {
    const named = join(work, 'kc');
    const { kubeconfig, code } = await serveAndStop(['--kubeconfig-out', named]);
    expect(code).toBe(0);
    expect(kubeconfig).toBe(named);
    expect(existsSync(named)).toBe(true);
  });
  it('replaces a regular file that --kubeconfig-out names (its own value is no input)', async () => {
    const named = join(work, 'kc-old');
    writeFileSync(named, 'an old kubeconfig\n');
    const { kubeconfig, code } = await serveAndStop(['--kubeconfig-out', named]);
    expect(code).toBe(0);
    expect(kubeconfig).toBe(named);
    expect(readFileSync(named, 'utf8')).toMatch(/^apiVersion: v1/);
  });
  it('replaces one named by --kubeconfig-out on the next run (its value is an output, not an input)', async () => {
    const named = join(work, 'kc-again');
    for (const form of [['--kubeconfig-out', named], [`--kubeconfig-out=${named}`]]) {
      const { kubeconfig, code } = await serveAndStop(form);
      expect(code).toBe(0);
      expect(kubeconfig).toBe(named);
    }
  });
  it('the default one is in a folder of its own: a link planted at a guessable name is never followed', async () => {
    const victim = join(work, 'victim.txt');
    writeFileSync(victim, 'VICTIM');
    for (let port = 30000; port < 30010; port++)
      symlinkSync(victim, join(work, `atlevel-serve-${port}.kubeconfig`));
    const { kubeconfig } = await serveAndStop([]);
    expect(kubeconfig.endsWith('/kubeconfig')).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('VICTIM');
  });
  it('--kubeconfig-out refuses, before listening, what --out refuses', () => {
    const input = join(work, 'input');
    mkdirSync(input);
    writeFileSync(join(input, 'build-log.txt'), readFileSync(join(example, 'build-log.txt')));
    for (const [target, problem] of [
      [join(input, 'build-log.txt'), /--kubeconfig-out names one of the inputs|inside the input folder/],
      ['/dev/null', /--kubeconfig-out names a device/],
      [work, /--kubeconfig-out names a folder/],
      [join(work, 'missing', 'kc'), /folder that does not exist/],
    ] as const) {
      const r = spawnSync(
        process.execPath,
        [bin, 'serve', input, '--port', '0', '--kubeconfig-out', target],
        {
          encoding: 'utf8',
          timeout: 20_000,
        },
      );
      expect(r.status, target).toBe(2);
      expect(r.stderr).toMatch(problem);
      expect(r.stdout).not.toContain('atlevel serve: http');
    }
  });
});

describe("serve's notes", () => {
  it('carry the one prefix every message has, atlevel: ', async () => {
    // Operators alone: no update, so the replay note is said.
    const operators = join(example, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/clusteroperators.json');
    const child = spawn(
      process.execPath,
      [bin, 'serve', operators, '--replay', '--port', '0', '--start-after', '100'],
      { env: { ...process.env, TMPDIR: work }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += String(c);
    });
    child.stderr.on('data', (c) => {
      err += String(c);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    while (!/^replay: /m.test(out) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(err).toBe(
      'atlevel: note: the inputs hold no update to replay; this replays every recorded change from the first\n',
    );
  });
});
