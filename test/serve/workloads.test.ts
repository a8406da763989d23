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

describeKubectl('kubectl get deployments,daemonsets,pods -A on a CI run with workload files', () => {
  let server: RunningServer;
  let then: RunningServer;
  beforeAll(async () => {
    server = await serve([RUN]);
    then = await serve([RUN], { at: parseTime('2024-05-10T10:15:30Z') as number });
  });
  afterAll(async () => {
    await server?.close();
    await then?.close();
  });

  it('lists each kind with kubectl columns, as last seen', async () => {
    const r = await kubectl(server, ['get', 'deployments,daemonsets,pods', '-A']);
    expect(r.code, r.stderr).toBe(0);
    expect(noAge(rows(r.stdout))).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE'],
      ['openshift-authentication-operator', 'deployment.apps/authentication-operator', '1/1', '1', '1'],
      ['openshift-dns-operator', 'deployment.apps/dns-operator', '1/1', '1', '1'],
      ['openshift-oauth-apiserver', 'deployment.apps/apiserver', '2/3', '2', '2'],
      ['NAMESPACE', 'NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR'],
      ['openshift-dns', 'daemonset.apps/dns-default', '3', '3', '3', '3', '3', '<none>'],
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

  it('--at: the rollout pod created later is absent, the first one there with its Ready rewound, counts said to be last seen', async () => {
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
});
