/**
 * The kubectl/oc plugin, through a real kubectl's plugin discovery (`kubectl plugin list`, `kubectl
 * atlevel ...` with PATH pointing at bin/), its completion through kubectl's (`kubectl __complete
 * atlevel ...`, what kubectl's shell scripts run on TAB), and docs/live.md's ClusterRole: valid for kubectl
 * (`kubectl create --dry-run=client`) and granting get/list/watch on exactly the resources the live
 * source reads. Needs `npm run build` (the plugin runs dist/).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { expect, it } from 'vitest';
import { RESOURCES } from '../../src/live/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { describeKubectl, KUBECTL } from '../serve/helpers.js';
import { kubeconfigFile, serve } from './helpers.js';

const run = promisify(execFile);
const BIN = resolve(projectRoot, 'bin');
const version = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string })
  .version;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'atlevel-plugin-'));
  // Only the plugin folder, kubectl's and node's on PATH: discovery finds exactly these plugins.
  const path = [BIN, dirname(KUBECTL), dirname(process.execPath)].join(':');
  return { PATH: path, HOME: home, NO_COLOR: '1', ...extra };
}

async function kubectl(args: string[], e: NodeJS.ProcessEnv) {
  try {
    const r = await run(KUBECTL, args, { env: e, timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const x = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : 1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' };
  }
}

describeKubectl('kubectl plugin', () => {
  it('kubectl plugin list finds kubectl-atlevel; kubectl atlevel --version runs it; oc-atlevel runs as oc would run it', async () => {
    const e = env();
    const list = await kubectl(['plugin', 'list'], e);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(join(BIN, 'kubectl-atlevel'));
    const v = await kubectl(['atlevel', '--version'], e);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout.trim()).toContain(version);
    // oc discovers `oc-*` the same way kubectl discovers `kubectl-*`; there is no oc here, so run it as oc would.
    const oc = await run(join(BIN, 'oc-atlevel'), ['--version'], { env: e });
    expect(oc.stdout.trim()).toContain(version);
  });

  it('kubectl completes the plugin through kubectl_complete-atlevel, found on PATH beside kubectl-atlevel', async () => {
    // As npm's global install lays them out: links to the package's bin/ in a folder on PATH.
    const linked = mkdtempSync(join(tmpdir(), 'atlevel-complete-'));
    for (const name of ['kubectl-atlevel', 'kubectl_complete-atlevel'])
      symlinkSync(join(BIN, name), join(linked, name));
    const e = { ...env(), PATH: [linked, dirname(KUBECTL), dirname(process.execPath)].join(':') };
    const complete = async (...words: string[]) => {
      const r = await kubectl(['__complete', 'atlevel', ...words], e);
      expect(r.code, r.stderr).toBe(0);
      // kubectl writes its own debug lines to stderr (the shell scripts drop them); none is atlevel's.
      expect(r.stderr).not.toMatch(/^atlevel:|Error|error:/m);
      return r.stdout.split('\n').filter(Boolean);
    };
    const first = await complete('an');
    expect(first.map((l) => l.split('\t')[0])).toContain('analyze');
    // kubectl prints the plugin's candidates and repeats its directive as cobra's last line.
    expect(first.at(-1)).toBe(':4');
    expect(await complete('analyze', '-o', '')).toEqual(['text', 'json', 'yaml', 'junit', 'html', ':4']);
    expect(await complete('analyze', '--output=y')).toEqual(['--output=yaml', ':4']);
    expect(await complete('release', '')).toEqual([
      expect.stringMatching(/^diff\t/),
      expect.stringMatching(/^info\t/),
      ':4',
    ]);
    // A path operand: no candidates, and directive 0, so that the shell completes file names.
    expect(await complete('analyze', '')).toEqual([':0']);
    expect(await complete('nosuch', '')).toEqual([':4']);
    // The shells' no-descriptions request (zsh, fish without descriptions): kubectl drops them itself.
    const plain = await kubectl(['__completeNoDesc', 'atlevel', 're'], e);
    expect(plain.stdout).toBe('report\nrelease\n:4\n');
  });

  it('kubectl atlevel status reads the cluster of $KUBECONFIG', async () => {
    const server = await serve(['examples/bug-2019850']);
    try {
      const e = env({ KUBECONFIG: kubeconfigFile(server.url) });
      const r = await kubectl(['atlevel', 'status', '-o', 'json'], e);
      expect([0, 1], r.stderr).toContain(r.code);
      const json = JSON.parse(r.stdout);
      expect(json.kind).toBe('AtlevelUpdateStatus');
      expect(JSON.stringify(json)).toContain(server.url);
    } finally {
      await server.close();
    }
  });

  it("docs/live.md's ClusterRole is valid for kubectl and grants get/list/watch on exactly what is read", async () => {
    const doc = readFileSync(join(projectRoot, 'docs/live.md'), 'utf8');
    const text = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const role = yaml.load(text) as {
      kind: string;
      rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
    };
    expect(role.kind).toBe('ClusterRole');
    const granted = role.rules.flatMap((r) => {
      expect([...r.verbs].sort()).toEqual(['get', 'list', 'watch']);
      return r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}`));
    });
    expect(granted.sort()).toEqual(RESOURCES.map((r) => `${r.group}/${r.plural}`).sort());

    // kubectl's own decoder and REST mapping, against a discovery-only fake of the RBAC group.
    const fake = http.createServer((req, res) => {
      const body: Record<string, unknown> = {
        '/api': { kind: 'APIVersions', versions: ['v1'] },
        '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [] },
        '/apis': {
          kind: 'APIGroupList',
          groups: [
            {
              name: 'rbac.authorization.k8s.io',
              versions: [{ groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' }],
              preferredVersion: { groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' },
            },
          ],
        },
        '/apis/rbac.authorization.k8s.io/v1': {
          kind: 'APIResourceList',
          groupVersion: 'rbac.authorization.k8s.io/v1',
          resources: [
            { name: 'clusterroles', namespaced: false, kind: 'ClusterRole', verbs: ['create', 'get'] },
          ],
        },
      };
      const path = (req.url ?? '').split('?')[0] ?? '';
      const found = body[path];
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(found ?? { kind: 'Status', code: 404 }));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'atlevel-role-'));
      writeFileSync(join(dir, 'role.yaml'), text);
      const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      const r = await kubectl(
        [
          '--kubeconfig',
          kubeconfigFile(url, dir),
          'create',
          '--dry-run=client',
          '--validate=false',
          '-f',
          join(dir, 'role.yaml'),
          '-o',
          'name',
        ],
        env(),
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('clusterrole.rbac.authorization.k8s.io/atlevel-reader');
    } finally {
      fake.closeAllConnections();
      await new Promise<void>((r) => fake.close(() => r()));
    }
  });
});
