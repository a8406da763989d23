/**
 * Real kubectl against atlevel serve of a CI run with gather-extra workload files
 * (test/fixtures/operand-rollout): the operators' Deployments, DaemonSets and their pods, as they are
 * at the end and rewound to a moment of the oauth-apiserver rollout.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseTime } from '../../src/model/index.js';
import type { RunningServer } from '../../src/serve/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { describeKubectl, kubectl, serve } from './helpers.js';

const RUN = join(projectRoot, 'test/fixtures/operand-rollout');
const rows = (s: string) =>
  s
    .trimEnd()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/));
/** Every column but AGE (the last), which depends on the wall clock. */
const noAge = (r: string[][]) => r.map((cols) => cols.slice(0, -1));

describeKubectl(
  'kubectl get deployments,daemonsets,replicasets,pods -A on a CI run with workload files',
  () => {
    let server: RunningServer;
    let then: RunningServer;
    let early: RunningServer;
    beforeAll(async () => {
      server = await serve([RUN]);
      then = await serve([RUN], { at: parseTime('2024-05-10T10:15:30Z') as number });
      early = await serve([RUN], { at: parseTime('2024-05-10T10:14:30Z') as number });
    });
    afterAll(async () => {
      await server?.close();
      await then?.close();
      await early?.close();
    });

    it('lists each kind with kubectl columns, as last seen', async () => {
      const r = await kubectl(server, ['get', 'deployments,daemonsets,replicasets,pods', '-A']);
      expect(r.code, r.stderr).toBe(0);
      expect(noAge(rows(r.stdout))).toEqual([
        ['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE'],
        ['openshift-authentication-operator', 'deployment.apps/authentication-operator', '1/1', '1', '1'],
        ['openshift-dns-operator', 'deployment.apps/dns-operator', '1/1', '1', '1'],
        ['openshift-oauth-apiserver', 'deployment.apps/apiserver', '2/3', '2', '2'],
        ['NAMESPACE', 'NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR'],
        ['openshift-dns', 'daemonset.apps/dns-default', '3', '3', '3', '3', '3', '<none>'],
        ['NAMESPACE', 'NAME', 'DESIRED', 'CURRENT', 'READY'],
        [
          'openshift-authentication-operator',
          'replicaset.apps/authentication-operator-5b8d9c7f6',
          '0',
          '0',
          '0',
        ],
        [
          'openshift-authentication-operator',
          'replicaset.apps/authentication-operator-6f9c7b5d8',
          '1',
          '1',
          '1',
        ],
        ['openshift-dns-operator', 'replicaset.apps/dns-operator-6d5c4b3a2', '0', '0', '0'],
        ['openshift-dns-operator', 'replicaset.apps/dns-operator-7c6b5d4f9', '1', '1', '1'],
        ['openshift-oauth-apiserver', 'replicaset.apps/apiserver-5d8f7b9c4', '1', '1', '1'],
        ['openshift-oauth-apiserver', 'replicaset.apps/apiserver-6b7c8d9f5', '2', '2', '1'],
        ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS'],
        [
          'openshift-authentication-operator',
          'pod/authentication-operator-6f9c7b5d8-q2x7w',
          '1/1',
          'Running',
          '0',
        ],
        ['openshift-dns-operator', 'pod/dns-operator-7c6b5d4f9-zx8vb', '1/1', 'Running', '0'],
        ['openshift-dns', 'pod/dns-default-4kq9t', '1/1', 'Running', '0'],
        ['openshift-dns', 'pod/dns-default-b7w2m', '1/1', 'Running', '0'],
        ['openshift-dns', 'pod/dns-default-x5n8r', '1/1', 'Running', '0'],
        ['openshift-oauth-apiserver', 'pod/apiserver-5d8f7b9c4-h8k2p', '1/1', 'Running', '0'],
        ['openshift-oauth-apiserver', 'pod/apiserver-6b7c8d9f5-7tq4z', '1/1', 'Running', '0'],
        ['openshift-oauth-apiserver', 'pod/apiserver-6b7c8d9f5-m9wd2', '0/1', 'ContainerCreating', '0'],
      ]);
    });

    it('--at: what was created later is absent (pods, ReplicaSets), conditions rewound, counts said to be last seen', async () => {
      const pods = await kubectl(then, ['get', 'pods', '-n', 'openshift-oauth-apiserver', '-o', 'name']);
      expect(pods.code, pods.stderr).toBe(0);
      expect(pods.stdout.trim().split('\n')).toEqual([
        'pod/apiserver-5d8f7b9c4-h8k2p',
        'pod/apiserver-6b7c8d9f5-7tq4z',
      ]);
      const pod = await kubectl(then, [
        'get',
        'pod',
        '-n',
        'openshift-oauth-apiserver',
        'apiserver-6b7c8d9f5-7tq4z',
        '-o',
        'json',
      ]);
      const json = JSON.parse(pod.stdout);
      // Ready came at 10:16:05: not True at 10:15:30 (the inputs hold only its last transition, so Unknown).
      const ready = json.status.conditions.find((c: { type: string }) => c.type === 'Ready');
      expect(ready.status).not.toBe('True');
      expect(json.metadata.annotations['atlevel.io/rewound-to']).toBe('2024-05-10T10:15:30Z');
      expect(json.metadata.annotations['atlevel.io/not-rewound']).toContain('status.containerStatuses');
      // The new ReplicaSet (10:15:02) is there; its scale as last seen, and said so.
      const rs = await kubectl(then, ['get', 'rs', '-n', 'openshift-oauth-apiserver', '-o', 'json']);
      const sets = JSON.parse(rs.stdout).items as {
        metadata: { name: string; annotations: Record<string, string> };
      }[];
      expect(sets.map((x) => x.metadata.name)).toEqual(['apiserver-5d8f7b9c4', 'apiserver-6b7c8d9f5']);
      expect(sets[1]?.metadata.annotations['atlevel.io/not-rewound']).toContain('status');
      // At 10:14:30 it did not exist yet; the authentication-operator's new one (10:14:00) did.
      const before = await kubectl(early, ['get', 'rs', '-A', '-o', 'name']);
      expect(before.stdout.trim().split('\n')).toEqual([
        'replicaset.apps/authentication-operator-5b8d9c7f6',
        'replicaset.apps/authentication-operator-6f9c7b5d8',
        'replicaset.apps/dns-operator-6d5c4b3a2',
        'replicaset.apps/dns-operator-7c6b5d4f9',
        'replicaset.apps/apiserver-5d8f7b9c4',
      ]);
      const deploy = await kubectl(then, [
        'get',
        'deploy',
        '-n',
        'openshift-oauth-apiserver',
        'apiserver',
        '-o',
        'json',
      ]);
      expect(JSON.parse(deploy.stdout).metadata.annotations['atlevel.io/not-rewound']).toContain(
        'status.*Replicas',
      );
    });
  },
);
