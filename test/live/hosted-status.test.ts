/**
 * `status --kubeconfig MGMT [--guest-kubeconfig GUEST]` on a hosted cluster (docs/hosted.md): with
 * `serve` as the management API server, the same document as status on the files (only the fields
 * naming the source differ), GET requests only; with a second `serve` as the guest's API server, the
 * Machines gain their Nodes and the guest's operators are counted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ClusterHistory } from '../../src/model/index.js';
import { type RunningServer, startServer } from '../../src/serve/index.js';
import { readServedExtras } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/index.js';
import { inProcessCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistoryParts } from '../helpers/load.js';
import { kubeconfigFile, serve, startProxy } from './helpers.js';

const cli = inProcessCli('live-hosted-status');
const MGMT = `${projectRoot}/test/fixtures/status/hosted-rollout`;
const GUEST = `${projectRoot}/test/fixtures/status/hosted-rollout-guest`;
const DUMP = `${projectRoot}/test/fixtures/hosted/ocpbugs-77922`;

/** serve DUMP and serve --guest NAME DUMP: the management API server and the guest's. */
async function serveDump(dump: string, guestName: string): Promise<[RunningServer, RunningServer]> {
  const history = buildHistory(await loadHistoryParts([dump], { now: Date.now() }));
  const mx = await readServedExtras([dump]);
  const management = await startServer({ history, extra: mx.objects, logs: mx.logs });
  const g = history.guests?.find((x) => x.name === guestName)?.history as ClusterHistory;
  const gx = await readServedExtras([dump], {}, guestName);
  return [management, await startServer({ history: g, extra: gx.objects, logs: gx.logs })];
}

/** Strings that name where a fact was read from: the file path, or the API server's URL. */
function withoutSource(value: unknown, prefixes: readonly string[]): unknown {
  if (typeof value === 'string') return prefixes.some((p) => value.startsWith(p)) ? '<source>' : value;
  if (Array.isArray(value)) return value.map((v) => withoutSource(v, prefixes));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSource(v, prefixes)]));
  return value;
}

/** In front of `target`: 403 for the HyperShift and Cluster API groups (a role without them), the rest passed on. */
async function refusingHosted(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (/\/apis\/(hypershift\.openshift\.io|cluster\.x-k8s\.io)\//.test(req.url ?? '')) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'Forbidden',
          code: 403,
        }),
      );
      return;
    }
    const up = http.request(
      `${target}${req.url ?? ''}`,
      { method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

describe('status --kubeconfig of a management cluster', () => {
  it('a role without the hosted kinds (403) reads an ordinary cluster as before, with a note', async () => {
    const server = await serve(['examples/bug-2019850']);
    const front = await refusingHosted(server.url);
    try {
      const r = await cli.run('analyze', '--kubeconfig', kubeconfigFile(front.url), '-o', 'json');
      expect([0, 1, 4], cli.stderr()).toContain(r.code);
      const notes = JSON.stringify(JSON.parse(r.out).notes);
      expect(notes).toContain('nodepools: not permitted (HTTP 403); no NodePool objects read');
      const s = await cli.run('status', '--kubeconfig', kubeconfigFile(front.url), '-o', 'json');
      expect(JSON.parse(s.out).kind).toBe('AtlevelUpdateStatus');
    } finally {
      await front.close();
      await server.close();
    }
  });

  it('on serve of the management objects: the same JSON as status on the files, by GET only', async () => {
    const onFiles = await cli.run('status', MGMT, '-o', 'json');
    const server = await serve([MGMT]);
    const proxy = await startProxy(server.url);
    try {
      const live = await cli.run('status', '--kubeconfig', kubeconfigFile(proxy.url), '-o', 'json');
      expect(live.code, cli.stderr()).toBe(onFiles.code);
      expect(withoutSource(JSON.parse(live.out), [proxy.url])).toEqual(
        withoutSource(JSON.parse(onFiles.out), [MGMT]),
      );
      // The same at a moment in the middle of the rollout.
      const at = ['--at', '2026-11-30T10:30:00Z'];
      const liveAt = await cli.run('status', '--kubeconfig', kubeconfigFile(proxy.url), '-o', 'json', ...at);
      const filesAt = await cli.run('status', MGMT, '-o', 'json', ...at);
      expect(withoutSource(JSON.parse(liveAt.out), [proxy.url])).toEqual(
        withoutSource(JSON.parse(filesAt.out), [MGMT]),
      );
      expect(proxy.requests.length).toBeGreaterThan(0);
      expect(proxy.requests.filter((q) => !q.startsWith('GET '))).toEqual([]);
      expect(proxy.requests.some((q) => q.includes('/apis/hypershift.openshift.io/v1beta1/nodepools'))).toBe(
        true,
      );
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it('--guest-kubeconfig: the Machines get their Nodes, the guest operators are counted, GET only', async () => {
    const mgmt = await serve([MGMT]);
    const guest = await serve([GUEST]);
    const guestProxy = await startProxy(guest.url);
    try {
      const r = await cli.run(
        'status',
        '--kubeconfig',
        kubeconfigFile(mgmt.url),
        '--guest-kubeconfig',
        kubeconfigFile(guestProxy.url),
        '-o',
        'json',
      );
      expect(r.code, cli.stderr()).toBe(1);
      const json = JSON.parse(r.out);
      expect(json.guest).toMatchObject({ read: true, operators: { total: 4, updated: 2, unavailable: 1 } });
      const early = json.nodePools.find((p: { name: string }) => p.name === 'early');
      // ip-10-0-2-21 is not ready in the guest: its Machine is updated but Unavailable.
      expect(early.machines.find((m: { node: string }) => m.node === 'ip-10-0-2-21')).toMatchObject({
        assessment: 'Unavailable',
        unavailable: true,
      });
      expect(json.insights.map((i: { kind: string }) => i.kind)).toContain('operator-unavailable');
      expect(json.notes.join(' ')).not.toContain('guest cluster was not read');
      expect(guestProxy.requests.filter((q) => !q.startsWith('GET '))).toEqual([]);
    } finally {
      await guestProxy.close();
      await guest.close();
      await mgmt.close();
    }
  });

  it('on serve of a hypershift dump (management and guest endpoints): the same JSON and text as status on the dump', async () => {
    const onFiles = await cli.run('status', DUMP, '-o', 'json');
    const textOnFiles = await cli.run('status', DUMP, '--width', '150');
    const [management, guest] = await serveDump(DUMP, 'example');
    try {
      const flags = [
        '--kubeconfig',
        kubeconfigFile(management.url),
        '--guest-kubeconfig',
        kubeconfigFile(guest.url),
      ];
      const live = await cli.run('status', ...flags, '-o', 'json');
      expect(live.code, cli.stderr()).toBe(onFiles.code);
      expect(live.code).toBe(1);
      const json = JSON.parse(live.out);
      expect(json.guest).toMatchObject({ read: true, operators: { total: 5 } });
      expect(json.insights.map((i: { kind: string }) => i.kind)).toContain('nodepool-level-before-rollout');
      expect(withoutSource(json, [management.url, guest.url])).toEqual(
        withoutSource(JSON.parse(onFiles.out), [DUMP]),
      );
      const text = await cli.run('status', ...flags, '--width', '150');
      expect(text.out).toBe(textOnFiles.out);
    } finally {
      await management.close();
      await guest.close();
    }
  });

  it('analyze --kubeconfig of the management cluster finds the NodePool that claimed its version early, by GET only', async () => {
    const [management, guest] = await serveDump(DUMP, 'example');
    const proxy = await startProxy(management.url);
    try {
      const onFiles = JSON.parse((await cli.run('analyze', DUMP, '-o', 'json')).out);
      const r = await cli.run('analyze', '--kubeconfig', kubeconfigFile(proxy.url), '-o', 'json');
      expect(r.code, cli.stderr()).toBe(1);
      const json = JSON.parse(r.out);
      const failed = (doc: { findings: { rule: string; severity: string }[] }) =>
        doc.findings.filter((f) => f.severity === 'failure').map((f) => f.rule);
      expect(failed(json)).toContain('nodepool-level-before-rollout');
      expect(failed(json)).toEqual(failed(onFiles));
      expect(proxy.requests.filter((q) => !q.startsWith('GET '))).toEqual([]);
    } finally {
      await proxy.close();
      await management.close();
      await guest.close();
    }
  });

  it('--guest-kubeconfig without --kubeconfig is a usage error (exit 2)', async () => {
    const r = await cli.run('status', MGMT, '--guest-kubeconfig', '/nonexistent');
    expect(r.code).toBe(2);
    expect(cli.stderr()).toContain('--guest-kubeconfig goes with --kubeconfig');
  });
});
