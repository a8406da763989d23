/**
 * `status --kubeconfig` and `analyze --kubeconfig` run the file code on a live snapshot: on `serve` of
 * oc's seven upgrade-status snapshots, `status --kubeconfig --at T` gives the JSON `status` gives on
 * the files (only the fields naming the source differ); analyze says what a snapshot cannot know;
 * a bad kubeconfig is one line and exit 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { describeFixtures, fixture, OC_STATUS_CASES } from '../helpers/fixtures.js';
import { kubeconfigFile, serve, startProxy } from './helpers.js';

const CASES = OC_STATUS_CASES;

const cli = inProcessCli('live-status');
const examples = () => fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples');

/** Strings that name where a fact was read from: the file path, or the API server's URL. */
function withoutSource(value: unknown, prefixes: readonly string[]): unknown {
  if (typeof value === 'string') return prefixes.some((p) => value.startsWith(p)) ? '<source>' : value;
  if (Array.isArray(value)) return value.map((v) => withoutSource(v, prefixes));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSource(v, prefixes)]));
  return value;
}

describeFixtures('status --kubeconfig on serve of the oc snapshots', () => {
  for (const name of CASES) {
    it(`${name}: the same JSON as status on the files, at the same --at`, async () => {
      const files = `${examples()}/${name}`;
      const first = await cli.run('status', files, '-o', 'json');
      const at = JSON.parse(first.out).evaluatedAt as string;
      const onFiles = await cli.run('status', files, '-o', 'json', '--at', at);
      const server = await serve([files]);
      try {
        const live = await cli.run(
          'status',
          '--kubeconfig',
          kubeconfigFile(server.url),
          '-o',
          'json',
          '--at',
          at,
        );
        expect(live.code, cli.stderr()).toBe(onFiles.code);
        const a = withoutSource(JSON.parse(onFiles.out), [examples()]);
        const b = withoutSource(JSON.parse(live.out), [server.url]);
        expect(b).toEqual(a);
      } finally {
        await server.close();
      }
    });
  }
});

describe('analyze --kubeconfig on a snapshot', () => {
  it('analyses what the cluster remembers, says what a snapshot cannot know, and sends only GET', async () => {
    const server = await serve(['examples/bug-2019850']);
    const proxy = await startProxy(server.url);
    try {
      const r = await cli.run('analyze', '--kubeconfig', kubeconfigFile(proxy.url), '-o', 'json');
      expect([0, 1, 4], cli.stderr()).toContain(r.code);
      const json = JSON.parse(r.out);
      expect(json.inputs.map((i: { reader: string }) => i.reader)).toContain('live');
      expect(JSON.stringify(json.notes)).toContain('earlier transitions were overwritten');
      expect(proxy.requests.filter((q) => !q.startsWith('GET '))).toEqual([]);
      expect(json.inputs.find((i: { reader: string }) => i.reader === 'live')?.contributed).toMatch(
        /^\d+ objects?$/,
      );
      // The text header counts what was read live as resource lists, not as files.
      const text = await cli.run('analyze', '--kubeconfig', kubeconfigFile(proxy.url), '--brief');
      expect(text.out.split('\n')[1]).toMatch(/^inputs: \d+ resource lists read live, /);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it('a missing kubeconfig, an unknown context, paths with --kubeconfig: one line, exit 2', async () => {
    const missing = await cli.run('status', '--kubeconfig', join(cli.dir, 'nope'));
    expect(missing.code).toBe(2);
    expect(cli.stderr().trim().split('\n')).toHaveLength(1);
    expect(cli.stderr()).toContain('no such kubeconfig file');
    const kc = join(cli.dir, 'kc');
    writeFileSync(kc, readFileSync(kubeconfigFile('http://127.0.0.1:9'), 'utf8'));
    const ctx = await cli.run('analyze', '--kubeconfig', kc, '--context', 'other');
    expect(ctx.code).toBe(2);
    expect(cli.stderr()).toContain('no context named "other"');
    const both = await cli.run('analyze', 'examples/bug-2019850', '--kubeconfig', kc);
    expect(both.code).toBe(2);
    const down = await cli.run('analyze', '--kubeconfig', kc);
    expect(down.code).toBe(2);
    expect(cli.stderr()).toContain('cannot reach the API server');
  });

  it('--release-from/--release-to name the changed component of a live cluster too', async () => {
    const server = await serve(['examples/bug-2019850']);
    try {
      const release = 'examples/bug-2019850/release';
      const kc = kubeconfigFile(server.url);
      const without = await cli.run('analyze', '--kubeconfig', kc);
      expect(without.out).toContain('no release payload was given or found');
      const r = await cli.run(
        'analyze',
        '--kubeconfig',
        kc,
        '--release-from',
        `${release}/release-from.json`,
        '--release-to',
        `${release}/release-to.json`,
      );
      expect(r.code).toBe(1);
      expect(r.out).toContain('the changed image is the release component pod');
      const json = JSON.parse(
        (
          await cli.run(
            'analyze',
            '--kubeconfig',
            kc,
            '--release-to',
            `${release}/release-to.json`,
            '-o',
            'json',
          )
        ).out,
      );
      expect(json.inputs.at(-1)).toMatchObject({ reader: 'release', path: `${release}/release-to.json` });
    } finally {
      await server.close();
    }
  });

  it('a cluster with no ClusterVersion: the message names the cluster, not an empty path', async () => {
    const server = await serve([
      'examples/bug-2019850/artifacts/e2e-aws-upgrade/gather-extra/artifacts/nodes.json',
    ]);
    try {
      const r = await cli.run('status', '--kubeconfig', kubeconfigFile(server.url));
      expect(r.code).toBe(2);
      expect(cli.stderr()).toMatch(
        /^atlevel: the live cluster at http:\/\/127\.0\.0\.1:\d+: no ClusterVersion found/,
      );
    } finally {
      await server.close();
    }
  });
});
