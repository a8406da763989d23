/**
 * `status --at`: the cluster of the reconstruction of bug 2019850 (test/fixtures/reconstruction) rebuilt at three moments of the run, and the
 * pure rewinding under it (timeline/rewind.ts) that the API server of a past moment also uses.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterHistory } from '../../src/model/history.js';
import { MCO } from '../../src/model/objects.js';
import { assessStatusAt } from '../../src/status/index.js';
import { OutsideSpanError, objectsAt } from '../../src/timeline/index.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

// Frozen data whose timeline these tests pin (test/fixtures/reconstruction/README.md).
const EXAMPLE = join(projectRoot, 'test/fixtures/reconstruction/bug-2019850');
const NEW = '4.10.0-0.nightly-2021-11-03-020416';
const MASTER_NEW = 'rendered-master-ebc4fc8c7b6a155d86684204394e4930';
const MASTER_OLD = 'rendered-master-78d48a9fbc8ba6a746040c11f8335d1a';
const at = (clock: string) => Date.parse(`2021-11-03T${clock}Z`);

let history: ClusterHistory;
beforeAll(async () => {
  history = await loadHistory([EXAMPLE], {});
});

describe('status --at on the reconstruction of bug 2019850', () => {
  it('a node between its Drain and Reboot events is Draining then, and Rebooting after', () => {
    const phase = (clock: string, node: string) =>
      assessStatusAt(history, at(clock))
        .pools.flatMap((p) => p.nodes)
        .find((n) => n.name === node)?.phase;
    // ip-10-0-151-87: Drain at 03:27:33.944, Reboot at 03:29:04.069 (build-log.txt lines 455, 459).
    expect(phase('03:28:30', 'ip-10-0-151-87.us-east-2.compute.internal')).toBe('Draining');
    expect(phase('03:29:10', 'ip-10-0-151-87.us-east-2.compute.internal')).toBe('Rebooting');
    // ip-10-0-171-203 was not asked to drain until 03:31:44.
    expect(phase('03:28:30', 'ip-10-0-171-203.us-east-2.compute.internal')).toBe('Pending');
  });

  it('03:25:00: the control plane is Progressing and machine-config is already at level', () => {
    const s = assessStatusAt(history, at('03:25:00'));
    expect(s.evaluatedAtSource).toBe('rewound');
    expect(s.state).toBe('updating');
    expect(s.controlPlane.assessment).toBe('Progressing');
    expect(s.controlPlane.completedAt).toBeUndefined();
    const { objects } = objectsAt(history, at('03:25:00'));
    const mco = objects.clusterOperators.find((c) => c.object.metadata.name === 'machine-config');
    expect(mco?.object.status?.versions?.find((v) => v.name === 'operator')?.version).toBe(NEW);
    const master = s.pools.find((p) => p.name === 'master');
    expect(master).toMatchObject({
      assessment: 'Progressing',
      updated: 0,
      total: 3,
      targetConfig: MASTER_NEW,
    });
    expect(s.insights.filter((i) => i.kind === 'completed-while-pool-rolling')).toEqual([]);
  });

  it('03:30:00: the control plane Completed, master still rolling, and the Error insight says so', () => {
    const s = assessStatusAt(history, at('03:30:00'));
    expect(s.controlPlane.assessment).toBe('Completed');
    expect(s.state).toBe('updating');
    expect(s.updating).toBe(true);
    const master = s.pools.find((p) => p.name === 'master');
    expect(master?.assessment).toBe('Progressing');
    expect(master?.updated).toBeLessThan(3);
    const contradiction = s.insights.find((i) => i.kind === 'completed-while-pool-rolling');
    expect(contradiction?.level).toBe('Error');
    expect(contradiction?.message).toBe(
      `The CVO completed ${NEW} at 2021-11-03T03:28:27Z while pool master is still rolling out rendered config ${MASTER_NEW}`,
    );
  });

  it('at the end: not updating, every pool Completed', () => {
    const end = history.span?.to ?? 0;
    const s = assessStatusAt(history, end);
    expect(s.state).toBe('idle');
    expect(s.pools.map((p) => [p.name, p.assessment])).toEqual([
      ['master', 'Completed'],
      ['worker', 'Completed'],
    ]);
    expect(s.insights.filter((i) => i.level === 'Error')).toEqual([]);
  });

  it('before the pools were created (02:30:45Z): the note says none existed yet, not that the inputs have none', () => {
    const s = assessStatusAt(history, at('02:28:00'));
    expect(s.pools).toEqual([]);
    expect(s.notes[0]).toBe(
      'No MachineConfigPool existed yet at 2021-11-03T02:28:00Z (the first, master and worker, were created at 2021-11-03T02:30:45Z): node progress is unknown.',
    );
    expect(s.notes.join('\n')).not.toContain('has no MachineConfigPools');
    // One pool created first is named alone.
    const pools = history.objects.machineConfigPools.filter((p) => p.object.metadata.name === 'worker');
    const one = { ...history, objects: { ...history.objects, machineConfigPools: pools } };
    expect(assessStatusAt(one, at('02:28:00')).notes[0]).toBe(
      'No MachineConfigPool existed yet at 2021-11-03T02:28:00Z (the first, worker, was created at 2021-11-03T02:30:45Z): node progress is unknown.',
    );
    // Inputs with no pools at all still say so.
    const none = { ...history, objects: { ...history.objects, machineConfigPools: [] } };
    expect(assessStatusAt(none, at('02:28:00')).notes[0]).toBe(
      'The snapshot has no MachineConfigPools: node progress is unknown.',
    );
  });
});

describe('objectsAt', () => {
  it('lists the ClusterVersion fields a later update changed: its payload hash and generations', () => {
    const fields = (clock: string) =>
      objectsAt(history, at(clock))
        .unrewound.filter((u) => u.object === 'ClusterVersion/version')
        .map((u) => u.field);
    // 02:40: before the update to the new release began (02:53), so the snapshot's hash is its.
    expect(fields('02:40:00')).toEqual(
      expect.arrayContaining(['status.versionHash', 'status.observedGeneration', 'metadata.generation']),
    );
    // 03:25: the update had begun; the hash and generations are the ones it set.
    expect(fields('03:25:00')).not.toContain('status.versionHash');
  });

  it('keeps only the rendered configs that existed, and winds nodes back through their recorded changes', () => {
    const before = objectsAt(history, at('03:23:00'));
    expect(before.objects.machineConfigs.some((m) => m.object.metadata.name === MASTER_NEW)).toBe(false);
    const pool = before.objects.machineConfigPools.find((p) => p.object.metadata.name === 'master');
    expect(pool?.object.spec?.configuration?.name).toBe(MASTER_OLD);
    const later = objectsAt(history, at('03:25:00'));
    expect(later.objects.machineConfigs.some((m) => m.object.metadata.name === MASTER_NEW)).toBe(true);
    const node = later.objects.nodes.find((n) => n.object.metadata.name.startsWith('ip-10-0-139-12'));
    expect(node?.object.metadata.annotations?.[MCO.currentConfig]).toBe(MASTER_OLD);
    expect(node?.object.metadata.annotations?.[MCO.desiredConfig]).toBe(MASTER_NEW);
    expect(node?.object.metadata.annotations?.[MCO.state]).toBe('Rebooting');
  });

  it('puts the update back in progress: history Partial, Progressing=True', () => {
    const { objects } = objectsAt(history, at('03:25:00'));
    const cv = objects.clusterVersions[0]?.object;
    expect(cv?.status?.history?.[0]).toMatchObject({ version: NEW, state: 'Partial', completionTime: null });
    expect(cv?.status?.conditions?.find((c) => c.type === 'Progressing')?.status).toBe('True');
  });

  it('says per field what it could not rewind, and never takes it from the later snapshot', () => {
    const { objects, unrewound } = objectsAt(history, at('03:25:00'));
    const pressure = unrewound.find((u) => u.field === 'status.conditions[DiskPressure]');
    expect(pressure?.object).toMatch(/^Node\//);
    const node = objects.nodes.find((n) => `Node/${n.object.metadata.name}` === pressure?.object);
    const condition = node?.object.status?.conditions?.find((c) => c.type === 'DiskPressure');
    expect(condition).toMatchObject({ status: 'Unknown', reason: 'NotRewound' });
  });

  it("does not serve the snapshot's reason and message as the moment's: they change without a transition", () => {
    // The brief's repro: at 03:25 the snapshot's Available says "Done applying <new>", three minutes
    // before the CVO completed; ReleaseAccepted and RetrievedUpdates name the new release at 02:24.
    const { objects, unrewound } = objectsAt(history, at('03:25:00'));
    const cv = objects.clusterVersions[0]?.object;
    const c = (type: string) => cv?.status?.conditions?.find((x) => x.type === type);
    expect(c('Available')).toEqual({
      type: 'Available',
      status: 'True',
      lastTransitionTime: '2021-11-03T02:47:36Z',
      reason: 'NotRewound',
      message: "atlevel cannot tell this condition's message at 2021-11-03T03:25:00Z from the inputs",
    });
    for (const type of ['ReleaseAccepted', 'RetrievedUpdates']) {
      expect(c(type)?.status).toBe(
        history.objects.clusterVersions[0]?.object.status?.conditions?.find((x) => x.type === type)?.status,
      );
      expect(c(type)?.reason).toBe('NotRewound');
      expect(c(type)?.message).not.toContain(NEW);
    }
    // Progressing's status comes from its 02:53:05.903 transition; its message then ("downloading
    // update") is not known to be its message half an hour later: it is shown dated, as such.
    expect(c('Progressing')).toMatchObject({ status: 'True', reason: 'NotRewound' });
    expect(c('Progressing')?.message).toMatch(
      /^as last recorded, at 2021-11-03T02:53:05\.903Z \(it may have changed since\): Working towards .*: downloading update$/,
    );
    // Said once per kind when it holds for every object of it.
    for (const kind of ['ClusterVersion', 'ClusterOperator', 'Node', 'MachineConfigPool'])
      for (const field of ['reason', 'message'])
        expect(unrewound).toContainEqual(
          expect.objectContaining({ object: kind, field: `status.conditions[*].${field}` }),
        );
    // A node condition's heartbeat is later than the moment: left out, and said.
    const node = objects.nodes[0]?.object;
    expect(node?.status?.conditions?.some((x) => 'lastHeartbeatTime' in x)).toBe(false);
    expect(unrewound).toContainEqual(
      expect.objectContaining({ object: 'Node', field: 'status.conditions[*].lastHeartbeatTime' }),
    );
  });

  it('takes a reason and message from a transition recorded at the moment itself, and only then', () => {
    // build-log.txt line 438: 03:25:13.899 dns Progressing=True reason/Reconciling.
    const dns = (clock: string) =>
      objectsAt(history, at(clock))
        .objects.clusterOperators.find((o) => o.object.metadata.name === 'dns')
        ?.object.status?.conditions?.find((x) => x.type === 'Progressing');
    expect(dns('03:25:13.899')).toMatchObject({
      status: 'True',
      lastTransitionTime: '2021-11-03T03:25:13.899Z',
      reason: 'Reconciling',
      message: 'Have 5 available DNS pods, want 6.',
    });
    expect(dns('03:26:00')).toMatchObject({ status: 'True', reason: 'NotRewound' });
    // The CVO's Progressing at its recorded transition (line 364) says what it said then.
    const cv = objectsAt(history, at('02:53:05.903')).objects.clusterVersions[0]?.object;
    expect(cv?.status?.conditions?.find((x) => x.type === 'Progressing')?.message).toMatch(
      /: downloading update$/,
    );
  });

  it('places a change its whole-second lastTransitionTime leaves in a second at the millisecond a record gives', () => {
    // machine-config's Progressing: lastTransitionTime 03:23:10Z; build-log.txt line 420 saw it go
    // False at 03:23:10.428. Between the two it was still True.
    const progressing = (clock: string) =>
      objectsAt(history, at(clock))
        .objects.clusterOperators.find((o) => o.object.metadata.name === 'machine-config')
        ?.object.status?.conditions?.find((x) => x.type === 'Progressing');
    expect(progressing('03:23:10.200')).toMatchObject({
      status: 'True',
      lastTransitionTime: '2021-11-03T03:23:03.719Z',
    });
    expect(progressing('03:23:10.428')).toEqual({
      type: 'Progressing',
      status: 'False',
      lastTransitionTime: '2021-11-03T03:23:10Z',
      reason: '',
      message: `Cluster version is ${NEW}`,
    });
  });

  it("places the CVO's whole-second completionTime at the monitor's `cluster reached` in that second", () => {
    // History: Completed 03:28:27Z; build-log.txt line 456: cluster reached at 03:28:27.351.
    const head = (clock: string) =>
      objectsAt(history, at(clock)).objects.clusterVersions[0]?.object.status?.history?.[0];
    expect(head('03:28:27.200')).toMatchObject({ state: 'Partial', completionTime: null });
    expect(head('03:28:27.351')).toMatchObject({
      state: 'Completed',
      completionTime: '2021-11-03T03:28:27Z',
    });
  });

  it('takes them from a recorded revision of the object (a simulated run records every one)', () => {
    const last = history.objects.clusterVersions[0]?.object;
    const older = 'Done applying 4.10.0-0.nightly-2021-11-02-191632';
    const recorded: ClusterHistory = {
      ...history,
      revisions: [
        {
          type: 'MODIFIED',
          at: at('03:20:00'),
          kind: 'ClusterVersion',
          name: 'version',
          object: {
            ...last,
            status: {
              ...last?.status,
              conditions: [{ type: 'Available', status: 'True', reason: 'AsExpected', message: older }],
            },
          },
        },
      ],
    };
    const cv = objectsAt(recorded, at('03:25:00')).objects.clusterVersions[0]?.object;
    expect(cv?.status?.conditions?.find((x) => x.type === 'Available')).toMatchObject({
      status: 'True',
      reason: 'AsExpected',
      message: older,
    });
    // Before the first revision nothing was recorded: not known.
    const early = objectsAt(recorded, at('03:10:00')).objects.clusterVersions[0]?.object;
    expect(early?.status?.conditions?.find((x) => x.type === 'Available')?.reason).toBe('NotRewound');
  });

  it('at the end of the span the snapshot is the cluster: conditions as they are', () => {
    const end = history.span?.to ?? 0;
    const { objects } = objectsAt(history, end);
    expect(objects.clusterVersions[0]?.object.status?.conditions).toEqual(
      history.objects.clusterVersions[0]?.object.status?.conditions,
    );
    expect(objects.nodes[0]?.object.status?.conditions).toEqual(
      history.objects.nodes[0]?.object.status?.conditions,
    );
  });

  it("leaves out what the snapshot says of another config or boot than the moment's, and says so", () => {
    const { objects, unrewound } = objectsAt(history, at('03:25:00'));
    const master = objects.machineConfigPools.find((p) => p.object.metadata.name === 'master')?.object;
    // The snapshot's source list is rendered-master-ebc…'s; at 03:25 the pool was still on 78d48….
    expect(master?.status?.configuration).toEqual({ name: MASTER_OLD });
    expect(master?.spec?.configuration?.name).toBe(MASTER_NEW);
    expect(unrewound).toContainEqual(
      expect.objectContaining({ object: 'MachineConfigPool/master', field: 'status.configuration.source' }),
    );
    // ip-10-0-151-87 reboots at 03:29:04: its nodeInfo (bootID, OS image) is of that later boot.
    expect(unrewound).toContainEqual(
      expect.objectContaining({
        object: 'Node/ip-10-0-151-87.us-east-2.compute.internal',
        field: 'status.nodeInfo',
      }),
    );
    expect(objectsAt(history, history.span?.to ?? 0).unrewound.map((u) => u.field)).not.toContain(
      'status.nodeInfo',
    );
  });

  it("the ClusterVersion's desired release, requests and update graph are not taken from the later snapshot", () => {
    const cv = history.objects.clusterVersions[0] as (typeof history.objects.clusterVersions)[0];
    const earlier: ClusterHistory = {
      ...history,
      span: { from: at('02:24:00'), to: history.span?.to ?? 0 },
      objects: {
        ...history.objects,
        clusterVersions: [
          {
            ...cv,
            object: {
              ...cv.object,
              status: { ...cv.object.status, availableUpdates: [{ version: '4.10.1', image: 'x' }] },
            },
          },
        ],
      },
    };
    // The ClusterVersion was created at 02:24:33, its first history entry began at 02:24:41: between
    // them the snapshot's status.desired (the later update's release) is not known.
    const before = objectsAt(earlier, at('02:24:35'));
    expect(before.objects.clusterVersions[0]?.object.status?.desired).toBeUndefined();
    expect(before.unrewound.map((u) => u.field)).toEqual(
      expect.arrayContaining(['status.desired', 'status.availableUpdates']),
    );
  });

  it("a ClusterOperator's relatedObjects are listed as last seen, its extension left out and listed", () => {
    const operator = (r: ReturnType<typeof objectsAt>, name: string) =>
      r.objects.clusterOperators.find((o) => o.object.metadata.name === name)?.object;
    const last = (name: string) =>
      history.objects.clusterOperators.find((o) => o.object.metadata.name === name)?.object;
    const fields = (r: ReturnType<typeof objectsAt>) => r.unrewound.map((u) => `${u.object} ${u.field}`);
    // At 03:25 the snapshot's machine-config extension says "all 3 nodes are at latest configuration
    // rendered-master-ebc4…", which the master pool was still rolling out to (03:23:11 to 03:37).
    expect(JSON.stringify(last('machine-config')?.status?.extension)).toContain(MASTER_NEW);
    const then = objectsAt(history, at('03:25:00'));
    const mco = operator(then, 'machine-config');
    expect(mco?.status && 'extension' in mco.status).toBe(false);
    expect(mco?.status?.relatedObjects).toEqual(last('machine-config')?.status?.relatedObjects);
    // Every operator lists related objects: said once for the kind. An extension none had by the
    // end (dns's null) is not listed.
    expect(fields(then)).toEqual(
      expect.arrayContaining([
        'ClusterOperator status.relatedObjects',
        'ClusterOperator/machine-config status.extension',
      ]),
    );
    expect(fields(then).filter((f) => f.includes('status.extension'))).toEqual([
      'ClusterOperator/machine-config status.extension',
    ]);
    expect(operator(then, 'dns')?.status?.extension).toBeNull();
    // At the end of the span the snapshot is the cluster: both as they are, nothing listed.
    const end = objectsAt(history, history.span?.to ?? 0);
    expect(operator(end, 'machine-config')?.status?.extension).toEqual(
      last('machine-config')?.status?.extension,
    );
    expect(fields(end).filter((f) => /relatedObjects|extension/.test(f))).toEqual([]);
  });

  it("takes a ClusterOperator's relatedObjects and extension from a recorded revision", () => {
    const last = history.objects.clusterOperators.find((o) => o.object.metadata.name === 'machine-config');
    const extension = { master: `all 3 nodes are at latest configuration ${MASTER_OLD}` };
    const relatedObjects = [{ group: '', resource: 'namespaces', name: 'openshift-machine-config-operator' }];
    const recorded: ClusterHistory = {
      ...history,
      revisions: [
        {
          type: 'MODIFIED',
          at: at('03:20:00'),
          kind: 'ClusterOperator',
          name: 'machine-config',
          object: { ...last?.object, status: { ...last?.object.status, extension, relatedObjects } },
        },
      ],
    };
    const r = objectsAt(recorded, at('03:25:00'));
    const mco = r.objects.clusterOperators.find((o) => o.object.metadata.name === 'machine-config');
    expect(mco?.object.status).toMatchObject({ extension, relatedObjects });
    const fields = r.unrewound.map((u) => `${u.object} ${u.field}`);
    expect(
      fields.filter((f) => /^ClusterOperator\/machine-config status\.(relatedObjects|extension)/.test(f)),
    ).toEqual([]);
    // The other operators' are still the snapshot's, each listed: no longer every one of the kind.
    expect(fields).not.toContain('ClusterOperator status.relatedObjects');
    expect(fields).toContain('ClusterOperator/dns status.relatedObjects');
  });

  it('refuses a moment outside the inputs', () => {
    expect(() => objectsAt(history, at('01:00:00'))).toThrow(OutsideSpanError);
    expect(() => objectsAt(history, (history.span?.to ?? 0) + 1)).toThrow(/outside the inputs' span/);
  });
});

describeFixtures('status --at before most of a snapshot was recorded', () => {
  it('operators whose conditions cannot be rewound are counted unknown, never unavailable or failing', async () => {
    const degraded = await loadHistory([
      fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples/4.14.1-degraded'),
    ]);
    const s = assessStatusAt(degraded, Date.parse('2023-11-03T16:00:00Z'));
    const ops = s.controlPlane.operators;
    // Every operator is counted somewhere.
    expect(ops.updated + ops.updating + ops.waiting + ops.unknown).toBe(ops.total);
    expect(ops.unknown).toBeGreaterThan(0);
    expect(ops.healthy + ops.unavailable + ops.degraded + ops.healthUnknown).toBe(ops.total);
    expect(s.insights.filter((i) => /NotRewound/.test(i.message))).toEqual([]);
  });

  it('nodes whose config cannot be placed are Unknown, never "Machine Config Daemon is processing"', async () => {
    const paused = await loadHistory([
      fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples/4.14.1-paused-worker-pool'),
    ]);
    const s = assessStatusAt(paused, Date.parse('2024-02-07T16:31:09Z'));
    const nodes = s.pools.flatMap((p) => p.nodes);
    expect(nodes.length).toBe(6);
    for (const n of nodes) {
      expect(n).toMatchObject({ phase: 'Unknown', assessment: 'Unknown', unavailable: false });
    }
    for (const p of s.pools) {
      expect(p).toMatchObject({ assessment: 'Unknown', nodesOffTargetConfig: 0 });
      expect(p.counts.unknown).toBe(p.total);
    }
    expect(s.notes.join('\n')).not.toMatch(/nodes have it/);
  });

  it('an operator whose version cannot be placed counts as unknown, not waiting; its operand versions are left out too', async () => {
    const degraded = await loadHistory([
      fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples/4.14.1-degraded'),
    ]);
    const t = Date.parse('2023-11-03T16:00:00Z');
    const ops = assessStatusAt(degraded, t).controlPlane.operators;
    // No monitor: when each operator reported 4.14.1 is not recorded, so none is known to be waiting.
    expect(ops.waiting).toBe(0);
    expect(ops.updated + ops.updating + ops.unknown).toBe(ops.total);
    const { objects, unrewound } = objectsAt(degraded, t);
    const auth = objects.clusterOperators.find((o) => o.object.metadata.name === 'authentication');
    // oauth-openshift `4.14.1_openshift` is not the release's version, but it came with it.
    expect(auth?.object.status?.versions?.map((v) => v.name)).toEqual([]);
    expect(unrewound).toContainEqual(
      expect.objectContaining({
        object: 'ClusterOperator/authentication',
        field: 'status.versions[oauth-openshift]',
      }),
    );
  });

  it("an operator's extension then is not the snapshot's: machine-config's and insights' left out and listed", async () => {
    const degraded = await loadHistory([
      fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples/4.14.1-degraded'),
    ]);
    const { objects, unrewound } = objectsAt(degraded, Date.parse('2023-11-03T16:00:00Z'));
    const status = (name: string) =>
      objects.clusterOperators.find((o) => o.object.metadata.name === name)?.object.status;
    const last = (name: string) =>
      degraded.objects.clusterOperators.find((o) => o.object.metadata.name === name)?.object.status;
    // The snapshot (17:26) says how many masters are updating then, and when insights last reported.
    expect(JSON.stringify(last('machine-config')?.extension)).toMatch(/out of 3 nodes are updating/);
    for (const name of ['machine-config', 'insights']) {
      expect(status(name)?.extension).toBeUndefined();
      expect(status(name)?.relatedObjects).toEqual(last(name)?.relatedObjects);
      expect(unrewound).toContainEqual(
        expect.objectContaining({ object: `ClusterOperator/${name}`, field: 'status.extension' }),
      );
    }
    expect(unrewound).toContainEqual(
      expect.objectContaining({ object: 'ClusterOperator', field: 'status.relatedObjects' }),
    );
  });

  it('a request refused at the end is not taken as made before it: not-accepted, a week earlier', async () => {
    const refused = await loadHistory([join(projectRoot, 'test/fixtures/status/not-accepted')]);
    // ReleaseAccepted=False since 2024-03-20T09:12:44Z; when 4.16.0 was asked for is not recorded.
    const t = Date.parse('2024-03-15T00:00:00Z');
    const s = assessStatusAt(refused, t);
    expect(s.insights.filter((i) => i.kind === 'update-not-accepted')).toEqual([]);
    const { objects, unrewound } = objectsAt(refused, t);
    expect(objects.clusterVersions[0]?.object.spec?.desiredUpdate?.version).toBe('4.15.3');
    expect(unrewound).toContainEqual(
      expect.objectContaining({ object: 'ClusterVersion/version', field: 'spec.desiredUpdate' }),
    );
    // At the end it is the snapshot's: asked for and refused.
    const end = assessStatusAt(refused, refused.span?.to ?? 0);
    expect(end.insights.map((i) => i.kind)).toContain('update-not-accepted');
  });

  it('an operator degraded then is degraded, but not for the reason and message the snapshot gives later', async () => {
    const degraded = await loadHistory([
      fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples/4.14.1-degraded'),
    ]);
    const s = assessStatusAt(degraded, Date.parse('2023-11-03T17:20:00Z'));
    const kas = s.insights.find(
      (i) => i.kind === 'operator-degraded' && i.objects.some((o) => o.name === 'kube-apiserver'),
    );
    // The snapshot (17:26:54) says "(NodeController_MasterNodesReady)" and which node is not ready.
    expect(kas?.message).toBe('Cluster Operator kube-apiserver is degraded');
    expect(kas?.description).toBe(
      "atlevel cannot tell this condition's message at 2023-11-03T17:20:00Z from the inputs",
    );
    expect(s.controlPlane.blockers.join('\n')).not.toMatch(/NotRewound|UnavailableReplicas/);
  });
});
