/**
 * HyperShift (docs/hosted.md): the hypershift dump layout with the management cluster and the guest
 * kept apart, the seven kinds on the timeline and rewound, the three rules on the four rebuilt dumps
 * of test/fixtures/hosted/ (README there) and on variants of them that a false verdict would hide in
 * (a partial dump, no v1beta2 counts, a scale-up, InPlace, a config rollout after completion), and
 * real kubectl against serve of a dump.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { checkInvariants } from '../../src/invariants/index.js';
import { type ClusterHistory, type HistoryParts, InputError } from '../../src/model/index.js';
import { type RunningServer, startServer } from '../../src/serve/index.js';
import { loadHistoryParts, readServedExtras } from '../../src/sources/index.js';
import { planFiles } from '../../src/sources/layout.js';
import { buildHistory, objectsAt } from '../../src/timeline/index.js';
import { describeKubectl, kubectl } from '../serve/helpers.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'hosted');
const dump = (name: string) => join(FIXTURES, name);

async function partsOf(name: string): Promise<HistoryParts> {
  return loadHistoryParts([dump(name)], { now: Date.now() });
}

async function historyOf(name: string): Promise<ClusterHistory> {
  return buildHistory(await partsOf(name));
}

/** The parts with the objects changed by `edit` (on a deep copy). */
async function variant(name: string, edit: (o: HistoryParts['objects']) => void): Promise<ClusterHistory> {
  const parts = await partsOf(name);
  const objects = structuredClone(parts.objects);
  edit(objects);
  return buildHistory({ ...parts, objects });
}

function outcome(h: ClusterHistory, id: string) {
  const o = checkInvariants(h, [id])[0];
  if (!o) throw new Error(`no outcome for ${id}`);
  return o;
}

describe('the hypershift dump layout', () => {
  it('claims the management files and the guest files apart, and covers what it does not read', () => {
    const plan = planFiles([
      'namespaces/clusters/hypershift.openshift.io/hostedclusters/example.yaml',
      'namespaces/clusters-example/cluster.x-k8s.io/machines.yaml',
      'namespaces/clusters-example/core/pods/logs/kube-apiserver-0-kube-apiserver.log',
      'cluster-scoped-resources/core/nodes/mgmt-master-0.yaml',
      'hostedcluster-example/cluster-scoped-resources/core/nodes/ip-10-0-1-11.ec2.internal.yaml',
      'hostedcluster-example/namespaces/openshift-dns/apps/daemonsets.yaml',
      'network_logs/ovnkube-master-0_OVN_Northbound_status',
    ]);
    expect(plan.layouts).toEqual(['hypershift dump']);
    const spec = (rel: string) => plan.files.find((f) => f.rel === rel)?.spec;
    expect(spec('cluster-scoped-resources/core/nodes/mgmt-master-0.yaml')).toEqual({ reader: 'must-gather' });
    expect(
      spec('hostedcluster-example/cluster-scoped-resources/core/nodes/ip-10-0-1-11.ec2.internal.yaml'),
    ).toEqual({
      reader: 'must-gather',
      guest: 'example',
    });
    expect(spec('hostedcluster-example/namespaces/openshift-dns/apps/daemonsets.yaml')).toMatchObject({
      guest: 'example',
    });
    // Known and not read: no later layout reads them as oc get files.
    expect(plan.ignored).toEqual([
      'namespaces/clusters-example/core/pods/logs/kube-apiserver-0-kube-apiserver.log',
      'network_logs/ovnkube-master-0_OVN_Northbound_status',
    ]);
    expect(plan.files).toHaveLength(5);
  });

  it('keeps the guest a cluster of its own: its Nodes are never the management cluster’s', async () => {
    const h = await historyOf('ocpbugs-77922');
    expect(h.objects.nodes.map((n) => n.object.metadata.name).sort()).toEqual([
      'mgmt-master-0',
      'mgmt-master-1',
      'mgmt-master-2',
    ]);
    expect(h.objects.clusterOperators).toEqual([]);
    expect(h.objects.nodePools).toHaveLength(1);
    expect(h.objects.machines).toHaveLength(4);
    expect(h.guests?.map((g) => g.name)).toEqual(['example']);
    const guest = h.guests?.[0]?.history;
    expect(guest?.objects.nodes).toHaveLength(4);
    expect(guest?.objects.clusterOperators).toHaveLength(5);
    expect(guest?.objects.nodePools).toEqual([]);
    expect(guest?.objects.machines).toEqual([]);
  });

  it('a broken NodePool file of a dump is one clear error naming the file, as for any input', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'atlevel-hosted-'));
    try {
      cpSync(dump('ocpbugs-77922'), tmp, { recursive: true });
      const file = join(tmp, 'namespaces/clusters/hypershift.openshift.io/nodepools/example-workers.yaml');
      writeFileSync(file, 'kind: NodePool\nmetadata:\n  name: x\nstatus:\n  version: [\n');
      const err = await loadHistoryParts([tmp], { now: Date.now() }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toContain('nodepools/example-workers.yaml');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('reads a tar.gz of the dump as the folder', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'atlevel-hosted-'));
    try {
      const tar = join(tmp, 'hypershift-dump.tar.gz');
      execFileSync('tar', ['-czf', tar, '-C', dump('ocpbugs-77922'), '.']);
      const h = buildHistory(await loadHistoryParts([tar], { now: Date.now() }));
      expect(h.objects.machines).toHaveLength(4);
      expect(h.objects.nodes).toHaveLength(3);
      expect(h.guests?.[0]?.history.objects.nodes).toHaveLength(4);
      expect(outcome(h, 'nodepool-level-before-rollout').state).toBe('violated');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the kinds on the timeline, rewound', () => {
  it('shows NodePool conditions as intervals and the MachineDeployment rollout with both count sets', async () => {
    const h = await historyOf('ocpbugs-77922');
    const updating = h.intervals.find(
      (i) => i.locator.type === 'NodePool' && i.message.annotations.condition === 'UpdatingVersion',
    );
    expect(updating).toBeDefined();
    const rollout = h.intervals.find(
      (i) => i.locator.type === 'MachineDeployment' && i.source === 'derived:rollout',
    );
    expect(rollout?.message.humanMessage).toContain('3/3 updated (v1beta1), 3/3 up-to-date (v1beta2)');
    expect(rollout?.level).toBe('Warning');
  });

  it('rewinds the NodePool by its conditions: before 10:56:20 UpdatingVersion was not False yet', async () => {
    const h = await historyOf('ocpbugs-77922');
    const before = objectsAt(h, Date.parse('2026-11-20T10:50:00Z'));
    const np = before.objects.nodePools[0]?.object;
    expect(np?.status?.conditions?.find((c) => c.type === 'UpdatingVersion')?.status).not.toBe('False');
    expect(before.unrewound).toContainEqual(
      expect.objectContaining({ object: 'NodePool', field: 'status.version' }),
    );
  });
});

describe('the HyperShift rules on the rebuilt dumps', () => {
  it('a healthy completed Replace update: every rule holds, the verdict is pass', async () => {
    const h = await historyOf('replace-completed');
    expect(outcome(h, 'nodepool-level-before-rollout').state).toBe('holds');
    expect(outcome(h, 'controlplane-level-before-components').state).toBe('holds');
    expect(outcome(h, 'nodepool-stuck-updating')).toMatchObject({ state: 'not-checked', missing: [] });
    expect(analyzeHistory(h).verdict).toBe('pass');
  });

  it('OCPBUGS-77922: nodepool-level-before-rollout fails naming the NodePool, the old MachineSet and its Machine', async () => {
    const o = outcome(await historyOf('ocpbugs-77922'), 'nodepool-level-before-rollout');
    expect(o.state).toBe('violated');
    const f = o.findings[0];
    expect(f?.summary).toBe(
      'NodePool example-workers reports version 4.20.1 and is not updating (Replace) while Machine example-workers-5f4a8c21-pqrst of the older MachineSet example-workers-5f4a8c21 remains',
    );
    expect(f?.at).toBe(Date.parse('2026-11-20T10:56:20Z'));
    expect(f?.subject?.objects).toEqual(
      expect.arrayContaining([
        'NodePool/clusters/example-workers',
        'Machine/clusters-example/example-workers-5f4a8c21-pqrst',
      ]),
    );
  });

  it('OCPBUGS-92013: nodepool-stuck-updating fails 2h08m after the rollout ended; the level rule does not apply', async () => {
    const h = await historyOf('ocpbugs-92013');
    const o = outcome(h, 'nodepool-stuck-updating');
    expect(o.state).toBe('violated');
    expect(o.findings[0]?.summary).toBe(
      'NodePool example-workers still UpdatingVersion=True 2h08m after its rollout to 4.20.1 ended',
    );
    expect(outcome(h, 'nodepool-level-before-rollout')).toMatchObject({ state: 'not-checked', missing: [] });
  });

  it('the control plane Completed before a component: controlplane-level-before-components fails naming it', async () => {
    const o = outcome(await historyOf('controlplane-ahead'), 'controlplane-level-before-components');
    expect(o.state).toBe('violated');
    expect(o.findings[0]?.summary).toContain('ControlPlaneComponent kube-controller-manager is not at it');
  });
});

describe("analyze's window on a dump", () => {
  it('covers the NodePool rollout its finding is about, when the guest CVO completed before it', async () => {
    // The guest's version completed at 10:40:12, before the NodePool stopped updating at 10:56:20 (a
    // NodePool's release is bumped on its own): the window still reaches the finding.
    const h = await variant('ocpbugs-77922', (o) => {
      const hc = o.hostedClusters[0]?.object.status;
      const entry = hc?.version?.history?.[0];
      if (entry) entry.completionTime = '2026-11-20T10:40:12Z';
      // Its conditions turned with the completion (they date the snapshot's moment too).
      for (const c of hc?.conditions ?? [])
        if (c.lastTransitionTime === '2026-11-20T11:20:02Z') c.lastTransitionTime = '2026-11-20T10:40:12Z';
    });
    const r = analyzeHistory(h);
    const f = r.findings.find((x) => x.rule === 'nodepool-level-before-rollout');
    expect(f?.at).toBe(Date.parse('2026-11-20T10:56:20Z'));
    expect(r.span?.from).toBe(Date.parse('2026-11-20T10:12:05Z'));
    expect(r.span?.to).toBeGreaterThanOrEqual(f?.at ?? Number.POSITIVE_INFINITY);
    // The NodePool's last change (Ready at 11:02:10), not the install's conditions (the window starts
    // at the update, not at the NodePool's creation).
    expect(r.span?.to).toBe(Date.parse('2026-11-20T11:02:10Z'));
  });

  it('an update in progress (its entries Partial) reaches the snapshot: the HostedCluster and components conditions', async () => {
    const h = await variant('replace-completed', (o) => {
      const st = o.hostedClusters[0]?.object.status;
      for (const v of [st?.version, st?.controlPlaneVersion]) {
        const e = v?.history?.[0];
        if (e) {
          e.state = 'Partial';
          delete e.completionTime;
        }
      }
      o.nodePools.length = 0;
      o.machines.length = 0;
      o.machineSets.length = 0;
      o.machineDeployments.length = 0;
    });
    // Was 10:12:05 to 10:12:05: nothing but the start dated the hosted branch's window.
    expect(analyzeHistory(h).span).toEqual({
      from: Date.parse('2026-11-20T10:12:05Z'),
      to: Date.parse('2026-11-20T11:20:02Z'),
    });
  });

  it('is unchanged where the guest CVO completed last', async () => {
    const r = analyzeHistory(await historyOf('ocpbugs-77922'));
    expect(r.span).toEqual({
      from: Date.parse('2026-11-20T10:12:05Z'),
      to: Date.parse('2026-11-20T11:20:02Z'),
    });
  });
});

describe('no false verdict', () => {
  it('a partial dump without Machines: not checked, naming the Machines, never holds', async () => {
    const h = await variant('replace-completed', (o) => {
      o.machines.length = 0;
    });
    const o = outcome(h, 'nodepool-level-before-rollout');
    expect(o.state).toBe('not-checked');
    expect(o.missing.join(' ')).toContain('machines.yaml');
    expect(analyzeHistory(h).verdict).toBe('inconclusive');
  });

  it('an autoscaler scaling up or down after the rollout: the level rule holds', async () => {
    for (const f of ['nodepool-scale-up', 'nodepool-scale-down'])
      expect(outcome(await historyOf(f), 'nodepool-level-before-rollout').state, f).toBe('holds');
  });

  it('a dump without its NodePool files: not checked, naming the NodePool its MachineDeployment names, never pass', async () => {
    const h = await variant('replace-completed', (o) => {
      o.nodePools.length = 0;
    });
    for (const id of ['nodepool-level-before-rollout', 'nodepool-stuck-updating']) {
      const o = outcome(h, id);
      expect(o.state).toBe('not-checked');
      expect(o.missing.join(' ')).toContain('the NodePool clusters/example-workers');
    }
    expect(analyzeHistory(h).verdict).toBe('inconclusive');
  });

  it('but a partial dump that still shows an old Machine fails', async () => {
    const h = await variant('ocpbugs-77922', (o) => {
      for (const d of o.machineDeployments) delete d.object.status?.v1beta2;
    });
    expect(outcome(h, 'nodepool-level-before-rollout').state).toBe('violated');
  });

  it('no v1beta2 counts (Cluster API before 1.9): not checked, never read as zero', async () => {
    const h = await variant('replace-completed', (o) => {
      for (const d of o.machineDeployments) delete d.object.status?.v1beta2;
    });
    const o = outcome(h, 'nodepool-level-before-rollout');
    expect(o.state).toBe('not-checked');
    expect(o.missing.join(' ')).toContain('status.v1beta2');
  });

  it('a scale-up after the rollout (every Machine up to date, one not yet available) is information, not a failure', async () => {
    const h = await variant('replace-completed', (o) => {
      const d = o.machineDeployments[0]?.object;
      if (d?.spec && d.status?.v1beta2) {
        d.spec.replicas = 4;
        d.status.v1beta2 = { ...d.status.v1beta2, replicas: 4, upToDateReplicas: 4, availableReplicas: 3 };
      }
    });
    const o = outcome(h, 'nodepool-level-before-rollout');
    expect(o.state).toBe('holds');
    expect(o.findings.map((f) => f.severity)).toEqual(['info']);
  });

  it('a config-only rollout (same version, new user-data): a Machine of the older MachineSet left fails', async () => {
    const configOnly = (updatingConfig: string) =>
      variant('ocpbugs-77922', (o) => {
        // The old MachineSet and its Machine at the same version, only the user-data differs.
        for (const set of o.machineSets) {
          const t = set.object.spec?.template?.spec;
          if (t) t.version = '4.20.1';
        }
        for (const m of o.machines) {
          if (m.object.spec) m.object.spec.version = '4.20.1';
          if (m.object.metadata.annotations)
            m.object.metadata.annotations['hypershift.openshift.io/release-version'] = '4.20.1';
        }
        const c = o.nodePools[0]?.object.status?.conditions?.find((x) => x.type === 'UpdatingConfig');
        if (c) c.status = updatingConfig;
      });
    const done = outcome(await configOnly('False'), 'nodepool-level-before-rollout');
    expect(done.state).toBe('violated');
    expect(done.findings[0]?.summary).toContain('of the older MachineSet example-workers-5f4a8c21');
    // While UpdatingConfig is True the NodePool claims nothing.
    expect(outcome(await configOnly('True'), 'nodepool-level-before-rollout')).toMatchObject({
      state: 'not-checked',
      missing: [],
    });
  });

  it('a NodePool scaled to zero with no Machines holds', async () => {
    const h = await variant('replace-completed', (o) => {
      o.machines.length = 0;
      const d = o.machineDeployments[0]?.object;
      if (d?.spec && d.status) {
        d.spec.replicas = 0;
        d.status.replicas = 0;
        d.status.v1beta2 = { replicas: 0, availableReplicas: 0, upToDateReplicas: 0, readyReplicas: 0 };
      }
    });
    expect(outcome(h, 'nodepool-level-before-rollout').state).toBe('holds');
  });

  it('a NodePool whose template moved to a newer version than it reports claims nothing', async () => {
    const h = await variant('ocpbugs-77922', (o) => {
      const np = o.nodePools[0]?.object;
      if (np?.status) np.status.version = '4.19.12';
    });
    expect(outcome(h, 'nodepool-level-before-rollout')).toMatchObject({ state: 'not-checked', missing: [] });
  });

  it('InPlace: a MachineSet short of its target config fails; without the annotations, not checked', async () => {
    const inPlace = (target: string | undefined) =>
      variant('replace-completed', (o) => {
        const np = o.nodePools[0]?.object;
        if (np?.spec?.management) np.spec.management.upgradeType = 'InPlace';
        o.machineDeployments.length = 0;
        const set = o.machineSets.find((s) => s.object.metadata.name.endsWith('6b7c9d03'));
        if (!set) throw new Error('fixture changed');
        set.object.metadata.name = 'example-workers';
        set.object.metadata.annotations = {
          'hypershift.openshift.io/nodePool': 'clusters/example-workers',
          ...(target
            ? {
                'hypershift.openshift.io/nodePoolTargetConfigVersion': target,
                'hypershift.openshift.io/nodePoolCurrentConfigVersion': 'aaaa',
              }
            : {}),
        };
        o.machineSets = [set];
        for (const m of o.machines)
          m.object.metadata.ownerReferences = [{ kind: 'MachineSet', name: 'example-workers' }];
      });
    expect(outcome(await inPlace('bbbb'), 'nodepool-level-before-rollout').state).toBe('violated');
    expect(outcome(await inPlace('aaaa'), 'nodepool-level-before-rollout').state).toBe('holds');
    const none = outcome(await inPlace(undefined), 'nodepool-level-before-rollout');
    expect(none.state).toBe('not-checked');
    expect(none.missing.join(' ')).toContain('nodePoolTargetConfigVersion');
  });

  it('a component rolling out again after the completion (a config change) does not break the control plane rule', async () => {
    const h = await variant('replace-completed', (o) => {
      const c = o.controlPlaneComponents.find((x) => x.object.metadata.name === 'kube-apiserver')?.object;
      const rc = c?.status?.conditions?.find((x) => x.type === 'RolloutComplete');
      if (rc) Object.assign(rc, { status: 'False', lastTransitionTime: '2026-11-20T12:00:00Z' });
    });
    expect(outcome(h, 'controlplane-level-before-components').state).toBe('holds');
  });

  it('an update just requested (the HostedCluster names a newer release, its status copy not refreshed yet) is not judged', async () => {
    const next = 'quay.io/openshift-release-dev/ocp-release:4.20.2-x86_64';
    const starting = (edit: (o: HistoryParts['objects']) => void) =>
      variant('replace-completed', (o) => {
        // A component already rolling to 4.20.2 under the 4.20.1 entry the HostedCluster still shows.
        const c = o.controlPlaneComponents.find((x) => x.object.metadata.name === 'kube-apiserver')?.object;
        if (!c?.status) throw new Error('fixture');
        c.status.version = '4.20.2';
        edit(o);
      });
    const bySpec = await starting((o) => {
      const hc = o.hostedClusters[0]?.object;
      if (hc?.spec) hc.spec.release = { image: next };
    });
    const o = outcome(bySpec, 'controlplane-level-before-components');
    expect(o.state).toBe('not-checked');
    expect(o.missing).toEqual([]);
    expect(o.reason).toContain('an update starting');
    const byHcp = await starting((o) => {
      const hcp = o.hostedControlPlanes[0]?.object;
      if (hcp?.spec) hcp.spec.releaseImage = next;
    });
    expect(outcome(byHcp, 'controlplane-level-before-components').reason).toContain('lags');
    // Nothing requested: the same component is behind the Completed entry.
    expect(outcome(await starting(() => {}), 'controlplane-level-before-components').state).toBe('violated');
  });

  it('the two control-plane fixtures: a config rollout after the completion holds, a requested update is not judged', async () => {
    expect(
      outcome(await historyOf('controlplane-config-rollout'), 'controlplane-level-before-components').state,
    ).toBe('holds');
    const o = outcome(
      await historyOf('controlplane-update-requested'),
      'controlplane-level-before-components',
    );
    expect([o.state, o.missing]).toEqual(['not-checked', []]);
  });

  it('spec.controlPlaneRelease at the entry, spec.release.image older (the data plane’s): judged, and holds', async () => {
    // hypershift runs the control plane at controlPlaneRelease when set: spec.release.image naming
    // another release is not an update of the control plane starting.
    const o = outcome(await historyOf('controlplane-release-ahead'), 'controlplane-level-before-components');
    expect(o.state).toBe('holds');
  });

  it('a HostedCluster without controlPlaneVersion leaves the check to its HostedControlPlane', async () => {
    const h = await variant('controlplane-ahead', (o) => {
      const hc = o.hostedClusters[0]?.object;
      if (hc?.status) delete hc.status.controlPlaneVersion;
    });
    const o = outcome(h, 'controlplane-level-before-components');
    expect(o.state).toBe('violated');
    expect(o.findings[0]?.summary).toMatch(/^HostedControlPlane\/clusters-example\/example:/);
  });

  it('no ControlPlaneComponents in the inputs: not checked, naming them', async () => {
    const h = await variant('replace-completed', (o) => {
      o.controlPlaneComponents.length = 0;
    });
    const o = outcome(h, 'controlplane-level-before-components');
    expect(o.state).toBe('not-checked');
    expect(o.missing.join(' ')).toContain('controlplanecomponents.yaml');
  });

  it('a paused NodePool bumped to a newer release is updating rightly, not stuck: its template never moved', async () => {
    // spec.pausedUntil: the controller sets UpdatingVersion=True and leaves the MachineDeployment's
    // template at 4.20.1; the rollout that ended at 11:01:55 is the previous one.
    const h = await historyOf('nodepool-paused');
    const o = outcome(h, 'nodepool-stuck-updating');
    expect(o.state).toBe('holds');
    expect(o.findings.map((f) => [f.severity, f.summary])).toEqual([
      [
        'info',
        "NodePool example-workers is updating and its rollout has not begun: its MachineDeployment's template is still at 4.20.1, not the target 4.20.2 (spec.pausedUntil is true)",
      ],
    ]);
    expect(analyzeHistory(h).verdict).toBe('pass');
  });

  it('a day-2 config change waiting on its payload is not stuck either: the template predates UpdatingConfig', async () => {
    const h = await variant('nodepool-paused', (o) => {
      const np = o.nodePools[0]?.object;
      if (!np?.spec || !np.status) throw new Error('fixture');
      delete np.spec.pausedUntil;
      np.spec.release = { image: 'quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64' };
      np.status.conditions = (np.status.conditions ?? []).map((c) =>
        c.type === 'UpdatingVersion'
          ? { ...c, status: 'False', message: '', lastTransitionTime: '2026-11-20T11:02:10Z' }
          : c.type === 'UpdatingConfig'
            ? { ...c, status: 'True', lastTransitionTime: '2026-11-20T12:00:00Z' }
            : c.type === 'ValidGeneratedPayload'
              ? { ...c, status: 'False', reason: 'InvalidConfig', lastTransitionTime: '2026-11-20T12:00:00Z' }
              : c,
      );
    });
    const o = outcome(h, 'nodepool-stuck-updating');
    expect(o.state).toBe('holds');
    expect(o.findings[0]?.summary).toContain(
      'its last rollout ended at 11:01:55, before it started updating at 12:00:00 (ValidGeneratedPayload=False)',
    );
  });

  it('stuck: every Machine up to date and one not yet available is updating rightly, not stuck', async () => {
    // A Machine still provisioning after the old ones left (maxUnavailable above 0, a slow cloud): the
    // NodePool controller completes only once availableReplicas is the desired replicas.
    const h = await variant('ocpbugs-92013', (o) => {
      const d = o.machineDeployments[0]?.object;
      if (!d?.status?.v1beta2) throw new Error('fixture');
      d.status.v1beta2 = { ...d.status.v1beta2, availableReplicas: 2 };
      d.status.availableReplicas = 2;
    });
    expect(outcome(h, 'nodepool-stuck-updating').state).toBe('holds');
  });

  it('stuck: an updating NodePool whose rollout nothing dates is not checked', async () => {
    const h = await variant('ocpbugs-92013', (o) => {
      const v2 = o.machineDeployments[0]?.object.status?.v1beta2;
      if (v2) v2.conditions = [];
    });
    expect(outcome(h, 'nodepool-stuck-updating').state).toBe('not-checked');
  });
});

describeKubectl('kubectl against serve of a hypershift dump', () => {
  let management: RunningServer;
  let guest: RunningServer;
  beforeAll(async () => {
    const h = await historyOf('ocpbugs-77922');
    const extras = await readServedExtras([dump('ocpbugs-77922')]);
    management = await startServer({ history: h, extra: extras.objects, logs: extras.logs });
    const g = h.guests?.[0]?.history as ClusterHistory;
    const gx = await readServedExtras([dump('ocpbugs-77922')], {}, 'example');
    guest = await startServer({ history: g, extra: gx.objects, logs: gx.logs });
  });
  afterAll(async () => {
    await management?.close();
    await guest?.close();
  });
  const rows = (s: string) =>
    s
      .trimEnd()
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/));

  it('get hostedclusters,nodepools -A answers with the CRDs’ columns', async () => {
    const r = await kubectl(management, ['get', 'hostedclusters,nodepools', '-A']);
    expect(r.code, r.stderr).toBe(0);
    const out = rows(r.stdout);
    expect(out[0]?.slice(0, 6)).toEqual([
      'NAMESPACE',
      'NAME',
      'VERSION',
      'KUBECONFIG',
      'PROGRESS',
      'AVAILABLE',
    ]);
    expect(out[1]?.slice(0, 3)).toEqual([
      'clusters',
      'hostedcluster.hypershift.openshift.io/example',
      '4.20.1',
    ]);
    const np = out.find((l) => l[1] === 'nodepool.hypershift.openshift.io/example-workers');
    expect(np?.slice(2, 9)).toEqual(['example', '3', '3', 'False', 'False', '4.20.1', 'False']);
  });

  it('get machinesets -n clusters-example shows the old MachineSet still holding a Machine', async () => {
    const r = await kubectl(management, ['get', 'ms', '-n', 'clusters-example']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      rows(r.stdout)
        .find((l) => l[0] === 'example-workers-5f4a8c21')
        ?.slice(1, 3),
    ).toEqual(['example-x7k2p', '1']);
  });

  it('the management endpoint serves the management Nodes, the guest endpoint the guest’s', async () => {
    const m = await kubectl(management, ['get', 'nodes', '-o', 'name']);
    expect(m.stdout.trim().split('\n')).toEqual([
      'node/mgmt-master-0',
      'node/mgmt-master-1',
      'node/mgmt-master-2',
    ]);
    const g = await kubectl(guest, ['get', 'nodes,co', '-o', 'name']);
    expect(g.stdout).toContain('node/ip-10-0-1-7.ec2.internal');
    expect(g.stdout).toContain('clusteroperator.config.openshift.io/dns');
    expect(g.stdout).not.toContain('mgmt-master');
    const none = await kubectl(guest, ['get', 'nodepools', '-A', '-o', 'name']);
    expect(none.stdout.trim()).toBe('');
  });
});

describe('the dump layout on any listing (property)', () => {
  const segment = fc.constantFrom(
    'namespaces',
    'cluster-scoped-resources',
    'hostedcluster-example',
    'hostedcluster-b',
    'hypershift.openshift.io',
    'cluster.x-k8s.io',
    'core',
    'clusters',
    'clusters-example',
    'nodes',
    'nodepools',
    'hostedclusters',
    'machines.yaml',
    'nodes.yaml',
    'x.yaml',
    'artifacts',
  );
  const rel = fc.array(segment, { minLength: 1, maxLength: 7 }).map((p) => p.join('/'));

  it('a guest claim is always under its hostedcluster-NAME folder, a management claim never under one', () => {
    fc.assert(
      fc.property(fc.array(rel, { maxLength: 30 }), (rels) => {
        const plan = planFiles(rels);
        for (const f of plan.files) {
          if (f.spec.reader !== 'must-gather') continue;
          const parts = f.rel.split('/');
          if (f.spec.guest !== undefined) {
            expect(parts).toContain(`hostedcluster-${f.spec.guest}`);
          } else if (plan.layouts.includes('hypershift dump')) {
            // A management file of a dump root: no hostedcluster- folder between the root and it.
            const at = parts.findIndex((p) => p === 'namespaces' || p === 'cluster-scoped-resources');
            expect(parts[at - 1]?.startsWith('hostedcluster-') ?? false).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('no-serious-insight on a hosted cluster (the insights atlevel status raises)', () => {
  it('fails on an Error insight that is the update’s (a NodePool at level before its Machines)', async () => {
    const o = outcome(await historyOf('ocpbugs-77922'), 'no-serious-insight');
    expect(o.state).toBe('violated');
    expect(o.findings.map((f) => [f.severity, f.subject?.insight])).toContainEqual([
      'failure',
      'nodepool-level-before-rollout',
    ]);
  });

  it('warns, never fails, on an update requested and not started, and says why', async () => {
    const h = await historyOf('update-blocked');
    const o = outcome(h, 'no-serious-insight');
    expect(o.state).toBe('holds');
    expect(o.findings).toHaveLength(1);
    expect(o.findings[0]?.severity).toBe('warning');
    expect(o.findings[0]?.subject?.insight).toBe('update-not-accepted');
    expect(o.findings[0]?.summary).toContain('has not started: no control-plane component runs it');
    expect(analyzeHistory(h).verdict).toBe('pass');
  });

  it('warns on a config-only NodePool change that cannot begin, and fails when it is a version change', async () => {
    const o = outcome(await historyOf('nodepool-payload-pending'), 'no-serious-insight');
    expect(o.state).toBe('holds');
    expect(o.findings.map((f) => [f.severity, f.subject?.insight])).toEqual([
      ['warning', 'nodepool-invalid-payload'],
    ]);
    expect(o.findings[0]?.summary).toContain('changes its configuration only');
    // The same NodePool asking for a version change (UpdatingVersion=True): the update's failure.
    const v = await variant('nodepool-payload-pending', (objects) => {
      for (const np of objects.nodePools) {
        const conds = (np.object as { status?: { conditions?: { type: string; status: string }[] } }).status
          ?.conditions;
        for (const c of conds ?? []) if (c.type === 'UpdatingVersion') c.status = 'True';
      }
    });
    const ov = outcome(v, 'no-serious-insight');
    expect(ov.state).toBe('violated');
    expect(ov.findings.map((f) => [f.severity, f.subject?.insight])).toContainEqual([
      'failure',
      'nodepool-invalid-payload',
    ]);
  });

  it('is not checked, never FAIL nor PASS, when the NodePool’s change cannot be placed (no status.version)', async () => {
    const h = await variant('nodepool-payload-pending', (objects) => {
      for (const np of objects.nodePools) {
        delete (np.object as { status?: { version?: string } }).status?.version;
      }
    });
    const o = outcome(h, 'no-serious-insight');
    expect(o.state).toBe('not-checked');
    expect(o.missing.length).toBeGreaterThan(0);
    expect(o.findings.map((f) => f.severity)).toEqual(['warning']);
    expect(analyzeHistory(h).verdict).toBe('inconclusive');
  });

  it('fails on an InPlace version update stopped at a degraded node, and warns when only the config changes', async () => {
    const h = await historyOf('inplace-degraded');
    const o = outcome(h, 'no-serious-insight');
    expect(o.state).toBe('violated');
    expect(o.findings.map((f) => [f.severity, f.subject?.insight])).toEqual([
      ['failure', 'nodepool-inplace-failed'],
    ]);
    expect(analyzeHistory(h).verdict).toBe('fail');
    // The same stop on a day-2 config change at the release the NodePool already reports (every
    // Machine at 4.20.1, UpdatingConfig=False InplaceUpgradeFailed): a config change that cannot proceed.
    const c = await variant('inplace-degraded', (objects) => {
      for (const np of objects.nodePools) {
        const st = (np.object as { status?: { version?: string; conditions?: { type: string }[] } }).status;
        if (st) st.version = '4.20.1';
        for (const cd of st?.conditions ?? []) {
          if (cd.type === 'UpdatingVersion') cd.type = 'UpdatingConfig';
          else if (cd.type === 'UpdatingConfig') cd.type = 'UpdatingVersion';
        }
      }
      for (const m of objects.machines) {
        const a = (m.object as { metadata: { annotations?: Record<string, string> } }).metadata.annotations;
        if (a) a['hypershift.openshift.io/release-version'] = '4.20.1';
      }
    });
    const oc = outcome(c, 'no-serious-insight');
    expect(oc.state).toBe('holds');
    expect(oc.findings.map((f) => [f.severity, f.subject?.insight])).toEqual([
      ['warning', 'nodepool-inplace-failed'],
    ]);
    expect(oc.findings[0]?.summary).toContain('a config change that cannot proceed');
    // UpdatingConfig=False InplaceUpgradeFailed reports a failure, not the rollout's end: no level claim.
    const lv = outcome(c, 'nodepool-level-before-rollout');
    expect(lv.state).toBe('not-checked');
    expect(lv.missing).toEqual([]);
    expect(lv.reason).toContain(
      'reports its in-place upgrade failed (UpdatingConfig=False, InplaceUpgradeFailed)',
    );
    expect(analyzeHistory(c).verdict).toBe('pass');
  });

  it('holds with no serious insight', async () => {
    expect(outcome(await historyOf('replace-completed'), 'no-serious-insight').state).toBe('holds');
  });
});
