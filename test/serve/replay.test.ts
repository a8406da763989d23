import { afterEach, describe, expect, it } from 'vitest';
import { REPLAYED_AT, type RunningServer } from '../../src/serve/index.js';
import { NOT_REWOUND, REWOUND_TO } from '../../src/serve/moment.js';
import { getJson, type Json, serve, watchEvents } from './helpers.js';

// The reconstruction's timeline, which these replays pin moment by moment (test/fixtures/reconstruction).
const EXAMPLE = 'test/fixtures/reconstruction/bug-2019850';
const MCP = '/apis/machineconfiguration.openshift.io/v1/machineconfigpools';
const CV = '/apis/config.openshift.io/v1/clusterversions';
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cond = (o: Json, type: string) => o.status.conditions.find((c: Json) => c.type === type)?.status;

/** A server replaying the example, held at its start, that waits `tooLargeWaitMs` for a resourceVersion ahead. */
function heldReplay(tooLargeWaitMs: number) {
  return serve([EXAMPLE], { replay: true, holdReplay: true, speed: 1e6, limits: { tooLargeWaitMs } });
}

/**
 * A request at a resourceVersion 5 past the held server's: answered after the wait (300 ms here) with
 * the watch cache's 504.
 */
async function expectTooLarge(
  s: { store: { resourceVersion: number } },
  at: (resourceVersion: number) => string,
): Promise<void> {
  const ahead = s.store.resourceVersion + 5;
  const t = performance.now();
  const r = await getJson(at(ahead));
  expect(performance.now() - t).toBeGreaterThanOrEqual(290);
  expect(r.status).toBe(504);
  expect(r.body).toMatchObject({
    kind: 'Status',
    reason: 'Timeout',
    code: 504,
    message: `Timeout: Too large resource version: ${ahead}, current: ${s.store.resourceVersion}`,
    details: {
      retryAfterSeconds: 1,
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    },
  });
}

describe('replay of inputs that hold no update', () => {
  it('plays every recorded change from the first, and its plan names no update', async () => {
    server = await serve(
      [
        'test/fixtures/reconstruction/bug-2019850/artifacts/e2e-aws-upgrade/gather-extra/artifacts/nodes.json',
      ],
      {
        replay: true,
        holdReplay: true,
      },
    );
    expect(server.replay!.plan.update).toBeUndefined();
  });
});

describe('replay of bug 2019850', () => {
  it('plans the CVO completing while the master pool is still updating', async () => {
    server = await serve([EXAMPLE], { replay: true, holdReplay: true });
    const plan = server.replay!.plan;
    // It starts at the update's start, and says which update that is (serve prints a note otherwise).
    expect(plan.update).toBe('4.10.0-0.nightly-2021-11-03-020416');
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
    // Nothing records a ClusterOperator's relatedObjects or extension: the first is served as last
    // seen, the second (machine-config's names the rendered configs the pools are at) left out.
    const mco = (await getJson(`${server.url}/apis/config.openshift.io/v1/clusteroperators/machine-config`))
      .body;
    expect(mco.status.relatedObjects.length).toBeGreaterThan(0);
    expect(mco.status.extension).toBeUndefined();
    expect(mco.metadata.annotations[NOT_REWOUND].split(', ')).toEqual(
      expect.arrayContaining(['status.extension', 'status.relatedObjects']),
    );
    const dns = (await getJson(`${server.url}/apis/config.openshift.io/v1/clusteroperators/dns`)).body;
    expect(dns.metadata.annotations[NOT_REWOUND].split(', ')).toContain('status.relatedObjects');
    expect(dns.metadata.annotations[NOT_REWOUND]).not.toContain('status.extension');
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

describe('resourceVersion and resourceVersionMatch on lists and watches during a replay', () => {
  const names = (list: Json) =>
    list.items.map((o: Json) => `${o.metadata.name}@${o.metadata.resourceVersion}`);

  it('Exact serves the state at that resourceVersion, 410 once it is compacted; NotOlderThan the current state', async () => {
    server = await serve([EXAMPLE], { replay: true, holdReplay: true, speed: 1e6 });
    const s = server;
    const before = (await getJson(`${s.url}${MCP}`)).body;
    const rv0 = before.metadata.resourceVersion;
    s.replay!.start();
    await s.replay!.done;
    // The master pool mid-update, as the change log recorded it.
    const updating = s.store
      .changesSince(Number(rv0))!
      .find(
        (c) =>
          c.object.kind === 'MachineConfigPool' &&
          c.object.metadata.name === 'master' &&
          cond(c.object, 'Updating') === 'True',
      )!;
    const mid = (await getJson(`${s.url}${MCP}?resourceVersion=${updating.rv}&resourceVersionMatch=Exact`))
      .body;
    expect(mid.metadata.resourceVersion).toBe(String(updating.rv));
    expect(mid.items.find((p: Json) => p.metadata.name === 'master')).toEqual(updating.object);
    const start = await getJson(`${s.url}${MCP}?resourceVersion=${rv0}&resourceVersionMatch=Exact`);
    expect(start.status).toBe(200);
    expect(start.body).toEqual(before);
    // Exact with paging: the continue token reads the same past state.
    const page1 = (await getJson(`${s.url}${MCP}?resourceVersion=${rv0}&resourceVersionMatch=Exact&limit=1`))
      .body;
    const page2 = (await getJson(`${s.url}${MCP}?limit=1&continue=${page1.metadata.continue}`)).body;
    expect([...names(page1), ...names(page2)]).toEqual(names(before));
    const newer = (await getJson(`${s.url}${MCP}?resourceVersion=${rv0}&resourceVersionMatch=NotOlderThan`))
      .body;
    expect(newer.metadata.resourceVersion).toBe(String(s.store.resourceVersion));
    expect(
      cond(
        newer.items.find((p: Json) => p.metadata.name === 'master'),
        'Updated',
      ),
    ).toBe('True');
    s.faults.expireResourceVersions();
    const gone = await getJson(`${s.url}${MCP}?resourceVersion=${rv0}&resourceVersionMatch=Exact`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({
      reason: 'Expired',
      message: 'The resourceVersion for the provided list is too old.',
    });
  });

  it('refuses resourceVersionMatch without a resourceVersion, or on a watch, as 422 Invalid ListOptions', async () => {
    server = await serve([EXAMPLE], { replay: true, holdReplay: true });
    const r = await getJson(`${server.url}${MCP}?resourceVersionMatch=Exact`);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      message:
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      details: {
        group: 'meta.k8s.io',
        kind: 'ListOptions',
        causes: [
          {
            reason: 'FieldValueForbidden',
            field: 'resourceVersionMatch',
            message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
          },
        ],
      },
    });
    expect((await getJson(`${server.url}${MCP}?resourceVersion=0&resourceVersionMatch=Exact`)).status).toBe(
      422,
    );
    expect((await getJson(`${server.url}${MCP}?resourceVersion=5&resourceVersionMatch=Newest`)).status).toBe(
      422,
    );
    const w = await getJson(
      `${server.url}${MCP}?watch=true&resourceVersion=5&resourceVersionMatch=NotOlderThan`,
    );
    expect(w.status).toBe(422);
  });

  it('answers a list at a resourceVersion not reached yet with 504 Too large resource version after a wait, or the list once it is reached', async () => {
    server = await heldReplay(300);
    const s = server;
    await expectTooLarge(s, (rv) => `${s.url}${MCP}?resourceVersion=${rv}`);
    await s.close();
    // The same list, while the replay gets there within the wait.
    server = await heldReplay(10_000);
    const s2 = server;
    const target = s2.store.resourceVersion + 5;
    const pending = getJson(`${s2.url}${MCP}?resourceVersion=${target}&resourceVersionMatch=Exact`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    s2.replay!.start();
    const reached = await pending;
    expect(reached.status).toBe(200);
    expect(reached.body.metadata.resourceVersion).toBe(String(target));
  });

  it('answers a get at a resourceVersion as the watch cache does: the current object up to the current resourceVersion, beyond it the same wait and 504 as a list, or the object once the replay gets there', async () => {
    server = await heldReplay(300);
    const s = server;
    const master = `${s.url}${MCP}/master`;
    const current = (await getJson(master)).body;
    // Unset, "0", older than the change log's window, and the current one: never older than asked.
    for (const rv of ['', '0', '1', String(s.store.resourceVersion)]) {
      const r = await getJson(`${master}?resourceVersion=${rv}`);
      expect(r.status, rv).toBe(200);
      expect(r.body, rv).toEqual(current);
    }
    expect((await getJson(`${master}?resourceVersion=abc`)).status).toBe(400);
    await expectTooLarge(s, (rv) => `${master}?resourceVersion=${rv}`);
    // An object that does not exist is still 404 at once when the resourceVersion is reached.
    expect((await getJson(`${s.url}${MCP}/nope?resourceVersion=1`)).status).toBe(404);
    await s.close();
    server = await heldReplay(10_000);
    const s2 = server;
    const target = s2.store.resourceVersion + 5;
    const pending = getJson(`${s2.url}${MCP}/master?resourceVersion=${target}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    s2.replay!.start();
    const reached = await pending;
    expect(reached.status).toBe(200);
    expect(reached.body.metadata.name).toBe('master');
    expect(s2.store.resourceVersion).toBeGreaterThanOrEqual(target);
  });

  it('opens a watch from a resourceVersion not reached yet and sends only the changes after it', async () => {
    server = await serve([EXAMPLE], { replay: true, holdReplay: true, speed: 1e6 });
    const s = server;
    const base = s.store.resourceVersion;
    // Each replayed revision is one change: the i-th gets base + 1 + i.
    const nodeRvs = s
      .replay!.plan.revisions.map((r, i) => (r.item.kind === 'Node' ? base + 1 + i : 0))
      .filter((rv) => rv > 0);
    const from = nodeRvs[1]!;
    const want = nodeRvs.filter((rv) => rv > from);
    expect(want.length).toBeGreaterThan(0);
    const watching = watchEvents(
      `${s.url}/api/v1/nodes?watch=true&resourceVersion=${from}`,
      (e) => e.length >= want.length,
    );
    while (s.watchCount() < 1) await new Promise((r) => setTimeout(r, 10));
    s.replay!.start();
    await s.replay!.done;
    const got = await watching;
    expect(got.map((e) => Number(e.object.metadata.resourceVersion))).toEqual(want);
  });
});
