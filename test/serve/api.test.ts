import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
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
