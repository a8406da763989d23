/**
 * The live client's limits that need no hostile server to show (issue 38; the attacks themselves are
 * in test/hostile/live.hostile.ts): `--request-timeout` read as kubectl reads it, the reflector's
 * backoff steps, and an http:// server reached as kubectl reaches it (issue 37 item 8).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRequestTimeout } from '../../src/cli/live-flags.js';
import { LiveClient, loadKubeConfig } from '../../src/live/index.js';
import { UsageError } from '../../src/model/index.js';
import { LIVE_READING } from '../../src/sources/index.js';
import { BackoffTimer, REFLECTOR_BACKOFF } from '../../src/watch/informer.js';

describe('--request-timeout', () => {
  it('reads a whole number as seconds and anything else as a Go duration, 0 as none', () => {
    expect(parseRequestTimeout('0')).toBe(0);
    expect(parseRequestTimeout('5')).toBe(5000);
    expect(parseRequestTimeout('30s')).toBe(30_000);
    expect(parseRequestTimeout('1m30s')).toBe(90_000);
    expect(parseRequestTimeout('500ms')).toBe(500);
    expect(parseRequestTimeout('1.5h')).toBe(5_400_000);
    expect(parseRequestTimeout('0s')).toBe(0);
  });
  it('refuses what is not a duration, with a usage error naming the flag', () => {
    for (const bad of ['', 'abc', '-1s', '10 s', '5d', '1m30', 's']) {
      expect(() => parseRequestTimeout(bad), bad).toThrow(UsageError);
      expect(() => parseRequestTimeout(bad), bad).toThrow(/--request-timeout/);
    }
  });
});

describe("the reflector's backoff", () => {
  it('doubles from 0.8 s to 30 s, each wait up to as much again at random', () => {
    const low = new BackoffTimer(REFLECTOR_BACKOFF, () => 0);
    const steps = Array.from({ length: 8 }, (_, i) => low.next(i));
    expect(steps).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);
    const high = new BackoffTimer(REFLECTOR_BACKOFF, () => 0.999);
    const waits = Array.from({ length: 8 }, (_, i) => high.next(i));
    for (const [i, w] of waits.entries()) expect(w).toBeLessThan(2 * (steps[i] ?? 0));
  });
  it('starts again from 0.8 s when two minutes passed without a wait', () => {
    const t = new BackoffTimer(REFLECTOR_BACKOFF, () => 0);
    t.next(0);
    t.next(1000);
    expect(t.next(2000)).toBe(3200);
    expect(t.next(2000 + 120_001)).toBe(800);
  });
});

describe('an http:// server', () => {
  let server: http.Server;
  let url = '';
  const seen: { path: string; auth: string | undefined }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"kind":"Status","metadata":{"name":"x"}}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('is reached with the kubeconfig’s token, without insecure-skip-tls-verify, as kubectl does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-http-'));
    const file = join(dir, 'kubeconfig');
    writeFileSync(
      file,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "${url}"}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user: {token: tok}\n`,
    );
    const client = new LiveClient(await loadKubeConfig({ kubeconfig: file }), LIVE_READING);
    const got = await client.get('/version');
    expect(got.kind).toBe('Status');
    expect(seen).toEqual([{ path: '/version', auth: 'Bearer tok' }]);
  });
});
