/**
 * Start-up, as the installed binary pays it: whole processes, warm (each command run once before
 * timing), medians, all in this one run. Goals (issue 12):
 *   - `atlevel --version` and `atlevel --help` within 1.5x the wall time of `node -e 0`;
 *   - `atlevel diff --pool master --from machineconfigs.json` on the 220-config file
 *     (bench/machineconfigs.ts) within 1.5x the floor (a node process that reads and JSON.parses the
 *     file) and at least 10x faster than the seed's jq pipeline (bench/diff-machine-config.sh).
 * CPU time (user + system) is printed beside wall time: on a busy machine it is the steadier figure.
 * ATLEVEL_BENCH_RUNS sets the number of timed runs of the start-up commands (default 21).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMachineConfigs } from './machineconfigs.js';
import { codeCacheState, median, timedMs } from './timing.js';

const root = new URL('..', import.meta.url).pathname;
execFileSync('npm', ['run', '-s', 'build'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ATLEVEL_QUIET_BUILD: '1' },
});
const node = process.execPath;
const bin = join(root, 'bin/atlevel.js');
const runs = Number(process.env.ATLEVEL_BENCH_RUNS ?? 21);

type Timing = { wall: number; cpu: number };
/** Interleaved runs (one of each command per round), so that a busy moment hits every command alike. */
function measure(commands: string[][], rounds: number): Timing[] {
  for (const c of commands) timedMs(c); // warm: page cache, and node's own files
  const samples = commands.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let i = 0; i < rounds; i++) {
    commands.forEach((c, j) => {
      const s = timedMs(c);
      samples[j]!.wall.push(s.seconds);
      samples[j]!.cpu.push(s.cpu);
    });
  }
  return samples.map((s) => ({ wall: median(s.wall), cpu: median(s.cpu) }));
}

const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;
const row = (label: string, t: Timing) =>
  `${label.padEnd(40)} ${ms(t.wall).padStart(8)} wall, ${ms(t.cpu).padStart(8)} CPU\n`;
const goal = (label: string, t: Timing, base: Timing, limit: number) => {
  const w = t.wall / base.wall;
  const c = t.cpu / base.cpu;
  return `${label.padEnd(40)} ${w.toFixed(2)}x wall, ${c.toFixed(2)}x CPU (goal <= ${limit}x wall): ${w <= limit ? 'met' : 'NOT met'}\n`;
};

process.stdout.write(`code cache of the bundled CLI: ${codeCacheState(root)}\n`);
process.stdout.write(`start-up, ${runs} runs each, medians:\n`);
const [bare, version, help] = measure(
  [
    [node, '-e', '0'],
    [node, bin, '--version'],
    [node, bin, '--help'],
  ],
  runs,
) as [Timing, Timing, Timing];
process.stdout.write(row('node -e 0', bare));
process.stdout.write(row('atlevel --version', version));
process.stdout.write(row('atlevel --help', help));
process.stdout.write(goal('atlevel --version / node -e 0:', version, bare, 1.5));
process.stdout.write(goal('atlevel --help / node -e 0:', help, bare, 1.5));

const dir = mkdtempSync(join(tmpdir(), 'atlevel-start-bench-'));
try {
  const file = join(dir, 'machineconfigs.json');
  const [older, newer] = writeMachineConfigs(file);
  const atlevel = [node, bin, 'diff', '--pool', 'master', '--from', file];
  const check = spawnSync(atlevel[0]!, atlevel.slice(1), {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (check.status !== 1) throw new Error(`atlevel diff exited ${check.status}: ${check.stderr}`);
  const diffRuns = Number(process.env.ATLEVEL_BENCH_DIFF_RUNS ?? 5);
  process.stdout.write(
    `\ndiff on ${file}: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${diffRuns} runs each, medians:\n`,
  );
  const floorScript = `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));`;
  const [floor, ours] = measure([[node, '-e', floorScript], atlevel], diffRuns) as [Timing, Timing];
  const seedRuns = spawnSync('bash', ['-c', 'command -v jq']).status === 0 ? 3 : 0;
  process.stdout.write(row('floor (node: read + JSON.parse)', floor));
  process.stdout.write(row('atlevel diff --pool master --from', ours));
  process.stdout.write(goal('atlevel diff / floor:', ours, floor, 1.5));
  if (seedRuns === 0) process.stdout.write("seed's jq pipeline: not measured (jq is not installed)\n");
  else {
    const [seed] = measure(
      [['bash', join(root, 'bench/diff-machine-config.sh'), file, older, newer]],
      seedRuns,
    ) as [Timing];
    process.stdout.write(row("seed's diff-machine-config.sh (jq)", seed));
    const w = seed.wall / ours.wall;
    process.stdout.write(
      `${'speed-up over the seed:'.padEnd(40)} ${w.toFixed(1)}x wall, ${(seed.cpu / ours.cpu).toFixed(1)}x CPU (goal >= 10x wall): ${w >= 10 ? 'met' : 'NOT met'}\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
