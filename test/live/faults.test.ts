/**
 * watch is robust like a controller: through a proxy that cuts every watch connection 100 times and
 * answers 410 Gone, and a server restart, it loses no transition the replay played (compared with
 * the replay plan's ground truth), reports each finding once, and ends cleanly with the verdict.
 */
import { describe, expect, it } from 'vitest';
import type { RawObject } from '../../src/live/index.js';
import { transitions } from '../../src/watch/monitor.js';
import { serve, startProxy, startReplayWhenWatched, startWatch } from './helpers.js';

const WATCHED = new Set(['ClusterVersion', 'ClusterOperator', 'MachineConfigPool', 'MachineConfig', 'Node']);

describe('watch under faults', () => {
  it('100 dropped watches, 410 Gone and a restart: no transition lost, no finding twice, clean exit', async () => {
    const server = await serve(['examples/bug-2019850'], { replay: true, holdReplay: true, speed: 250 });
    const proxy = await startProxy(server.url);
    try {
      const plan = server.replay?.plan;
      if (!plan) throw new Error('no replay');
      // Ground truth: the transitions each played revision means, from the state before it.
      const last = new Map<string, RawObject>();
      const id = (kind: string, o: RawObject) =>
        `${kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
      for (const i of plan.initial) last.set(id(i.kind, i.object as RawObject), i.object as RawObject);
      const truth: string[] = [];
      for (const r of plan.revisions) {
        if (!WATCHED.has(r.item.kind)) continue;
        const key = id(r.item.kind, r.item.object as RawObject);
        for (const t of transitions(r.item.kind, last.get(key), r.item.object as RawObject, 0))
          truth.push(`${t.locator} ${t.message}`);
        last.set(key, r.item.object as RawObject);
      }
      expect(truth.length).toBeGreaterThan(50);

      const w = await startWatch(proxy.url);
      await startReplayWhenWatched(server, 8);
      let drops = 0;
      let restarted = false;
      let gone = false;
      while (drops < 100) {
        await new Promise((r) => setTimeout(r, 40));
        if (proxy.dropWatches() > 0) drops++;
        if (drops === 30 && !gone) {
          gone = true;
          proxy.goneOnce();
        }
        if (drops === 60 && !restarted) {
          restarted = true;
          await server.faults.restart();
        }
      }
      const summary = await w.done;
      const seen = w.outputs.flatMap((o) =>
        o.type === 'transition' && !o.record.locator.startsWith('ns/')
          ? [`${o.record.locator} ${o.record.message}`]
          : [],
      );
      // Every transition the replay played was seen, and nothing it did not play. (A flapping
      // condition's repeats are compared as a set: a relist after 410 sees only the latest state.)
      expect([...new Set(seen)].sort()).toEqual([...new Set(truth)].sort());
      expect(summary.interrupted).toBe(false);
      expect(summary.result.verdict).toBe('fail');
      expect(summary.stats.reconnects).toBeGreaterThanOrEqual(100);
      expect(summary.stats.relists).toBeGreaterThanOrEqual(1);

      const findings = w.outputs.flatMap((o) => (o.type === 'finding' ? [o.finding.rule] : []));
      expect(findings).toEqual([
        'operator-level-before-required-pool-target',
        'master-pool-updated-before-cvo-complete',
      ]);
      expect(proxy.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
