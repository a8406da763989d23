import { afterEach, describe, expect, it } from 'vitest';
import { REPLAYED_AT, type RunningServer } from '../../src/serve/index.js';
import { NOT_REWOUND, REWOUND_TO } from '../../src/serve/moment.js';
import { getJson, type Json, serve, watchEvents } from './helpers.js';

const EXAMPLE = 'examples/bug-2019850';
const MCP = '/apis/machineconfiguration.openshift.io/v1/machineconfigpools';
const CV = '/apis/config.openshift.io/v1/clusterversions';
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cond = (o: Json, type: string) => o.status.conditions.find((c: Json) => c.type === type)?.status;

describe('replay of bug 2019850', () => {
  it('plans the CVO completing while the master pool is still updating', async () => {
    server = await serve([EXAMPLE], { replay: true, holdReplay: true });
    const plan = server.replay!.plan;
    const completed = plan.revisions.find(
      (r) => r.item.kind === 'ClusterVersion' && cond(r.item.object, 'Progressing') === 'False',
    );
    expect(completed).toBeDefined();
    const masterBefore = [...plan.revisions]
      .filter(
        (r) =>
          r.item.kind === 'MachineConfigPool' &&
          r.item.object.metadata.name === 'master' &&
          r.at <= completed!.at,
      )
      .at(-1);
    expect(cond(masterBefore!.item.object, 'Updating')).toBe('True');
    const masterDone = plan.revisions.find(
      (r) =>
        r.item.kind === 'MachineConfigPool' &&
        r.item.object.metadata.name === 'master' &&
        cond(r.item.object, 'Updated') === 'True',
    );
    expect(masterDone!.at).toBeGreaterThan(completed!.at);
    // The initial state is before the new rendered configs: they are added during the replay.
    const mcs = (await getJson(`${server.url}/apis/machineconfiguration.openshift.io/v1/machineconfigs`)).body
      .items;
    expect(mcs.map((m: Json) => m.metadata.name)).not.toContain(
      'rendered-master-ebc4fc8c7b6a155d86684204394e4930',
    );
  });

  it('delivers every change, in order, to 100 concurrent watchers', async () => {
    server = await serve([EXAMPLE], { replay: true, holdReplay: true, speed: 5000 });
    const s = server;
    const start = s.store.resourceVersion;
    const expected = s.replay!.plan.revisions.filter((r) => r.item.kind === 'MachineConfigPool').length;
    const watchers = Array.from({ length: 100 }, () =>
      watchEvents(`${s.url}${MCP}?watch=true&resourceVersion=${start}`, (e) => e.length >= expected),
    );
    while (s.watchCount() < 100) await new Promise((r) => setTimeout(r, 10));
    s.replay!.start();
    await s.replay!.done;
    const results = await Promise.all(watchers);
    const reference = results[0]!.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`);
    expect(reference).toHaveLength(expected);
    const rvs = results[0]!.map((e) => Number(e.object.metadata.resourceVersion));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
    for (const r of results)
      expect(r.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`)).toEqual(reference);
    // Each change carries its recorded moment, whatever the replay's lag when it was sent.
    const moments = s
      .replay!.plan.revisions.filter((r) => r.item.kind === 'MachineConfigPool')
      .map((r) => new Date(r.at).toISOString());
    expect(results[0]!.map((e) => (e as Json)[REPLAYED_AT])).toEqual(moments);
  });

  it('resumes a watch from a resourceVersion, sends bookmarks, drops and expires on demand', async () => {
    server = await serve([EXAMPLE], { replay: true, speed: 1e6, limits: { bookmarkIntervalMs: 20 } });
    const s = server;
    await s.replay!.done;
    const from = s.store.oldestResumable;
    const total = s.replay!.plan.revisions.filter((r) => r.item.kind === 'MachineConfigPool').length;
    const all = await watchEvents(
      `${s.url}${MCP}?watch=true&resourceVersion=${from}`,
      (e) => e.length >= total,
    );
    expect(all).toHaveLength(total);
    const middle = all[Math.floor(total / 2)]!.object.metadata.resourceVersion;
    const rest = await watchEvents(
      `${s.url}${MCP}?watch=true&resourceVersion=${middle}`,
      (e) => e.length >= total - Math.floor(total / 2) - 1,
    );
    expect(rest.map((e) => e.object.metadata.resourceVersion)).toEqual(
      all.slice(Math.floor(total / 2) + 1).map((e) => e.object.metadata.resourceVersion),
    );
    const marks = await watchEvents(
      `${s.url}${MCP}?watch=true&allowWatchBookmarks=true&resourceVersion=${s.store.resourceVersion}`,
      (e) => e.some((x) => x.type === 'BOOKMARK'),
    );
    expect(marks.at(-1)).toMatchObject({
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: String(s.store.resourceVersion) } },
    });
    // A dropped watch ends its stream; the client resumes from the last resourceVersion it saw.
    while (s.watchCount() > 0) await new Promise((r) => setTimeout(r, 5));
    const dropped = watchEvents(
      `${s.url}${MCP}?watch=true&resourceVersion=${s.store.resourceVersion}`,
      () => false,
    ).catch(() => 'cut');
    while (s.watchCount() < 1) await new Promise((r) => setTimeout(r, 5));
    expect(s.faults.dropWatches()).toBe(1);
    await dropped;
    s.faults.expireResourceVersions();
    const gone = await watchEvents(`${s.url}${MCP}?watch=true&resourceVersion=${from}`, (e) => e.length >= 1);
    expect(gone[0]).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
    await s.faults.restart();
    // The client's pooled connection died with the restart: like Json client, retry once.
    const after = await getJson(`${s.url}${CV}/version`).catch(() => getJson(`${s.url}${CV}/version`));
    expect(after.status).toBe(200);
  });
});

describe('--at', () => {
  it('serves the cluster at a moment: later objects absent, rewound fields, annotations', async () => {
    const at = Date.parse('2021-11-03T03:30:00Z');
    server = await serve([EXAMPLE], { at });
    const cv = (await getJson(`${server.url}${CV}/version`)).body;
    expect(cond(cv, 'Progressing')).toBe('False');
    expect(cv.metadata.annotations[REWOUND_TO]).toBe('2021-11-03T03:30:00Z');
    const master = (await getJson(`${server.url}${MCP}/master`)).body;
    expect(cond(master, 'Updating')).toBe('True');
    expect(cond(master, 'Updated')).toBe('False');
    expect(master.status.configuration.name).toBe('rendered-master-78d48a9fbc8ba6a746040c11f8335d1a');
    expect(master.spec.configuration.name).toBe('rendered-master-ebc4fc8c7b6a155d86684204394e4930');
    // What timeline/rewind.ts could not rewind is named on the object.
    const node = (await getJson(`${server.url}/api/v1/nodes/ip-10-0-171-203.us-east-2.compute.internal`))
      .body;
    expect(node.metadata.annotations[NOT_REWOUND]).toContain('status.conditions[Ready].lastTransitionTime');
    // Reasons and messages change without a transition: the snapshot's are not served as the moment's.
    const available = cv.status.conditions.find((c: Json) => c.type === 'Available');
    expect(available).toMatchObject({ status: 'True', reason: 'NotRewound' });
    expect(available.message).not.toContain('Done applying');
    expect(cv.metadata.annotations[NOT_REWOUND]).toBe(
      'status.conditions[*].reason, status.conditions[*].message',
    );
    const before = Date.parse('2021-11-03T03:00:00Z');
    await server.close();
    server = await serve([EXAMPLE], { at: before });
    const mcs = (await getJson(`${server.url}/apis/machineconfiguration.openshift.io/v1/machineconfigs`)).body
      .items;
    expect(mcs.map((m: Json) => m.metadata.name)).not.toContain(
      'rendered-master-ebc4fc8c7b6a155d86684204394e4930',
    );
    const early = (await getJson(`${server.url}${CV}/version`)).body;
    expect(cond(early, 'Progressing')).toBe('True');
    expect(early.status.history[0]).toMatchObject({ state: 'Partial', completionTime: null });
  });
});
