/**
 * Live-mode test harness: `atlevel serve` in-process (test/serve/helpers.ts) with a kubeconfig file
 * for it, and a recording proxy in front of it that logs every request's method and path and can
 * drop every open watch, or answer watches with 410 Gone, as a real API server does to its clients.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeConfig, type RawObject } from '../../src/live/index.js';
import { kubeconfigFor, type RunningServer, type StartOptions } from '../../src/serve/index.js';
import type { Change } from '../../src/serve/store.js';
import {
  type WatchOptions,
  type WatchOutput,
  type WatchSummary,
  watchCluster,
} from '../../src/watch/index.js';
import type { RelistGap } from '../../src/watch/informer.js';
import { transitions } from '../../src/watch/monitor.js';
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
  /**
   * Answer the next watch of each stream with a 410 Gone ERROR event, after `delayMs` (the time a
   * client takes to learn its resourceVersion is gone: changes made meanwhile reach it only by the
   * relist, as their net effect).
   */
  goneOnce(delayMs?: number): void;
  close(): Promise<void>;
}

export async function startProxy(upstream: string): Promise<Proxy> {
  const target = new URL(upstream);
  const requests: string[] = [];
  const watches = new Set<net.Socket>();
  let gone = new Set<string>();
  let goneArmed = false;
  let goneDelayMs = 0;
  // A TCP proxy that reads the request lines going by: nothing of HTTP is re-implemented, so what the
  // client sent is what the server got.
  // Every connection, to end at close: the client's idle keep-alive connections would otherwise hold
  // close() until the client's own idle timeout (about 4 s for each proxy a test closes).
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
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
            setTimeout(() => {
              client.end(
                `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
              );
              up.destroy();
            }, goneDelayMs);
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
    goneOnce: (delayMs = 0) => {
      goneArmed = true;
      goneDelayMs = delayMs;
      gone = new Set();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const w of watches) w.destroy();
        server.close(() => r());
        for (const c of open) c.destroy();
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
  extra: { record?: string; forever?: boolean; releases?: NonNullable<WatchOptions['releases']> } = {},
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

/** The kinds whose changes watch turns into transitions (Events become `ns/` lines, left out here). */
const TRANSITION_KINDS = new Set([
  'ClusterVersion',
  'ClusterOperator',
  'MachineConfigPool',
  'MachineConfig',
  'Node',
]);

/**
 * One transition: its monitor line (locator and message) and its time. `key` groups the lines of one
 * object as one stream delivers them in order: the locator, and apart from it a pool's rendered-config
 * lines, which come from the MachineConfig stream.
 */
export interface Observed {
  readonly key: string;
  readonly line: string;
  readonly from: number;
}

function observedOf(locator: string, message: string, from: number): Observed {
  const rendered = message.startsWith('reason/RenderedConfigGenerated') ? ' (rendered config)' : '';
  return { key: `${locator}${rendered}`, line: `${locator} ${message}`, from };
}

/**
 * Every change the server applies from now on, as its store logged it: resourceVersion, recorded
 * moment, object before and after. This is the ground truth of what a client could be sent.
 */
export function recordServed(server: RunningServer): Change[] {
  const changes: Change[] = [];
  server.store.subscribe((c) => changes.push(c));
  return changes;
}

/**
 * What a watch could observe of `changes`: each change of a watched kind turned into transitions from
 * the object before it, in resourceVersion order, up to `until` (where the watch stopped recording).
 * A relist after 410 Gone (a gap: a stream's changes after `after` up to the list's `listed`) shows a
 * client only the net effect of the changes inside it: each object's state before the gap against its
 * state at the list. The relist sees that at the moment of the list, so those lines have no time here.
 * Changes up to a stream's first list (`listed`) are what the watch started from, not transitions.
 */
export function observable(
  server: RunningServer,
  changes: readonly Change[],
  until: number | undefined,
  gaps: readonly RelistGap[] = [],
  listed: Readonly<Record<string, string>> = {},
): Observed[] {
  const out: Observed[] = [];
  const emit = (kind: string, before: RawObject | undefined, after: RawObject | undefined, at: number) => {
    for (const t of transitions(kind, before, after, at))
      out.push(observedOf(t.locator, t.message, Number.isNaN(at) ? Number.NaN : t.from));
  };
  interface Open {
    readonly kind: string;
    readonly listed: number;
    readonly objects: Map<string, { before: RawObject | undefined; last: Change }>;
  }
  const open: Open[] = gaps.map((g) => ({ kind: g.stream, listed: Number(g.listed), objects: new Map() }));
  const flush = (rv: number) => {
    for (const g of open) {
      if (g.listed >= rv) continue;
      for (const { before, last } of g.objects.values())
        if (last.type !== 'DELETED') emit(g.kind, before, last.object as RawObject, Number.NaN);
      g.objects.clear();
    }
  };
  for (const c of changes) {
    const kind = server.store.type(c.typeKey)?.kind ?? '';
    if (!TRANSITION_KINDS.has(kind)) continue;
    if (until !== undefined && c.at !== undefined && c.at > until) continue;
    // Before the stream's first list: the list showed its result, as the state watch started from.
    if (c.rv <= Number(listed[kind] ?? 0)) continue;
    flush(c.rv);
    const gap = gaps.findIndex(
      (g) => g.stream === kind && c.rv > Number(g.after) && c.rv <= Number(g.listed),
    );
    const inside = open[gap];
    if (inside) {
      const name = c.object.metadata.name;
      const held = inside.objects.get(name);
      inside.objects.set(name, {
        before: held ? held.before : (c.previous as RawObject | undefined),
        last: c,
      });
      continue;
    }
    if (c.type !== 'DELETED')
      emit(kind, c.previous as RawObject | undefined, c.object as RawObject, c.at ?? Number.NaN);
  }
  flush(Number.POSITIVE_INFINITY);
  return out;
}

/** What the watch emitted as transitions, the same way (Events' `ns/` lines left out). */
export function observed(outputs: readonly WatchOutput[]): Observed[] {
  return outputs.flatMap((o) =>
    o.type === 'transition' && !o.record.locator.startsWith('ns/')
      ? [observedOf(o.record.locator, o.record.message, o.record.from)]
      : [],
  );
}

/** Each key's lines in the order they came: an exact comparison that allows nothing lost or repeated. */
export function byKey(list: readonly Observed[], withTime: boolean): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (const o of list) {
    const lines = out[o.key] ?? [];
    lines.push(withTime ? `${new Date(o.from).toISOString()} ${o.line}` : o.line);
    out[o.key] = lines;
  }
  return out;
}

/** A proxy in front of `upstream` that keeps every request's method and Authorization header. */
export async function authRecorder(upstream: string) {
  const seen: string[] = [];
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.headers.authorization ?? '(none)'}`);
    const up = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * The bundled example served, behind an authRecorder, for the length of `body`: the set-up of the
 * tests that check which credential reached the cluster.
 */
export async function withRecordedExample(
  body: (proxy: Awaited<ReturnType<typeof authRecorder>>) => Promise<void>,
): Promise<void> {
  const server = await serve(['examples/bug-2019850']);
  const proxy = await authRecorder(server.url);
  try {
    await body(proxy);
  } finally {
    await proxy.close();
    await server.close();
  }
}
