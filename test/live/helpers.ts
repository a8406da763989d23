/**
 * Live-mode test harness: `atlevel serve` in-process (test/serve/helpers.ts) with a kubeconfig file
 * for it, and a recording proxy in front of it that logs every request's method and path and can
 * drop every open watch, or answer watches with 410 Gone, as a real API server does to its clients.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeConfig } from '../../src/live/index.js';
import { kubeconfigFor, type RunningServer, type StartOptions } from '../../src/serve/index.js';
import { type WatchOutput, type WatchSummary, watchCluster } from '../../src/watch/index.js';
import { serve } from '../serve/helpers.js';

export { serve };

export function kubeconfigFile(url: string, dir = mkdtempSync(join(tmpdir(), 'atlevel-live-'))): string {
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, kubeconfigFor(url));
  return file;
}

export interface Proxy {
  readonly url: string;
  /** Every request: `METHOD path?query`. */
  readonly requests: string[];
  /** Cut every watch connection open now; returns how many. */
  dropWatches(): number;
  /** Answer the next watch of each stream with a 410 Gone ERROR event. */
  goneOnce(): void;
  close(): Promise<void>;
}

export async function startProxy(upstream: string): Promise<Proxy> {
  const target = new URL(upstream);
  const requests: string[] = [];
  const watches = new Set<net.Socket>();
  let gone = new Set<string>();
  let goneArmed = false;
  // A TCP proxy that reads the request lines going by: nothing of HTTP is re-implemented, so what the
  // client sent is what the server got.
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    const up = net.connect(Number(target.port), target.hostname);
    up.on('error', () => client.destroy());
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      for (const m of text.matchAll(/^([A-Z]+) (\S+) HTTP\/1\.[01]\r$/gm)) requests.push(`${m[1]} ${m[2]}`);
      const m = /^GET (\S+) HTTP/.exec(text);
      if (m?.[1]) {
        const url = new URL(m[1], 'http://x');
        if (url.searchParams.get('watch') === 'true') {
          if (goneArmed && !gone.has(url.pathname)) {
            gone.add(url.pathname);
            const body = `${JSON.stringify({
              type: 'ERROR',
              object: {
                kind: 'Status',
                apiVersion: 'v1',
                status: 'Failure',
                reason: 'Expired',
                code: 410,
                message: 'too old resource version',
              },
            })}\n`;
            client.end(
              `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
            );
            up.destroy();
            return;
          }
          watches.add(client);
          client.on('close', () => watches.delete(client));
        }
      }
      up.write(chunk);
    });
    up.on('data', (chunk: Buffer) => client.write(chunk));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    dropWatches: () => {
      const n = watches.size;
      for (const w of watches) w.destroy();
      watches.clear();
      return n;
    },
    goneOnce: () => {
      goneArmed = true;
      gone = new Set();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const w of watches) w.destroy();
        server.close(() => r());
      }),
  };
}

export interface WatchRun {
  readonly outputs: WatchOutput[];
  readonly done: Promise<WatchSummary>;
  readonly stop: AbortController;
}

/** Start a watch on `url` (in-process), collecting what it emits. */
export async function startWatch(
  url: string,
  extra: { record?: string; forever?: boolean } = {},
): Promise<WatchRun> {
  const config = await loadKubeConfig({ kubeconfig: kubeconfigFile(url) });
  const outputs: WatchOutput[] = [];
  const stop = new AbortController();
  const done = watchCluster({
    config,
    signal: stop.signal,
    emit: (o) => outputs.push(o),
    backoff: { baseMs: 10, maxMs: 200 },
    ...extra,
  });
  return { outputs, done, stop };
}

/** Wait until `cond` holds (polling), or fail after `ms`. */
export async function until(cond: () => boolean, ms = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Start the held replay once the watcher has opened all its watches. */
export async function startReplayWhenWatched(server: RunningServer, watches: number): Promise<void> {
  await until(() => server.watchCount() >= watches, 30_000, `${watches} watches`);
  server.replay?.start();
}

export type ServeOptions = Omit<StartOptions, 'history'>;
