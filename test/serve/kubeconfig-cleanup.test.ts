/**
 * serve removes the kubeconfig it wrote by default when it stops (it would point at a closed port),
 * and leaves one named by --kubeconfig-out.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

const bin = join(projectRoot, 'bin/atlevel.js');
const example = join(projectRoot, 'examples/bug-2019850');
const work = mkdtempSync(join(tmpdir(), 'atlevel-serve-kc-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Start serve, wait for its kubeconfig line, stop it with SIGTERM; the kubeconfig path it printed. */
async function serveAndStop(args: string[]): Promise<{ kubeconfig: string; code: number | null }> {
  const child = spawn(process.execPath, [bin, 'serve', example, ...args], {
    env: { ...process.env, TMPDIR: work },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c) => {
    out += String(c);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  while (!/^kubeconfig: \S+/m.test(out)) await new Promise((r) => setTimeout(r, 20));
  const kubeconfig = /^kubeconfig: (\S+)/m.exec(out)?.[1] ?? '';
  expect(existsSync(kubeconfig)).toBe(true);
  child.kill('SIGTERM');
  return { kubeconfig, code: await exited };
}

describe('serve and its kubeconfig', () => {
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
});
