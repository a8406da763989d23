/**
 * `completed-while-pool-rolling` (docs/status.md) and the rules that judge the same moment, on the shapes
 * of test/fixtures/status/completed-rolling (a real gather-extra snapshot edited, test/fixtures/README.md):
 * the Error stands only on a node known to be behind the release the CVO completed; a node whose config
 * is not known makes a note, a day-2 rollout after the update is not the update's, and a later target is
 * named as what it is.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import type { ClusterHistory } from '../../src/model/history.js';
import { MCO } from '../../src/model/objects.js';
import { renderStatusText } from '../../src/report/status-text.js';
import { assessStatus, assessStatusAt } from '../../src/status/index.js';
import type { UpdateStatus } from '../../src/status/types.js';
import { historyAt } from '../../src/timeline/index.js';
import { eventsWithReason } from '../../src/timeline/query.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const DIR = join(projectRoot, 'test/fixtures/status/completed-rolling');
const NEW = '4.10.0-0.nightly-2021-11-03-020416';
const M_OLD = 'rendered-master-5d1c05288d1145e269c312e9826eddc6';
const M_NEW = 'rendered-master-08a4fea83290e0724cc703711035136d';
const M_DAY2 = 'rendered-master-3333aaaa3333aaaa3333aaaa3333aaaa';
const I_NEW = 'rendered-infra-7f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f';
const M1 = 'ip-10-0-139-12.us-east-2.compute.internal';
const M3 = 'ip-10-0-171-203.us-east-2.compute.internal';
const COMPLETED = `The CVO completed ${NEW} at 2021-11-03T03:29:11Z`;

const load = (shape: string): Promise<ClusterHistory> => loadHistory([join(DIR, shape)]);
const rolling = (s: UpdateStatus) => s.insights.filter((i) => i.kind === 'completed-while-pool-rolling');
const notChecked = (s: UpdateStatus) =>
  s.notes.filter((n) => n.startsWith("Not checked against the CVO's completion"));
const rule = (h: ClusterHistory, id: string) => analyzeHistory(h).outcomes.find((o) => o.rule.id === id);

describe('completed-while-pool-rolling: only nodes known to be behind count', () => {
  it('a day-2 rollout after the update, every node on a config made for the release: no Error, now or --at', async () => {
    const h = await load('day2-rolling');
    const s = assessStatus(h);
    expect(rolling(s)).toEqual([]);
    expect(s.state).toBe('idle');
    expect(s.notes).toContain(
      `Pool master is rolling out ${M_DAY2} with no version change: 1 of 3 nodes have it.`,
    );
    // Just after the completion every master's daemon had reported NodeDone on the update's config (by
    // 03:28:50): the rewind places them there, so the completion is checked and holds.
    const then = assessStatusAt(h, Date.parse('2021-11-03T03:29:30Z'));
    expect(rolling(then)).toEqual([]);
    expect(then.insights.filter((i) => i.level === 'Error')).toEqual([]);
    expect(notChecked(then)).toEqual([]);
    expect(rule(h, 'master-pool-updated-before-cvo-complete')?.state).toBe('holds');
    expect(rule(h, 'no-serious-insight')?.state).toBe('holds');
  });

  it("the update's own config missing from the inputs: two masters' release unknown, so no Error", async () => {
    const h = await load('update-config-missing');
    const s = assessStatus(h);
    expect(rolling(s)).toEqual([]);
    expect(notChecked(s)).toEqual([
      "Not checked against the CVO's completion: whether 2 nodes of pool master run the update's config (config or its release not known).",
    ]);
    expect(rule(h, 'no-serious-insight')?.state).toBe('holds');
    expect(rule(h, 'master-pool-updated-before-cvo-complete')?.state).toBe('not-checked');
  });

  it('a master without machine-config annotations is not counted as not updated', async () => {
    const h = await load('node-unannotated');
    const s = assessStatus(h);
    expect(rolling(s)).toEqual([]);
    expect(s.state).toBe('idle');
    expect(notChecked(s)).toEqual([
      `Not checked against the CVO's completion: whether node ${M1} of pool master runs the update's config (config or its release not known).`,
    ]);
    expect(rule(h, 'no-serious-insight')?.state).toBe('holds');
    expect(rule(h, 'master-pool-updated-before-cvo-complete')?.state).toBe('holds');
    // Nor as off the pool's target: the other two are on it, so no rollout is claimed.
    expect(s.notes.filter((n) => n.includes('is rolling out'))).toEqual([]);
    expect(s.pools.find((p) => p.name === 'master')?.nodesOffTargetConfig).toBe(0);
  });

  it('a rollout note counts a node whose config is not known apart', async () => {
    const h = await load('day2-rolling');
    const nodes = h.objects.nodes.map((n) => {
      if (n.object.metadata.name !== M1) return n;
      const annotations = Object.fromEntries(
        Object.entries(n.object.metadata.annotations ?? {}).filter(
          ([k]) => !k.startsWith('machineconfiguration.openshift.io/'),
        ),
      );
      return { ...n, object: { ...n.object, metadata: { ...n.object.metadata, annotations } } };
    });
    const s = assessStatus({ ...h, objects: { ...h.objects, nodes } });
    expect(s.notes).toContain(
      `Pool master is rolling out ${M_DAY2} with no version change: 0 of 3 nodes have it (1 not known).`,
    );
    // The summary line counts the nodes known to be on the target, never the unknown one.
    const text = renderStatusText(s, { width: 200, details: 'none', colour: false });
    expect(text).toContain('master 2/3 at version, rolling out a new config (0/3)');
    expect(rolling(s)).toEqual([]);
  });

  it('no nodes in the inputs: nothing is claimed of the pool, and the rule judges it from its events', async () => {
    const h = await load('no-nodes');
    const s = assessStatus(h);
    expect(rolling(s)).toEqual([]);
    expect(s.insights.filter((i) => i.level === 'Error')).toEqual([]);
    expect(rule(h, 'master-pool-updated-before-cvo-complete')?.state).toBe('holds');
  });

  it('a node created after the completion on an older config is not counted against it', async () => {
    const h = await load('several-updates');
    const nodes = h.objects.nodes.map((n) =>
      n.object.metadata.name === M3
        ? {
            ...n,
            object: {
              ...n.object,
              metadata: { ...n.object.metadata, creationTimestamp: '2021-11-03T03:29:40Z' },
            },
          }
        : n,
    );
    const s = assessStatus({ ...h, objects: { ...h.objects, nodes } });
    expect(rolling(s)).toEqual([]);
    expect(s.notes).toContain(
      `Node ${M3} joined pool master after the CVO completed the update: not counted against the completion.`,
    );
  });
});

describe('completed-while-pool-rolling: the Error where a node is known to be behind', () => {
  it("several updates in history, a master still on the previous update's config: the Error", async () => {
    const h = await load('several-updates');
    const [i] = rolling(assessStatus(h));
    expect(i?.level).toBe('Error');
    expect(i?.message).toBe(`${COMPLETED} while pool master is still rolling out rendered config ${M_NEW}`);
    expect(i?.description).toContain(`${M3} on ${M_OLD} (4.10.0-0.nightly-2021-11-02-191632) does not`);
    const r = rule(h, 'master-pool-updated-before-cvo-complete');
    expect(r?.state).toBe('violated');
    // Judged on the latest update, not the older one the history also holds.
    expect(r?.findings.map((f) => f.subject?.target)).toEqual([NEW]);
  });

  it('a day-2 config retargeted a master never finished with the update: the Error names the later config as such', async () => {
    const h = await load('day2-over-unfinished');
    const [i] = rolling(assessStatus(h));
    expect(i?.message).toBe(
      `${COMPLETED} while 1 of 3 nodes of pool master was not on a config made for that version; the pool now rolls out ${M_DAY2}, rendered after the completion for a later change (not the update's own ${M_NEW})`,
    );
    expect(i?.description).toContain(`${M3} on ${M_OLD}`);
    // The pool's conditions at the completion were overwritten by the day-2 rollout; the master still on
    // a config stamped for the old release says it was not on the update's then.
    const r = rule(h, 'master-pool-updated-before-cvo-complete');
    expect(r?.state).toBe('violated');
    expect(r?.findings[0]?.summary).toBe(
      `the CVO reported ${NEW} complete at 03:29:11 while master ${M3} was not yet on ${M_NEW}, the config made for the new release: it still runs ${M_OLD}, stamped for 4.10.0-0.nightly-2021-11-02-191632 (in the update 4.10.0-0.nightly-2021-11-02-191632 → ${NEW})`,
    );
    expect(r?.findings[0]?.evidence.map((e) => e.statement).join('\n')).not.toContain('assuming');
    // The same node created after the completion is no evidence: not checked again, never held.
    const nodes = h.objects.nodes.map((n) =>
      n.object.metadata.name === M3
        ? {
            ...n,
            object: {
              ...n.object,
              metadata: { ...n.object.metadata, creationTimestamp: '2021-11-03T03:30:00Z' },
            },
          }
        : n,
    );
    expect(
      rule({ ...h, objects: { ...h.objects, nodes } }, 'master-pool-updated-before-cvo-complete')?.state,
    ).toBe('not-checked');
  });

  it('a paused required pool: the Error says paused, not "still rolling out"', async () => {
    const h = await load('paused-master');
    const s = assessStatus(h);
    const [i] = rolling(s);
    expect(i?.message).toBe(
      `${COMPLETED} while pool master is paused with 1 of 3 nodes not on a config made for that version`,
    );
    expect(i?.description).toContain('The pool is paused: its nodes get no new config until it is unpaused.');
    expect(s.insights.some((x) => x.kind === 'pool-paused')).toBe(true);
    expect(rule(h, 'master-pool-updated-before-cvo-complete')?.state).toBe('violated');
  });

  it('a custom pool labelled required-for-upgrade counts; the same pool unlabelled does not', async () => {
    const h = await load('infra-required');
    const [i] = rolling(assessStatus(h));
    expect(i?.scope).toBe('WorkerPool');
    expect(i?.message).toBe(`${COMPLETED} while pool infra is still rolling out rendered config ${I_NEW}`);
    const pools = h.objects.machineConfigPools.map((p) => {
      if (p.object.metadata.name !== 'infra') return p;
      const { [MCO.requiredForUpgrade]: _, ...labels } = p.object.metadata.labels ?? {};
      return { ...p, object: { ...p.object, metadata: { ...p.object.metadata, labels } } };
    });
    const unlabelled = assessStatus({ ...h, objects: { ...h.objects, machineConfigPools: pools } });
    expect(rolling(unlabelled)).toEqual([]);
    // Still updating: a worker pool with outdated nodes, as oc says.
    expect(unlabelled.state).toBe('updating');
  });
});

describe("completed-while-pool-rolling --at: the daemons' NodeDone, Drain and Reboot Events place the nodes", () => {
  const AT = Date.parse('2021-11-03T03:29:30Z');
  const M2 = 'ip-10-0-151-87.us-east-2.compute.internal';
  const W3 = 'ip-10-0-166-9.us-east-2.compute.internal';
  const annotationsAt = (h: ClusterHistory, at: number, name: string) =>
    historyAt(h, at).history.objects.nodes.find((n) => n.object.metadata.name === name)?.object.metadata
      .annotations ?? {};

  it('after its NodeDone a node is Done on the config it names; mid-update with no NodeDone before, unknown', async () => {
    const h = await load('day2-rolling');
    const m2 = annotationsAt(h, AT, M2);
    expect([m2[MCO.currentConfig], m2[MCO.desiredConfig], m2[MCO.state]]).toEqual([M_NEW, M_NEW, 'Done']);
    // The snapshot's day-2 target, rendered after the moment, is not carried back.
    expect(annotationsAt(h, AT, M3)[MCO.desiredConfig]).toBe(M_NEW);
    // W3 rebooted at 03:28:44 and reported NodeDone only after the moment: what it ran before is not recorded.
    expect(annotationsAt(h, AT, W3)[MCO.currentConfig]).toBeUndefined();
    const s = assessStatusAt(h, AT);
    expect(s.pools.find((p) => p.name === 'master')?.nodes.map((n) => n.phase)).toEqual([
      'Updated',
      'Updated',
      'Updated',
    ]);
  });

  it('a master draining since before the completion and not done by the snapshot: the Error comes back --at', async () => {
    const h = await load('day2-over-unfinished');
    const m3 = annotationsAt(h, AT, M3);
    // It still ran what the snapshot shows (the daemon recorded nothing after its Drain); the config
    // it drained for is not named by any Event.
    expect([m3[MCO.currentConfig], m3[MCO.desiredConfig], m3[MCO.state]]).toEqual([
      M_OLD,
      undefined,
      'Working',
    ]);
    const [i] = rolling(assessStatusAt(h, AT));
    expect(i?.level).toBe('Error');
    expect(i?.description).toContain(`${M3} on ${M_OLD}`);
  });

  it('the same master with a NodeDone recorded after the moment: its config then is unknown, no Error', async () => {
    const h = await load('day2-over-unfinished');
    const done = eventsWithReason(h, 'NodeDone').find((e) => e.message.annotations.name === M2);
    if (!done) throw new Error('fixture lost its NodeDone events');
    const later = {
      ...done,
      from: Date.parse('2021-11-03T03:31:00Z'),
      to: Date.parse('2021-11-03T03:31:00Z'),
      message: {
        ...done.message,
        humanMessage: `Setting node ${M3}, currentConfig ${M_NEW} to Done`,
        annotations: { ...done.message.annotations, name: M3 },
      },
    };
    const intervals = [...h.intervals, later].sort((a, b) => a.from - b.from);
    const edited = { ...h, intervals };
    expect(annotationsAt(edited, AT, M3)[MCO.currentConfig]).toBeUndefined();
    const s = assessStatusAt(edited, AT);
    expect(rolling(s)).toEqual([]);
    expect(s.insights.filter((x) => x.level === 'Error')).toEqual([]);
    // After that NodeDone the master is on the update's config.
    const after = annotationsAt(edited, Date.parse('2021-11-03T03:31:10Z'), M3);
    expect([after[MCO.currentConfig], after[MCO.state]]).toEqual([M_NEW, 'Done']);
  });

  it('the same master Done in the snapshot with no NodeDone recorded: when it finished is unknown, no Error', async () => {
    const h = await load('day2-over-unfinished');
    const nodes = h.objects.nodes.map((n) =>
      n.object.metadata.name === M3
        ? {
            ...n,
            object: {
              ...n.object,
              metadata: {
                ...n.object.metadata,
                annotations: {
                  ...n.object.metadata.annotations,
                  [MCO.currentConfig]: M_OLD,
                  [MCO.desiredConfig]: M_OLD,
                  [MCO.state]: 'Done',
                },
              },
            },
          }
        : n,
    );
    const edited = { ...h, objects: { ...h.objects, nodes } };
    expect(annotationsAt(edited, AT, M3)[MCO.currentConfig]).toBeUndefined();
    expect(rolling(assessStatusAt(edited, AT))).toEqual([]);
  });

  it("a NodeDone whose message names another node is not taken for this node's config", async () => {
    const h = await load('day2-rolling');
    const intervals = h.intervals.map((i) =>
      i.message.reason === 'NodeDone' && i.message.annotations.name === M2
        ? {
            ...i,
            message: { ...i.message, humanMessage: `Setting node ${M1}, currentConfig ${M_OLD} to Done` },
          }
        : i,
    );
    expect(annotationsAt({ ...h, intervals }, AT, M2)[MCO.currentConfig]).toBeUndefined();
  });
});
