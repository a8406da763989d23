/**
 * A kubeconfig's relative paths and exec plugins as kubectl treats them (src/live/config.ts, exec.ts),
 * end to end against `atlevel serve`: a relative exec command runs from the kubeconfig's folder
 * whatever the working directory, `$KUBECONFIG` files in different folders each resolve their own
 * paths, relative client certificates reach a TLS server, interactiveMode decides whether the plugin
 * gets the terminal, and provideClusterInfo tells it the cluster. Local fakes only: shell-script
 * plugins, the in-process server, and (when openssl is there) a TLS front that asks for a client
 * certificate.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import yaml from 'js-yaml';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { skipNote } from '../helpers/skip.js';
import { atlevel, bin } from '../helpers/spawn-cli.js';
import { serve, withRecordedExample } from './helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'atlevel-kc-paths-'));
const cli = inProcessCli('kubeconfig-paths');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

const API = 'client.authentication.k8s.io/v1';
const credential = (token: string) =>
  `echo '${JSON.stringify({ kind: 'ExecCredential', apiVersion: API, status: { token } })}'`;

/** A fresh folder, with a shell script at each `path: body` given, made executable. */
function folder(scripts: Record<string, string> = {}): string {
  const dir = join(scratch, `case-${n++}`);
  for (const [path, body] of Object.entries(scripts)) {
    const file = join(dir, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A kubeconfig at `dir/name`: one cluster `c` at `server`, one user `u`, context `x` current. */
function kubeconfig(
  dir: string,
  server: string,
  user: Record<string, unknown>,
  cluster: Record<string, unknown> = {},
): string {
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: defined({ server, 'insecure-skip-tls-verify': true, ...cluster }) }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  return file;
}

/** Without the keys set to undefined (to take a default out). */
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const exec = (command: string, extra: Record<string, unknown> = {}) => ({
  exec: { apiVersion: API, command, interactiveMode: 'Never', ...extra },
});

/** The built CLI, run asynchronously (the server is in this process) from the working directory `cwd`. */
function atlevelIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: unknown }).code as number) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

describe('a relative exec command', () => {
  it('runs from the kubeconfig’s folder, from another working directory (the built CLI, and in-process)', async () => {
    await withRecordedExample(async (proxy) => {
      const dir = folder({ 'bin/plugin.sh': credential('from-plugin') });
      const kc = kubeconfig(dir, proxy.url, exec('./bin/plugin.sh'));
      const r = await atlevelIn(tmpdir(), { ...process.env, NO_COLOR: '1' }, 'status', '--kubeconfig', kc);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('4.10.0-0.nightly-2021-11-03-020416');
      // In-process, the working directory is the project's: no bin/plugin.sh there.
      expect(existsSync('bin/plugin.sh')).toBe(false);
      const inProcess = await cli.run('status', '--kubeconfig', kc);
      expect(inProcess.code, cli.stderr()).toBe(0);
      expect(new Set(proxy.seen)).toEqual(new Set(['GET Bearer from-plugin']));
    });
  });

  it('that is missing is named resolved, with where it was looked for', () => {
    const dir = folder();
    const kc = kubeconfig(dir, 'http://127.0.0.1:9', exec('bin/nothing'));
    const r = atlevel('status', '--kubeconfig', kc);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `atlevel: ${kc}: user "u": exec plugin ${join(dir, 'bin/nothing')} cannot be run (not found) (check exec.command in the kubeconfig; a relative path is resolved against the kubeconfig's folder)\n`,
    );
  });
});

describe('$KUBECONFIG with two files in different folders', () => {
  const saved = process.env.KUBECONFIG;
  afterEach(() => {
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  });

  it('each file’s paths resolve against its own folder; the first file’s names and context win', async () => {
    await withRecordedExample(async (proxy) => {
      const a = folder({ 'bin/plugin.sh': credential('from-a') });
      const b = folder({ 'bin/plugin.sh': credential('from-b') });
      writeFileSync(join(b, 'token'), 'from-b-file\n');
      const first = kubeconfig(a, proxy.url, exec('./bin/plugin.sh'));
      // The same names again (user u, context x, cluster c), and its own user and context.
      const second = join(b, 'kubeconfig');
      writeFileSync(
        second,
        yaml.dump({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'c', cluster: { server: 'http://127.0.0.1:9' } }],
          users: [
            { name: 'u', user: exec('./bin/plugin.sh') },
            { name: 'ops', user: { tokenFile: 'token' } },
          ],
          contexts: [
            { name: 'x', context: { cluster: 'c', user: 'ops' } },
            { name: 'y', context: { cluster: 'c', user: 'ops' } },
          ],
          'current-context': 'y',
        }),
      );
      process.env.KUBECONFIG = `${first}:${second}`;
      expect((await cli.run('status', '--live')).code, cli.stderr()).toBe(0);
      expect(new Set(proxy.seen)).toEqual(new Set(['GET Bearer from-a']));
      proxy.seen.length = 0;
      expect((await cli.run('status', '--live', '--context', 'y')).code, cli.stderr()).toBe(0);
      expect(new Set(proxy.seen)).toEqual(new Set(['GET Bearer from-b-file']));
    });
  });

  it('a problem in the second file names that file and its user: one line, exit 2', () => {
    const a = folder();
    const b = folder({ 'bin/plugin.sh': 'echo "session expired" >&2; exit 1' });
    const first = kubeconfig(a, 'http://127.0.0.1:9', { token: 't' });
    const second = join(b, 'other');
    writeFileSync(
      second,
      yaml.dump({
        users: [{ name: 'dev', user: exec('bin/plugin.sh') }],
        contexts: [{ name: 'dev', context: { cluster: 'c', user: 'dev' } }],
      }),
    );
    const r = spawnSync(process.execPath, [bin, 'status', '--live', '--context', 'dev'], {
      encoding: 'utf8',
      env: { ...process.env, KUBECONFIG: `${first}:${second}` },
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `atlevel: ${second}: user "dev": exec plugin ${join(b, 'bin/plugin.sh')} exited with status 1: session expired\n`,
    );
  });
});

describe('a user with its own credential', () => {
  it('never runs its exec plugin, as client-go (a token, here, and a plugin that would fail)', async () => {
    await withRecordedExample(async (proxy) => {
      const dir = folder({ 'bin/plugin.sh': `touch ran\nexit 1` });
      const kc = kubeconfig(dir, proxy.url, { ...exec('./bin/plugin.sh'), token: 'static' });
      expect((await cli.run('status', '--kubeconfig', kc)).code, cli.stderr()).toBe(0);
      expect(new Set(proxy.seen)).toEqual(new Set(['GET Bearer static']));
    });
  });
});

/**
 * A plugin that writes whether its standard input is a terminal, and KUBERNETES_EXEC_INFO, to
 * `dir/seen`, then fails: nothing needs to listen at the server.
 */
const RECORDER = [
  'if [ -t 0 ]; then echo tty > seen; else echo no-tty > seen; fi',
  'printf "%s\\n" "$KUBERNETES_EXEC_INFO" >> seen',
  'echo "plugin says no" >&2',
  'exit 1',
].join('\n');

describe('interactiveMode and KUBERNETES_EXEC_INFO', () => {
  it('Always without a terminal: the plugin is not run; one line, exit 2', () => {
    const dir = folder({ 'p.sh': RECORDER });
    const kc = kubeconfig(dir, 'http://127.0.0.1:9', exec('./p.sh', { interactiveMode: 'Always' }));
    const r = atlevel('status', '--kubeconfig', kc);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `atlevel: ${kc}: user "u": exec plugin ${join(dir, 'p.sh')} needs a terminal (interactiveMode: Always), and standard input is not one (run atlevel in a terminal)\n`,
    );
    expect(existsSync(join(dir, 'seen'))).toBe(false);
  });

  it('IfAvailable without a terminal: no standard input, interactive false; a mode kubectl does not know is refused', () => {
    const dir = folder({ 'p.sh': `cd "$(dirname "$0")"\n${RECORDER}` });
    const kc = kubeconfig(dir, 'http://127.0.0.1:9', exec('./p.sh', { interactiveMode: 'IfAvailable' }));
    const r = atlevel('status', '--kubeconfig', kc);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `atlevel: ${kc}: user "u": exec plugin ${join(dir, 'p.sh')} exited with status 1: plugin says no\n`,
    );
    expect(readFileSync(join(dir, 'seen'), 'utf8')).toBe(
      `no-tty\n${JSON.stringify({ kind: 'ExecCredential', apiVersion: API, spec: { interactive: false } })}\n`,
    );
    writeFileSync(kc, readFileSync(kc, 'utf8').replace('IfAvailable', 'Sometimes'));
    expect(atlevel('status', '--kubeconfig', kc).stderr).toBe(
      `atlevel: ${kc}: user "u": exec.interactiveMode is not Never, IfAvailable or Always (fix the kubeconfig)\n`,
    );
  });

  it('provideClusterInfo: spec.cluster as kubectl gives it, the CA file (relative) as data, the exec extension as config', () => {
    const dir = folder({ 'p.sh': `cd "$(dirname "$0")"\n${RECORDER}` });
    mkdirSync(join(dir, 'pki'));
    writeFileSync(join(dir, 'pki', 'ca.crt'), 'not really a CA\n');
    const kc = kubeconfig(dir, 'https://127.0.0.1:9', exec('./p.sh', { provideClusterInfo: true }), {
      'insecure-skip-tls-verify': undefined,
      'certificate-authority': 'pki/ca.crt',
      'tls-server-name': 'api.example',
      extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'xyz' } }],
    });
    expect(atlevel('status', '--kubeconfig', kc).code).toBe(2);
    const cluster = {
      server: 'https://127.0.0.1:9',
      'tls-server-name': 'api.example',
      'certificate-authority-data': Buffer.from('not really a CA\n').toString('base64'),
      config: { audience: 'xyz' },
    };
    expect(readFileSync(join(dir, 'seen'), 'utf8')).toBe(
      `no-tty\n${JSON.stringify({ kind: 'ExecCredential', apiVersion: API, spec: { cluster, interactive: false } })}\n`,
    );
  });

  // util-linux script(1) gives the CLI a terminal; without it (macOS's differs) this is skipped.
  const hasScript = process.platform === 'linux' && existsSync('/usr/bin/script');
  it.skipIf(!hasScript)(
    `IfAvailable on a terminal: the plugin has the terminal, is told so, and speaks to the user itself${skipNote(hasScript ? undefined : 'no util-linux script(1) to give it a terminal')}`,
    () => {
      const dir = folder({ 'p.sh': `cd "$(dirname "$0")"\n${RECORDER}` });
      const kc = kubeconfig(dir, 'http://127.0.0.1:9', exec('./p.sh', { interactiveMode: 'IfAvailable' }));
      const command = `NO_COLOR=1 '${process.execPath}' '${bin}' status --kubeconfig '${kc}'`;
      const r = spawnSync('/usr/bin/script', ['-qec', command, '/dev/null'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status).toBe(2);
      expect(readFileSync(join(dir, 'seen'), 'utf8')).toBe(
        `tty\n${JSON.stringify({ kind: 'ExecCredential', apiVersion: API, spec: { interactive: true } })}\n`,
      );
      // Its standard error went to the terminal, before atlevel's one line.
      expect(r.stdout.replace(/\r\n/g, '\n')).toBe(
        `plugin says no\natlevel: ${kc}: user "u": exec plugin ${join(dir, 'p.sh')} exited with status 1 (what it printed on standard error is above)\n`,
      );
    },
  );
});

/** openssl makes a CA, a server certificate for 127.0.0.1 and a client certificate, into `dir/pki`. */
function makePki(dir: string): boolean {
  const pki = join(dir, 'pki');
  mkdirSync(pki, { recursive: true });
  const ssl = (...args: string[]) => spawnSync('openssl', args, { cwd: pki, encoding: 'utf8' }).status === 0;
  writeFileSync(join(pki, 'san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  return (
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=test-ca',
    ) &&
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=127.0.0.1',
    ) &&
    ssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'san.cnf',
    ) &&
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'client.key',
      '-out',
      'client.csr',
      '-subj',
      '/CN=atlevel-test-user',
    ) &&
    ssl(
      'x509',
      '-req',
      '-in',
      'client.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'client.crt',
      '-days',
      '2',
    )
  );
}

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe.skipIf(!hasOpenssl)(
  `relative certificate paths, against a TLS server that asks for a client certificate${skipNote(hasOpenssl ? undefined : 'no openssl command to make the certificates')}`,
  () => {
    it('certificate-authority, client-certificate and client-key resolve against the kubeconfig’s folder', async () => {
      const server = await serve(['examples/bug-2019850']);
      const dir = folder();
      expect(makePki(dir)).toBe(true);
      const seen = new Set<string>();
      const target = new URL(server.url);
      const front = https.createServer(
        {
          key: readFileSync(join(dir, 'pki/server.key')),
          cert: readFileSync(join(dir, 'pki/server.crt')),
          ca: readFileSync(join(dir, 'pki/ca.crt')),
          requestCert: true,
          rejectUnauthorized: true,
        },
        (req, res) => {
          seen.add(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
          const up = http.request(
            {
              host: target.hostname,
              port: target.port,
              path: req.url,
              method: req.method,
              headers: req.headers,
            },
            (r) => {
              res.writeHead(r.statusCode ?? 502, r.headers);
              r.pipe(res);
            },
          );
          up.on('error', () => res.destroy());
          req.pipe(up);
        },
      );
      await new Promise<void>((r) => front.listen(0, '127.0.0.1', () => r()));
      try {
        const url = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
        const kc = kubeconfig(
          dir,
          url,
          { 'client-certificate': 'pki/client.crt', 'client-key': './pki/client.key' },
          { 'insecure-skip-tls-verify': undefined, 'certificate-authority': 'pki/ca.crt' },
        );
        const r = await atlevelIn('/', { ...process.env, NO_COLOR: '1' }, 'status', '--kubeconfig', kc);
        expect(r.code, r.stderr).toBe(0);
        expect([...seen]).toEqual(['atlevel-test-user']);
      } finally {
        await new Promise<void>((r) => front.close(() => r()));
        await server.close();
      }
    });
  },
);

describe('a missing relative certificate', () => {
  it('is one line naming the kubeconfig, the user and both paths: exit 2, no stack', () => {
    const dir = folder();
    const kc = kubeconfig(dir, 'https://127.0.0.1:9', {
      'client-certificate': 'pki/u.crt',
      'client-key': 'pki/u.key',
    });
    const r = atlevel('status', '--kubeconfig', kc);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `atlevel: ${kc}: user "u": client-certificate pki/u.crt (${join(dir, 'pki/u.crt')}) does not exist (a relative path in a kubeconfig is resolved against the kubeconfig's folder; fix the path)\n`,
    );
  });
});
