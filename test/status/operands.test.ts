import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';

const cli = inProcessCli('status-operands', ['status']);
// A CI run mid-update: authentication not yet at 4.16.1 while its oauth-apiserver Deployment rolls
// (test/fixtures/README.md, operand-rollout).
const RUN = join(projectRoot, 'test/fixtures/operand-rollout');

interface OperandJson {
  operator: string;
  kind: string;
  namespace: string;
  name: string;
  updated: number;
  desired: number;
  available: number | null;
  since: string | null;
}
const operandsOf = (out: string): OperandJson[] => JSON.parse(out).controlPlane.operators.rollingOperands;

describe('status names the operand that holds an operator back', () => {
  it('on the snapshot: the Deployment, its updated and available counts as last seen', async () => {
    const { code, out } = await cli.run(RUN);
    expect(code).toBe(0);
    expect(out).toContain(
      'Waiting on:      authentication: Deployment "openshift-oauth-apiserver/apiserver" update is rolling out (2 out of 3 updated, 2 out of 3 available)\n',
    );
    // dns and openshift-apiserver are at the target and no longer Progressing: nothing named for them.
    expect(out.match(/update is rolling out/g)).toHaveLength(1);
  });

  it('in JSON, with when the rollout began', async () => {
    const { code, out } = await cli.run(RUN, '-o', 'json');
    expect(code).toBe(0);
    expect(operandsOf(out)).toEqual([
      {
        operator: 'authentication',
        kind: 'Deployment',
        namespace: 'openshift-oauth-apiserver',
        name: 'apiserver',
        updated: 2,
        desired: 3,
        available: 2,
        // The first "Scaled up replica set apiserver-6b7c8d9f5" event.
        since: '2024-05-10T10:15:02Z',
      },
    ]);
  });

  it('rewound: the updated count at the moment from the pods created by then, availability unknown', async () => {
    const early = await cli.run(RUN, '--at', '2024-05-10T10:15:30Z', '-o', 'json');
    expect(early.code).toBe(0);
    expect(operandsOf(early.out)).toMatchObject([
      { name: 'apiserver', updated: 1, desired: 3, available: null },
    ]);
    const later = await cli.run(RUN, '--at', '2024-05-10T10:17:00Z');
    expect(later.code).toBe(0);
    expect(later.out).toContain(
      'Waiting on:      authentication: Deployment "openshift-oauth-apiserver/apiserver" update is rolling out (2 out of 3 updated)\n',
    );
  });

  it('rewound: the operator Deployment that rolled first, then nothing between the two rollouts', async () => {
    const first = await cli.run(RUN, '--at', '2024-05-10T10:14:20Z', '-o', 'json');
    expect(operandsOf(first.out)).toMatchObject([
      {
        operator: 'authentication',
        kind: 'Deployment',
        name: 'authentication-operator',
        updated: 1,
        desired: 1,
      },
    ]);
    const between = await cli.run(RUN, '--at', '2024-05-10T10:14:50Z', '-o', 'json');
    expect(operandsOf(between.out)).toEqual([]);
  });

  it('rewound without pods, ReplicaSets or events: the rollout is not placed, and a note says so instead of a claim', async () => {
    const copy = join(cli.dir, 'no-pods');
    cpSync(RUN, copy, { recursive: true });
    const ga = join(copy, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts');
    rmSync(join(ga, 'pods.json'));
    rmSync(join(ga, 'events.json'));
    rmSync(join(ga, 'replicasets.json'));
    const { code, out } = await cli.run(copy, '--at', '2024-05-10T10:15:30Z', '-o', 'json');
    expect(code).toBe(0);
    expect(operandsOf(out)).toEqual([]);
    expect(JSON.parse(out).notes).toContain(
      'Deployment openshift-authentication-operator/authentication-operator (authentication), Deployment openshift-oauth-apiserver/apiserver (authentication): the inputs do not place their rollouts in time, so whether they held their operators back at 2024-05-10T10:15:30Z is unknown.',
    );
  });

  it('--now (the same as --at) before the rollout began: not named', async () => {
    const { code, out } = await cli.run(RUN, '--now', '2024-05-10T10:15:00Z', '-o', 'json');
    expect(code).toBe(0);
    expect(operandsOf(out)).toEqual([]);
  });
});
