/**
 * The hash worker of sliced downloads (src/sources/url/hasher.ts) as a built atlevel runs it: a
 * process that fetched a large object exits by itself once the session is closed (the worker never
 * keeps it alive), and the bundle's copy of the worker (dist/bundle/hash-worker.js, an entry point of
 * its own) loads and hashes, beside the chunk that looks for it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageDigests } from '../../src/sources/url/checksum.js';
import { FakeGcs } from '../helpers/fake-gcs.js';
import { projectRoot } from '../helpers/fixtures.js';
import { skipNote } from '../helpers/skip.js';

const dist = join(projectRoot, 'dist');
const bundle = join(dist, 'bundle');
const BUCKET = 'atlevel-test-bucket';
const NAME = 'run/artifacts/big.json';
// Three slices (src/sources/url/gcs.ts SLICE_BYTES is 8 MiB).
const data = randomBytes(17 * 1024 * 1024 + 99);
const fake = new FakeGcs();
let cacheDir: string;

beforeAll(async () => {
  fake.put(BUCKET, NAME, { data });
  await fake.start();
  cacheDir = mkdtempSync(join(tmpdir(), 'atlevel-hash-worker-'));
});
afterAll(async () => {
  await fake.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** Run an ES module script in a node of its own; resolves with its output, or rejects after `ms`. */
function runScript(
  script: string,
  ms: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the process did not exit within ${ms} ms: ${stdout} ${stderr}`));
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.skipIf(!existsSync(join(dist, 'sources/url/hasher.js')))(
  `the hash worker, built${skipNote(existsSync(join(dist, 'sources/url/hasher.js')) ? undefined : 'not built (npm run build)')}`,
  () => {
    it('a process that fetched a sliced object exits by itself once the session is closed', async () => {
      const cache = mkdtempSync(join(cacheDir, 'closed-'));
      const script = `
      import { RemoteSession } from ${JSON.stringify(join(dist, 'sources/url/index.js'))};
      const endpoint = ${JSON.stringify(fake.origin)};
      const session = new RemoteSession({ cacheDir: ${JSON.stringify(cache)}, endpoint });
      const client = session.client(endpoint);
      let input;
      try {
        input = await session.open(${JSON.stringify(`${fake.origin}/view/gs/${BUCKET}/${NAME}`)});
      } finally {
        session.close();
      }
      process.stdout.write(JSON.stringify({ kind: input.kind, size: input.size, path: input.path, offThread: client.hashedOffThread }));
      // No process.exit: the test is that nothing (the worker) keeps this process alive.
    `;
      const started = performance.now();
      const r = await runScript(script, 20_000);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as { kind: string; size: number; path: string; offThread: number };
      expect(out).toMatchObject({ kind: 'file', size: data.length, offThread: 1 });
      expect(readFileSync(out.path).equals(data)).toBe(true);
      // Promptly: not after some idle timeout.
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    it.skipIf(!existsSync(join(bundle, 'hash-worker.js')))(
      `the bundle's worker sits beside the script that starts it, and hashes${skipNote(existsSync(join(bundle, 'hash-worker.js')) ? undefined : 'no dist/bundle (npm run build)')}`,
      async () => {
        const starters = readdirSync(bundle).filter((f) =>
          readFileSync(join(bundle, f), 'utf8').includes('new URL("./hash-worker.js", __atlevelScriptUrl)'),
        );
        expect(starters).toEqual(['atlevel.cjs']);
        const file = join(cacheDir, 'plain');
        const { writeFileSync } = await import('node:fs');
        writeFileSync(file, data);
        const script = `
        import { openSync } from 'node:fs';
        import { Worker } from 'node:worker_threads';
        const fd = openSync(${JSON.stringify(file)}, 'r');
        const w = new Worker(new URL(${JSON.stringify(`file://${join(bundle, 'hash-worker.js')}`)}), { execArgv: [] });
        w.on('message', (m) => { process.stdout.write(JSON.stringify(m)); w.terminate(); });
        w.on('error', (e) => { process.stderr.write(String(e)); process.exitCode = 1; });
        w.postMessage({ op: 'begin', job: 1, fd, expected: { md5Hash: 'x' } });
        w.postMessage({ op: 'range', job: 1, start: 0, end: 5000000 });
        w.postMessage({ op: 'range', job: 1, start: 5000000, end: ${data.length} });
        w.postMessage({ op: 'end', job: 1 });
      `;
        const r = await runScript(script, 20_000);
        expect(r.stderr).toBe('');
        expect(JSON.parse(r.stdout)).toEqual({
          job: 1,
          digests: { bytes: data.length, md5Hash: storageDigests(data).md5Hash },
        });
      },
    );
  },
);
