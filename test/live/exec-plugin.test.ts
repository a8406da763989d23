/**
 * Exec credential plugins (src/live/exec.ts): whatever a plugin does wrong (prints `{}`, `null`, no
 * JSON, nothing; exits non-zero; cannot be run) is one line naming the kubeconfig, the user and the
 * plugin, exit 2, never a JavaScript error; a good plugin's token reaches the API server, from one run
 * of the plugin while it is valid; and a plugin that starts failing mid-watch ends the watch with that
 * line rather than being retried without a word. The plugins are tiny shell scripts made here.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../src/live/index.js';
import { kubeconfigFor } from '../../src/serve/index.js';
import { watchCluster } from '../../src/watch/index.js';
import { inProcessCli } from '../helpers/cli.js';
import { atlevel } from '../helpers/spawn-cli.js';
import { serve, startProxy, until, withRecordedExample } from './helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'atlevel-exec-'));
// In-process where a test serves the cluster itself: a child run synchronously would block its server.
const cli = inProcessCli('exec-plugin');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

/** A plugin script running `body` (sh), and a kubeconfig for `server` whose user runs it. */
function withPlugin(body: string, server = 'http://127.0.0.1:9', user: Record<string, unknown> = {}) {
  const id = n++;
  const plugin = join(scratch, `plugin-${id}`);
  writeFileSync(plugin, `#!/bin/sh\n${body}\n`);
  chmodSync(plugin, 0o755);
  const doc = yaml.load(kubeconfigFor(server)) as { users: { user: Record<string, unknown> }[] };
  (doc.users[0] as { user: Record<string, unknown> }).user = {
    exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' },
    ...user,
  };
  const kubeconfig = join(scratch, `kubeconfig-${id}`);
  writeFileSync(kubeconfig, yaml.dump(doc));
  return { plugin, kubeconfig };
}

const credential = (status: object) =>
  `echo '${JSON.stringify({ kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', status })}'`;

const NO_CREDENTIAL = 'printed no status.token or clientCertificateData/clientKeyData';
const SHAPE = '(it must print a client.authentication.k8s.io ExecCredential on standard output)';

/** [what the plugin does, its script, the problem after `exec plugin PATH `, run through the built CLI] */
const CASES: [string, string, string, boolean][] = [
  ['prints {}', "echo '{}'", `${NO_CREDENTIAL} ${SHAPE}`, true],
  ['prints null', 'echo null', `${NO_CREDENTIAL} ${SHAPE}`, false],
  ['prints an ExecCredential with an empty status', credential({}), `${NO_CREDENTIAL} ${SHAPE}`, false],
  ['prints a list', "echo '[1]'", `${NO_CREDENTIAL} ${SHAPE}`, false],
  ['prints a token that is not a string', credential({ token: 42 }), `${NO_CREDENTIAL} ${SHAPE}`, false],
  [
    'prints a certificate without its key',
    credential({ clientCertificateData: 'x' }),
    `printed status.clientCertificateData without status.clientKeyData ${SHAPE}`,
    false,
  ],
  [
    'prints an expiry that is not a time',
    credential({ token: 't', expirationTimestamp: 'soon' }),
    'printed a status.expirationTimestamp that is not a time (it must be an RFC 3339 time)',
    false,
  ],
  // The JSON parser's message would quote the output, which may hold a token: it is not shown.
  ['prints text, not JSON', 'echo "token: s3cret"', `printed something that is not JSON ${SHAPE}`, true],
  ['prints nothing', 'true', `printed nothing ${SHAPE}`, true],
  [
    'exits non-zero, saying why on stderr',
    'echo "starting" >&2; echo "error: token expired, run oc login" >&2; exit 3',
    'exited with status 3: error: token expired, run oc login',
    true,
  ],
  ['exits non-zero without a word', 'exit 1', 'exited with status 1, printing nothing on stderr', false],
  ['is killed', 'kill -9 $$', 'was killed by SIGKILL, printing nothing on stderr', false],
];

// Nothing listens at the kubeconfig's server: the plugin runs, and fails, before any connection.
describe('an exec plugin that gives no credential: one line, exit 2', () => {
  for (const [name, body, problem, spawned] of CASES) {
    it(`${name}${spawned ? ' (the built CLI)' : ''}`, async () => {
      const { plugin, kubeconfig } = withPlugin(body);
      const line = `atlevel: ${kubeconfig}: user "atlevel-serve": exec plugin ${plugin} ${problem}\n`;
      if (spawned) {
        const r = atlevel('status', '--kubeconfig', kubeconfig);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(line);
      } else {
        const r = await cli.run('status', '--kubeconfig', kubeconfig);
        expect(r.code, cli.stderr()).toBe(2);
        expect(cli.stderr()).toBe(line);
      }
    });
  }

  it('a plugin that cannot be run', () => {
    const { kubeconfig } = withPlugin('true');
    writeFileSync(
      kubeconfig,
      readFileSync(kubeconfig, 'utf8').replace(/command: .*/, 'command: /nonexistent/p'),
    );
    const r = atlevel('status', '--kubeconfig', kubeconfig);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `atlevel: ${kubeconfig}: user "atlevel-serve": exec plugin /nonexistent/p cannot be run (not found) (check exec.command in the kubeconfig; a relative path is resolved against the kubeconfig's folder)\n`,
    );
  });

  it('an exec stanza without a command, or with args that are not strings, is refused at load', async () => {
    const { kubeconfig } = withPlugin('true');
    const text = readFileSync(kubeconfig, 'utf8');
    writeFileSync(kubeconfig, text.replace(/command: .*/, 'args: [1]\n        command: /bin/true'));
    expect((await cli.run('status', '--kubeconfig', kubeconfig)).code).toBe(2);
    writeFileSync(kubeconfig, text.replace(/command: .*/, ''));
    expect((await cli.run('status', '--kubeconfig', kubeconfig)).code).toBe(2);
    // Both runs' stderr: one line each.
    expect(cli.stderr()).toBe(
      [
        `atlevel: ${kubeconfig}: user "atlevel-serve": exec.args is not a list of strings (fix the kubeconfig)`,
        `atlevel: ${kubeconfig}: user "atlevel-serve": exec.command is missing (fix the kubeconfig)`,
        '',
      ].join('\n'),
    );
  });

  it('analyze --kubeconfig and watch say the same', () => {
    const { plugin, kubeconfig } = withPlugin("echo '{}'");
    const line = `atlevel: ${kubeconfig}: user "atlevel-serve": exec plugin ${plugin} ${NO_CREDENTIAL} ${SHAPE}\n`;
    for (const args of [
      ['analyze', '--kubeconfig', kubeconfig],
      ['watch', '--kubeconfig', kubeconfig],
    ]) {
      const r = atlevel(...args);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toBe(line);
    }
  });
});

describe('a good exec plugin', () => {
  it('its token is sent with every request (GETs only), from one run while it is valid', async () => {
    const runs = join(scratch, 'runs');
    await withRecordedExample(async (proxy) => {
      const { kubeconfig } = withPlugin(`echo run >> ${runs}\n${credential({ token: 'abc' })}`, proxy.url);
      const r = await cli.run('status', '--kubeconfig', kubeconfig);
      expect(r.code, cli.stderr()).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(5);
      expect(new Set(proxy.seen)).toEqual(new Set(['GET Bearer abc']));
      // No expirationTimestamp: valid for the whole run, as kubectl keeps it (client-node ran it per request).
      expect(readFileSync(runs, 'utf8')).toBe('run\n');
    });
  });

  it('a token written in the kubeconfig wins over the plugin’s, as in client-go', async () => {
    await withRecordedExample(async (proxy) => {
      const { kubeconfig } = withPlugin(credential({ token: 'from-plugin' }), proxy.url, { token: 'static' });
      const r = await cli.run('status', '--kubeconfig', kubeconfig);
      expect(r.code, cli.stderr()).toBe(0);
      expect(new Set(proxy.seen)).toEqual(new Set(['GET Bearer static']));
    });
  });
});

describe('a plugin that starts failing while watch runs', () => {
  it('ends the watch with its one line, even when its words sound like a dropped connection', async () => {
    const server = await serve(['examples/bug-2019850']);
    const proxy = await startProxy(server.url);
    const runs = join(scratch, 'watch-runs');
    writeFileSync(runs, '');
    // The first run's token expires at once, so the next request runs the plugin again: it fails then.
    const expired = new Date(Date.now() + 3000).toISOString();
    const { kubeconfig, plugin } = withPlugin(
      [
        `if [ -s ${runs} ]; then echo "connection closed: session expired" >&2; exit 1; fi`,
        `echo run >> ${runs}`,
        credential({ token: 't', expirationTimestamp: expired }),
      ].join('\n'),
      proxy.url,
    );
    try {
      const config = await loadKubeConfig({ kubeconfig });
      const stop = new AbortController();
      const done = watchCluster({
        config,
        signal: stop.signal,
        emit: () => undefined,
        backoff: { baseMs: 10, maxMs: 200 },
        forever: true,
      });
      const failed = done.then(
        () => undefined,
        (err: Error) => err,
      );
      await until(() => server.watchCount() > 0, 30_000, 'the first watch');
      await new Promise((r) => setTimeout(r, 3200));
      proxy.dropWatches();
      const err = await Promise.race([
        failed,
        new Promise((r) => setTimeout(() => r('still running'), 10_000)),
      ]);
      stop.abort();
      expect(String(err)).toBe(
        `InputError: ${kubeconfig}: user "atlevel-serve": exec plugin ${plugin} exited with status 1: connection closed: session expired`,
      );
      expect(proxy.requests.filter((q) => !q.startsWith('GET '))).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
