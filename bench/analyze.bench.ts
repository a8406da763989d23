/**
 * analyze on a large synthetic CI run (bench/large-run.ts, ~183 MB with its workloads) against the floor measured in the
 * same run: a node process that only reads every file and JSON.parses the JSON ones (and splits the
 * build log into lines). Goal (issue 42): within 1.2x of the floor in wall and CPU time (1.5x before);
 * peak RSS under 2x the largest input plus 200 MB. Each figure is the median of five runs, after one untimed run of each (warm), all
 * taken in this one process's lifetime, the floor and analyze taking turns (so that a slow spell of a
 * shared machine falls on both); the CPU seconds (user + system) are printed too, as they vary
 * less than wall time on a shared machine.
 *
 * Then the cost of the rule operator-level-before-operands (issue 40: no more than 10%): analyze as
 * above against analyze with `--rule` naming every other rule, in pairs whose order alternates, as
 * medians of wall and CPU time and their ratio. The run's workloads (bench/large-run-workloads.ts) make
 * the rule checked there: it builds every workload's rollout and judges machine-config's, the one
 * operator whose level report the inputs date; it holds.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { RULE_IDS } from '../src/invariants/index.js';
import { Budget } from '../src/model/index.js';
import { readMachineConfigList } from '../src/sources/quick-configs.js';
import { writeLargeRun } from './large-run.js';
import { codeCacheState } from './timing.js';

const root = new URL('..', import.meta.url).pathname;
const dir = join(root, 'bench/out/large-run');
// A run written before the workloads were added (no release-to.json) is written anew.
if (!existsSync(join(dir, 'build-log.txt')) || !existsSync(join(dir, 'release/release-to.json'))) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t = performance.now();
  await writeLargeRun(dir);
  process.stdout.write(`generated ${dir} in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
}
if (!existsSync(join(root, 'dist/cli/main.js')))
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });

function files(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)],
  );
}
const all = files(dir);
const sizes = all.map((f) => statSync(f).size);
const total = sizes.reduce((a, b) => a + b, 0);
const largest = Math.max(...sizes);
process.stdout.write(
  `input: ${all.length} files, ${(total / 1e6).toFixed(1)} MB, largest ${(largest / 1e6).toFixed(1)} MB\n`,
);

// What analyze parses and what it skips, file by file, from how the loader reads each one: the
// configs of machineconfigs.json stay bytes unless an explanation opens one (sources/quick-configs.ts,
// the loader's own reader for the file); every other JSON file is parsed whole, item by item, and the
// build log is split into lines. No event or interval is skipped before JSON.parse: every event's and
// every interval's times bound the update window and the history's span, and an interval that echoes a
// build-log line is known to be one only once it is parsed (docs/performance.md, "analyze against its
// floor").
let parsedTotal = 0;
let skippedTotal = 0;
const rows: string[] = [];
// Largest first.
for (const k of [...all.keys()].sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0))) {
  const file = all[k] ?? '';
  const size = sizes[k] ?? 0;
  const rel = relative(dir, file);
  let parsed = size;
  let how = file.endsWith('.json') ? 'parsed whole' : 'split into lines';
  if (/\/e2e-intervals[^/]*\.json$/.test(file))
    how = 'parsed whole; the items that repeat a build-log line are dropped once parsed';
  if (file.endsWith('/machineconfigs.json')) {
    const read = readMachineConfigList(readFileSync(file), 'machineconfigs.json', file, {
      budget: new Budget(),
    });
    if (read) {
      parsed = read.parsedBytes;
      how = `configs kept as bytes (${read.result.objects.length} items; an explanation parses those it opens)`;
    } else how = 'parsed whole (the quick reader stepped aside)';
  }
  parsedTotal += parsed;
  skippedTotal += size - parsed;
  rows.push(
    `  ${(size / 1e6).toFixed(1).padStart(6)} MB  parsed ${(parsed / 1e6).toFixed(1).padStart(5)} MB  skipped ${((size - parsed) / 1e6).toFixed(1).padStart(5)} MB  ${rel}: ${how}`,
  );
}
process.stdout.write(`${rows.join('\n')}\n`);
process.stdout.write(
  `bytes skipped before JSON.parse: ${(skippedTotal / 1e6).toFixed(1)} MB; parsed: ${(parsedTotal / 1e6).toFixed(1)} MB (of ${(total / 1e6).toFixed(1)} MB)\n`,
);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
process.stdout.write(`load average before timing: ${load()} (${cpus().length} cpus)\n`);
process.stdout.write(`code cache of the bundled CLI: ${codeCacheState(root)}\n`);

const floorScript = `
const fs = require('node:fs');
for (const f of ${JSON.stringify(all)}) {
  const text = fs.readFileSync(f, 'utf8');
  if (f.endsWith('.json')) JSON.parse(text); else text.split('\\n');
}`;

interface Sample {
  seconds: number;
  cpuSeconds: number;
  userSeconds: number;
  maxRssMb: number;
}

function timed(args: string[]): Sample {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const [secs, kb, user, system] = last.split(' ').map(Number);
  if (
    secs === undefined ||
    kb === undefined ||
    user === undefined ||
    system === undefined ||
    Number.isNaN(secs + kb + user + system)
  )
    throw new Error(`could not time ${args.join(' ')}: ${r.stderr}`);
  return { seconds: secs, cpuSeconds: user + system, userSeconds: user, maxRssMb: kb / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
// --out refuses devices (it replaces regular files only): the report goes to a scratch file.
const scratch = mkdtempSync(join(tmpdir(), 'atlevel-analyze-bench-'));
const analyzeArgs = [
  process.execPath,
  join(root, 'bin/atlevel.js'),
  'analyze',
  dir,
  '-o',
  'json',
  '--out',
  join(scratch, 'report.json'),
  '--exit-zero',
];
// Warm: one untimed run of each, so that the floor and atlevel both read from the page cache.
timed([process.execPath, '-e', floorScript]);
timed(analyzeArgs);
const floor: Sample[] = [];
const analyze: Sample[] = [];
const RUNS = 5;
for (let i = 0; i < RUNS; i++) {
  floor.push(timed([process.execPath, '-e', floorScript]));
  analyze.push(timed(analyzeArgs));
}

// The operand rule's cost: with every rule (as above) and with every rule but it, order alternating.
const RULE = 'operator-level-before-operands';
const withoutArgs = [...analyzeArgs, '--rule', ...RULE_IDS.filter((id) => id !== RULE)];
const withRule: Sample[] = [];
const withoutRule: Sample[] = [];
const PAIRS = 7;
timed(withoutArgs);
for (let i = 0; i < PAIRS; i++) {
  if (i % 2 === 0) {
    withRule.push(timed(analyzeArgs));
    withoutRule.push(timed(withoutArgs));
  } else {
    withoutRule.push(timed(withoutArgs));
    withRule.push(timed(analyzeArgs));
  }
}
rmSync(scratch, { recursive: true, force: true });
const f = median(floor.map((s) => s.seconds));
const a = median(analyze.map((s) => s.seconds));
const fCpu = median(floor.map((s) => s.cpuSeconds));
const aCpu = median(analyze.map((s) => s.cpuSeconds));
const rss = Math.max(...analyze.map((s) => s.maxRssMb));
const budget = (2 * largest) / 1e6 + 200;
process.stdout.write(
  `floor (read + JSON.parse):   ${f.toFixed(2)} s (cpu ${fCpu.toFixed(2)} s), peak ${median(floor.map((s) => s.maxRssMb)).toFixed(0)} MB\n`,
);
process.stdout.write(
  `atlevel analyze -o json:     ${a.toFixed(2)} s (cpu ${aCpu.toFixed(2)} s), peak ${rss.toFixed(0)} MB\n`,
);
process.stdout.write(
  `ratio to floor: ${(a / f).toFixed(2)}x (goal <= 1.2x, issue 42); in cpu time ${(aCpu / fCpu).toFixed(2)}x\n`,
);
// System time is mostly page faults on fresh memory, whose cost differs widely between machines (on
// some VMs a fault costs several microseconds): the floor, which holds every parsed file at once,
// makes twice as many as analyze. User time depends on memory less, though not at all: with
// transparent huge pages on (`always`), the floor's big strings get them and its user time halves,
// while V8's heap, made of small pages, gains nothing. So the floor, and with it every ratio here,
// varies by machine; read the ratios of one run together.
const fUser = median(floor.map((s) => s.userSeconds));
const aUser = median(analyze.map((s) => s.userSeconds));
// Each turn's own ratio too (the floor and analyze ran back to back): how far one reading can stray.
const pairRatios = floor.map((fl, i) => (analyze[i]?.userSeconds ?? Number.NaN) / fl.userSeconds);
process.stdout.write(
  `in user time alone: floor ${fUser.toFixed(2)} s, analyze ${aUser.toFixed(2)} s, ${(aUser / fUser).toFixed(2)}x; turn by turn ${Math.min(...pairRatios).toFixed(2)}-${Math.max(...pairRatios).toFixed(2)}x (system time: floor ${(fCpu - fUser).toFixed(2)} s, analyze ${(aCpu - aUser).toFixed(2)} s)\n`,
);
process.stdout.write(
  `peak memory: ${rss.toFixed(0)} MB of a ${budget.toFixed(0)} MB budget (2x largest input + 200 MB)\n`,
);
const wWall = median(withRule.map((s) => s.seconds));
const nWall = median(withoutRule.map((s) => s.seconds));
const wCpu = median(withRule.map((s) => s.cpuSeconds));
const nCpu = median(withoutRule.map((s) => s.cpuSeconds));
const cpuPairs = withRule.map((w, i) => w.cpuSeconds / (withoutRule[i]?.cpuSeconds ?? Number.NaN));
process.stdout.write(
  `rule ${RULE} (medians of ${PAIRS} alternating pairs): with it ${wWall.toFixed(2)} s (cpu ${wCpu.toFixed(2)} s), without it (--rule every other) ${nWall.toFixed(2)} s (cpu ${nCpu.toFixed(2)} s), peak ${Math.max(...withRule.map((s) => s.maxRssMb)).toFixed(0)} MB vs ${Math.max(...withoutRule.map((s) => s.maxRssMb)).toFixed(0)} MB\n`,
);
process.stdout.write(
  `rule cost: ${((wWall / nWall - 1) * 100).toFixed(1)}% wall (${(wWall / nWall).toFixed(3)}x), ${((wCpu / nCpu - 1) * 100).toFixed(1)}% cpu (${(wCpu / nCpu).toFixed(3)}x) (goal <= 10%, issue 40); cpu pair by pair ${Math.min(...cpuPairs).toFixed(3)}-${Math.max(...cpuPairs).toFixed(3)}x\n`,
);
process.stdout.write(`load average after timing: ${load()}\n`);
