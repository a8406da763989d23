/**
 * A node's clock against the cluster's. The machine-config daemon records its Events (Drain, Reboot,
 * NodeDone "Setting node N, currentConfig C to Done") with its node's clock, while the API server
 * gives each Event its creationTimestamp by its own. When a later rollout has overwritten the pool's
 * conditions, the NodeDone events are what says when the update's rollout ended (docs/domain.md 3.3.1),
 * so a node minutes behind made a pool that finished after the CVO's completion look finished before
 * it: a false "holds". A host's Events are moved onto the API server's clock when the median gap
 * between their stamps and their creation says the clock is off, and a note says so.
 *
 * test/fixtures/analyze/nodedone-clock-behind: the day-2 fixture (the master pool's conditions belong
 * to a KubeletConfig rollout after the update) with the CVO's completion at 03:28:00, before the last
 * master (ip-10-0-171-203) reported Done at 03:28:50 by the API server's clock, and that node's clock
 * five minutes behind (its Drain, Reboot and NodeDone stamped 03:22:27, 03:22:46, 03:23:50).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const DAY2 = join(projectRoot, 'test/fixtures/analyze/day2-kubeletconfig-after-update');
const BEHIND = join(projectRoot, 'test/fixtures/analyze/nodedone-clock-behind');
const NODE = 'ip-10-0-171-203.us-east-2.compute.internal';
const RULE = 'master-pool-updated-before-cvo-complete';

interface EventItem {
  firstTimestamp?: string | null | undefined;
  lastTimestamp?: string | null | undefined;
  metadata: { creationTimestamp?: string };
  source?: { component?: string; host?: string };
  reason?: string;
}

/** A copy of `dir` whose events.json (at `file` in it) is changed by `edit`, one Event at a time. */
function withEvents(dir: string, edit: (e: EventItem) => void, file = 'events.json'): string {
  const out = mkdtempSync(join(tmpdir(), 'atlevel-node-skew-'));
  cpSync(dir, out, { recursive: true });
  const path = join(out, file);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { items: EventItem[] };
  for (const e of doc.items) edit(e);
  writeFileSync(path, JSON.stringify(doc));
  return out;
}

const move = (s: string | null | undefined, seconds: number) =>
  s ? new Date(Date.parse(s) + seconds * 1000).toISOString().replace('.000Z', 'Z') : s;

/**
 * `host`'s Events (its daemon's and its kubelet's: one clock) stamped `seconds` off, their creation left
 * as the API server set it.
 */
function daemonClock(dir: string, host: string, seconds: number, file?: string): string {
  return withEvents(
    dir,
    (e) => {
      if (e.source?.host !== host) return;
      e.firstTimestamp = move(e.firstTimestamp, seconds);
      e.lastTimestamp = move(e.lastTimestamp, seconds);
    },
    file,
  );
}

async function judge(dir: string) {
  const h = await loadHistory([dir]);
  const r = analyzeHistory(h);
  return {
    verdict: r.verdict,
    race: r.outcomes.find((o) => o.rule.id === RULE)?.state,
    missing: r.outcomes.find((o) => o.rule.id === RULE)?.missing ?? [],
    note: h.notes.find((n) => n.includes("the API server's clock")),
    span: h.span,
  };
}

describe("a node's clock minutes off the cluster's, in the daemon's NodeDone events", () => {
  it('a master 5 minutes behind no longer makes a rollout that ended after the completion look done before it', async () => {
    const r = await judge(BEHIND);
    // The last master reported Done at 03:28:50 by the API server, 50 s after the CVO completed, and
    // the pool's own conditions were overwritten by the day-2 rollout: the inputs cannot prove the
    // pool done at 03:28:00. Before, its NodeDone read at 03:23:50 made the rule hold.
    expect(r.race).toBe('not-checked');
    // What would tell is the pool's state then; the rendered configs are in the inputs (it asked for them).
    expect(r.missing).toEqual([
      expect.stringContaining("the master pool's state around the CVO's completion"),
    ]);
    expect(r.note).toContain(`the Events recorded on ${NODE} run 5m00s behind the API server's clock`);
    expect(r.note).toContain('median of 3');
  });

  it('the same inputs with the node on time say the same (the move changes nothing else)', async () => {
    const r = await judge(daemonClock(BEHIND, NODE, 300));
    expect(r.race).toBe('not-checked');
    expect(r.note).toBeUndefined();
  });

  it('a master 5 minutes ahead keeps the day-2 fixture passing, and the span ends where it did', async () => {
    const plain = await judge(DAY2);
    expect(plain.race).toBe('holds');
    const r = await judge(daemonClock(DAY2, NODE, 300));
    // Before, its NodeDone at 03:33:50 put the master pool's finish after the completion: not checked.
    expect(r.race).toBe('holds');
    expect(r.verdict).toBe(plain.verdict);
    expect(r.note).toContain(`run 5m00s ahead of the API server's clock`);
    expect(r.span).toEqual(plain.span);
  });

  it('one Event stored late (a retried write) is not a skewed clock: nothing moves, no note', async () => {
    let moved = false;
    const dir = withEvents(DAY2, (e) => {
      if (moved || e.source?.host !== NODE || e.reason !== 'Drain') return;
      e.metadata.creationTimestamp = move(e.metadata.creationTimestamp, 90) as string;
      moved = true;
    });
    expect(moved).toBe(true);
    const r = await judge(dir);
    expect(r.note).toBeUndefined();
    expect(r.race).toBe('holds');
  });

  /** A copy of `dir` with kubelet Events of NODE added: [stamped, created, count] each. */
  function withKubeletEvents(dir: string, added: readonly [string, string, number][]): string {
    const out = withEvents(dir, () => {});
    const path = join(out, 'events.json');
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { items: unknown[] };
    added.forEach(([stamped, created, count], i) => {
      doc.items.push({
        apiVersion: 'v1',
        kind: 'Event',
        count,
        firstTimestamp: stamped,
        lastTimestamp: count > 1 ? created : stamped,
        involvedObject: { kind: 'Pod', namespace: 'openshift-etcd', name: `etcd-${NODE}` },
        message: 'Started container etcd',
        metadata: {
          creationTimestamp: created,
          name: `etcd-${NODE}.kubelet${i}`,
          namespace: 'openshift-etcd',
        },
        reason: 'Started',
        source: { component: 'kubelet', host: NODE },
        type: 'Normal',
      });
    });
    writeFileSync(path, JSON.stringify(doc));
    return out;
  }
  const at = (hms: string) => `2021-11-03T${hms}Z`;

  it("a burst of writes stored late (the API server away, within the recorder's retries) is not a clock behind", async () => {
    // Seven kubelet Events stamped over 68 s while the API server was away and stored together when it
    // came back: gaps of 38-100 s, the host's median 44 s behind with its three daemon Events on time.
    // Before, the host's Events moved 44 s later, its NodeDone past the CVO's completion (03:29:11).
    const stamped = ['03:10:00', '03:10:14', '03:10:28', '03:10:42', '03:10:56', '03:11:01', '03:11:04'];
    const dir = withKubeletEvents(
      DAY2,
      stamped.map((t, i) => [at(t), at(`03:11:4${i}`), 1]),
    );
    const r = await judge(dir);
    expect(r.note).toBeUndefined();
    expect(r.race).toBe('holds');
  });

  it('a clock a minute behind, inside the retry window, shows on Events stored over half an hour: moved', async () => {
    const kubelet = ['03:00:00', '03:06:00', '03:12:00', '03:18:00', '03:24:00'].map(
      (t): [string, string, number] => [move(at(t), -60) as string, at(t), 1],
    );
    const r = await judge(withKubeletEvents(daemonClock(DAY2, NODE, -60), kubelet));
    expect(r.note).toContain(`the Events recorded on ${NODE} run 1m00s behind the API server's clock`);
    expect(r.race).toBe('holds');
  });

  it('repeated Events re-created with their first stamp hours back are no clock: nothing moves', async () => {
    // A repeated Event whose copy expired is created anew with its first stamp (client-go's recorder):
    // four such, two hours back, made the host's median two hours behind, and every Event of it moved.
    const repeated = ['03:05:00', '03:10:00', '03:15:00', '03:20:00'].map((t): [string, string, number] => [
      move(at(t), -7200) as string,
      at(t),
      40,
    ]);
    const r = await judge(withKubeletEvents(DAY2, repeated));
    expect(r.note).toBeUndefined();
    expect(r.race).toBe('holds');
  });

  it('Events without a creationTimestamp cannot show a skew: they keep their own stamps, without a note', async () => {
    const dir = withEvents(daemonClock(DAY2, NODE, 300), (e) => {
      delete e.metadata.creationTimestamp;
    });
    const r = await judge(dir);
    expect(r.note).toBeUndefined();
    // The NodeDone read at 03:33:50, after the completion: the rule cannot tell, and says so.
    expect(r.race).toBe('not-checked');
  });

  it.each([
    ['bug-2019850', 'fail'],
    ['bug-2019850-fixed', 'pass'],
  ])('%s keeps its verdict with a master clock 6 minutes either way', async (example, want) => {
    for (const seconds of [-360, 360]) {
      const dir = daemonClock(
        join(projectRoot, 'examples', example),
        NODE,
        seconds,
        'artifacts/e2e-aws-upgrade/gather-extra/artifacts/events.json',
      );
      const r = await judge(dir);
      expect(r.verdict).toBe(want);
      expect(r.note).toContain(NODE);
    }
  });
});
