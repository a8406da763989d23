/**
 * `atlevel diff --pool master --from machineconfigs.json -o json`, a cold process, on a List of 220
 * rendered configs of real size (rendered-configs.ts says its shape: 37.6 MB, one kubelet.service
 * line changed between the two configs compared), against, in the same run:
 *   - the seed's approach (bug-2019850.txt): its diff-machine-config.sh (bench/diff-machine-config.sh),
 *     and the least any jq pipeline must do (one select per config + diff -u0); both are given the
 *     two names up front, which favours them;
 *   - the floor: a node process that reads the file and JSON.parses it.
 * Goal (issue 42): at least 10x faster than the seed's script, and at most the floor (1.0x): diff
 * reads the file once and parses only the two configs it compares (sources/quick-configs.ts). Runs
 * alternate (floor, atlevel, seed, minimal jq, then again) and the figures are medians, wall and CPU
 * time (CPU is the steadier one on a busy machine); the load average is printed before and after,
 * since a machine shared with other work makes every wall time longer. ATLEVEL_BENCH_RUNS sets the
 * number of rounds (default 5).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIGS, writeRenderedConfigs } from './rendered-configs.js';
import { codeCacheState, median, type Sample, timed } from './timing.js';

const root = new URL('..', import.meta.url).pathname;

if (!existsSync(join(root, 'dist/cli/main.js')))
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
// ATLEVEL_BENCH_DIR keeps the generated file there (for profiling); otherwise a temp dir is removed after.
const keep = process.env.ATLEVEL_BENCH_DIR;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'atlevel-diff-bench-'));
try {
  const file = join(dir, 'machineconfigs.json');
  mkdirSync(dir, { recursive: true });
  let t = performance.now();
  const [older, newer] = writeRenderedConfigs(file);
  process.stdout.write(
    `input: ${file}, ${CONFIGS} rendered configs, ${(statSync(file).size / 1e6).toFixed(1)} MB (generated in ${((performance.now() - t) / 1000).toFixed(1)} s)\n`,
  );
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  process.stdout.write(`load average before: ${load()}\n`);
  process.stdout.write(`code cache of the bundled CLI: ${codeCacheState(root)}\n`);

  const floorScript = `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));`;
  // The seed's approach two ways. `seed`: its diff-machine-config.sh as written in the bug (the List
  // held in a shell variable, each config selected twice: once for the header, once for diff -u0),
  // reading the file instead of curl; this is what the issue timed. `minimal`: the least any jq
  // approach must do, one select per config (written to files so /usr/bin/time counts every jq).
  const seedScript = join(root, 'bench/diff-machine-config.sh');
  const select = (name: string, out: string) =>
    `jq -r --arg name ${name} '.items[] | select(.metadata.name == $name)' ${JSON.stringify(file)} | jq -r . > ${join(dir, out)}`;
  const minimalScript = `${select(older, 'a.json')}; ${select(newer, 'b.json')}; diff -u0 ${join(dir, 'a.json')} ${join(dir, 'b.json')}; true`;
  const atlevel = [
    process.execPath,
    join(root, 'bin/atlevel.js'),
    'diff',
    '--pool',
    'master',
    '--from',
    file,
    '-o',
    'json',
  ];

  // One untimed run to check that atlevel finds what the seed's engineer found.
  t = performance.now();
  const check = spawnSync(atlevel[0]!, atlevel.slice(1), {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (check.status !== 1) throw new Error(`atlevel diff exited ${check.status}: ${check.stderr}`);
  const said = JSON.parse(check.stdout) as { from: string; to: string; changes: unknown[] };
  process.stdout.write(
    `atlevel diff says: ${said.from} -> ${said.to}, ${said.changes.length} change(s)${said.from === older && said.to === newer ? '' : ' (NOT the expected two configs)'}\n`,
  );

  const floor: Sample[] = [];
  const ours: Sample[] = [];
  const seed: Sample[] = [];
  const minimal: Sample[] = [];
  const rounds = Number(process.env.ATLEVEL_BENCH_RUNS ?? 5);
  for (let i = 0; i < rounds; i++) {
    floor.push(timed([process.execPath, '-e', floorScript]));
    ours.push(timed(atlevel));
    seed.push(timed(['bash', seedScript, file, older, newer]));
    minimal.push(timed(['bash', '-c', minimalScript]));
  }
  const wall = (xs: Sample[]) => median(xs.map((s) => s.seconds));
  const cpu = (xs: Sample[]) => median(xs.map((s) => s.cpu));
  const rss = (xs: Sample[]) => median(xs.map((s) => s.maxRssMb)).toFixed(0);
  const line = (label: string, xs: Sample[], note = '') =>
    `${label.padEnd(36)} ${wall(xs).toFixed(2)} s wall, ${cpu(xs).toFixed(2)} s CPU, peak ${rss(xs)} MB${note}\n`;
  process.stdout.write(line('floor (node read + JSON.parse):', floor));
  process.stdout.write(line('atlevel diff --pool master --from:', ours));
  process.stdout.write(line("seed's diff-machine-config.sh:", seed, ' (largest process)'));
  process.stdout.write(line('minimal jq (2 selects + diff -u0):', minimal, ' (largest process)'));
  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
  process.stdout.write(
    `speed-up over the seed's script: ${ratio(wall(seed), wall(ours))} wall, ${ratio(cpu(seed), cpu(ours))} CPU (goal >= 10x)\n`,
  );
  process.stdout.write(
    `speed-up over minimal jq:        ${ratio(wall(minimal), wall(ours))} wall, ${ratio(cpu(minimal), cpu(ours))} CPU\n`,
  );
  process.stdout.write(
    `ratio to floor:                  ${(wall(ours) / wall(floor)).toFixed(2)}x wall, ${(cpu(ours) / cpu(floor)).toFixed(2)}x CPU (goal <= 1.0x)\n`,
  );
  process.stdout.write(`load average after: ${load()} (medians of ${rounds} alternating rounds)\n`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
