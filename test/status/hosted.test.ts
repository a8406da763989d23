/**
 * status of a hosted cluster (HyperShift; docs/hosted.md, docs/status.md "Hosted clusters"): the
 * control plane from status.controlPlaneVersion and the ControlPlaneComponents, each NodePool as a
 * pool of its Machines, the insights oc cannot give, text and JSON goldens, and --at.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';

const cli = inProcessCli('hosted-status');
const FIXTURE = 'test/fixtures/status/hosted-rollout';
const GOLDEN = join(projectRoot, 'test/fixtures/status/golden');

/** Golden files: set UPDATE_GOLDEN=1 to rewrite them after an intended change, then review the diff. */
function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

async function status(...args: string[]) {
  return statusOf(FIXTURE, ...args);
}

async function statusOf(fixture: string, ...args: string[]) {
  const cwd = process.cwd();
  process.chdir(projectRoot); // sources keep the path as given: a relative one keeps goldens portable
  try {
    return await cli.run('status', fixture, ...args);
  } finally {
    process.chdir(cwd);
  }
}

type Json = {
  kind: string;
  state: string;
  controlPlane: { assessment: string; components: Record<string, unknown> };
  nodePools: {
    name: string;
    assessment: string;
    updated: number;
    total: number;
    oldMachines: number;
    machines: { name: string; assessment: string; phase: string; updated: boolean }[];
  }[];
  insights: { kind: string; level: string; objects: { kind: string; name: string }[] }[];
  unrewound: { object: string; field: string }[];
  evaluatedAtSource: string;
};

describe('status of a hosted cluster', () => {
  it('prints the control plane, the NodePools as pools of Machines and the insights (golden text, exit 1)', async () => {
    const r = await status('--width', '160');
    expect(r.code, cli.stderr()).toBe(1);
    golden('hosted-rollout.txt', r.out);
  });

  it('JSON: components counted, each NodePool assessed from its Machines, the early one flagged (golden)', async () => {
    const r = await status('-o', 'json');
    golden('hosted-rollout.json', r.out);
    const json = JSON.parse(r.out) as Json;
    expect(json.kind).toBe('AtlevelHostedClusterStatus');
    expect(json.state).toBe('updating');
    expect(json.controlPlane.assessment).toBe('Progressing');
    expect(json.controlPlane.components).toMatchObject({ total: 4, updated: 2, updating: 1, waiting: 1 });
    const pools = Object.fromEntries(json.nodePools.map((p) => [p.name, p]));
    expect(pools.workers).toMatchObject({ assessment: 'Progressing', updated: 2, total: 4, oldMachines: 1 });
    expect(pools.workers?.machines.map((m) => [m.name, m.assessment, m.phase])).toEqual([
      ['workers-5d8b4-bbbb1', 'Completed', 'Updated'],
      ['workers-5d8b4-bbbb2', 'Completed', 'Updated'],
      ['workers-5d8b4-bbbb3', 'Progressing', 'Provisioning'],
      ['workers-7f9c5-aaaa1', 'Progressing', 'Draining'],
    ]);
    // The NodePool says 4.19.2 and UpdatingVersion=False, but an old MachineSet's Machine still runs:
    // one Machine replaced and one not is a rollout under way (as an MCO pool with some nodes updated).
    expect(pools.early).toMatchObject({ assessment: 'Progressing', updated: 1, total: 2, oldMachines: 1 });
    const early = json.insights.find((i) => i.kind === 'nodepool-level-before-rollout');
    expect(early?.level).toBe('Error');
    expect(early?.objects.map((o) => `${o.kind}/${o.name}`)).toEqual([
      'NodePool/early',
      'Machine/early-6c7d8-aaaa1',
    ]);
    expect(pools.held?.assessment).toBe('Excluded');
    expect(json.insights.map((i) => i.kind)).toContain('nodepool-invalid-payload');
  });

  it('-o yaml is the JSON document', async () => {
    const [j, y] = [await status('-o', 'json'), await status('-o', 'yaml')];
    const { load } = await import('js-yaml');
    expect(load(y.out)).toEqual(JSON.parse(j.out));
  });

  it('--at: Machines made later are gone, the NodePool not yet flagged, what is last seen said', async () => {
    const r = await status('-o', 'json', '--at', '2026-11-30T10:30:00Z');
    expect(r.code, cli.stderr()).toBe(1);
    const json = JSON.parse(r.out) as Json;
    expect(json.evaluatedAtSource).toBe('rewound');
    const workers = json.nodePools.find((p) => p.name === 'workers');
    expect(workers?.machines.map((m) => m.name)).toEqual(['workers-5d8b4-bbbb1', 'workers-7f9c5-aaaa1']);
    // Its deletion began at 10:44: at 10:30 the old Machine still ran, outdated.
    expect(workers?.machines[1]).toMatchObject({ assessment: 'Outdated', phase: 'Pending' });
    // UpdatingVersion went False at 10:41: at 10:30 it is not known, so nothing claims level.
    expect(json.insights.map((i) => i.kind)).not.toContain('nodepool-level-before-rollout');
    expect(json.unrewound.map((u) => `${u.object} ${u.field}`)).toContain('NodePool status.version');
    expect(json.unrewound.map((u) => `${u.object} ${u.field}`)).not.toContain(
      'HostedCluster status.controlPlaneVersion',
    );
    // Before the control plane's update began, it was at 4.18.10 and idle.
    const before = JSON.parse((await status('-o', 'json', '--at', '2026-11-30T09:00:00Z')).out);
    expect(before.controlPlane).toMatchObject({ assessment: 'Completed', targetVersion: '4.18.10' });
  });

  it('--hosted-cluster naming no HostedCluster is one line and exit 2', async () => {
    const r = await status('--hosted-cluster', 'clusters/nope');
    expect(r.code).toBe(2);
    expect(cli.stderr()).toMatch(/no HostedCluster clusters\/nope \(found: clusters\/demo\)/);
    expect(cli.stderr().trim().split('\n')).toHaveLength(1);
  });
});

describe("status of a hosted cluster: the guest's operands", () => {
  // A hypershift dump whose guest's dns operator reports the target but still rolls out its DaemonSet
  // (test/fixtures/status/hosted-guest-operands/README.md).
  const DUMP = 'test/fixtures/status/hosted-guest-operands';

  it('names the guest operand still rolling out, as the ordinary status does (golden text)', async () => {
    const r = await statusOf(DUMP, '--width', '160');
    golden('hosted-guest-operands.txt', r.out);
    expect(r.out).toContain(
      'Waiting on:  dns: DaemonSet "openshift-dns/dns-default" update is rolling out (3 out of 4 updated, 3 out of 4 available)',
    );
  });

  it("JSON: guest.operators.rollingOperands, in the ordinary document's shape (golden)", async () => {
    const r = await statusOf(DUMP, '-o', 'json');
    golden('hosted-guest-operands.json', r.out);
    const json = JSON.parse(r.out) as { guest: { operators: { rollingOperands: unknown[] } } };
    expect(json.guest.operators.rollingOperands).toEqual([
      {
        operator: 'dns',
        kind: 'DaemonSet',
        namespace: 'openshift-dns',
        name: 'dns-default',
        updated: 3,
        desired: 4,
        available: 3,
        since: null,
      },
    ]);
  });

  it('names none once the operand rolled out, nor for an operator done and not Progressing', async () => {
    // The same dump before this fixture's change (the guest's dns done, no workloads): none named.
    const done = JSON.parse((await statusOf('test/fixtures/hosted/ocpbugs-77922', '-o', 'json')).out);
    expect(done.guest.operators.rollingOperands).toEqual([]);
  });

  it('--at a moment before dns went Progressing: not named then', async () => {
    const r = await statusOf(DUMP, '-o', 'json', '--at', '2026-11-20T11:00:00Z');
    expect(r.code, cli.stderr()).not.toBe(2);
    const json = JSON.parse(r.out) as { guest: { operators: { rollingOperands: unknown[] } } };
    expect(json.guest.operators.rollingOperands).toEqual([]);
  });
});

describe('a NodePool whose release the HostedCluster never ran', () => {
  it('takes its target from UpdatingVersion: a paused pool is Excluded at 0%, never Completed', async () => {
    const r = await statusOf('test/fixtures/hosted/nodepool-paused', '-o', 'json');
    const json = JSON.parse(r.out) as Json & { nodePools: { targetVersion?: string }[] };
    expect(json.nodePools[0]).toMatchObject({
      name: 'example-workers',
      targetVersion: '4.20.2',
      assessment: 'Excluded',
      updated: 0,
      total: 3,
    });
    expect(JSON.stringify(json)).not.toContain('target version is not known');
  });
});

describe('a Completed control plane whose components roll out again', () => {
  const kinds = async (fixture: string) => {
    const r = await statusOf(fixture, '-o', 'json');
    const json = JSON.parse(r.out) as Json;
    return { json, kinds: json.insights.map((i) => i.kind) };
  };

  it('a configuration rollout after the completion is updating, not a component the entry skipped', async () => {
    const { json, kinds: k } = await kinds('test/fixtures/hosted/controlplane-config-rollout');
    expect(json.controlPlane.components).toMatchObject({ updated: 6, updating: 1 });
    expect(k).not.toContain('component-not-rolled-out');
  });

  it('a newer release requested in the HostedCluster spec: the previous entry is not held against the components', async () => {
    const { kinds: k } = await kinds('test/fixtures/hosted/controlplane-update-requested');
    expect(k).not.toContain('component-not-rolled-out');
  });

  it('but a component behind a Completed entry with nothing newer requested is still an Error', async () => {
    const { kinds: k } = await kinds('test/fixtures/hosted/controlplane-ahead');
    expect(k).toContain('component-not-rolled-out');
  });
});

describe('a NodePool updating whose template has not moved yet', () => {
  it('a day-2 config change waiting on its payload: the payload Error, never "stuck although rolled out"', async () => {
    const r = await statusOf(
      'test/fixtures/hosted/nodepool-payload-pending',
      '-o',
      'json',
      '--at',
      '2026-11-20T13:00:00Z',
    );
    const kinds = (JSON.parse(r.out) as Json).insights.map((i) => i.kind);
    expect(kinds).toContain('nodepool-invalid-payload');
    expect(kinds).not.toContain('nodepool-stuck-updating');
  });
});

describe('a hosted dump without its HostedCluster', () => {
  it('is one line naming the HostedCluster as missing, exit 2, never the standalone ClusterVersion hint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-nohc-'));
    try {
      cpSync(join(projectRoot, 'test/fixtures/hosted/replace-completed'), dir, { recursive: true });
      rmSync(join(dir, 'namespaces/clusters/hypershift.openshift.io/hostedclusters'), { recursive: true });
      const r = await cli.run('status', dir);
      expect(r.code).toBe(2);
      const err = cli.stderr().trim();
      expect(err.split('\n')).toHaveLength(1);
      expect(err).toContain('NodePools and no HostedCluster');
      expect(err).not.toContain('ClusterVersion');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an autoscaler scaling a NodePool after its rollout', () => {
  for (const [fixture, what] of [
    ['nodepool-scale-up', 'a Machine of the current template provisioning'],
    ['nodepool-scale-down', 'a Machine of the current template being deleted'],
  ] as const) {
    it(`${what}: not an update, and no "reports level while not rolled out" Error`, async () => {
      const r = await statusOf(`test/fixtures/hosted/${fixture}`, '-o', 'json');
      const json = JSON.parse(r.out) as Json & { updating: boolean };
      expect(json.state).toBe('idle');
      expect(json.updating).toBe(false);
      expect(json.insights.map((i) => i.kind)).not.toContain('nodepool-level-before-rollout');
    });
  }

  it('but a Machine of an older MachineSet left behind the claim is still the Error', async () => {
    const r = await statusOf('test/fixtures/hosted/ocpbugs-77922', '-o', 'json');
    const json = JSON.parse(r.out) as Json;
    expect(json.insights.map((i) => i.kind)).toContain('nodepool-level-before-rollout');
  });
});

describe('an InPlace NodePool (its own MachineSet, no MachineDeployment)', () => {
  it('rolling: its Machines are read, the two stamped with the target counted updated, the pool Progressing', async () => {
    const r = await statusOf('test/fixtures/hosted/inplace-rolling', '-o', 'json');
    const json = JSON.parse(r.out) as Json;
    expect(json.state).toBe('updating');
    expect(json.nodePools[0]).toMatchObject({ assessment: 'Progressing', updated: 2, total: 3 });
  });

  it('completed (the MachineSet at its target config): Completed, never Empty', async () => {
    const r = await statusOf('test/fixtures/hosted/inplace-completed', '-o', 'json');
    const json = JSON.parse(r.out) as Json;
    expect(json.state).toBe('idle');
    expect(json.nodePools[0]).toMatchObject({ assessment: 'Completed', updated: 3, total: 3 });
  });
});

describe('a hosted dump without the NodePool’s MachineDeployment', () => {
  it('the pool is Unknown with a note, never Empty (its Machines are there, not told apart)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-nomd-'));
    try {
      cpSync(join(projectRoot, 'test/fixtures/hosted/replace-completed'), dir, { recursive: true });
      rmSync(join(dir, 'namespaces/clusters-example/cluster.x-k8s.io/machinedeployments.yaml'));
      const r = await cli.run('status', dir, '-o', 'json');
      const json = JSON.parse(r.out) as Json & { notes: string[] };
      expect(json.nodePools[0]?.assessment).toBe('Unknown');
      expect(json.notes.join(' ')).toContain('its MachineDeployment is not in the inputs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
