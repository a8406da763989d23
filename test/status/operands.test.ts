import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operandAt, operandRolloutIntervals, operandsByOperator } from '../../src/timeline/index.js';
import { inProcessCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

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

describe('operand rollouts placed in time, on a run with a drain and reboots after the rollouts', () => {
  // test/fixtures/operands/late-daemonset (the rule's fixture): the router rolled out 10:12 → 10:14, a
  // drain recreated its pods at 10:52 and 10:55; reboots moved two dns pods' Ready to 10:50 and 10:51.
  const at = (clock: string) => Date.parse(`2024-05-01T${clock}Z`);
  it('a drain replacing pods is no rollout; a reboot does not stretch one', async () => {
    const history = await loadHistory([join(projectRoot, 'test/fixtures/operands/late-daemonset')]);
    const byOperator = operandsByOperator(history);
    const router = byOperator.get('ingress')?.find((r) => r.name === 'router-default');
    expect(router).toMatchObject({ from: at('10:12:00'), to: at('10:14:00'), done: true });
    expect(router && operandAt(router, at('10:30:00'))).toEqual({ state: 'settled' });
    expect(router && operandAt(router, at('10:12:30'))).toEqual({ state: 'rolling', updated: 1 });
    const dns = byOperator.get('dns')?.find((r) => r.name === 'dns-default');
    // Its last pod was created at 10:36:00 (after dns reported level) and Ready a minute later.
    expect(dns).toMatchObject({ from: at('10:10:00'), to: at('10:37:00'), done: true });
    expect(dns && operandAt(dns, at('10:30:00'))).toEqual({ state: 'rolling', updated: 2 });
    expect(dns && operandAt(dns, at('10:45:00'))).toEqual({ state: 'settled' });
  });

  it("a DaemonSet's pods Ready after its rollout: from the latest Ready time, not the rollout's end", async () => {
    const history = await loadHistory([join(projectRoot, 'test/fixtures/operands/late-daemonset')]);
    const byOperator = operandsByOperator(history);
    const dns = byOperator.get('dns')?.find((r) => r.name === 'dns-default');
    // The reboots moved two pods' Ready to 10:50 and 10:51: whether all were Ready from 10:37 is unknown.
    expect(dns?.readySince).toBe(at('10:51:00'));
    const ready = (list: NonNullable<typeof dns>[]) =>
      operandRolloutIntervals(list, history.span?.to)
        .filter((i) => i.message.reason === 'PodsReady')
        .map((i) => [i.locator.keys.daemonset, i.from, i.to]);
    expect(ready([...byOperator.values()].flat())).toEqual([
      ['dns-default', at('10:51:00'), history.span?.to],
    ]);
  });

  it('a DaemonSet with a pod not Ready as last seen: no pods-Ready interval', async () => {
    const copy = join(cli.dir, 'not-ready');
    cpSync(RUN, copy, { recursive: true });
    const file = join(copy, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/pods.json');
    const pods = JSON.parse(readFileSync(file, 'utf8'));
    const pod = pods.items.find(
      (p: { metadata: { name: string } }) => p.metadata.name === 'dns-default-x5n8r',
    );
    for (const c of pod.status.conditions) if (c.type === 'Ready') c.status = 'False';
    writeFileSync(file, JSON.stringify(pods));
    const fine = operandsByOperator(await loadHistory([RUN]))
      .get('dns')
      ?.find((r) => r.name === 'dns-default');
    expect(fine?.readySince).toBe(Date.parse('2024-05-10T10:11:20Z'));
    const history = await loadHistory([copy]);
    const dns = operandsByOperator(history)
      .get('dns')
      ?.find((r) => r.name === 'dns-default');
    expect(dns).toBeDefined();
    expect(dns?.readySince).toBeUndefined();
    expect(
      operandRolloutIntervals(dns ? [dns] : [], history.span?.to).filter(
        (i) => i.message.reason === 'PodsReady',
      ),
    ).toEqual([]);
  });
});
