import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../model/index.js';
import { loadKubeConfig } from './config.js';

async function problem(
  flags: { kubeconfig?: string; context?: string },
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  try {
    await loadKubeConfig(flags, env);
  } catch (err) {
    if (err instanceof InputError) return `${err.file}: ${err.problem}`;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('a kubeconfig that is not a file to read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-kubeconfig-'));

  it('a device is refused before anything reads it (/dev/zero never ends)', async () => {
    expect(await problem({ kubeconfig: '/dev/zero' })).toBe(
      '/dev/zero: the kubeconfig is not a regular file',
    );
  });

  it('an empty file is not a kubeconfig (no JavaScript error leaks out)', async () => {
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    expect(await problem({ kubeconfig: empty })).toBe(
      `${empty}: not a kubeconfig: it holds no clusters, users or contexts`,
    );
  });

  it('a token file or CA it names that is a device is refused before the client library reads it', async () => {
    const kc = join(dir, 'kc');
    writeFileSync(
      kc,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
        'users: [{name: u, user: {tokenFile: /dev/zero}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
        '',
      ].join('\n'),
    );
    expect(await problem({ kubeconfig: kc })).toBe(
      `${kc}: user "u": tokenFile /dev/zero is not a regular file`,
    );
  });
});

/** A kubeconfig file at `dir/name` holding `doc` (YAML flow text, one entry a line). */
function kubeconfig(dir: string, name: string, lines: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, ['apiVersion: v1', 'kind: Config', ...lines, ''].join('\n'));
  return file;
}

// client-go resolves a kubeconfig's relative paths against the folder of the file that holds them
// (tools/clientcmd/loader.go, ResolveLocalPaths), whatever the working directory; the tests' is the
// project's, never the kubeconfig's folder.
describe('relative paths in a kubeconfig', () => {
  const root = mkdtempSync(join(tmpdir(), 'atlevel-kubeconfig-paths-'));
  const CLUSTER =
    'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", certificate-authority: pki/ca.crt}}]';
  const CONTEXT = 'contexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x';

  it('certificate-authority, client-certificate, client-key and tokenFile resolve against its folder; the token file is trimmed', async () => {
    const dir = join(root, 'one');
    mkdirSync(join(dir, 'pki'), { recursive: true });
    for (const f of ['ca.crt', 'client.crt', 'client.key']) writeFileSync(join(dir, 'pki', f), 'x');
    writeFileSync(join(dir, 'pki', 'token'), 'tok\n');
    const kc = kubeconfig(dir, 'kc', [
      CLUSTER,
      'users: [{name: u, user: {client-certificate: pki/client.crt, client-key: ./pki/client.key, tokenFile: pki/token}}]',
      CONTEXT,
    ]);
    const { kc: loaded } = await loadKubeConfig({ kubeconfig: kc }, {});
    expect(loaded.getCurrentCluster()?.caFile).toBe(join(dir, 'pki/ca.crt'));
    const user = loaded.getCurrentUser();
    expect([user?.certFile, user?.keyFile, user?.token]).toEqual([
      join(dir, 'pki/client.crt'),
      join(dir, 'pki/client.key'),
      'tok',
    ]);
  });

  it('an exec command with a separator resolves against its folder; a bare name is left to PATH', async () => {
    const dir = join(root, 'exec');
    mkdirSync(join(dir, 'pki'), { recursive: true });
    writeFileSync(join(dir, 'pki', 'ca.crt'), 'x');
    const exec = (command: string) =>
      `users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: "${command}", interactiveMode: Never}}}]`;
    for (const [command, run] of [
      ['./bin/plugin.sh', join(dir, 'bin/plugin.sh')],
      ['bin/../bin/p', join(dir, 'bin/p')],
      ['/usr/bin/p', '/usr/bin/p'],
      ['oc', 'oc'],
    ]) {
      const kc = kubeconfig(dir, 'kc', [CLUSTER, exec(command as string), CONTEXT]);
      const loaded = await loadKubeConfig({ kubeconfig: kc }, {});
      expect(loaded.exec?.exec.command, command).toBe(run);
    }
  });

  it('a missing file is one line naming the kubeconfig, the entry, the path as written and as resolved', async () => {
    const dir = join(root, 'missing');
    const kc = kubeconfig(dir, 'kc', [
      CLUSTER,
      'users: [{name: u, user: {client-certificate: certs/u.crt, client-key: certs/u.key}}]',
      CONTEXT,
    ]);
    expect(await problem({ kubeconfig: kc })).toBe(
      `${kc}: cluster "c": certificate-authority pki/ca.crt (${join(dir, 'pki/ca.crt')}) does not exist`,
    );
    mkdirSync(join(dir, 'pki'));
    writeFileSync(join(dir, 'pki', 'ca.crt'), 'x');
    expect(await problem({ kubeconfig: kc })).toBe(
      `${kc}: user "u": client-certificate certs/u.crt (${join(dir, 'certs/u.crt')}) does not exist`,
    );
  });

  it("another context's user is not held to its files, as kubectl checks only the current context's", async () => {
    const dir = join(root, 'other');
    mkdirSync(join(dir, 'pki'), { recursive: true });
    writeFileSync(join(dir, 'pki', 'ca.crt'), 'x');
    const kc = kubeconfig(dir, 'kc', [
      CLUSTER,
      'users: [{name: u, user: {token: t}}, {name: gone, user: {tokenFile: no/such/token, client-certificate: no.crt, client-key: no.key}}]',
      'contexts: [{name: x, context: {cluster: c, user: u}}, {name: old, context: {cluster: c, user: gone}}]',
      'current-context: x',
    ]);
    expect((await loadKubeConfig({ kubeconfig: kc }, {})).kc.getCurrentUser()?.token).toBe('t');
    expect(await problem({ kubeconfig: kc, context: 'old' })).toBe(
      `${kc}: user "gone": client-certificate no.crt (${join(dir, 'no.crt')}) does not exist`,
    );
  });
});

describe('$KUBECONFIG with files in different folders', () => {
  const root = mkdtempSync(join(tmpdir(), 'atlevel-kubeconfig-merge-'));
  const a = join(root, 'a');
  const b = join(root, 'deeper', 'b');
  mkdirSync(join(a, 'pki'), { recursive: true });
  mkdirSync(join(b, 'secret'), { recursive: true });
  writeFileSync(join(a, 'pki', 'ca.crt'), 'x');
  writeFileSync(join(b, 'secret', 'token'), 'from-b\n');
  const first = kubeconfig(a, 'kc', [
    'clusters: [{name: c, cluster: {server: "https://a.example:6443", certificate-authority: pki/ca.crt}}]',
    'users: [{name: admin, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ./bin/login, interactiveMode: Never}}}]',
    'contexts: [{name: admin, context: {cluster: c, user: admin}}]',
    'current-context: admin',
  ]);
  // The second file repeats the first's names (as two installers' kubeconfigs do): the first wins.
  const second = kubeconfig(b, 'kc', [
    'clusters: [{name: c, cluster: {server: "https://b.example:6443"}}, {name: d, cluster: {server: "https://d.example:6443"}}]',
    'users: [{name: admin, user: {token: from-second}}, {name: ops, user: {tokenFile: secret/token}}]',
    'contexts: [{name: admin, context: {cluster: d, user: ops}}, {name: ops, context: {cluster: d, user: ops}}]',
    'current-context: ops',
  ]);
  const env = { KUBECONFIG: `${join(root, 'missing')}:${first}::${second}:${first}` };

  it("each entry's paths resolve against its own file's folder; names and current-context come from the first file", async () => {
    const config = await loadKubeConfig({}, env);
    expect([config.origin, config.context, config.server]).toEqual([
      '$KUBECONFIG',
      'admin',
      'https://a.example:6443',
    ]);
    expect(config.kc.getCurrentCluster()?.caFile).toBe(join(a, 'pki/ca.crt'));
    expect(config.exec?.exec.command).toBe(join(a, 'bin/login'));
    // Its errors name the file that holds the user, not the list.
    expect(config.exec?.where).toEqual({ origin: first, user: 'admin' });
    const ops = await loadKubeConfig({ context: 'ops' }, env);
    expect([ops.server, ops.kc.getCurrentUser()?.token, ops.exec]).toEqual([
      'https://d.example:6443',
      'from-b',
      undefined,
    ]);
  });

  it("a missing file of the second is named with the second's path and entry", async () => {
    const c = kubeconfig(join(root, 'c'), 'kc', [
      'users: [{name: late, user: {tokenFile: nowhere}}]',
      'contexts: [{name: late, context: {cluster: c, user: late}}]',
    ]);
    expect(await problem({ context: 'late' }, { KUBECONFIG: `${first}:${c}` })).toBe(
      `${c}: user "late": tokenFile nowhere (${join(root, 'c', 'nowhere')}) does not exist`,
    );
  });
});
