/**
 * Issue 38, serve: `atlevel serve` attacked as a hostile client or a hostile neighbour on the same
 * machine would. Each case runs bin/atlevel.js serve as a child process on a synthetic must-gather and
 * checks the server's peak RSS (VmHWM), its answers and that it stops when told: many concurrent reads
 * of a large pod log, a log swapped after start for a link or a FIFO, a foreign Host (DNS rebinding),
 * Secrets, and SIGHUP.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMustGather } from '../serve/make-must-gather.js';
import { BIN } from './run.js';

/** Below the folder makeMustGather returns: its one image's gather. */
const IMAGE = 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0000';
const LOG_REL = `${IMAGE}/namespaces/openshift-ns-1/pods/ns-1-pod-0/main/main/logs/current.log`;
const LOG_PATH = '/api/v1/namespaces/openshift-ns-1/pods/ns-1-pod-0/log';
const SECRET_VALUE = 'c3VwZXItc2VjcmV0LXBhc3N3b3Jk'; // base64 of super-secret-password

let dir: string;

beforeAll(() => {
  if (!existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')))
    throw new Error('run `npm run -s build` first');
  dir = mkdtempSync(join(tmpdir(), 'atlevel-hostile-serve-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A small must-gather with one Secret; its root folder. */
function gather(name: string): string {
  const root = makeMustGather(join(dir, name), { nodes: 2, renderedConfigs: 2, events: 3, namespaces: 2 });
  const secrets = join(root, IMAGE, 'namespaces/openshift-ns-1/core');
  mkdirSync(secrets, { recursive: true });
  writeFileSync(
    join(secrets, 'secrets.yaml'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'SecretList',
      items: [
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name: 'db-password',
            namespace: 'openshift-ns-1',
            annotations: { 'kubectl.kubernetes.io/last-applied-configuration': `{"data":"${SECRET_VALUE}"}` },
          },
          type: 'Opaque',
          data: { password: SECRET_VALUE, 'ca.crt': 'Y2VydA==' },
          stringData: { token: 'plain-text-token' },
        },
      ],
    }),
  );
  return root;
}

function vmHwmMiB(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

interface Served {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly kubeconfigDir: string;
  /** Peak RSS so far, polled every 25 ms. */
  peak(): number;
  stdout(): string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  readonly exited: Promise<number | string>;
}

async function startServe(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, NO_COLOR: '1', ATLEVEL_DEBUG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let peak = 0;
  const poll = setInterval(() => {
    if (child.pid !== undefined) peak = Math.max(peak, vmHwmMiB(child.pid));
  }, 25);
  child.stdout?.on('data', (c: Buffer) => {
    out += String(c);
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += String(c);
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      if (child.pid !== undefined) peak = Math.max(peak, vmHwmMiB(child.pid));
      clearInterval(poll);
      resolve(code ?? signal ?? -1);
    });
  });
  const deadline = Date.now() + 60_000;
  while (!/kubeconfig: (\S+)/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = new URL((/atlevel serve: (http:\/\/\S+)/.exec(out) as RegExpExecArray)[1] as string);
  const kubeconfig = (/kubeconfig: (\S+)/.exec(out) as RegExpExecArray)[1] as string;
  return {
    child,
    url,
    kubeconfigDir: join(kubeconfig, '..'),
    peak: () => peak,
    stdout: () => out,
    exited,
  };
}

interface Answer {
  readonly status: number;
  readonly bytes: number;
  readonly head: string;
}

/** One request; the body is counted and its first 4 KiB kept, the rest dropped as it comes. */
function get(
  url: URL,
  path: string,
  opts: { host?: string; method?: string; body?: string; timeoutMs?: number; stopAfter?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (opts.host !== undefined) headers.Host = opts.host;
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const req = request(
      { host: url.hostname, port: url.port, path, method: opts.method ?? 'GET', headers, agent: false },
      (res) => {
        let bytes = 0;
        let head = '';
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (head.length < 4096) head += c.toString('utf8', 0, Math.min(c.length, 4096));
          if (opts.stopAfter !== undefined && bytes >= opts.stopAfter) {
            // Stop reading for a while, then go away.
            res.pause();
            setTimeout(() => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, bytes, head });
            }, 500);
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, head }));
        res.on('error', reject);
      },
    );
    req.setTimeout(opts.timeoutMs ?? 120_000, () => req.destroy(new Error(`no answer to ${path}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function stop(s: Served, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
  s.child.kill(signal);
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
  const code = await s.exited;
  clearTimeout(timer);
  return code;
}

describe('issue 38: serve', () => {
  it('100 concurrent reads of a 70 MiB pod log: streamed, bounded memory, /version answers', async () => {
    const root = gather('big-log');
    const log = join(root, LOG_REL);
    writeFileSync(log, `${'x'.repeat(199)}\n`.repeat((70 * 1024 * 1024) / 200));
    const s = await startServe([root]);
    try {
      // One whole read first: the log comes through, up to the 64 MiB cap, and tailLines reads its end.
      expect(await get(s.url, LOG_PATH)).toMatchObject({ status: 200, bytes: 64 * 1024 * 1024 });
      expect(await get(s.url, `${LOG_PATH}?tailLines=3`)).toMatchObject({ status: 200, bytes: 600 });
      // Then 100 at once, each reading 8 MiB, then not reading for half a second (the server must
      // hold back, not buffer), then going away: what the server holds is the measure.
      const reads = Array.from({ length: 100 }, () => get(s.url, LOG_PATH, { stopAfter: 8 * 1024 * 1024 }));
      const latencies: number[] = [];
      let reading = true;
      const probe = (async () => {
        while (reading) {
          const t = performance.now();
          const v = await get(s.url, '/version', { timeoutMs: 10_000 });
          expect(v.status).toBe(200);
          latencies.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const answers = await Promise.all(reads);
      reading = false;
      await probe;
      const codes = new Map<number, number>();
      for (const a of answers) codes.set(a.status, (codes.get(a.status) ?? 0) + 1);
      console.log(
        `hostile: 100 × 70 MiB log | codes ${JSON.stringify([...codes])} | server peak ${s.peak()} MiB | /version max ${Math.round(Math.max(...latencies))} ms`,
      );
      // Each is the log or 429 asking to retry: never a 5xx.
      for (const a of answers) expect([200, 429]).toContain(a.status);
      expect(codes.get(200) ?? 0).toBeGreaterThanOrEqual(50);
      expect(s.peak()).toBeLessThan(400);
      expect(Math.max(...latencies)).toBeLessThan(5_000);
    } finally {
      await stop(s);
    }
  });

  it('a log swapped after start for a link to /etc/passwd or for a FIFO is not served, and SIGTERM still ends the server', async () => {
    const root = gather('swapped');
    const log = join(root, LOG_REL);
    const s = await startServe([root]);
    try {
      expect((await get(s.url, LOG_PATH)).status).toBe(200);
      rmSync(log);
      symlinkSync('/etc/passwd', log);
      const linked = await get(s.url, LOG_PATH, { timeoutMs: 10_000 });
      expect(linked.status).toBe(500);
      expect(linked.head).not.toContain('root:');
      // Another regular file put in its place is refused too (not the file the server started with).
      rmSync(log);
      writeFileSync(`${log}.new`, 'root:x:0:0:planted\n');
      renameSync(`${log}.new`, log);
      const planted = await get(s.url, LOG_PATH, { timeoutMs: 10_000 });
      expect(planted.status).toBe(500);
      expect(planted.head).not.toContain('planted');
      rmSync(log);
      execFileSync('mkfifo', [log]);
      const t = performance.now();
      const fifo = await get(s.url, LOG_PATH, { timeoutMs: 10_000 });
      expect(fifo.status).toBe(500);
      expect(performance.now() - t).toBeLessThan(5_000);
    } finally {
      const t = performance.now();
      expect(await stop(s)).toBe(0);
      expect(performance.now() - t).toBeLessThan(5_000);
    }
    expect(s.stdout()).toContain('atlevel serve: stopped');
  });

  it('a request whose Host is not the server (DNS rebinding) is refused; localhost and the address are answered', async () => {
    const s = await startServe([gather('host')]);
    try {
      for (const host of ['attacker.example', `attacker.example:${s.url.port}`, '127.0.0.1.nip.io']) {
        const a = await get(s.url, '/api/v1/namespaces', { host });
        expect(a.status, host).toBe(403);
        expect(a.head).not.toContain('NamespaceList');
      }
      const review = await get(s.url, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        host: 'attacker.example',
        method: 'POST',
        body: '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}}',
      });
      expect(review.status).toBe(403);
      for (const host of [`127.0.0.1:${s.url.port}`, `localhost:${s.url.port}`, 'localhost', 'LOCALHOST.']) {
        expect((await get(s.url, '/api/v1/namespaces', { host })).status, host).toBe(200);
      }
      if (existsSync('/usr/bin/kubectl')) {
        const home = mkdtempSync(join(dir, 'home-'));
        const out = execFileSync(
          '/usr/bin/kubectl',
          ['--kubeconfig', join(s.kubeconfigDir, 'kubeconfig'), 'get', 'namespaces', '-o', 'name'],
          { env: { ...process.env, HOME: home }, encoding: 'utf8' },
        );
        expect(out).toContain('namespace/openshift-ns-1');
      }
    } finally {
      await stop(s);
    }
  });

  it('Secrets are served with their values emptied and auth can-i says no, unless --serve-secrets', async () => {
    const root = gather('secrets');
    const canI = (s: Served) =>
      get(s.url, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        method: 'POST',
        body: '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"get","resource":"secrets","namespace":"openshift-ns-1"}}}',
      });
    const path = '/api/v1/namespaces/openshift-ns-1/secrets/db-password';
    const redacted = await startServe([root]);
    try {
      const one = await get(redacted.url, path);
      expect(one.status).toBe(200);
      const secret = JSON.parse(one.head);
      expect(secret.data).toEqual({ password: '', 'ca.crt': 'Y2VydA==' });
      expect(secret.stringData).toEqual({ token: '' });
      expect(secret.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toBe('');
      const list = await get(redacted.url, '/api/v1/secrets');
      expect(list.head).not.toContain(SECRET_VALUE);
      expect(list.head).not.toContain('plain-text-token');
      const review = JSON.parse((await canI(redacted)).head);
      expect(review.status.allowed).toBe(false);
      expect(review.status.reason).toContain('--serve-secrets');
    } finally {
      await stop(redacted);
    }
    const whole = await startServe([root, '--serve-secrets']);
    try {
      const secret = JSON.parse((await get(whole.url, path)).head);
      expect(secret.data.password).toBe(SECRET_VALUE);
      expect(JSON.parse((await canI(whole)).head).status.allowed).toBe(true);
    } finally {
      await stop(whole);
    }
  });

  it('SIGHUP (the terminal closing) stops the server like SIGTERM: exit 0, its kubeconfig folder removed', async () => {
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    const s = await startServe([gather('sighup')], { TMPDIR: tmp });
    expect(readdirSync(tmp).filter((n) => n.startsWith('atlevel-serve-'))).toHaveLength(1);
    expect(await stop(s, 'SIGHUP')).toBe(0);
    expect(s.stdout()).toContain('atlevel serve: stopped');
    expect(readdirSync(tmp).filter((n) => n.startsWith('atlevel-serve-'))).toEqual([]);
  });
});
