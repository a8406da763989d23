import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MCO } from '../../src/model/objects.js';
import { specJson } from '../../src/sim/ignition.js';
import { type Cond, type MachineConfigObj, meta, type NodeObj, type PoolObj } from '../../src/sim/objects.js';
import { POLICIES } from '../../src/sim/policy.js';
import { calculateStatus, maxUnavailable, poolSummary, primaryPoolName } from '../../src/sim/pool-status.js';
import { buildRelease, changedComponents, controllerConfigImages } from '../../src/sim/release.js';
import { postConfigAction, RENDER_SALT, renderPool } from '../../src/sim/render.js';
import { builtinScenario } from '../../src/sim/scenario.js';
import { templateConfigs } from '../../src/sim/templates.js';

const seedScenario = builtinScenario('pause-image-only');
if (!seedScenario) throw new Error('built-in scenario missing');
const from = buildRelease(seedScenario.from);
const to = buildRelease(seedScenario.to);

function templates(role: string, release = from): MachineConfigObj[] {
  return templateConfigs({
    role,
    images: controllerConfigImages(release),
    osImageURL: release.osImageURL,
  }).map((t) => ({
    kind: 'MachineConfig',
    meta: meta(t.name, 0, {
      labels: { [MCO.role]: role },
      annotations: { [MCO.generatedByControllerVersion]: release.mcoCommit },
    }),
    owner: { kind: 'ControllerConfig', name: 'machine-config-controller' },
    spec: t.spec,
    contentKey: t.contentKey,
  }));
}

function rendered(role: string, release = from, annotations: Record<string, string> = {}): MachineConfigObj {
  const r = renderPool(role, templates(role, release), release.osImageURL);
  return {
    kind: 'MachineConfig',
    meta: meta(r.name, 0, {
      annotations: { [MCO.generatedByControllerVersion]: release.mcoCommit, ...annotations },
    }),
    owner: { kind: 'MachineConfigPool', name: role },
    spec: r.spec,
    contentKey: r.contentKey,
  };
}

describe('releases', () => {
  it('the seed scenario changes the pod image to the digest of bug 2019850 and keeps MCO and OS', () => {
    expect(from.byName.get('pod')?.pullSpec).toBe(
      'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639',
    );
    expect(to.byName.get('pod')?.pullSpec).toBe(
      'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb',
    );
    expect(to.mcoCommit).toBe(from.mcoCommit);
    expect(to.osImageURL).toBe(from.osImageURL);
    expect(changedComponents(from, to)).toContain('pod');
    expect(changedComponents(from, to)).not.toContain('machine-config-operator');
    expect(to.mcoCommit).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('templates and rendering', () => {
  it('puts the pause image in kubelet.service and CRI-O, the MCO image in the pull unit', () => {
    const [base, crio, kubelet] = templates('master');
    const pod = from.byName.get('pod')?.pullSpec as string;
    const unit = kubelet?.spec.config.units.find((u) => u.name === 'kubelet.service')?.contents ?? '';
    expect(unit).toContain(`--pod-infra-container-image=${pod} \\`);
    expect(unit).toContain('--register-with-taints=node-role.kubernetes.io/master=:NoSchedule');
    expect(
      crio?.spec.config.files.find((f) => f.path === '/etc/crio/crio.conf.d/00-default')?.contents,
    ).toContain(`pause_image = "${pod}"`);
    const pull =
      base?.spec.config.units.find((u) => u.name === 'machine-config-daemon-pull.service')?.contents ?? '';
    expect(pull).toContain(from.byName.get('machine-config-operator')?.pullSpec);
  });

  it('names a rendered config by the MD5 of its merged spec: 32 hex characters', () => {
    const r = renderPool('master', templates('master'), from.osImageURL);
    expect(r.name).toMatch(/^rendered-master-[0-9a-f]{32}$/);
    expect(r.source).toEqual(['00-master', '01-master-container-runtime', '01-master-kubelet']);
    expect(r.spec.osImageURL).toBe(from.osImageURL);
    // The hash covers the spec only: recomputing it from the spec's JSON gives the same name.
    const json = JSON.stringify(specJson(r.spec));
    const again = renderPool('master', templates('master'), from.osImageURL);
    expect(again.name).toBe(r.name);
    expect(r.name.slice(-32)).toBe(
      createHash('md5')
        .update(RENDER_SALT + json)
        .digest('hex'),
    );
  });

  it('a new pause image renders a new config whose application needs a reboot', () => {
    const a = rendered('master', from);
    const b = rendered('master', to);
    expect(b.meta.name).not.toBe(a.meta.name);
    expect(postConfigAction(a, b)).toBe('reboot');
    expect(postConfigAction(a, a)).toBe('none');
  });

  it('unrelated image changes leave the rendered name alone', () => {
    const churn = buildRelease({ ...seedScenario.from, revisions: { console: 3, cli: 2 } });
    expect(rendered('worker', churn).meta.name).toBe(rendered('worker', from).meta.name);
  });

  it('a registries.conf-only change reloads CRI-O instead of rebooting', () => {
    const a = rendered('worker');
    const files = a.spec.config.files.map((f) =>
      f.path === '/etc/containers/registries.conf' ? { ...f, contents: `${f.contents}# mirror\n` } : f,
    );
    const b: MachineConfigObj = {
      ...a,
      spec: { ...a.spec, config: { ...a.spec.config, files } },
      contentKey: 'changed-registries',
    };
    expect(postConfigAction(a, b)).toBe('reload-crio');
  });
});

function pool(name: string, current: MachineConfigObj, target = current, conds: Cond[] = []): PoolObj {
  return {
    kind: 'MachineConfigPool',
    meta: meta(name, 0, { generation: 2, labels: name === 'master' ? { [MCO.requiredForUpgrade]: '' } : {} }),
    paused: false,
    maxUnavailable: 1,
    nodeRole: name,
    mcRoles: [name],
    spec: {
      name: target.meta.name,
      source: ['00-master', '01-master-container-runtime', '01-master-kubelet'],
    },
    status: {
      observedGeneration: 2,
      configuration: {
        name: current.meta.name,
        source: ['00-master', '01-master-container-runtime', '01-master-kubelet'],
      },
      machineCount: 3,
      updatedMachineCount: 3,
      readyMachineCount: 3,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
      conditions: conds,
    },
  };
}

describe('validity policies (docs/domain.md 1.2)', () => {
  const lookup = (mcs: MachineConfigObj[]) => (name: string) => mcs.find((m) => m.meta.name === name);

  it('pre-fix-2021 accepts the stale master config when only the pause image changed (the bug)', () => {
    const old = rendered('master', from);
    const input = {
      pool: pool('master', old),
      controllerVersion: to.mcoCommit,
      releaseVersion: to.version,
      osImageURL: to.osImageURL,
      getMachineConfig: lookup([old, ...templates('master', to)]),
    };
    expect(POLICIES['pre-fix-2021'].validate(input)).toBeUndefined();
    expect(POLICIES.naive.validate(input)).toBeUndefined();
    expect(POLICIES.fixed.validate(input)).toBe(
      `Unable to access annotation machineconfiguration.openshift.io/release-image-version for ${old.meta.name} expected: ${to.version}`,
    );
  });

  it('fixed rejects a config stamped for the old release and accepts one stamped for the new', () => {
    const stale = rendered('master', from, { [MCO.releaseImageVersion]: from.version });
    const fresh = rendered('master', to, { [MCO.releaseImageVersion]: to.version });
    const base = { controllerVersion: to.mcoCommit, releaseVersion: to.version, osImageURL: to.osImageURL };
    expect(
      POLICIES.fixed.validate({
        ...base,
        pool: pool('master', stale),
        getMachineConfig: lookup([stale, ...templates('master', to)]),
      }),
    ).toBe(
      `release image version mismatch for master in ${stale.meta.name} expected: ${to.version} got: ${from.version}`,
    );
    expect(
      POLICIES.fixed.validate({
        ...base,
        pool: pool('master', fresh),
        getMachineConfig: lookup([fresh, ...templates('master', to)]),
      }),
    ).toBeUndefined();
  });

  it('pre-fix-2021 catches a new osImageURL and a new controller version', () => {
    const old = rendered('master', from);
    const osOnly = { ...from, osImageURL: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:newos' };
    expect(
      POLICIES['pre-fix-2021'].validate({
        pool: pool('master', old),
        controllerVersion: from.mcoCommit,
        releaseVersion: to.version,
        osImageURL: osOnly.osImageURL,
        getMachineConfig: lookup([old, ...templates('master', from)]),
      }),
    ).toBe(
      `osImageURL mismatch for master in ${old.meta.name} expected: ${osOnly.osImageURL} got: ${from.osImageURL}`,
    );
    const err = POLICIES['pre-fix-2021'].validate({
      pool: pool('master', old),
      controllerVersion: 'f'.repeat(40),
      releaseVersion: to.version,
      osImageURL: from.osImageURL,
      getMachineConfig: lookup([old, ...templates('master', from)]),
    });
    expect(err).toMatch(
      new RegExp(`^controller version mismatch for ${old.meta.name} expected f{40} has ${from.mcoCommit}: `),
    );
  });
});

function node(
  name: string,
  roles: string[],
  current: string,
  desired = current,
  extra: Partial<NodeObj> = {},
): NodeObj {
  return {
    kind: 'Node',
    meta: meta(name, 0),
    roles,
    zone: 'us-east-2a',
    currentConfig: current,
    desiredConfig: desired,
    state: 'Done',
    reason: '',
    unschedulable: false,
    ready: true,
    readySince: 0,
    updateTaint: false,
    osImage: '',
    kubeletVersion: '',
    ...extra,
  };
}

describe('pool status (docs/domain.md 2.2–2.4)', () => {
  const a = rendered('master', from);
  const b = rendered('master', to);

  it('flips to Updated=False/Updating=True as soon as the target moves, before any node is touched', () => {
    const p = pool('master', a, b);
    const nodes = [
      node('m0', ['master'], a.meta.name),
      node('m1', ['master'], a.meta.name),
      node('m2', ['master'], a.meta.name),
    ];
    const s = calculateStatus(p, nodes, 1000);
    expect([s.machineCount, s.updatedMachineCount, s.readyMachineCount, s.unavailableMachineCount]).toEqual([
      3, 0, 0, 0,
    ]);
    expect(s.conditions.find((c) => c.type === 'Updating')).toMatchObject({
      status: 'True',
      message: `All nodes are updating to ${b.meta.name}`,
    });
    expect(s.configuration.name).toBe(a.meta.name);
    expect(poolSummary({ ...p, status: s })).toBe(
      `0 (ready 0) out of 3 nodes are updating to latest configuration ${b.meta.name}`,
    );
  });

  it('moves status.configuration only when every node is updated and ready', () => {
    const p = pool('master', a, b);
    const done = [node('m0', ['master'], b.meta.name), node('m1', ['master'], b.meta.name)];
    const cordoned = node('m2', ['master'], b.meta.name, b.meta.name, { unschedulable: true });
    expect(calculateStatus(p, [...done, cordoned], 1).configuration.name).toBe(a.meta.name);
    const s = calculateStatus(p, [...done, node('m2', ['master'], b.meta.name)], 2);
    expect(s.configuration.name).toBe(b.meta.name);
    expect(s.conditions.find((c) => c.type === 'Updated')).toMatchObject({
      status: 'True',
      message: `All nodes are updated with ${b.meta.name}`,
    });
  });

  it('reports a degraded node and does not count it unavailable', () => {
    const p = pool('worker', a, b);
    const bad = node('w0', ['worker'], a.meta.name, b.meta.name, { state: 'Degraded', reason: 'boom' });
    const s = calculateStatus(p, [bad, node('w1', ['worker'], a.meta.name)], 5);
    expect(s.degradedMachineCount).toBe(1);
    expect(s.unavailableMachineCount).toBe(0);
    expect(s.conditions.find((c) => c.type === 'NodeDegraded')).toMatchObject({
      status: 'True',
      reason: '1 nodes are reporting degraded status on sync',
      message: 'Node w0 is reporting: "boom"',
    });
    expect(s.conditions.find((c) => c.type === 'Degraded')?.status).toBe('True');
  });

  it('paused pools say so instead of Updating', () => {
    const p = { ...pool('worker', a, b), paused: true };
    const s = calculateStatus(p, [node('w0', ['worker'], a.meta.name)], 5);
    expect(s.conditions.find((c) => c.type === 'Updating')).toMatchObject({
      status: 'False',
      message: `Pool is paused; will not update to ${b.meta.name}`,
    });
  });

  it('maxUnavailable: percentages round down, 0 becomes 1, the master pool keeps etcd quorum', () => {
    const p = pool('worker', a);
    expect(maxUnavailable({ ...p, maxUnavailable: '50%' }, 5)).toBe(2);
    expect(maxUnavailable({ ...p, maxUnavailable: '10%' }, 5)).toBe(1);
    expect(maxUnavailable({ ...p, maxUnavailable: 0 }, 5)).toBe(1);
    expect(maxUnavailable({ ...pool('master', a), maxUnavailable: 3 }, 3)).toBe(1);
    expect(maxUnavailable({ ...pool('master', a), maxUnavailable: 3 }, 5)).toBe(2);
  });

  it('a node in a custom pool belongs to it first, not to worker', () => {
    const pools = [pool('master', a), pool('worker', a), { ...pool('infra', a), nodeRole: 'infra' }];
    expect(primaryPoolName(node('i0', ['worker', 'infra'], ''), pools)).toBe('infra');
    expect(primaryPoolName(node('w0', ['worker'], ''), pools)).toBe('worker');
    expect(primaryPoolName(node('m0', ['master'], ''), pools)).toBe('master');
  });
});
