import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/serve/index.js';
import { getJson, type Json, serve, watchEvents } from './helpers.js';
import { makeMustGather } from './make-must-gather.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-serve-api-'));
  const mg = makeMustGather(dir, { nodes: 6, renderedConfigs: 6, events: 40, namespaces: 3 });
  server = await serve([mg]);
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function raw(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(server.url);
    const req = request({ host: u.hostname, port: u.port, method, path }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe('discovery', () => {
  it('announces the kinds present, with scope, read-only verbs and short names', async () => {
    const core = await getJson(`${server.url}/api/v1`);
    const nodes = core.body.resources.find((r: Json) => r.name === 'nodes');
    expect(nodes).toMatchObject({ kind: 'Node', namespaced: false, verbs: ['get', 'list', 'watch'] });
    expect(core.body.resources.find((r: Json) => r.name === 'pods')).toMatchObject({ namespaced: true });
    expect(core.body.resources.map((r: Json) => r.name)).toContain('pods/log');
    const groups = await getJson(`${server.url}/apis`);
    const names = groups.body.groups.map((g: Json) => g.name);
    expect(names).toEqual(
      expect.arrayContaining(['config.openshift.io', 'machineconfiguration.openshift.io', 'apps']),
    );
    const mco = await getJson(`${server.url}/apis/machineconfiguration.openshift.io/v1`);
    const short = Object.fromEntries(mco.body.resources.map((r: Json) => [r.name, r.shortNames]));
    expect(short).toMatchObject({ machineconfigpools: ['mcp'], machineconfigs: ['mc'] });
    const config = await getJson(`${server.url}/apis/config.openshift.io/v1`);
    expect(config.body.resources.find((r: Json) => r.name === 'clusteroperators').shortNames).toEqual(['co']);
    // A kind atlevel does not model, served from the must-gather as is.
    expect(config.body.resources.map((r: Json) => r.name)).toContain('infrastructures');
    expect((await getJson(`${server.url}/version`)).body).toMatchObject({ major: '1', minor: '29' });
  });
});

describe('get and list', () => {
  it('lists cluster-scoped, namespaced and all-namespace resources', async () => {
    const nodes = await getJson(`${server.url}/api/v1/nodes`);
    expect(nodes.body.kind).toBe('NodeList');
    expect(nodes.body.items).toHaveLength(6);
    const all = await getJson(`${server.url}/api/v1/events`);
    expect(all.body.items).toHaveLength(40);
    const one = await getJson(`${server.url}/api/v1/namespaces/openshift-ns-1/events`);
    expect(one.body.items.length).toBeGreaterThan(0);
    expect(one.body.items.every((e: Json) => e.metadata.namespace === 'openshift-ns-1')).toBe(true);
    const co = await getJson(`${server.url}/apis/config.openshift.io/v1/clusteroperators/etcd`);
    expect(co.body).toMatchObject({ kind: 'ClusterOperator', apiVersion: 'config.openshift.io/v1' });
    expect(Number(co.body.metadata.resourceVersion)).toBeGreaterThan(0);
  });

  it('filters by label and field selectors', async () => {
    const masters = await getJson(
      `${server.url}/api/v1/nodes?labelSelector=${encodeURIComponent('node-role.kubernetes.io/master')}`,
    );
    expect(masters.body.items.map((n: Json) => n.metadata.name)).toEqual([
      'master-0.example.internal',
      'master-1.example.internal',
      'master-2.example.internal',
    ]);
    const notMaster = await getJson(
      `${server.url}/api/v1/nodes?labelSelector=${encodeURIComponent('!node-role.kubernetes.io/master')}`,
    );
    expect(notMaster.body.items).toHaveLength(3);
    const pods = await getJson(
      `${server.url}/api/v1/pods?labelSelector=${encodeURIComponent('app in (mcd,nothing)')}`,
    );
    expect(pods.body.items.map((p: Json) => p.metadata.namespace)).toEqual([
      'openshift-machine-config-operator',
    ]);
    const byName = await getJson(
      `${server.url}/api/v1/nodes?fieldSelector=metadata.name%3Dworker-4.example.internal`,
    );
    expect(byName.body.items.map((n: Json) => n.metadata.name)).toEqual(['worker-4.example.internal']);
    const byNs = await getJson(
      `${server.url}/api/v1/events?fieldSelector=metadata.namespace!%3Dopenshift-ns-1`,
    );
    expect(byNs.body.items.some((e: Json) => e.metadata.namespace === 'openshift-ns-1')).toBe(false);
  });

  it('pages with limit and continue, and caps limit', async () => {
    const seen: string[] = [];
    let cont = '';
    let pages = 0;
    do {
      const page = await getJson(`${server.url}/api/v1/events?limit=15${cont ? `&continue=${cont}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((e: Json) => e.metadata.name));
      cont = page.body.metadata.continue ?? '';
      pages++;
    } while (cont);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(40);
    const huge = await getJson(`${server.url}/api/v1/events?limit=99999999999`);
    expect(huge.status).toBe(200);
    expect(huge.body.items).toHaveLength(40);
  });

  it('refuses a resourceVersion beside a continue token (but "0"), as etcd3 GetList does, after reading the token', async () => {
    const first = (await getJson(`${server.url}/api/v1/events?limit=15`)).body.metadata;
    const page = (q: string) => getJson(`${server.url}/api/v1/events?limit=15&${q}`);
    for (const rv of [first.resourceVersion, '1', String(Number(first.resourceVersion) + 100)]) {
      const r = await page(`continue=${first.continue}&resourceVersion=${rv}`);
      expect(r.status, rv).toBe(400);
      expect(r.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'specifying resource version is not allowed when using continue',
        reason: 'BadRequest',
        code: 400,
      });
    }
    const any = await page(`continue=${first.continue}&resourceVersion=0`);
    expect(any.status).toBe(200);
    expect(any.body.items).toHaveLength(15);
    expect((await page(`continue=${first.continue}&resourceVersion=`)).status).toBe(200);
    const garbage = await page('continue=garbage&resourceVersion=5');
    expect(garbage.body.message).toBe('invalid continue token');
  });

  it('answers Table requests with the oc columns', async () => {
    const t = await getJson(`${server.url}/apis/machineconfiguration.openshift.io/v1/machineconfigpools`, {
      Accept: TABLE,
    });
    expect(t.body.kind).toBe('Table');
    expect(t.body.columnDefinitions.map((c: Json) => c.name)).toEqual([
      'Name',
      'Config',
      'Updated',
      'Updating',
      'Degraded',
      'MachineCount',
      'ReadyMachineCount',
      'UpdatedMachineCount',
      'DegradedMachineCount',
      'Age',
    ]);
    expect(t.body.rows[0].cells.slice(0, 6)).toEqual([
      'master',
      'rendered-master-00000000000000000000000000000004',
      'True',
      'False',
      'False',
      3,
    ]);
    expect(t.body.rows[0].object.kind).toBe('PartialObjectMetadata');
  });

  it('answers client-go metadata client requests with PartialObjectMetadata(List), and 406s what it cannot give', async () => {
    // The Accept headers of k8s.io/client-go/metadata (metadata.go: List, Get and Watch).
    const accept = (as: string) =>
      `application/vnd.kubernetes.protobuf;as=${as};g=meta.k8s.io;v=v1,application/json;as=${as};g=meta.k8s.io;v=v1,application/json`;
    const MCP = `${server.url}/apis/machineconfiguration.openshift.io/v1/machineconfigpools`;
    const full = (await getJson(MCP)).body;
    const list = await getJson(`${MCP}?limit=1`, { Accept: accept('PartialObjectMetadataList') });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: full.metadata.resourceVersion, remainingItemCount: 1 },
    });
    expect(list.body.metadata.continue).toEqual(expect.any(String));
    expect(list.body.items).toEqual([
      { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: full.items[0].metadata },
    ]);
    const one = await getJson(`${MCP}/master`, { Accept: accept('PartialObjectMetadata') });
    expect(one.body).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: full.items.find((p: Json) => p.metadata.name === 'master').metadata,
    });
    const events = await watchEvents(`${server.url}/api/v1/nodes?watch=true`, (e) => e.length >= 6, {
      Accept: accept('PartialObjectMetadata'),
    });
    expect(events.map((e) => `${e.type} ${e.object.kind} ${e.object.apiVersion}`)).toEqual(
      Array(6).fill('ADDED PartialObjectMetadata meta.k8s.io/v1'),
    );
    expect(events.every((e) => e.object.status === undefined && e.object.metadata.name)).toBe(true);
    // The single-object form of a list, the list form of one object, a kind meta.k8s.io has not: 406.
    for (const [url, as] of [
      [MCP, 'PartialObjectMetadata'],
      [`${MCP}/master`, 'PartialObjectMetadataList'],
      [MCP, 'Secret'],
    ] as const) {
      const r = await getJson(url, { Accept: `application/json;as=${as};g=meta.k8s.io;v=v1` });
      expect(r.status, `${url} as=${as}`).toBe(406);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
    }
    // A clause the server cannot serve is passed over for the next one.
    const fallback = await getJson(`${MCP}/master`, {
      Accept: 'application/json;as=Secret;g=meta.k8s.io;v=v1,application/json',
    });
    expect(fallback.body.kind).toBe('MachineConfigPool');
  });

  it('serves pod logs from the must-gather, current and previous', async () => {
    const cur = await raw('GET', '/api/v1/namespaces/openshift-ns-2/pods/ns-2-pod-0/log');
    expect(cur).toEqual({ status: 200, text: 'line one of ns-2-pod-0\nline two of ns-2-pod-0\n' });
    const tail = await raw('GET', '/api/v1/namespaces/openshift-ns-2/pods/ns-2-pod-0/log?tailLines=1');
    expect(tail.text).toBe('line two of ns-2-pod-0\n');
    const prev = await raw('GET', '/api/v1/namespaces/openshift-ns-2/pods/ns-2-pod-0/log?previous=true');
    expect(prev.text).toBe('before the restart of ns-2-pod-0\n');
    const missing = await getJson(`${server.url}/api/v1/namespaces/openshift-ns-2/pods/nope/log`);
    expect(missing.status).toBe(404);
  });
});

describe('errors, refusals and safety', () => {
  it('404s unknown objects, types and paths as Status objects', async () => {
    const r = await getJson(`${server.url}/apis/config.openshift.io/v1/clusteroperators/nope`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
    expect((await getJson(`${server.url}/api/v1/secrets`)).status).toBe(404);
    expect((await getJson(`${server.url}/apis/nope.example.com/v1`)).status).toBe(404);
  });

  it('refuses every write with 405, without reading the body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const r = await raw(
        method,
        '/apis/config.openshift.io/v1/clusteroperators/etcd',
        '{"kind":"ClusterOperator"}',
      );
      expect(r.status).toBe(405);
      expect(JSON.parse(r.text)).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    }
    const after = await getJson(`${server.url}/apis/config.openshift.io/v1/clusteroperators/etcd`);
    expect(after.status).toBe(200);
  });

  it('400s bad selectors and bad parameters', async () => {
    for (const q of [
      'labelSelector=a%20in%20(b',
      'labelSelector=%3D%3Dx',
      'fieldSelector=spec.secret%3D1',
      'limit=-1',
      'resourceVersion=abc',
      'continue=garbage',
    ]) {
      const r = await getJson(`${server.url}/api/v1/nodes?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ kind: 'Status', code: 400 });
    }
  });

  it('404s dot-dot and encoded traversal, and never serves a file by URL', async () => {
    for (const p of [
      '/api/v1/namespaces/../../',
      '/api/v1/namespaces/%2e%2e/pods',
      '/api/v1/namespaces/openshift-ns-1/pods/..%2f..%2fetc%2fpasswd/log',
      '/api/v1/namespaces/openshift-ns-1/pods/ns-1-pod-0/..',
      '/etc/passwd',
      '/../../etc/passwd',
    ]) {
      const r = await raw('GET', p);
      expect(r.status, p).toBe(404);
      expect(r.text).not.toContain('root:');
    }
  });

  it('rejects an over-long request line', async () => {
    const r = await raw('GET', `/api/v1/nodes?labelSelector=${'a'.repeat(9000)}`);
    expect([414, 431]).toContain(r.status);
  });
});

describe('watch', () => {
  it('starts with ADDED for every object when no resourceVersion is given', async () => {
    const events = await watchEvents(`${server.url}/api/v1/nodes?watch=true`, (e) => e.length >= 6);
    expect(events.map((e) => e.type)).toEqual(Array(6).fill('ADDED'));
  });

  it('answers a resourceVersion older than the window with 410 Gone', async () => {
    const events = await watchEvents(
      `${server.url}/api/v1/nodes?watch=true&resourceVersion=1`,
      (e) => e.length >= 1,
    );
    expect(events[0]).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    });
  });
});

describe('slow, idle and non-reading clients', () => {
  let tight: RunningServer;
  beforeAll(async () => {
    tight = await serve([join(dir, 'must-gather.local.1')], {
      limits: { idleTimeoutMs: 300, requestTimeoutMs: 500, maxWatchBufferBytes: 64 * 1024 },
    });
  });
  afterAll(async () => {
    await tight?.close();
  });

  /** A raw TCP client: what it was sent back, and how long until the server closed it. */
  function client(
    onConnect: (socket: Socket) => void,
    giveUpMs = 5_000,
  ): Promise<{ closedAfterMs: number; text: string }> {
    return new Promise((resolve) => {
      const u = new URL(tight.url);
      const t = performance.now();
      let text = '';
      const socket = connect(Number(u.port), u.hostname, () => onConnect(socket));
      socket.on('data', (c) => {
        text += String(c);
      });
      const done = () => resolve({ closedAfterMs: performance.now() - t, text });
      socket.on('close', done);
      socket.on('error', () => undefined);
      setTimeout(() => socket.destroy(), giveUpMs);
    });
  }

  it('closes a connection that sends nothing', async () => {
    const r = await client(() => undefined);
    expect(r.closedAfterMs).toBeLessThan(3_000);
    expect(r.text).toBe('');
  });

  it('closes a client that trickles its headers (slowloris)', async () => {
    let timer: NodeJS.Timeout | undefined;
    const r = await client((socket) => {
      socket.write('GET /api/v1/nodes HTTP/1.1\r\nHost: localhost\r\n');
      // A byte every 100 ms: never idle for 300 ms, never done within the 500 ms request timeout.
      timer = setInterval(() => socket.write('X'), 100);
    });
    clearInterval(timer);
    expect(r.closedAfterMs).toBeLessThan(4_000);
    expect(r.text).not.toContain('"kind":"NodeList"');
  });

  it('cuts a watch whose client stops reading (no server-side buffer), and the client resumes without a loss', async () => {
    const key = '/v1/nodes';
    const type = tight.store.types().find((t) => t.group === '' && t.plural === 'nodes')!;
    const node = tight.store.list(key)[0]!;
    const from = tight.store.resourceVersion;
    const u = new URL(tight.url);
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(
        `GET /api/v1/nodes?watch=true&resourceVersion=${from} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
    });
    socket.on('error', () => undefined);
    // Let the watch open, then stop reading and make far more changes than the buffer holds.
    while (tight.watchCount() < 1) await new Promise((r) => setTimeout(r, 10));
    socket.pause();
    const big = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 1000; i++) {
      tight.store.apply(type, 'MODIFIED', {
        ...node,
        metadata: { ...node.metadata, annotations: { big, i: String(i) } },
      });
      await new Promise((r) => setImmediate(r));
    }
    const deadline = Date.now() + 5_000;
    while (tight.watchCount() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(tight.watchCount()).toBe(0);
    socket.destroy();
    // Resuming from the last resourceVersion before the changes gets all 1000 of them. This server
    // cuts any reader that falls 64 KB behind, and a reader on a busy machine can: then, as a client
    // does, it resumes from the last event it got. Over all its resumes it gets each change once, in
    // order, and every resume is answered with events, never 410 Gone.
    const got: string[] = [];
    let rv = from;
    for (let resumes = 0; got.length < 1000 && resumes < 100; resumes++) {
      const events = await watchEvents(
        `${tight.url}/api/v1/nodes?watch=true&resourceVersion=${rv}`,
        (e) => got.length + e.length >= 1000,
        {},
        true,
      );
      for (const e of events) {
        expect(e.type).toBe('MODIFIED');
        expect(e.object.metadata.resourceVersion).toMatch(/^\d+$/);
        got.push(e.object.metadata.annotations.i);
        rv = e.object.metadata.resourceVersion;
      }
    }
    expect(got).toEqual(Array.from({ length: 1000 }, (_, i) => String(i)));
  });
});
