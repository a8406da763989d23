/**
 * Issue 38's attacks on the URL cache, each a standing test against a hostile storage server on
 * 127.0.0.1: a listing that says gzip with a small size, then a body without end and without
 * Content-Encoding (it went 3.1 GB into the cache's tmp/ in 15 s); and a server that trickles its
 * answers (it held a 26-byte listing for 130 s). In-process, through fetchFile as the commands that
 * read one file use it, with the retry policy and deadline made short.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { fetchFile } from '../../src/sources/url/open.js';

let dir: string;
let server: http.Server | undefined;
let requests = 0;
let served = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-hostile-storage-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const NAME = 'logs/job/1/artifacts/machineconfig.json';

function listing(encoding: boolean): string {
  return JSON.stringify({
    items: [
      {
        name: NAME,
        size: '26',
        generation: '1',
        updated: '2026-01-01T00:00:00Z',
        ...(encoding ? { contentEncoding: 'gzip' } : {}),
      },
    ],
  });
}

/** A storage server: `list` answers listings and object metadata, `media` the object's bytes. */
async function storage(
  list: (res: http.ServerResponse, body: string) => void,
  media: (res: http.ServerResponse) => void,
  encoding = true,
): Promise<string> {
  requests = 0;
  served = 0;
  server = http.createServer((req, res) => {
    requests++;
    res.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.searchParams.get('alt') === 'media') return media(res);
    if (url.pathname.includes('/o/')) {
      const item = JSON.parse(listing(encoding)).items[0];
      return list(res, JSON.stringify({ bucket: 'b', ...item }));
    }
    return list(res, listing(encoding));
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/gcs/hostile-bucket/${NAME}`;
}

function du(path: string): number {
  let total = 0;
  for (const e of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  }
  return total;
}

const FAST = { retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 }, idleTimeoutMs: 2000 };

describe('38. the URL cache against a hostile storage server', () => {
  it('listed as gzip and 26 bytes, then a body without end and without Content-Encoding: capped at the listed size', async () => {
    const url = await storage(
      (res, body) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const block = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (!res.destroyed) {
            served += block.length;
            if (!res.write(block)) return void res.once('drain', pump);
          }
        };
        pump();
      },
    );
    const cacheDir = mkdtempSync(join(dir, 'cache-'));
    const err = await fetchFile(url, { cacheDir, ...FAST }).catch((e: unknown) => e);
    console.log(
      `hostile: endless transcoded body | ${served} bytes sent, ${du(cacheDir)} bytes in the cache, ${requests} requests`,
    );
    expect(err).toBeInstanceOf(InputError);
    expect(String((err as Error).message)).toMatch(/decoded, past the 26 bytes the listing gave/);
    // Nothing kept, and nothing near the body's size ever written.
    expect(du(cacheDir)).toBeLessThan(1024 * 1024);
    expect(served).toBeLessThan(64 * 1024 * 1024);
  });

  it('a listing trickled a byte at a time: given up at the deadline, every attempt', async () => {
    const url = await storage(
      (res, body) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        let at = 0;
        const t = setInterval(() => {
          if (res.destroyed || at >= body.length) {
            clearInterval(t);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(body[at++] ?? '');
        }, 500);
        res.on('close', () => clearInterval(t));
      },
      (res) => res.end(),
    );
    const cacheDir = mkdtempSync(join(dir, 'cache-'));
    const err = await fetchFile(url, { cacheDir, ...FAST, deadlineBaseMs: 1500 }).catch((e: unknown) => e);
    console.log(`hostile: trickled listing | ${requests} requests`);
    expect(err).toBeInstanceOf(InputError);
    expect(String((err as Error).message)).toMatch(/deadline/);
    // Discovery asks two things at once (the object's metadata and the listing), each tried
    // `attempts` times, each attempt cut at its deadline.
    expect(requests).toBeLessThanOrEqual(2 * FAST.retry.attempts);
  });
});
