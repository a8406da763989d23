/**
 * Issue 38's attacks on the live client, each a standing test: `status --kubeconfig` and `watch`
 * against a hostile API server on 127.0.0.1 (fake-api.ts), run as child processes of bin/atlevel.js.
 * Each asserts exit 2 with one line (never 3), peak RSS under 1 GiB, and where the attack is a
 * request storm, a bound on the requests within a bounded window. No timing is asserted beyond the
 * hang guard every hostile case has.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CV_PATH,
  EVENTS_PATH,
  endless,
  type FakeApi,
  type Handler,
  kubeconfigFor,
  startFakeApi,
} from './fake-api.js';
import { problems, type RunResult, runCli } from './run.js';

let dir: string;
let api: FakeApi | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-hostile-live-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await api?.close();
  api = undefined;
});

function report(r: RunResult, extra = ''): void {
  console.log(
    `hostile: ${expect.getState().currentTestName} | exit ${r.code ?? r.signal} | peak ${r.peakMiB} MiB | ${r.ms} ms${extra}`,
  );
}

/** Exit 2, one line naming the server, no trace, under 1 GiB. */
function expectBadInput(r: RunResult, pattern: RegExp): void {
  report(r);
  expect(problems(r, [2]), `stderr: ${r.stderr.slice(0, 600)}`).toEqual([]);
  expect(r.stderr.trim().split('\n').length, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/^atlevel: http:\/\/127\.0\.0\.1:\d+\//);
  expect(r.stderr).toMatch(pattern);
}

async function status(handler: Handler, ...flags: string[]): Promise<RunResult> {
  api = await startFakeApi(handler);
  return runCli(['status', '--kubeconfig', kubeconfigFor(dir, api.url), ...flags], { timeoutMs: 90_000 });
}

function onList(path: string, answer: (res: http.ServerResponse, url: URL) => void): Handler {
  return (_req, res, url) => {
    if (url.pathname !== path || url.searchParams.get('watch') === 'true') return false;
    answer(res, url);
    return true;
  };
}

function json(res: http.ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe('38. the live client: answers too large, too long, too slow', () => {
  it('a list body without end (one string that never closes): exit 2 at the response cap', async () => {
    const r = await status(
      onList(CV_PATH, (res) =>
        endless(
          res,
          '{"kind":"ClusterVersionList","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"version"},"spec":{"x":"',
          'a',
        ),
      ),
    );
    expectBadInput(r, /more than 256 MiB; not read further/);
  });

  it('a list body without end (items without end): exit 2, bounded memory', async () => {
    let i = 0;
    const r = await status(
      onList('/apis/machineconfiguration.openshift.io/v1/machineconfigs', (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"kind":"MachineConfigList","metadata":{"resourceVersion":"1"},"items":[');
        const pump = () => {
          while (!res.destroyed) {
            let block = '';
            for (let k = 0; k < 200; k++, i++)
              block += `${i ? ',' : ''}{"metadata":{"name":"mc-${i}"},"spec":{"config":{"ignition":{"version":"3.2.0"}},"padding":"${'p'.repeat(2000)}"}}`;
            if (!res.write(block)) return void res.once('drain', pump);
          }
        };
        pump();
      }),
    );
    expectBadInput(r, /more than 256 MiB; not read further/);
  });

  it('continue tokens without end: exit 2 after 1000 pages, not for ever', async () => {
    let n = 0;
    const r = await status(
      onList(CV_PATH, (res) =>
        json(res, {
          kind: 'ClusterVersionList',
          metadata: { resourceVersion: '1', continue: `t${++n}` },
          items: [],
        }),
      ),
    );
    expectBadInput(r, /past 1000 pages/);
    expect(api?.count((q) => q.startsWith(`GET ${CV_PATH}`))).toBeLessThanOrEqual(1000);
  });

  it('a continue token handed out twice: exit 2 at the loop', async () => {
    const r = await status(
      onList(CV_PATH, (res) =>
        json(res, {
          kind: 'ClusterVersionList',
          metadata: { resourceVersion: '1', continue: 'same' },
          items: [],
        }),
      ),
    );
    expectBadInput(r, /continue token it gave before/);
    expect(api?.count((q) => q.startsWith(`GET ${CV_PATH}`))).toBe(2);
  });

  it('a body trickled one byte a second: exit 2 at --request-timeout', async () => {
    const r = await status(
      onList(CV_PATH, (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = '{"kind":"ClusterVersionList","metadata":{"resourceVersion":"1"},"items":[]}';
        let at = 0;
        const t = setInterval(() => {
          if (res.destroyed || at >= body.length) return clearInterval(t);
          res.write(body[at++] ?? '');
        }, 1000);
        res.on('close', () => clearInterval(t));
      }),
      '--request-timeout',
      '3s',
    );
    expectBadInput(r, /no complete answer within 3 s \(--request-timeout\)/);
  });

  it('--request-timeout takes kubectl’s forms and refuses others', async () => {
    const ok = await status(() => false, '--request-timeout', '0');
    report(ok);
    // Empty lists: no ClusterVersion, a clear exit 2 about the data, not about the flag.
    expect(ok.stderr).not.toMatch(/request-timeout/);
    expect(problems(ok, [0, 1, 2, 4])).toEqual([]);
    const bad = await runCli([
      'status',
      '--kubeconfig',
      kubeconfigFor(dir, 'http://127.0.0.1:9'),
      '--request-timeout',
      '3 parsecs',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--request-timeout "3 parsecs" is not a duration/);
  });
});

describe('38. the live client: objects that are not what they say', () => {
  it('metadata.name: 7 is exit 2 naming the object, not exit 3', async () => {
    const r = await status(
      onList(CV_PATH, (res) =>
        json(res, {
          kind: 'ClusterVersionList',
          metadata: { resourceVersion: '1' },
          items: [{ metadata: { name: 7 } }],
        }),
      ),
    );
    expectBadInput(r, /metadata\.name: expected string/);
  });

  it('a 100,000-deep object in an item is exit 2 naming --max-tree-depth, not a stack overflow', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const r = await status(
      onList(CV_PATH, (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          `{"kind":"ClusterVersionList","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"version"},"spec":${deep}}]}`,
        );
      }),
    );
    expectBadInput(r, /nesting depth limit of 512.*--max-tree-depth/);
  });

  it('an answer that is not a list is exit 2', async () => {
    const r = await status(onList(CV_PATH, (res) => json(res, { kind: 'Status', items: 'no' })));
    expectBadInput(r, /not a list/);
  });
});

/** `watch` against the server for `ms`, then Ctrl-C: never exit 3, under 1 GiB. */
async function watchFor(handler: Handler, ms: number): Promise<RunResult> {
  api = await startFakeApi(handler);
  return runCli(['watch', '--kubeconfig', kubeconfigFor(dir, api.url), '-o', 'json'], {
    timeoutMs: ms + 60_000,
    signalAfter: { ms, signal: 'SIGINT' },
  });
}

const WINDOW_MS = 12_000;
const isWatch = (q: string) => q.includes('watch=true');
/** How many distinct streams (resource and namespace) watch opened: each backs off on its own. */
function streams(): number {
  return new Set((api?.requests ?? []).filter(isWatch).map((r) => r.split('?')[0])).size;
}
const isList = (q: string) => !q.includes('watch=true') && !q.includes('/atlevel/');

describe('38. watch: storms and floods', () => {
  it('HTTP 410 on every watch: the reflector’s backoff, not a request storm', async () => {
    const r = await watchFor((_req, res, url) => {
      if (url.searchParams.get('watch') !== 'true') return false;
      res.writeHead(410, { 'content-type': 'application/json' });
      res.end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}');
      return true;
    }, WINDOW_MS);
    const watches = api?.count(isWatch) ?? 0;
    const lists = api?.count(isList) ?? 0;
    const n = streams();
    report(r, ` | ${watches} watches, ${lists} lists over ${n} streams in ${WINDOW_MS / 1000} s`);
    expect(problems(r, [0, 1, 4])).toEqual([]);
    // Each stream waits 0.8–1.6 s, then 1.6–3.2 s, 3.2–6.4 s... before each relist: at most 5 rounds
    // in 12 s. Without backoff this was thousands.
    expect(n).toBeGreaterThan(5);
    expect(watches).toBeLessThanOrEqual(n * 6);
    expect(lists).toBeLessThanOrEqual(n * 7);
  });

  /**
   * Every watch answers 200 with `body` and ends: the streams back off as after a 410 (at most 6
   * watches each in the window), and watch exits as it should.
   */
  async function everyWatchEndsWith(body: string): Promise<void> {
    const r = await watchFor((_req, res, url) => {
      if (url.searchParams.get('watch') !== 'true') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
      return true;
    }, WINDOW_MS);
    const watches = api?.count(isWatch) ?? 0;
    const n = streams();
    report(r, ` | ${watches} watches over ${n} streams in ${WINDOW_MS / 1000} s`);
    expect(problems(r, [0, 1, 4])).toEqual([]);
    expect(n).toBeGreaterThan(5);
    expect(watches).toBeLessThanOrEqual(n * 6);
  }

  it('an ERROR 410 event on every watch: the same backoff', async () => {
    await everyWatchEndsWith(
      '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}}\n',
    );
  });

  it('watches that end at once with nothing in them: backoff, not a loop', async () => {
    // res.end('') sends no body, as res.end() does.
    await everyWatchEndsWith('');
  });

  it('a watch line with no newline: exit 2 at the line cap, not gigabytes', async () => {
    api = await startFakeApi((_req, res, url) => {
      if (url.pathname !== EVENTS_PATH || url.searchParams.get('watch') !== 'true') return false;
      endless(res, '{"type":"ADDED","object":{"metadata":{"name":"', 'x');
      return true;
    });
    const r = await runCli(['watch', '--kubeconfig', kubeconfigFor(dir, api.url)], { timeoutMs: 90_000 });
    report(r);
    expect(problems(r, [2]), r.stderr).toEqual([]);
    expect(r.stderr).toMatch(/watch event longer than 16 MiB/);
  });

  it('a watch event whose object is invalid: exit 2 naming it', async () => {
    api = await startFakeApi((_req, res, url) => {
      if (url.pathname !== EVENTS_PATH || url.searchParams.get('watch') !== 'true') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        `${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 7, resourceVersion: '11' } } })}\n`,
      );
      return true;
    });
    const r = await runCli(['watch', '--kubeconfig', kubeconfigFor(dir, api.url)], { timeoutMs: 90_000 });
    report(r);
    expect(problems(r, [2]), r.stderr).toEqual([]);
    expect(r.stderr).toMatch(/metadata\.name: expected string/);
  });

  it('a flood of Event watch events: memory stays bounded', async () => {
    let i = 0;
    const r = await watchFor((_req, res, url) => {
      if (url.pathname !== EVENTS_PATH || url.searchParams.get('watch') !== 'true') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (!res.destroyed) {
          let block = '';
          for (let k = 0; k < 100; k++, i++) {
            block += `${JSON.stringify({
              type: 'ADDED',
              object: {
                kind: 'Event',
                apiVersion: 'v1',
                metadata: {
                  name: `flood-${i}`,
                  namespace: 'openshift-cluster-version',
                  resourceVersion: String(100 + i),
                },
                involvedObject: { kind: 'Pod', name: `p-${i}`, namespace: 'openshift-cluster-version' },
                reason: 'BackOff',
                message: `Back-off restarting failed container ${'m'.repeat(200)}`,
                firstTimestamp: '2026-01-01T00:00:00Z',
                lastTimestamp: '2026-01-01T00:00:00Z',
              },
            })}\n`;
          }
          if (!res.write(block)) return void res.once('drain', pump);
        }
      };
      pump();
      return true;
    }, 20_000);
    report(r, ` | ${i} events sent`);
    expect(problems(r, [0, 1, 4])).toEqual([]);
    expect(i).toBeGreaterThan(50_000);
    expect(r.peakMiB).toBeLessThan(512);
  });
});
