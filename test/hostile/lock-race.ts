/**
 * The stale-lock race of issue 38, as separate processes: N contenders, started together on a store
 * folder whose lock names a dead process, each try the run store's takeLock at the same instant, round
 * after round. A winner holds the lock a while, then leaves it as kill -9 leaves it (naming a dead
 * pid, replaced atomically), so the next round races for a stale lock again. Every hold is timed on
 * the monotonic clock all processes share; two holds that overlap are two processes holding the lock
 * at once, the corruption the issue measured (4 in about 70 tries before the fix). A contender that
 * comes late in a round and finds the lock stale again takes it over rightly, after the holder left:
 * that is no overlap.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CONTENDER = `
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const [impl, dir, rounds, periodMs, holdMs, deadPid, me, goFile, outFile] = process.argv.slice(2);
const { takeLock } = await import(impl);
const now = () => process.hrtime.bigint();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
writeFileSync(outFile + '.ready', '');
const { existsSync, readFileSync } = await import('node:fs');
while (!existsSync(goFile)) await sleep(5);
const t0 = BigInt(readFileSync(goFile, 'utf8'));
const holds = [];
const errors = [];
for (let r = 0; r < Number(rounds); r++) {
  const at = t0 + BigInt(r) * BigInt(periodMs) * 1_000_000n;
  while (now() < at - 3_000_000n) await sleep(1);
  while (now() < at);
  try {
    takeLock(dir);
    const from = now();
    await sleep(Number(holdMs));
    const to = now();
    const lock = join(dir, 'atlevel.lock');
    writeFileSync(lock + '.' + me + '.dead', deadPid + '\\n');
    renameSync(lock + '.' + me + '.dead', lock);
    holds.push([r, String(from), String(to)]);
  } catch (err) {
    if (!/in use by process/.test(err.message)) errors.push(err.message);
  }
}
writeFileSync(outFile, JSON.stringify({ holds, errors }));
`;

export interface RaceResult {
  /** Rounds in which someone took the lock. */
  readonly taken: number;
  /** Rounds in which two holds overlapped (two processes held the lock at once). */
  readonly overlaps: number;
  readonly errors: readonly string[];
}

/** A pid no process has: a child that has exited (reaped). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('close', r));
  return child.pid as number;
}

export async function raceLock(opts: {
  /** file:// URL of a module exporting takeLock(dir). */
  readonly impl: string;
  readonly dir: string;
  readonly contenders: number;
  readonly rounds: number;
  readonly periodMs?: number;
  readonly holdMs?: number;
}): Promise<RaceResult> {
  const script = join(opts.dir, 'contender.mjs');
  writeFileSync(script, CONTENDER);
  const dead = await deadPid();
  const store = join(opts.dir, 'store');
  const { mkdirSync, rmSync } = await import('node:fs');
  rmSync(store, { recursive: true, force: true });
  mkdirSync(store);
  writeFileSync(join(store, 'atlevel.lock'), `${dead}\n`);
  const go = join(opts.dir, 'go');
  rmSync(go, { force: true });
  const outs = Array.from({ length: opts.contenders }, (_, i) => join(opts.dir, `out-${i}.json`));
  const children = outs.map((out, i) =>
    spawn(
      process.execPath,
      [
        script,
        opts.impl,
        store,
        String(opts.rounds),
        String(opts.periodMs ?? 60),
        String(opts.holdMs ?? 25),
        String(dead),
        String(i),
        go,
        out,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    ),
  );
  const stderr: string[] = children.map(() => '');
  children.forEach((c, i) => {
    c.stderr?.on('data', (d: Buffer) => {
      stderr[i] += String(d);
    });
  });
  const done = Promise.all(children.map((c) => new Promise((r) => c.on('close', r))));
  // Every contender loaded and waiting, then all start 300 ms from now, on the same clock.
  while (!outs.every((o) => existsSync(`${o}.ready`))) {
    if (children.some((c) => c.exitCode !== null)) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  writeFileSync(go, String(process.hrtime.bigint() + 300_000_000n));
  await done;
  const holds: { r: number; from: bigint; to: bigint; who: number }[] = [];
  const errors: string[] = [];
  outs.forEach((o, who) => {
    if (!existsSync(o)) {
      errors.push(`contender ${who} wrote nothing: ${stderr[who]?.slice(0, 300)}`);
      return;
    }
    const r = JSON.parse(readFileSync(o, 'utf8')) as { holds: [number, string, string][]; errors: string[] };
    for (const [round, from, to] of r.holds)
      holds.push({ r: round, from: BigInt(from), to: BigInt(to), who });
    errors.push(...r.errors);
  });
  holds.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const overlapping = new Set<number>();
  let until = -1n;
  for (const h of holds) {
    if (h.from < until) overlapping.add(h.r);
    if (h.to > until) until = h.to;
  }
  return { taken: new Set(holds.map((h) => h.r)).size, overlaps: overlapping.size, errors };
}
