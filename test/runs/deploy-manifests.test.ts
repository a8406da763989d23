/**
 * deploy/'s manifests through a real kubectl: `kubectl create --dry-run=client -f deploy/` must accept
 * every object. kubectl maps kinds to resources through API discovery even in a client-side dry run,
 * so a local fake on 127.0.0.1 answers discovery for the three kinds (v1 ConfigMap and Secret, batch/v1
 * Job); schema validation needs a cluster's OpenAPI document, which no offline test has, so the test
 * runs with --validate=false and checks the Job's shape itself. Skipped, visibly, without kubectl.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeUnless } from '../helpers/skip.js';

const KUBECTL = '/usr/bin/kubectl';
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

const resources = (groupVersion: string, list: [string, string][]) => ({
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion,
  resources: list.map(([name, kind]) => ({
    name,
    singularName: kind.toLowerCase(),
    namespaced: true,
    kind,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  })),
});

const DISCOVERY: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      {
        name: 'batch',
        versions: [{ groupVersion: 'batch/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'batch/v1', version: 'v1' },
      },
    ],
  },
  '/api/v1': resources('v1', [
    ['configmaps', 'ConfigMap'],
    ['secrets', 'Secret'],
  ]),
  '/apis/batch/v1': resources('batch/v1', [['jobs', 'Job']]),
};

describeUnless(
  existsSync(KUBECTL) ? undefined : `no kubectl at ${KUBECTL} (apt-get install kubectl)`,
  'deploy/ manifests (kubectl create --dry-run=client)',
  () => {
    let server: Server;
    let dir: string;
    let kubeconfig: string;

    beforeAll(async () => {
      server = createServer((req, res) => {
        const body = DISCOVERY[(req.url ?? '').split('?')[0] ?? ''];
        res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body ?? { kind: 'Status', status: 'Failure', code: 404 }));
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const port = (server.address() as AddressInfo).port;
      dir = mkdtempSync(join(tmpdir(), 'atlevel-deploy-'));
      kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        `apiVersion: v1\nkind: Config\nclusters: [{name: fake, cluster: {server: "http://127.0.0.1:${port}"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: c, context: {cluster: fake, user: u, namespace: atlevel}}]\ncurrent-context: c\n`,
      );
    });

    afterAll(() => {
      server?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const kubectl = (...args: string[]) =>
      run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { env: { ...process.env, HOME: dir } });

    it('accepts every object of deploy/', async () => {
      const { stdout } = await kubectl(
        'create',
        '--dry-run=client',
        '--validate=false',
        '-f',
        join(root, 'deploy'),
      );
      expect(stdout.trim().split('\n').sort()).toEqual([
        'configmap/atlevel-runs created (dry run)',
        'job.batch/atlevel-ingest created (dry run)',
        'secret/atlevel-db created (dry run)',
      ]);
    });

    it('is an Indexed Job with one pod per shard, each ingesting its own shard into the shared PostgreSQL', async () => {
      const { stdout } = await kubectl(
        'create',
        '--dry-run=client',
        '--validate=false',
        '-o',
        'json',
        '-f',
        join(root, 'deploy', 'ingest-job.yaml'),
      );
      const job = JSON.parse(stdout);
      expect(job.kind).toBe('Job');
      expect(job.spec.completionMode).toBe('Indexed');
      expect(job.spec.parallelism).toBe(job.spec.completions);
      const c = job.spec.template.spec.containers[0];
      const shards = c.env.find((e: { name: string }) => e.name === 'ATLEVEL_SHARDS').value;
      expect(Number(shards)).toBe(job.spec.completions);
      expect(c.env.find((e: { name: string }) => e.name === 'ATLEVEL_DB').valueFrom.secretKeyRef.name).toBe(
        'atlevel-db',
      );
      expect(c.args.join(' ')).toMatch(
        /ingest --db "\$ATLEVEL_DB" --shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$ATLEVEL_SHARDS"/,
      );
      // The same document as written: kubectl kept every field.
      const written = load(readFileSync(join(root, 'deploy', 'ingest-job.yaml'), 'utf8')) as {
        spec: unknown;
      };
      expect(job.spec).toMatchObject(written.spec as object);
    });

    it('refuses a manifest of a kind the API does not have', async () => {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'apiVersion: batch/v1\nkind: Jobb\nmetadata: {name: x}\n');
      await expect(kubectl('create', '--dry-run=client', '--validate=false', '-f', bad)).rejects.toThrow(
        /Jobb/,
      );
    });
  },
);
