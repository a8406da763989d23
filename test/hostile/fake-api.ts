/**
 * A hostile Kubernetes API server on 127.0.0.1 for the live client's standing tests (issue 38): every
 * list answers an empty List unless the test's handler takes the request, and every watch is held
 * open quietly. It counts requests, so a test can bound how many a misbehaving answer provokes.
 * Plain http:// with a token and no insecure-skip-tls-verify, as kubectl accepts (issue 37 item 8).
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
) => boolean | undefined | Promise<boolean | undefined>;

export interface FakeApi {
  readonly url: string;
  /** Requests so far: `METHOD path?query`. */
  readonly requests: string[];
  count(pred: (r: string) => boolean): number;
  close(): Promise<void>;
}

function emptyList(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: [] }));
}

export async function startFakeApi(handler: Handler = () => false): Promise<FakeApi> {
  const requests: string[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.on('error', () => undefined);
    open.add(res);
    res.on('close', () => open.delete(res));
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    Promise.resolve(handler(req, res, url))
      .then((taken) => {
        if (taken) return;
        if (url.pathname === '/atlevel/replay') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"kind":"Status","code":404}');
        } else if (url.searchParams.get('watch') === 'true') {
          // A quiet watch: headers now, then nothing until the test ends.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
        } else emptyList(res);
      })
      .catch(() => res.destroy());
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (pred) => requests.filter(pred).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of open) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A kubeconfig for `url` with a bearer token and no TLS settings at all. */
export function kubeconfigFor(dir: string, url: string, name = 'kubeconfig'): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: hostile',
      `  cluster: {server: "${url}"}`,
      'contexts:',
      '- name: hostile',
      '  context: {cluster: hostile, user: u}',
      'current-context: hostile',
      'users:',
      '- name: u',
      '  user: {token: not-a-secret}',
      '',
    ].join('\n'),
  );
  return file;
}

export const CV_PATH = '/apis/config.openshift.io/v1/clusterversions';
export const EVENTS_PATH = '/api/v1/namespaces/openshift-cluster-version/events';

/** Write `chunk` again and again, as fast as the client reads, until the client goes away. */
export function endless(res: http.ServerResponse, head: string, chunk: string, tail?: () => boolean): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(head);
  const block = Buffer.from(chunk.repeat(Math.max(1, Math.floor((64 * 1024) / chunk.length))));
  const pump = () => {
    while (!res.destroyed && !res.writableEnded) {
      if (tail?.()) return;
      if (!res.write(block)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}
