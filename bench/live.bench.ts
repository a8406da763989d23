/**
 * `atlevel watch` on a replay of a large cluster (issue 14): 250 nodes, 200 rendered configs, 30k
 * events (test/serve/make-must-gather.ts, every event in openshift-machine-config-operator, one of
 * the namespaces watch reads), served in this process by `atlevel serve --replay`; the watcher runs
 * in a child process so that its peak RSS is its own. Two runs:
 *  - at --speed 100 over the update (the replay's start to the CVO's completion plus the pools'
 *    finish): does it keep up? Every change absorbed, and how long after the replay's completion was
 *    due the watcher reported the update complete (goal: under a second; RSS goal under 300 MB);
 *  - at --speed 1000000 (every change due at once): how many changes per second it absorbs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubeconfigFor, startServer } from '../src/serve/index.js';
import { loadHistoryParts } from '../src/sources/index.js';
import { buildHistory } from '../src/timeline/index.js';
import { makeMustGather } from '../test/serve/make-must-gather.js';

const root = new URL('..', import.meta.url).pathname;
const say = (s: string) => process.stdout.write(`${s}\n`);

/**
 * The watcher, in a child process on the built CLI library (dist/, as `atlevel watch` runs): absorb
 * every change until SIGINT, then report what it absorbed and its peak RSS.
 */
const CHILD = `
import { loadKubeConfig } from ${JSON.stringify(join(root, 'dist/live/index.js'))};
import { watchCluster } from ${JSON.stringify(join(root, 'dist/watch/index.js'))};
const config = await loadKubeConfig({ kubeconfig: process.argv[1] });
const stop = new AbortController();
process.on('SIGINT', () => stop.abort());
let changes = 0, first = 0, last = 0;
const summary = await watchCluster({ config, forever: true, signal: stop.signal, emit: () => undefined,
  onChange: () => { const now = Date.now(); if (changes === 0) first = now; last = now; changes++; } });
process.stdout.write(JSON.stringify({ changes, first, last, verdict: summary.result.verdict,
  stats: summary.stats, maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\\n');
`;

const out = join(root, 'bench/out/live');
const SHAPE = { nodes: 250, renderedConfigs: 200, events: 30_000, namespaces: 1 };
const stamp = join(out, `shape-${SHAPE.nodes}-${SHAPE.renderedConfigs}-${SHAPE.events}-${SHAPE.namespaces}`);
if (!existsSync(stamp)) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  makeMustGather(out, SHAPE);
  writeFileSync(stamp, '');
}
const input = join(out, 'must-gather.local.1');
const history = buildHistory(await loadHistoryParts([input], { now: Date.now() }));

interface ChildReport {
  changes: number;
  first: number;
  last: number;
  verdict: string;
  maxRssMB: number;
  stats: { events: number; transitions: number; checks: number; reconnects: number };
}

const WATCHED = new Set([
  'ClusterVersion',
  'ClusterOperator',
  'MachineConfigPool',
  'MachineConfig',
  'Node',
  'Event',
]);

async function run(
  speed: number,
): Promise<{ report: ChildReport; lastApplied: number; revisions: number; maxLagMs: number }> {
  const server = await startServer({ history, replay: true, holdReplay: true, speed });
  const plan = server.replay?.plan;
  if (!plan) throw new Error('no replay');
  const kc = join(out, `kubeconfig-${speed}`);
  writeFileSync(kc, kubeconfigFor(server.url));
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, kc], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (c: Buffer) => {
    text += c.toString();
  });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  // Start the replay once the watcher has opened its watches.
  while (server.watchCount() < 6) await new Promise((r) => setTimeout(r, 20));
  server.replay?.start();
  await server.replay?.done;
  const lastApplied = Date.now();
  const revisions = plan.revisions.filter((r) => WATCHED.has(r.item.kind)).length;
  // Let the watcher drain what is in flight, then stop it as Ctrl-C would.
  await new Promise((r) => setTimeout(r, 2000));
  child.kill('SIGINT');
  await exited;
  const progress = server.replay?.progress();
  await server.close();
  const report = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as ChildReport;
  return { report, lastApplied, revisions, maxLagMs: progress?.maxLagMs ?? 0 };
}

if (!existsSync(join(root, 'dist/watch/index.js')))
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
const slow = await run(100);
const behind = slow.report.last - slow.lastApplied;
say(
  `--speed 100: ${slow.revisions} changes of the watched kinds replayed; the watcher absorbed ${slow.report.changes} (${slow.report.stats.transitions} transitions, ${slow.report.stats.checks} rule checks, ${slow.report.stats.reconnects} reconnects), verdict ${slow.report.verdict}`,
);
say(
  `  keeps up: last change absorbed ${behind} ms after the server applied the last one (server's own worst lag ${slow.maxLagMs.toFixed(0)} ms); all absorbed and under 1000 ms behind: ${slow.report.changes >= slow.revisions && behind < 1000 ? 'met' : 'NOT met'}`,
);
say(
  `  watcher peak RSS ${slow.report.maxRssMB.toFixed(0)} MB; goal under 300 MB: ${slow.report.maxRssMB < 300 ? 'met' : 'NOT met'}`,
);

const fast = await run(1_000_000);
const seconds = Math.max(0.001, (fast.report.last - fast.report.first) / 1000);
say(
  `--speed 1000000 (every change due at once): ${fast.report.changes} of ${fast.revisions} changes absorbed in ${seconds.toFixed(2)} s = ${Math.round(fast.report.changes / seconds)} changes/s; peak RSS ${fast.report.maxRssMB.toFixed(0)} MB`,
);
