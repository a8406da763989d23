/**
 * ReplicaSet (model/kinds/replicaset.ts), one descriptor file and one registry line: read from
 * gather-extra replicasets.json and from a must-gather's namespaces/<ns>/apps/replicasets.yaml,
 * joined to its Deployment in the workloads' rollout histories (timeline/workload-rollouts.ts), and
 * listed live in every namespace. The objects follow apps/v1; the times are made up.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/live/index.js';
import { KINDS } from '../../src/model/index.js';
import { loadHistoryParts } from '../../src/sources/index.js';
import { buildHistory, workloadRollouts } from '../../src/timeline/index.js';

const iso = (clock: string) => `2024-05-01T${clock}Z`;
const IMAGE = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:'.concat('2'.repeat(64));

const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'console',
    namespace: 'openshift-console',
    generation: 2,
    creationTimestamp: iso('08:00:00'),
  },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'console', image: IMAGE }] } } },
  status: { observedGeneration: 2, replicas: 2, updatedReplicas: 2, availableReplicas: 2 },
};
const REPLICASET = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: 'console-6b7d9f8c5',
    namespace: 'openshift-console',
    creationTimestamp: iso('10:12:00'),
    labels: { 'pod-template-hash': '6b7d9f8c5' },
    annotations: { 'deployment.kubernetes.io/revision': '2' },
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'console', uid: 'd1', controller: true },
    ],
  },
  spec: {
    replicas: 2,
    selector: { matchLabels: { 'pod-template-hash': '6b7d9f8c5' } },
    template: {
      metadata: { labels: { 'pod-template-hash': '6b7d9f8c5' } },
      spec: { containers: [{ name: 'console', image: IMAGE }] },
    },
  },
  status: {
    observedGeneration: 1,
    replicas: 2,
    fullyLabeledReplicas: 2,
    readyReplicas: 2,
    availableReplicas: 2,
  },
};

const tmp = mkdtempSync(join(tmpdir(), 'atlevel-replicaset-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(root: string, rel: string, value: unknown): void {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}
const list = (items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', items });

describe('ReplicaSet', () => {
  it('is read from gather-extra replicasets.json and namespaces/<ns>/apps/replicasets.yaml, and joined to its Deployment', async () => {
    const run = join(tmp, 'run');
    const gather = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';
    write(run, `${gather}/deployments.json`, list([DEPLOYMENT]));
    write(run, `${gather}/replicasets.json`, list([REPLICASET]));
    const mg = join(tmp, 'must-gather.local.1');
    const root = join(mg, 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0000');
    write(root, 'namespaces/openshift-console/apps/deployments.yaml', list([DEPLOYMENT]));
    write(root, 'namespaces/openshift-console/apps/replicasets.yaml', list([REPLICASET]));
    write(root, 'cluster-scoped-resources/core/nodes/n1.yaml', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', creationTimestamp: iso('08:00:00') },
    });
    for (const path of [run, mg]) {
      const h = buildHistory(await loadHistoryParts([path], { now: Date.now() }));
      expect(
        h.objects.replicaSets.map((r) => r.object.metadata.name),
        path,
      ).toEqual(['console-6b7d9f8c5']);
      const console = workloadRollouts(h).workloads.find(
        (w) => w.key === 'Deployment/openshift-console/console',
      );
      expect(console?.revisions).toEqual([
        expect.objectContaining({
          id: 'console-6b7d9f8c5',
          createdAt: Date.parse(iso('10:12:00')),
          replicas: 2,
          images: [{ container: 'console', image: IMAGE }],
        }),
      ]);
    }
  });

  it('is listed live in every namespace, with its API facts', () => {
    expect(KINDS.ReplicaSet.api).toMatchObject({
      group: 'apps',
      version: 'v1',
      plural: 'replicasets',
      namespaced: true,
    });
    expect(RESOURCES.find((r) => r.kind === 'ReplicaSet')?.scope).toBe('all');
  });
});
