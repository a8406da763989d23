/**
 * watch is robust like a controller: through a proxy that cuts every watch connection 100 times and
 * answers 410 Gone, and a server restart, it loses no transition a client could have been shown
 * (compared, object by object and in order, with every change the server applied), reports each
 * finding once, and ends cleanly with the verdict.
 */
import { describe, expect, it } from 'vitest';
import {
  byKey,
  observable,
  observed,
  recordServed,
  serve,
  startProxy,
  startReplayWhenWatched,
  startWatch,
} from './helpers.js';

describe('watch under faults', () => {
  it('100 dropped watches, 410 Gone and a restart: no transition lost, no finding twice, clean exit', async () => {
    // From 03:14, when the pools and operators start to move, so that every fault lands among changes.
    // The faults are placed on the reconstruction's timeline (test/fixtures/reconstruction).
    const server = await serve(['test/fixtures/reconstruction/bug-2019850'], {
      replay: true,
      holdReplay: true,
      speed: 250,
      range: { from: Date.parse('2021-11-03T03:14:00Z') },
    });
    const proxy = await startProxy(server.url);
    try {
      const served = recordServed(server);
      const w = await startWatch(proxy.url);
      await startReplayWhenWatched(server, 8);
      let drops = 0;
      let restarted = false;
      let gone = false;
      // The 410s when the race's changes come thick (03:23: rendered configs, pools, nodes), the
      // restart at the CVO's completion (03:28); the drops all along.
      const replayNow = () => server.replay?.progress().now ?? 0;
      while (drops < 100 || !gone || !restarted) {
        await new Promise((r) => setTimeout(r, 40));
        if (proxy.dropWatches() > 0) drops++;
        if (!gone && replayNow() >= Date.parse('2021-11-03T03:23:00Z')) {
          gone = true;
          // Each stream hears of it 300 ms (75 s of the replay) late: what changed meanwhile reaches
          // it only by the relist.
          proxy.goneOnce(300);
        }
        if (!restarted && replayNow() >= Date.parse('2021-11-03T03:28:00Z')) {
          restarted = true;
          await server.faults.restart();
        }
      }
      const summary = await w.done;
      // Each stream's 410 made it list again: what changed between its last event and the list
      // reached it as the net effect only, as from a real API server after compaction. Everything
      // else the server applied was seen once each, in order.
      expect(new Set(summary.gaps.map((g) => g.stream)).size).toBe(summary.gaps.length);
      expect(summary.gaps.length).toBeGreaterThanOrEqual(5);
      const truth = observable(server, served, summary.until, summary.gaps);
      // The relists really had changes to fold: each gap's net effect is what the watch must show.
      const inGap = served.filter((c) =>
        summary.gaps.some(
          (g) =>
            c.rv > Number(g.after) &&
            c.rv <= Number(g.listed) &&
            server.store.type(c.typeKey)?.kind === g.stream,
        ),
      );
      expect(inGap.length).toBeGreaterThanOrEqual(5);
      expect(truth.length).toBeGreaterThan(40);
      expect(byKey(observed(w.outputs), false)).toEqual(byKey(truth, false));
      expect(summary.interrupted).toBe(false);
      expect(summary.result.verdict).toBe('fail');
      expect(summary.stats.reconnects).toBeGreaterThanOrEqual(100);
      expect(summary.stats.relists).toBeGreaterThanOrEqual(1);

      // Each finding once. Not in a fixed order: a change that reached a stream only through its
      // relist (the 410s above) is seen later than the server applied it, so machine-config's level
      // report can come in after the CVO's completion, and the two findings then swap (seen in CI).
      const findings = w.outputs.flatMap((o) => (o.type === 'finding' ? [o.finding.rule] : []));
      expect([...findings].sort()).toEqual([
        'master-pool-updated-before-cvo-complete',
        'operator-level-before-required-pool-target',
      ]);
      expect(proxy.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
