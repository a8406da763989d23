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

describe('an InPlace NodePool whose MachineSet target the in-place upgrader has not taken up', () => {
  const PENDING = 'test/fixtures/hosted/inplace-config-pending';
  type InPlaceJson = PoolJson & {
    nodePools: {
      updatingConfig: boolean | null;
      waiting: { inPlace: Record<string, string> | null } | null;
    }[];
  };

  it('a day-2 config change bumped on the MachineSet, no upgrader annotation, no Node given it: Pending and waiting', async () => {
    const r = await statusOf(PENDING, '-o', 'json');
    expect(r.code, cli.stderr()).toBe(0);
    const json = JSON.parse(r.out) as InPlaceJson;
    const pool = json.nodePools[0];
    expect(pool).toMatchObject({ assessment: 'Pending', updated: 0, total: 3, completionPercent: 0 });
    expect(pool?.waiting?.inPlace).toEqual({
      machineSet: 'example-workers',
      targetConfigVersion: '3f8a1b47',
      currentConfigVersion: '6b7c9d03',
    });
    expect(pool?.waiting?.conditions.map((c) => [c.type, c.status])).toEqual([['UpdatingConfig', 'True']]);
    expect(pool?.machines.map((m) => [m.assessment, m.phase, m.updated])).toEqual([
      ['Outdated', 'Pending', false],
      ['Outdated', 'Pending', false],
      ['Outdated', 'Pending', false],
    ]);
    expect(json.state).toBe('updating');
    // The version is not what changes: its Machines at 4.20.1 do not contradict the NodePool's 4.20.1.
    expect(json.insights.map((i) => i.kind)).not.toContain('nodepool-level-before-rollout');
  });

  it('text: the MachineSet target not taken up, each Machine waiting (golden)', async () => {
    const r = await statusOf(PENDING, '--width', '160');
    golden('hosted-inplace-config-pending.txt', r.out);
    expect(r.out).toMatch(/example-workers {2}InPlace {2}Pending/);
    expect(r.out).toContain('MachineSet example-workers targets config 3f8a1b47 and is on 6b7c9d03');
  });

  it('the upgrader at work (its MachineSet annotation, a Node given the target): Progressing, not waiting', async () => {
    await withEdited(
      PENDING,
      [
        {
          file: 'machinesets',
          from: "      hypershift.openshift.io/nodePoolMaxUnavailable: '1'\n",
          to: "      hypershift.openshift.io/nodePoolMaxUnavailable: '1'\n      hypershift.openshift.io/nodePoolUpgradeInProgressTrue: 'Updating version in progress. Target version: \"4.20.1\". Total Nodes: 3. Upgraded: 1'\n",
        },
        // One node done at the target, the next one given it and at work.
        { file: 'node11', from: /"6b7c9d03"/g, to: '"3f8a1b47"' },
        { file: 'node12', from: 'desiredConfig: "6b7c9d03"', to: 'desiredConfig: "3f8a1b47"' },
        { file: 'node12', from: 'state: "Done"', to: 'state: "Working"' },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as InPlaceJson;
        const pool = json.nodePools[0];
        expect(pool).toMatchObject({ assessment: 'Progressing', updated: 1, total: 3, waiting: null });
        expect(pool?.machines.map((m) => [m.assessment, m.phase])).toEqual([
          ['Completed', 'Updated'],
          ['Progressing', 'Updating'],
          ['Outdated', 'Pending'],
        ]);
      },
    );
  });

  it('the upgrader begun with no node changed yet (only its annotation): Progressing, not waiting', async () => {
    await withEdited(
      PENDING,
      [
        {
          file: 'nodepool',
          from: "message: 'Updating config in progress. Target config: 9d2e4f11'",
          to: 'message: \'Updating version in progress. Target version: "4.20.1". Total Nodes: 3. Upgraded: 0\'',
        },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as InPlaceJson;
        expect(json.nodePools[0]).toMatchObject({ assessment: 'Progressing', updated: 0, waiting: null });
      },
    );
  });

  it('--at before the snapshot: the MachineSet annotations are as last seen, so no waiting is claimed', async () => {
    // UpdatingConfig True since 11:50, the snapshot's last moment 12:00:05 (ValidGeneratedPayload).
    await withEdited(
      PENDING,
      [
        {
          file: 'nodepool',
          from: "- lastTransitionTime: '2026-11-20T12:00:05Z'",
          to: "- lastTransitionTime: '2026-11-20T11:50:00Z'",
        },
        {
          file: 'nodepool',
          from: "- lastTransitionTime: '2026-11-20T10:40:02Z'",
          to: "- lastTransitionTime: '2026-11-20T12:00:05Z'",
        },
      ],
      async (dir) => {
        const now = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as InPlaceJson;
        expect(now.nodePools[0]?.waiting?.inPlace).toMatchObject({ targetConfigVersion: '3f8a1b47' });
        const r = await cli.run('status', dir, '-o', 'json', '--at', '2026-11-20T11:55:00Z');
        const before = JSON.parse(r.out) as InPlaceJson;
        expect(before.nodePools[0]?.updatingConfig).toBe(true);
        expect(before.nodePools[0]?.waiting).toBeNull();
      },
    );
  });

  it('the rolling fixture keeps its output: the NodePool message carries the upgrader\'s "Total Nodes" (golden)', async () => {
    const r = await statusOf('test/fixtures/hosted/inplace-rolling', '--width', '160');
    golden('hosted-inplace-rolling.txt', r.out);
    const json = JSON.parse(
      (await statusOf('test/fixtures/hosted/inplace-rolling', '-o', 'json')).out,
    ) as InPlaceJson;
    expect(json.nodePools[0]).toMatchObject({ assessment: 'Progressing', updated: 2, waiting: null });
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

/** A copy of a hosted fixture whose HostedCluster (or NodePool) YAML is edited, removed after `body`. */
/** Other files of the hosted fixtures a test edits. */
const EDITABLE = {
  machinesets: 'namespaces/clusters-example/cluster.x-k8s.io/machinesets.yaml',
  node11: 'hostedcluster-example/cluster-scoped-resources/core/nodes/ip-10-0-1-11.ec2.internal.yaml',
  node12: 'hostedcluster-example/cluster-scoped-resources/core/nodes/ip-10-0-1-12.ec2.internal.yaml',
  node13: 'hostedcluster-example/cluster-scoped-resources/core/nodes/ip-10-0-1-13.ec2.internal.yaml',
  machines: 'namespaces/clusters-example/cluster.x-k8s.io/machines.yaml',
  machinedeployments: 'namespaces/clusters-example/cluster.x-k8s.io/machinedeployments.yaml',
} as const;

async function withEdited<T>(
  fixture: string,
  edits: {
    file: 'hostedcluster' | 'nodepool' | keyof typeof EDITABLE;
    from: string | RegExp;
    to: string;
  }[],
  body: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-hedit-'));
  try {
    cpSync(join(projectRoot, fixture), dir, { recursive: true });
    for (const e of edits) {
      const file = join(
        dir,
        e.file === 'hostedcluster'
          ? 'namespaces/clusters/hypershift.openshift.io/hostedclusters/example.yaml'
          : e.file === 'nodepool'
            ? 'namespaces/clusters/hypershift.openshift.io/nodepools/example-workers.yaml'
            : EDITABLE[e.file],
      );
      const before = readFileSync(file, 'utf8');
      const after = before.replace(e.from, e.to);
      expect(after, `edit ${String(e.from)} applies`).not.toBe(before);
      writeFileSync(file, after);
    }
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type RequestJson = {
  state: string;
  updating: boolean;
  request: {
    image: string;
    version: string | null;
    versionSource: string | null;
    fromVersion: string | null;
    started: boolean;
    componentsAtRequest: string[];
    conditions: {
      type: string;
      status: string;
      reason: string | null;
      message: string | null;
      since: string | null;
    }[];
  } | null;
  insights: { kind: string; level: string; message: string }[];
  notes: string[];
};

describe('a requested update that has not started (spec.release.image not in the histories)', () => {
  const BLOCKED = 'test/fixtures/hosted/update-blocked';

  it('says what was requested and the conditions that block it (golden text, exit 1)', async () => {
    const r = await statusOf(BLOCKED, '--width', '160');
    expect(r.code, cli.stderr()).toBe(1);
    golden('hosted-update-blocked.txt', r.out);
    expect(r.out).toContain('An update to 4.21.0 was requested (spec.release.image) and has not started.');
    expect(r.out).toContain('ClusterVersionUpgradeable=False (AdminAckRequired)');
  });

  it('JSON: request with the quoted conditions; state stays idle, as nothing is updating', async () => {
    const r = await statusOf(BLOCKED, '-o', 'json');
    const json = JSON.parse(r.out) as RequestJson;
    expect(json.state).toBe('idle');
    expect(json.updating).toBe(false);
    expect(json.request).toMatchObject({
      image: 'quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64',
      version: '4.21.0',
      versionSource: 'tag',
      fromVersion: '4.20.1',
      started: false,
      componentsAtRequest: [],
    });
    expect(json.request?.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['ClusterVersionUpgradeable', 'False', 'AdminAckRequired'],
      ['Progressing', 'False', 'Blocked'],
    ]);
    expect(json.request?.conditions[0]?.since).toBe('2026-11-20T11:48:31Z');
    const insight = json.insights.find((i) => i.kind === 'update-not-accepted');
    expect(insight).toMatchObject({ level: 'Error' });
    expect(insight?.message).toContain('ClusterVersionUpgradeable=False (AdminAckRequired)');
  });

  it('nothing saying why: a Warning that it has not started, exit 0', async () => {
    await withEdited(
      BLOCKED,
      [
        { file: 'hostedcluster', from: '"Blocked"', to: '"AsExpected"' },
        {
          file: 'hostedcluster',
          from: /status: "False"\n {4}type: "ClusterVersionUpgradeable"/,
          to: 'status: "True"\n    type: "ClusterVersionUpgradeable"',
        },
      ],
      async (dir) => {
        const r = await cli.run('status', dir, '-o', 'json');
        expect(r.code, cli.stderr()).toBe(0);
        const json = JSON.parse(r.out) as RequestJson;
        expect(json.request?.conditions).toEqual([]);
        expect(json.insights.find((i) => i.kind === 'update-not-accepted')).toMatchObject({
          level: 'Warning',
        });
      },
    );
  });

  it('a z-stream request is not held back by ClusterVersionUpgradeable=False: that condition is not quoted', async () => {
    await withEdited(
      BLOCKED,
      [
        { file: 'hostedcluster', from: 'ocp-release:4.21.0-x86_64', to: 'ocp-release:4.20.2-x86_64' },
        { file: 'hostedcluster', from: '"Blocked"', to: '"AsExpected"' },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as RequestJson;
        expect(json.request?.version).toBe('4.20.2');
        expect(json.request?.conditions.map((c) => c.type)).not.toContain('ClusterVersionUpgradeable');
      },
    );
  });

  it('an invalid release image is quoted; a digest names no version', async () => {
    await withEdited(
      BLOCKED,
      [
        {
          file: 'hostedcluster',
          from: 'ocp-release:4.21.0-x86_64',
          to: 'ocp-release@sha256:0b1c3a5d7e9f2b4c6a8d0e1f3e7b9f1c5a2d8e4f6b0c9a7d1e3f5b8c2a4d6e9f',
        },
        {
          file: 'hostedcluster',
          from: '"Release image is valid"\n    observedGeneration: 5\n    reason: "AsExpected"\n    status: "True"',
          to: '"failed to lookup release image: manifest unknown"\n    observedGeneration: 5\n    reason: "InvalidImage"\n    status: "False"',
        },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as RequestJson;
        expect(json.request?.version).toBeNull();
        expect(json.request?.conditions[0]).toMatchObject({
          type: 'ValidReleaseImage',
          reason: 'InvalidImage',
        });
      },
    );
  });

  it('a digest the NodePool controller resolved: the version is its UpdatingVersion target, and the pool waits', async () => {
    const digest = 'ocp-release@sha256:7d1e3f5b8c2a4d6e9f0b1c3a5d7e9f2b4c6a8d0e1f3e7b9f1c5a2d8e4f6b0c9a';
    await withEdited(
      BLOCKED,
      [
        { file: 'hostedcluster', from: 'ocp-release:4.21.0-x86_64', to: digest },
        { file: 'nodepool', from: 'ocp-release:4.20.1-x86_64', to: digest },
        {
          file: 'nodepool',
          from: /- lastTransitionTime: "[^"]+"\n {4}message: ""\n {4}reason: "AsExpected"\n {4}status: "False"\n {4}type: "UpdatingVersion"/,
          to: '- lastTransitionTime: "2026-11-20T12:04:30Z"\n    message: "Updating version in progress. Target version: 4.21.0"\n    reason: "AsExpected"\n    status: "True"\n    type: "UpdatingVersion"',
        },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as RequestJson & PoolJson;
        expect(json.request).toMatchObject({ version: '4.21.0', versionSource: 'nodePool' });
        expect(json.nodePools[0]).toMatchObject({ assessment: 'Pending', updated: 0 });
      },
    );
  });

  it('none when the spec names the release the histories hold', async () => {
    const json = JSON.parse(
      (await statusOf('test/fixtures/hosted/replace-completed', '-o', 'json')).out,
    ) as RequestJson;
    expect(json.request).toBeNull();
    expect(json.insights.map((i) => i.kind)).not.toContain('update-not-accepted');
  });

  it('a component already at the requested release: begun, the hosted cluster updating, no stall raised', async () => {
    const r = await statusOf('test/fixtures/hosted/controlplane-update-requested', '-o', 'json');
    const json = JSON.parse(r.out) as RequestJson;
    expect(json.request).toMatchObject({
      version: '4.20.2',
      started: true,
      componentsAtRequest: ['kube-apiserver'],
    });
    expect(json.state).toBe('updating');
    expect(json.insights.map((i) => i.kind)).not.toContain('update-not-accepted');
  });

  it('--at before the snapshot: the spec is as last seen, so no request is claimed, a note says why', async () => {
    const r = await statusOf(BLOCKED, '-o', 'json', '--at', '2026-11-20T10:20:00Z');
    const json = JSON.parse(r.out) as RequestJson;
    expect(json.request).toBeNull();
    expect(json.insights.map((i) => i.kind)).not.toContain('update-not-accepted');
    expect(json.notes.join(' ')).toContain(
      'whether that update had been requested at this moment is not known',
    );
  });
});

describe('spec.controlPlaneRelease: the control plane runs it, the data plane follows spec.release', () => {
  const AHEAD = 'test/fixtures/hosted/controlplane-release-ahead';
  type FieldJson = RequestJson & { request: { field: string } | null };

  it('the control plane at controlPlaneRelease, spec.release.image older: no request, not updating (golden text)', async () => {
    const r = await statusOf(AHEAD, '--width', '160');
    expect(r.code, cli.stderr()).toBe(0);
    golden('hosted-controlplane-release-ahead.txt', r.out);
    expect(r.out).not.toContain('was requested');
    const json = JSON.parse((await statusOf(AHEAD, '-o', 'json')).out) as FieldJson;
    expect(json.request).toBeNull();
    expect(json.state).toBe('idle');
    expect(json.insights.map((i) => i.kind)).not.toContain('update-not-accepted');
  });

  it('controlPlaneRelease changed: requested and not started, named by that field, and forced past Upgradeable=False', async () => {
    await withEdited(
      AHEAD,
      [
        {
          file: 'hostedcluster',
          from: 'controlPlaneRelease:\n    image: "quay.io/openshift-release-dev/ocp-release:4.20.2-x86_64"',
          to: 'controlPlaneRelease:\n    image: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64"',
        },
        {
          file: 'hostedcluster',
          from: '  conditions:\n',
          to: '  conditions:\n  - lastTransitionTime: "2026-11-25T10:00:00Z"\n    message: "Kubernetes 1.34 removes APIs still in use"\n    reason: "AdminAckRequired"\n    status: "False"\n    type: "ClusterVersionUpgradeable"\n',
        },
      ],
      async (dir) => {
        const r = await cli.run('status', dir, '--width', '160');
        expect(r.out).toContain(
          'An update to 4.21.0 was requested (spec.controlPlaneRelease.image) and has not started.',
        );
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as FieldJson;
        expect(json.request).toMatchObject({
          image: 'quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64',
          field: 'spec.controlPlaneRelease.image',
          version: '4.21.0',
          fromVersion: '4.20.2',
        });
        // hypershift's isUpgrading counts a set controlPlaneRelease as a forced update.
        expect(json.request?.conditions.map((c) => c.type)).not.toContain('ClusterVersionUpgradeable');
        const insight = json.insights.find((i) => i.kind === 'update-not-accepted');
        expect(insight?.message).toContain('Update to 4.21.0 was requested but has not started');
      },
    );
  });

  it('spec.release.image changed with controlPlaneRelease at level: the data plane’s release, not a control-plane request', async () => {
    await withEdited(
      AHEAD,
      [
        {
          file: 'hostedcluster',
          from: 'release:\n    image: "quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64"',
          to: 'release:\n    image: "quay.io/openshift-release-dev/ocp-release:4.20.3-x86_64"',
        },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as FieldJson;
        expect(json.request).toBeNull();
      },
    );
  });

  it('without controlPlaneRelease the field is spec.release.image', async () => {
    const json = JSON.parse(
      (await statusOf('test/fixtures/hosted/update-blocked', '-o', 'json')).out,
    ) as FieldJson;
    expect(json.request?.field).toBe('spec.release.image');
  });
});

type PoolJson = {
  state: string;
  nodePools: {
    assessment: string;
    updated: number;
    total: number;
    completionPercent: number;
    waiting: {
      message: string;
      conditions: { type: string; status: string; reason: string | null }[];
    } | null;
    machines: { assessment: string; phase: string; updated: boolean; message: string }[];
  }[];
  insights: { kind: string }[];
};

describe('a NodePool waiting to begin its rollout is never Completed', () => {
  it('a config change whose payload failed: Pending at 0%, its Machines Outdated, the conditions quoted', async () => {
    const r = await statusOf('test/fixtures/hosted/nodepool-payload-pending', '-o', 'json');
    const json = JSON.parse(r.out) as PoolJson;
    const pool = json.nodePools[0];
    expect(pool).toMatchObject({ assessment: 'Pending', updated: 0, total: 3, completionPercent: 0 });
    expect(pool?.waiting?.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['UpdatingConfig', 'True', 'AsExpected'],
      ['ValidGeneratedPayload', 'False', 'InvalidConfig'],
    ]);
    expect(pool?.machines.map((m) => [m.assessment, m.phase, m.updated])).toEqual([
      ['Outdated', 'Pending', false],
      ['Outdated', 'Pending', false],
      ['Outdated', 'Pending', false],
    ]);
    expect(json.state).toBe('updating');
    // The version is not what changes: no "reports level before its Machines" Error.
    expect(json.insights.map((i) => i.kind)).not.toContain('nodepool-level-before-rollout');
  });

  it('text: the pool Pending and why, each Machine waiting (golden)', async () => {
    const r = await statusOf('test/fixtures/hosted/nodepool-payload-pending', '--width', '160');
    golden('hosted-nodepool-payload-pending.txt', r.out);
    expect(r.out).toMatch(/example-workers {2}Replace {2}Pending/);
  });

  it('UpdatingVersion=True with the template unchanged since, no invalid payload: Pending, never Completed', async () => {
    await withEdited(
      'test/fixtures/hosted/replace-completed',
      [
        { file: 'nodepool', from: /ocp-release:4\.20\.1-x86_64/, to: 'ocp-release:4.20.2-x86_64' },
        {
          file: 'nodepool',
          from: /- lastTransitionTime: "[^"]+"\n {4}message: ""\n {4}reason: "AsExpected"\n {4}status: "False"\n {4}type: "UpdatingVersion"/,
          to: '- lastTransitionTime: "2026-11-20T12:00:00Z"\n    message: "Updating version in progress. Target version: 4.20.2"\n    reason: "AsExpected"\n    status: "True"\n    type: "UpdatingVersion"',
        },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as PoolJson;
        expect(json.nodePools[0]).toMatchObject({ assessment: 'Pending', updated: 0 });
        expect(json.nodePools[0]?.machines.every((m) => m.message.startsWith('At 4.20.1, not 4.20.2'))).toBe(
          true,
        );
      },
    );
  });

  it('a release image no history names, its UpdatingVersion older than the spec: Unknown, never Completed', async () => {
    await withEdited(
      'test/fixtures/hosted/replace-completed',
      [
        {
          file: 'nodepool',
          from: /ocp-release:4\.20\.1-x86_64/,
          to: 'ocp-release@sha256:5b8c2a4d6e9f0b1c3a5d7e9f2b4c6a8d0e1f3e7b9f1c5a2d8e4f6b0c9a7d1e3f',
        },
        { file: 'nodepool', from: '  generation: 3\n', to: '  generation: 4\n' },
        {
          file: 'nodepool',
          from: 'status: "False"\n    type: "UpdatingVersion"',
          to: 'status: "False"\n    observedGeneration: 3\n    type: "UpdatingVersion"',
        },
      ],
      async (dir) => {
        const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as PoolJson;
        expect(json.nodePools[0]).toMatchObject({ assessment: 'Unknown', updated: 0 });
        expect(json.nodePools[0]?.machines[0]?.message).toContain('At 4.20.1; whether that is');
      },
    );
  });

  it('paused with its release bumped: Excluded, and why it has not begun is said', async () => {
    const json = JSON.parse(
      (await statusOf('test/fixtures/hosted/nodepool-paused', '-o', 'json')).out,
    ) as PoolJson;
    expect(json.nodePools[0]).toMatchObject({ assessment: 'Excluded', updated: 0 });
    expect(json.nodePools[0]?.waiting?.conditions.map((c) => c.type)).toEqual([
      'UpdatingVersion',
      'ReconciliationActive',
    ]);
  });

  it('a completed pool is still Completed, with no waiting', async () => {
    for (const f of ['replace-completed', 'inplace-completed']) {
      const json = JSON.parse((await statusOf(`test/fixtures/hosted/${f}`, '-o', 'json')).out) as PoolJson;
      expect(json.nodePools[0]).toMatchObject({ assessment: 'Completed', waiting: null });
    }
  });
});

describe('partial inputs: a HostedCluster whose NodePools were not gathered', () => {
  it('its Machines name a NodePool the inputs lack: never "no NodePools", the data plane said unknown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-nonp-'));
    try {
      cpSync(join(projectRoot, 'test/fixtures/hosted/replace-completed'), dir, { recursive: true });
      rmSync(join(dir, 'namespaces/clusters/hypershift.openshift.io/nodepools'), { recursive: true });
      const text = (await cli.run('status', dir)).out;
      expect(text).not.toContain('The hosted cluster is not updating');
      expect(text).not.toContain('No NodePools found');
      expect(text).toContain('whether the data plane updates is not known');
      const json = JSON.parse((await cli.run('status', dir, '-o', 'json')).out) as {
        nodePools: unknown[];
        nodePoolsNotRead: string[];
        notes: string[];
      };
      expect(json.nodePools).toEqual([]);
      expect(json.nodePoolsNotRead).toEqual(['clusters/example-workers']);
      expect(json.notes.join(' ')).toContain('not in the inputs (clusters/example-workers)');
    } finally {
      rmSync(join(dir), { recursive: true, force: true });
    }
  });

  it('a hosted cluster with no workers at all (no NodePool, no Machine, no guest Node) still reads "No NodePools found"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-nowk-'));
    try {
      cpSync(join(projectRoot, 'test/fixtures/hosted/replace-completed'), dir, { recursive: true });
      for (const d of [
        'namespaces/clusters/hypershift.openshift.io/nodepools',
        'namespaces/clusters-example/cluster.x-k8s.io',
        'hostedcluster-example/cluster-scoped-resources/core',
      ])
        rmSync(join(dir, d), { recursive: true });
      const r = await cli.run('status', dir, '-o', 'json');
      const json = JSON.parse(r.out) as { nodePoolsNotRead: string[]; state: string };
      expect(json.nodePoolsNotRead).toEqual([]);
      expect((await cli.run('status', dir)).out).toContain('No NodePools found for this hosted cluster.');
    } finally {
      rmSync(join(dir), { recursive: true, force: true });
    }
  });
});

describe('several updates in the history, the previous one superseded before it completed', () => {
  const SUPERSEDED = 'test/fixtures/hosted/update-superseded';
  type CpJson = {
    state: string;
    currentVersion: string | null;
    request: unknown;
    controlPlane: {
      targetVersion: string;
      previousVersion: string | null;
      previousPartial: boolean;
      state: string;
    };
  };

  it('"from incomplete 4.20.1": never as if the control plane had run 4.20.1', async () => {
    const r = await statusOf(SUPERSEDED);
    expect(r.out).toContain('Target Version:  4.20.2 (from incomplete 4.20.1)');
    const json = JSON.parse((await statusOf(SUPERSEDED, '-o', 'json')).out) as CpJson;
    expect(json.controlPlane).toMatchObject({
      targetVersion: '4.20.2',
      previousVersion: '4.20.1',
      previousPartial: true,
    });
    expect(json.currentVersion).toBe('4.19.12');
    expect(json.state).toBe('updating');
    expect(json.request).toBeNull();
  });

  it('--at during the superseded update: its entry is the target, the one before it Completed', async () => {
    const json = JSON.parse(
      (await statusOf(SUPERSEDED, '-o', 'json', '--at', '2026-11-20T10:15:00Z')).out,
    ) as CpJson;
    expect(json.controlPlane).toMatchObject({
      targetVersion: '4.20.1',
      previousVersion: '4.19.12',
      previousPartial: false,
      state: 'Partial',
    });
    expect(json.request).toBeNull();
  });
});

describe('an InPlace upgrade the in-place upgrader stopped at a degraded node', () => {
  const DEGRADED = 'test/fixtures/hosted/inplace-degraded';
  type FailedJson = Omit<Json, 'insights'> & {
    insights: {
      kind: string;
      level: string;
      message: string;
      description: string;
      objects: { kind: string; name: string }[];
    }[];
  };
  const failedOf = (json: FailedJson) => json.insights.filter((i) => i.kind === 'nodepool-inplace-failed');

  it('an Error naming the NodePool, MachineSet, Machine and Node with the daemon’s reason; the pool Degraded, still updating (exit 1)', async () => {
    const r = await statusOf(DEGRADED, '-o', 'json');
    expect(r.code, cli.stderr()).toBe(1);
    const json = JSON.parse(r.out) as FailedJson;
    const [i, ...more] = failedOf(json);
    expect(more).toEqual([]);
    expect(i).toMatchObject({
      level: 'Error',
      message:
        'In-place upgrade of NodePool example-workers cannot proceed: Node ip-10-0-1-13.ec2.internal (Machine example-workers-6b7c9d03-klmno) is degraded',
    });
    expect(i?.objects.map((o) => `${o.kind}/${o.name}`)).toEqual([
      'NodePool/example-workers',
      'MachineSet/example-workers',
      'Machine/example-workers-6b7c9d03-klmno',
      'Node/ip-10-0-1-13.ec2.internal',
    ]);
    expect(i?.description).toContain('content mismatch for file "/etc/chrony.conf"');
    expect(i?.description).toContain('targets config 6b7c9d03 and is on 5f4a8c21, 2 of 3 Machines updated');
    expect(json.nodePools[0]).toMatchObject({ assessment: 'Degraded', updated: 2, total: 3 });
    expect(json.nodePools[0]?.machines.map((m) => [m.name, m.assessment])).toEqual([
      ['example-workers-6b7c9d03-abcde', 'Completed'],
      ['example-workers-6b7c9d03-fghij', 'Completed'],
      ['example-workers-6b7c9d03-klmno', 'Degraded'],
    ]);
    // A Degraded pool of an update is still an update in progress, not idle.
    expect(json.state).toBe('updating');
  });

  it('without the guest (no Node read), the upgrader’s own words name the node and the reason', async () => {
    await withEdited(DEGRADED, [], async (dir) => {
      rmSync(join(dir, 'hostedcluster-example'), { recursive: true, force: true });
      const json = JSON.parse((await statusOf(dir, '-o', 'json')).out) as FailedJson;
      const [i] = failedOf(json);
      expect(i?.message).toContain(
        'Node ip-10-0-1-13.ec2.internal (Machine example-workers-6b7c9d03-klmno) is degraded',
      );
      expect(i?.description).toContain(
        'reports Degraded: unexpected on-disk state validating against 6b7c9d03',
      );
    });
  });

  it('rewound (--at) before the snapshot, claims nothing: the annotations are as last seen, the condition’s reason not known', async () => {
    // UpdatingVersion stays False when the failure clears (its reason turns AsExpected without a
    // transition), so a rewound False with no reason says nothing of the upgrader.
    const r = await statusOf(DEGRADED, '--at', '2026-11-20T11:10:00Z', '-o', 'json');
    expect(failedOf(JSON.parse(r.out) as FailedJson)).toEqual([]);
  });

  it('a MachineSet at its target config is done: a Degraded node then is no upgrade failure (no Error)', async () => {
    await withEdited(
      DEGRADED,
      [
        {
          file: 'machinesets',
          from: 'nodePoolCurrentConfigVersion: 5f4a8c21',
          to: 'nodePoolCurrentConfigVersion: 6b7c9d03',
        },
        { file: 'nodepool', from: 'reason: InplaceUpgradeFailed', to: 'reason: AsExpected' },
      ],
      async (dir) => {
        const r = await statusOf(dir, '-o', 'json');
        const json = JSON.parse(r.out) as FailedJson;
        expect(failedOf(json)).toEqual([]);
        expect(json.insights.filter((i) => i.level === 'Error')).toEqual([]);
      },
    );
  });

  it('the upgrader at work with every node healthy: no Error (the inplace-rolling shape)', async () => {
    const json = JSON.parse(
      (await statusOf('test/fixtures/hosted/inplace-rolling', '-o', 'json')).out,
    ) as FailedJson;
    expect(failedOf(json)).toEqual([]);
  });
});

describe('a Replace rollout whose new template was never taken up', () => {
  const NOT_STARTED = 'test/fixtures/hosted/nodepool-rollout-not-started';
  type NotStartedJson = Omit<Json, 'insights'> & {
    insights: { kind: string; level: string; message: string; description: string; since: string | null }[];
    notes: string[];
  };
  const notStartedOf = (json: NotStartedJson) =>
    json.insights.filter((i) => i.kind === 'nodepool-rollout-not-started');
  const run = async (dir: string, ...args: string[]) =>
    JSON.parse((await statusOf(dir, '-o', 'json', ...args)).out) as NotStartedJson;

  it('no Machine of the new template became a Node 40 minutes after its MachineSet was made: a Warning naming why (exit 0)', async () => {
    const r = await statusOf(NOT_STARTED, '-o', 'json');
    expect(r.code, cli.stderr()).toBe(0);
    const [i, ...more] = notStartedOf(JSON.parse(r.out) as NotStartedJson);
    expect(more).toEqual([]);
    expect(i).toMatchObject({
      level: 'Warning',
      since: '2026-11-20T12:00:30Z',
      message:
        'The rollout of NodePool example-workers has not started: no Machine of its new template has become a Node in 40m',
    });
    expect(i?.description).toContain('InfrastructureReady=False (InstanceProvisionFailed)');
    expect(i?.description).toContain('3 Machines of older MachineSets remain');
  });

  it('within hypershift’s 20-minute node startup time (--at 12:15), a rollout under way: no Warning', async () => {
    expect(notStartedOf(await run(NOT_STARTED, '--at', '2026-11-20T12:15:00Z'))).toEqual([]);
  });

  it('past them (--at 12:25), before the Machine in the inputs was made: the Warning, never “none was created”', async () => {
    const [i] = notStartedOf(await run(NOT_STARTED, '--at', '2026-11-20T12:25:00Z'));
    expect(i?.message).toContain('no Machine of its new template has become a Node in 24m');
    expect(i?.description).toContain(
      'The inputs hold no Machine of MachineSet example-workers-9e3b7a15 (one made and deleted since is recorded nowhere)',
    );
  });

  it('a step taken (the new Machine a Node, or an old Machine being deleted): no Warning', async () => {
    await withEdited(
      NOT_STARTED,
      [
        {
          file: 'machines',
          from: '    phase: "Provisioning"\n',
          to: '    phase: "Running"\n    nodeRef:\n      kind: "Node"\n      name: "ip-10-0-1-14.ec2.internal"\n',
        },
      ],
      async (dir) => expect(notStartedOf(await run(dir))).toEqual([]),
    );
    await withEdited(
      NOT_STARTED,
      [
        {
          file: 'machines',
          from: '    creationTimestamp: "2026-11-20T10:41:05Z"\n',
          to: '    creationTimestamp: "2026-11-20T10:41:05Z"\n    deletionTimestamp: "2026-11-20T12:30:00Z"\n',
        },
      ],
      async (dir) => expect(notStartedOf(await run(dir))).toEqual([]),
    );
  });

  it('a paused MachineDeployment with no MachineSet of its template: a Warning saying so, whatever the time', async () => {
    await withEdited(
      NOT_STARTED,
      [
        {
          file: 'machinedeployments',
          from: '    replicas: 3\n    minReadySeconds',
          to: '    replicas: 3\n    paused: true\n    minReadySeconds',
        },
      ],
      async (dir) => {
        // Cluster API makes no MachineSet for a paused MachineDeployment: drop the new one and its Machine.
        const cut = (file: string, item: string, list: string) => {
          const text = readFileSync(join(dir, file), 'utf8');
          writeFileSync(join(dir, file), `${text.slice(0, text.indexOf(item))}kind: "${list}"\n`);
        };
        cut(
          EDITABLE.machinesets,
          '- apiVersion: "cluster.x-k8s.io/v1beta1"\n  kind: "MachineSet"\n  metadata:\n    name: "example-workers-9e3b7a15"',
          'MachineSetList',
        );
        cut(
          EDITABLE.machines,
          '- apiVersion: "cluster.x-k8s.io/v1beta1"\n  kind: "Machine"\n  metadata:\n    name: "example-workers-9e3b7a15-xk2lm"',
          'MachineList',
        );
        const [i] = notStartedOf(await run(dir));
        expect(i?.message).toBe(
          'The rollout of NodePool example-workers has not started: MachineDeployment example-workers is paused (spec.paused)',
        );
      },
    );
  });

  it('no Warning on the rollouts that took their steps (replace-completed, ocpbugs-77922, ocpbugs-92013, scale up/down, paused NodePool, payload pending)', async () => {
    for (const f of [
      'replace-completed',
      'ocpbugs-77922',
      'ocpbugs-92013',
      'nodepool-scale-up',
      'nodepool-scale-down',
      'nodepool-paused',
      'nodepool-payload-pending',
    ]) {
      expect(notStartedOf(await run(`test/fixtures/hosted/${f}`)), f).toEqual([]);
    }
  });

  it('the Machines missing from the inputs: not known, said in a note, never a Warning', async () => {
    await withEdited(NOT_STARTED, [], async (dir) => {
      rmSync(join(dir, EDITABLE.machines));
      const json = await run(dir);
      expect(notStartedOf(json)).toEqual([]);
      expect(json.notes.join('\n')).toContain(
        'its MachineDeployment counts 4 Machines and the inputs hold none of them (namespace clusters-example): its Machines, and whether its rollout has started, are not known',
      );
    });
  });
});

describe('an InPlace MachineSet target the in-place upgrader never took up', () => {
  const PENDING = 'test/fixtures/hosted/inplace-config-pending';
  type KindsJson = { insights: { kind: string; level: string; message: string }[] };
  const untakenOf = (out: string) =>
    (JSON.parse(out) as KindsJson).insights.filter((i) => i.kind === 'nodepool-rollout-not-started');
  // The snapshot's moment moved to 12:30:00 (a later NodePool condition change), 30 minutes after
  // UpdatingConfig=True.
  const later = [{ file: 'nodepool' as const, from: "'2026-11-20T11:02:10Z'", to: "'2026-11-20T12:30:00Z'" }];

  it('at the snapshot of the change (12:00:05) it is waiting, no Warning', async () => {
    expect(untakenOf((await statusOf(PENDING, '-o', 'json')).out)).toEqual([]);
  });

  it('30 minutes later with none of the upgrader’s marks: a Warning naming the MachineSet and its target', async () => {
    await withEdited(PENDING, later, async (dir) => {
      const r = await statusOf(dir, '-o', 'json');
      expect(r.code, cli.stderr()).toBe(0);
      expect(untakenOf(r.out)).toEqual([
        expect.objectContaining({
          level: 'Warning',
          message:
            "The rollout of NodePool example-workers has not started: the in-place upgrader has not taken up MachineSet example-workers's target config 3f8a1b47 in 29m",
        }),
      ]);
    });
  });

  it('the same 30 minutes with the upgrader at work (its annotation): no Warning', async () => {
    await withEdited(
      PENDING,
      [
        ...later,
        {
          file: 'machinesets',
          from: "      hypershift.openshift.io/nodePoolMaxUnavailable: '1'\n",
          to: "      hypershift.openshift.io/nodePoolMaxUnavailable: '1'\n      hypershift.openshift.io/nodePoolUpgradeInProgressTrue: 'Total Nodes: 3. Upgraded: 0'\n",
        },
      ],
      async (dir) => expect(untakenOf((await statusOf(dir, '-o', 'json')).out)).toEqual([]),
    );
  });
});
