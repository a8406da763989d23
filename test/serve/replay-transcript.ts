/**
 * Reproduces docs/serve.md's transcript (not a test): `atlevel serve examples/bug-2019850 --replay
 * --speed 60` with `kubectl get mcp -w` and `kubectl get clusterversion -w` side by side, each line
 * prefixed with the watch it came from and the server's replay clock when it arrived
 * (`GET /atlevel/moment`). Run with `node --import tsx test/serve/replay-transcript.ts` after
 * `npm run build`; it needs /usr/bin/kubectl.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../helpers/fixtures.js';
import { KUBECTL } from './helpers.js';

const home = mkdtempSync(join(tmpdir(), 'atlevel-transcript-'));
const kc = join(home, 'kubeconfig');
const serve = spawn(
  process.execPath,
  [
    'bin/atlevel.js',
    'serve',
    'examples/bug-2019850',
    '--replay',
    '--speed',
    '60',
    '--start-after',
    '3',
    '--kubeconfig-out',
    kc,
  ],
  { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] },
);
let out = '';
serve.stdout.on('data', (c) => {
  out += String(c);
});
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
};
await until(() => out.includes('replay:'));
const url = /(http:\/\/\S+)/.exec(out)?.[1] ?? '';
process.stdout.write(`${out.trimEnd()}\n\n`);
const lines: string[] = [];
const moment = async () =>
  ((await (await fetch(`${url}/atlevel/moment`)).json()) as { now: string }).now.slice(11, 19);
const watch = (tag: string, args: string[]): ChildProcess => {
  const c = spawn(KUBECTL, ['--kubeconfig', kc, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home },
  });
  let buf = '';
  c.stdout?.on('data', async (d) => {
    buf += String(d);
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    const at = await moment();
    for (const p of parts) lines.push(`${at} ${tag}  ${p}`);
  });
  return c;
};
const watches = [watch('mcp', ['get', 'mcp', '-w']), watch('cv ', ['get', 'clusterversion', '-w'])];
await until(() => out.includes('replay: done'));
await new Promise((r) => setTimeout(r, 1000));
for (const w of watches) w.kill();
const t = performance.now();
serve.kill('SIGTERM');
const code = await new Promise<number | null>((r) => serve.on('exit', r));
process.stdout.write(`${lines.join('\n')}\n\n`);
process.stdout.write(
  `${out.trimEnd().split('\n').at(-1)}; exit ${code}, ${(performance.now() - t).toFixed(0)} ms after SIGTERM\n`,
);
rmSync(home, { recursive: true, force: true });
