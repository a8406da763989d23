/**
 * The must-show behaviour of `atlevel watch` against `atlevel serve` replays (docs/live.md): the level
 * race and the master-pool rule caught live on bug 2019850 and on simulator runs, nothing raised
 * under the fixed policy, --record round-trips through analyze, only get/list/watch are sent.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { monitorLine, sortedRecords } from '../../src/artifacts/index.js';
import { main } from '../../src/cli/main.js';
import { RESOURCES } from '../../src/live/index.js';
import type { Finding } from '../../src/model/index.js';
import { loadHistoryParts } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/index.js';
import type { WatchOutput } from '../../src/watch/index.js';
import {
  byKey,
  observable,
  observed,
  recordServed,
  serve,
  startProxy,
  startReplayWhenWatched,
  startWatch,
  until,
} from './helpers.js';

// The reconstruction's timeline, which these replays pin moment by moment (test/fixtures/reconstruction).
const EXAMPLE = 'test/fixtures/reconstruction/bug-2019850';
/**
 * The streams a watch of a served CI run opens: one per cluster-wide resource live reads (serve
 * announces every kind atlevel knows, whether or not the run holds any), and Events in 3 namespaces;
 * no Pods, as the run holds no PodDisruptionBudget.
 */
const STREAMS = RESOURCES.filter((r) => r.scope !== 'namespaces').length + 3;
const T = (clock: string) => Date.parse(`2021-11-03T${clock}Z`);

const tmp = mkdtempSync(join(tmpdir(), 'atlevel-live-watch-'));

function findings(outputs: readonly WatchOutput[]) {
  return outputs.filter((o): o is Extract<WatchOutput, { type: 'finding' }> => o.type === 'finding');
}

async function analyzePaths(paths: string[]) {
  return analyzeHistory(buildHistory(await loadHistoryParts(paths, { now: Date.now() })));
}

/** What a finding's cause chain names: the rendered configs, the changed lines, the components, the signature. */
function causes(f: Finding) {
  const d = f.explanation?.configDiff;
  return {
    rule: f.rule,
    from: d?.from,
    to: d?.to,
    changes: (d?.changes ?? []).map((c) => ({
      part: c.part,
      name: c.name,
      lines: c.changedLines,
      components: (c.images ?? []).map((i) => i.component),
    })),
    signature: f.explanation?.signature?.id,
  };
}

describe('watch on a replay of bug 2019850', () => {
  it('flags the level race between 03:23:09 and 03:23:11 and the master pool at 03:28:27, before the update ends', async () => {
    // The stretch around the race at 60× (7 s): the replay clock is then within a fraction of a second.
    const server = await serve([EXAMPLE], {
      replay: true,
      holdReplay: true,
      speed: 60,
      range: { from: T('03:22:00'), to: T('03:29:00') },
    });
    try {
      const w = await startWatch(server.url);
      await startReplayWhenWatched(server, STREAMS);
      await until(() => findings(w.outputs).length >= 2, 30_000, 'two findings');
      w.stop.abort();
      await w.done;
      const [race, master] = findings(w.outputs);
      expect(race?.finding.rule).toBe('operator-level-before-required-pool-target');
      // To the millisecond of the level report watch printed (build-log.txt line 419), not the
      // OperatorVersionChanged Event's whole second.
      expect(race?.finding.at).toBe(T('03:23:09.856'));
      expect(race?.finding.summary).toContain('1–2s after machine-config reported level at 03:23:09.856');
      // Decided on the change that closed the window: the level report or the rendered config's arrival.
      expect(race?.at).toBeGreaterThanOrEqual(T('03:23:09'));
      expect(race?.at).toBeLessThan(T('03:23:12'));
      expect(master?.finding.rule).toBe('master-pool-updated-before-cvo-complete');
      // Decided on the CVO's completion, at the millisecond the monitor saw it (build-log.txt line 456).
      expect(master?.at).toBe(T('03:28:27.351'));
      // The race was reported before the CVO's completion was even seen.
      const reached = w.outputs.findIndex(
        (o) => o.type === 'transition' && o.record.message.startsWith('cluster reached'),
      );
      expect(w.outputs.indexOf(race as WatchOutput)).toBeLessThan(reached);
    } finally {
      await server.close();
    }
  });

  it("started while the replay runs: from each stream's list on, every change is seen once, in order, at its time", async () => {
    const server = await serve([EXAMPLE], { replay: true, holdReplay: true, speed: 250 });
    try {
      const served = recordServed(server);
      server.replay?.start();
      await until(() => served.length >= 5, 30_000, 'the replay under way');
      const w = await startWatch(server.url);
      const summary = await w.done;
      expect(summary.interrupted).toBe(false);
      // The lists came after changes had been applied: the list/watch boundary was crossed.
      const listed = Object.values(summary.listed).map(Number);
      expect(listed.length).toBe(STREAMS);
      expect(served.filter((c) => c.rv <= Math.min(...listed)).length).toBeGreaterThanOrEqual(5);
      const truth = observable(server, served, summary.until, [], summary.listed);
      expect(truth.length).toBeGreaterThan(40);
      expect(byKey(observed(w.outputs), true)).toEqual(byKey(truth, true));
    } finally {
      await server.close();
    }
  });

  it('records the whole update, every transition the server served exactly once at its time; analyze of the record gives the verdict and causes of analyze of the source; only GET was sent', async () => {
    // From 03:20 (before the race) to the end at 100×: the replay clock within a fraction of a second.
    const server = await serve([EXAMPLE], {
      replay: true,
      holdReplay: true,
      speed: 100,
      range: { from: T('03:20:00') },
    });
    const proxy = await startProxy(server.url);
    const record = join(tmp, 'bug-record');
    try {
      const served = recordServed(server);
      const w = await startWatch(proxy.url, { record });
      await startReplayWhenWatched(server, STREAMS);
      const summary = await w.done;
      expect(summary.interrupted).toBe(false);
      expect(summary.result.verdict).toBe('fail');
      // The update completed with the worker pool at 03:36:29; watch recorded 10 s of the cluster's
      // clock past it, which holds network's last Progressing=False (03:36:32).
      expect(summary.until).toBe(T('03:36:39'));
      expect(summary.gaps).toEqual([]);
      // Every transition the server served, in each object's order, at its time: none lost, none twice.
      const truth = observable(server, served, summary.until);
      expect(truth.length).toBeGreaterThan(40);
      expect(byKey(observed(w.outputs), true)).toEqual(byKey(truth, true));
      const flaps = truth.filter((t) => t.line.startsWith('clusteroperator/network condition/Progressing'));
      expect(flaps.map((t) => new Date(t.from).toISOString().slice(11, 19))).toEqual([
        '03:21:30',
        '03:25:10',
        '03:27:28',
        '03:29:17',
        '03:32:11',
        '03:33:29',
        '03:36:32',
      ]);
      // And the record holds exactly what watch printed: its build log's timeline, line for line.
      const log = readFileSync(join(record, 'build-log.txt'), 'utf8');
      const timeline = log
        .slice(log.indexOf('Timeline:\n\n') + 'Timeline:\n\n'.length)
        .replace(/\n$/, '')
        .split('\n');
      const printed = w.outputs.flatMap((o) => (o.type === 'transition' ? [o.record] : []));
      expect(timeline).toEqual(sortedRecords(printed).map(monitorLine));
      const rules = findings(w.outputs).map((f) => f.finding.rule);
      expect(rules).toEqual([
        'operator-level-before-required-pool-target',
        'master-pool-updated-before-cvo-complete',
      ]);
      expect(readdirSync(tmp).filter((n) => n.startsWith('.'))).toEqual([]);

      const source = await analyzePaths([EXAMPLE]);
      const recorded = await analyzePaths([
        record,
        `${EXAMPLE}/release/release-from.json`,
        `${EXAMPLE}/release/release-to.json`,
      ]);
      expect(recorded.verdict).toBe(source.verdict);
      const failures = (r: typeof source) => r.findings.filter((f) => f.severity === 'failure');
      expect(failures(recorded).map(causes)).toEqual(failures(source).map(causes));
      // What watch said live is what analyze of its record says: the same rules at the same moments,
      // and the level race in the same words (the master pool's finding, decided at 03:28:27, cannot
      // yet say when the pool finished).
      const live = findings(w.outputs).map((f) => f.finding);
      const byRule = (fs: readonly Finding[]) => fs.map((f) => [f.rule, f.at]).sort();
      expect(byRule(live)).toEqual(byRule(failures(recorded)));
      const race = (fs: readonly Finding[]) =>
        fs.find((f) => f.rule === 'operator-level-before-required-pool-target')?.summary;
      expect(race(live)).toBe(race(failures(recorded)));
      // The causes are really there: the pause image's line in a changed file, attributed to `pod`.
      const named = JSON.stringify(failures(source).map(causes));
      expect(named).toContain('rendered-master-ebc4fc8c7b6a155d86684204394e4930');
      expect(named).toContain('"pod"');
      expect(proxy.requests.length).toBeGreaterThan(0);
      expect(proxy.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

/**
 * The streams a watch of a simulated run opens: the cluster-wide ones and Events in 3 namespaces, as
 * for a CI run, and Pods and Events in each namespace an operator names that holds a workload (the
 * revisions file records the workloads, so the replay serves them).
 */
function simStreams(dir: string): number {
  const gathered = join(dir, 'artifacts/e2e-upgrade/gather-extra/artifacts');
  const namespaces = new Set<string>();
  for (const file of ['deployments.json', 'daemonsets.json']) {
    const list = JSON.parse(readFileSync(join(gathered, file), 'utf8')) as {
      items: { metadata: { namespace: string } }[];
    };
    for (const item of list.items) namespaces.add(item.metadata.namespace);
  }
  return STREAMS + 2 * namespaces.size;
}

/** Writes seed 1 of a built-in scenario under a policy to `dir` (its report to a file beside); the exit code. */
function simulateSeed1(scenario: string, policy: string, dir: string): Promise<number> {
  return main([
    'simulate',
    '--scenario',
    scenario,
    '--policy',
    policy,
    '--seed',
    '1',
    '--artifacts',
    dir,
    '--out',
    `${dir}.txt`,
  ]);
}

describe('watch on simulator runs (pause-image-only, seed 1)', () => {
  const runs = { 'pre-fix-2021': join(tmp, 'sim-pre'), fixed: join(tmp, 'sim-fixed') };
  beforeAll(async () => {
    for (const [policy, dir] of Object.entries(runs))
      expect([0, 1]).toContain(await simulateSeed1('pause-image-only', policy, dir));
  });

  for (const policy of ['pre-fix-2021', 'fixed'] as const) {
    it(`${policy}: ${policy === 'fixed' ? 'raises no rule, and checks every rule as analyze does' : "flags both rules live, and watch's verdict is analyze's"}`, async () => {
      const dir = runs[policy];
      const server = await serve([dir], { replay: true, holdReplay: true, speed: 400 });
      try {
        const served = recordServed(server);
        // The run's release payloads, as `watch --release-from/--release-to` gives them: a cluster holds
        // none, and without them operator-level-before-operands is not checked (verdict inconclusive).
        const { releases } = await loadHistoryParts([dir], { now: Date.now() });
        const w = await startWatch(server.url, { releases });
        await startReplayWhenWatched(server, simStreams(dir));
        const summary = await w.done;
        // Every transition the simulator's recording played, once, at its time.
        const truth = observable(server, served, summary.until);
        expect(truth.length).toBeGreaterThan(50);
        expect(byKey(observed(w.outputs), true)).toEqual(byKey(truth, true));
        const live = findings(w.outputs).map((f) => f.finding.rule);
        const source = await analyzePaths([dir]);
        if (policy === 'fixed') {
          expect(live).toEqual([]);
          // The replay serves the workloads the simulator's revisions file records (docs/simulate.md),
          // so watch checks operator-level-before-operands there as analyze of the run's gather-extra
          // files does: nothing is violated, nothing left unchecked for want of data.
          const outcome = summary.result.outcomes.find((o) => o.rule.id === 'operator-level-before-operands');
          expect(outcome?.state).toBe('holds');
          expect(summary.result.outcomes.filter((o) => o.state === 'violated')).toEqual([]);
          expect(summary.result.verdict).toBe('pass');
          expect(source.verdict).toBe('pass');
        } else {
          // Each rule once. Their order in the output is not asserted: under load the watcher may
          // take both moments in one batch and decide the two rules in the same pass.
          expect([...live].sort()).toEqual([
            'master-pool-updated-before-cvo-complete',
            'operator-level-before-required-pool-target',
          ]);
          const level = findings(w.outputs).find(
            (f) => f.finding.rule === 'operator-level-before-required-pool-target',
          );
          const cvo = source.updates[0]?.completedAt ?? 0;
          // Flagged before the CVO completed: before origin's test could notice.
          expect(level?.at).toBeLessThan(cvo);
          expect(summary.result.verdict).toBe(source.verdict);
        }
      } finally {
        await server.close();
      }
    });
  }
});

describe('watch on simulator runs (daemonset-operand-only, seed 1): the operand rule on a replay', () => {
  const runs = { naive: join(tmp, 'sim-ds-naive'), fixed: join(tmp, 'sim-ds-fixed') };
  beforeAll(async () => {
    for (const [policy, dir] of Object.entries(runs))
      expect(await simulateSeed1('daemonset-operand-only', policy, dir)).toBe(policy === 'naive' ? 1 : 0);
  });

  for (const policy of ['naive', 'fixed'] as const) {
    it(`${policy}: ${policy === 'naive' ? 'flags dns before its DaemonSet rolled out, as analyze does' : 'the operand rule holds, as analyze says'}`, async () => {
      const dir = runs[policy];
      const server = await serve([dir], { replay: true, holdReplay: true, speed: 400 });
      try {
        const { releases } = await loadHistoryParts([dir], { now: Date.now() });
        const w = await startWatch(server.url, { releases });
        await startReplayWhenWatched(server, simStreams(dir));
        const summary = await w.done;
        const source = await analyzePaths([dir]);
        const live = summary.result.outcomes.find((o) => o.rule.id === 'operator-level-before-operands');
        const analyzed = source.outcomes.find((o) => o.rule.id === 'operator-level-before-operands');
        expect(live?.state).toBe(policy === 'naive' ? 'violated' : 'holds');
        expect(live?.state).toBe(analyzed?.state);
        expect(summary.result.verdict).toBe(source.verdict);
        const flagged = findings(w.outputs).filter(
          (f) => f.finding.rule === 'operator-level-before-operands',
        );
        if (policy === 'naive') {
          const [f] = flagged;
          const [a] = source.findings.filter((x) => x.rule === 'operator-level-before-operands');
          expect(flagged.length).toBe(1);
          expect(f?.finding.subject?.operator).toBe('dns');
          expect(f?.finding.summary).toContain('DaemonSet openshift-dns/dns-default');
          // The level moment analyze names, to the millisecond of the monitor's line.
          expect(f?.finding.at).toBe(a?.at);
          // Decided live, while dns's DaemonSet was still rolling: before the CVO completed.
          expect(f?.at).toBeLessThan(source.updates[0]?.completedAt ?? 0);
        } else {
          expect(flagged).toEqual([]);
        }
      } finally {
        await server.close();
      }
    });
  }
});

afterAll(() => undefined);
