/**
 * `atlevel ingest --run-timeout`: a run given as a URL to a local server that accepts the connection
 * and never answers is given up after the timeout and recorded as an ingest error naming it; the other
 * runs of the batch are stored (with --jobs 1 they wait in the pool's queue behind the hanging run, so
 * they are stored only if its worker was terminated, and they are not given up for the time they
 * waited); the batch exits 0 (docs/runs.md: "0 when the batch ran") and the process ends. Bad
 * --run-timeout values exit 2 with one line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/index.js';
import { corpusRun, writeCorpus } from './corpus.js';
import { atlevel } from './helpers.js';

let dir: string;
let server: Server;
let port = 0;
const sockets = new Set<Socket>();
/** Connections the silent server accepted, and how many the client has since closed. */
let accepted = 0;
let closed = 0;
const N = 3;
const HUNG = 'prow:periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade/1460000000000000099';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-ingest-timeout-'));
  await writeCorpus(join(dir, 'corpus'), N);
  // Accepts every connection, reads what it is sent, never answers.
  server = createServer((s) => {
    accepted += 1;
    sockets.add(s);
    s.on('data', () => undefined);
    s.on('close', () => {
      closed += 1;
      sockets.delete(s);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

describe('ingest --run-timeout', () => {
  it('gives up a URL that never answers, records it as an ingest error, stores the rest, exits 0', async () => {
    const url = `http://127.0.0.1:${port}/gcs/origin-ci-test/logs/${HUNG.slice('prow:'.length)}`;
    const db = join(dir, 'store');
    const folders = Array.from({ length: N }, (_, i) => corpusRun(join(dir, 'corpus'), i).dir);
    const r = await atlevel([
      'ingest',
      url,
      ...folders,
      '--db',
      db,
      '--jobs',
      '1',
      '--run-timeout',
      '2s',
      '--cache-dir',
      join(dir, 'cache'),
    ]);
    // The helper resolves on the child's exit: a worker left waiting on the socket would hold it.
    // Exit 1: the batch ran, and one run of it is an ingest error.
    expect(r.code, r.stderr).toBe(1);
    expect(accepted).toBeGreaterThan(0);
    expect(r.stdout).toMatch(
      new RegExp(`ingested ${N + 1} runs .*: ${N} stored, 0 already there, 1 ingest error;`),
    );
    expect(r.stderr).toContain(
      `atlevel: ingest error: ${url}: no result after 2s: the run was given up (--run-timeout 2s;`,
    );
    const store = await RunStore.open(db);
    try {
      const errors = await store.db.query('SELECT run_id, source, error FROM ingest_errors');
      expect(errors).toEqual([
        {
          run_id: HUNG,
          source: url,
          error: expect.stringMatching(/^no result after 2s: the run was given up/),
        },
      ]);
      const runs = await store.db.query('SELECT run_id FROM runs ORDER BY run_id');
      expect(runs).toHaveLength(N);
      expect(runs.map((x) => x.run_id)).not.toContain(HUNG);
    } finally {
      await store.close();
    }
    // Everything the given-up worker opened was closed: nothing of it outlived the process.
    await expect.poll(() => closed, { timeout: 5000 }).toBe(accepted);
  }, 120_000);

  it('bad values: exit 2, one line naming the flag', async () => {
    for (const bad of ['2x', '-1s', '1.5m', '', 'soon', '600h']) {
      const r = await atlevel([
        'ingest',
        join(dir, 'corpus'),
        '--run-timeout',
        bad,
        '--db',
        join(dir, 'store-bad'),
      ]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr.trim().split('\n'), bad).toEqual([
        expect.stringMatching(/--run-timeout ".*": want a whole number of seconds, minutes or hours/),
      ]);
    }
  }, 120_000);
});
