/** The real public data in ../shared/fixtures: every layout it has loads, with the counts it really holds. */
import { expect, it } from 'vitest';
import { describeFixtures, fixture } from '../helpers/fixtures.js';
import { loadHistoryParts } from '../helpers/load.js';

const examples = (name: string) => fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples', name);
const mustGather = (name: string) =>
  fixture('openshift__must-gather-clean/test/files/extracted-subset', `must-gather-${name}`);
const origin = (path: string) => fixture('openshift__origin/pkg/monitortests', path);

describeFixtures('oc adm upgrade status examples', () => {
  it.each([
    // case, ClusterOperators, pools, MachineConfigs, nodes, desired version, paused pools
    ['not-upgrading', 33, 2, 18, 6, '4.14.1', []],
    ['no-version-upgrading', 33, 2, 22, 6, '4.18.0-ec.3', []],
    ['4.14.1-degraded', 33, 2, 18, 6, '4.14.1', []],
    ['4.14.1-paused-worker-pool', 33, 2, 18, 6, '4.14.1', ['worker']],
    ['4.15.0-ec2-early', 33, 2, 18, 6, '4.15.0-ec.2', []],
    ['4.16.0-compact', 33, 2, 16, 3, '4.17.0-ec.0', []],
    ['4.16.0-single-node', 33, 2, 18, 1, '4.17.0-ec.0', []],
  ] as const)('%s', async (name, cos, pools, mcs, nodes, desired, paused) => {
    const parts = await loadHistoryParts([examples(name)]);
    const o = parts.objects;
    expect(o.clusterVersions).toHaveLength(1);
    expect(o.clusterVersions[0]?.object.status?.desired?.version).toBe(desired);
    expect(o.clusterOperators).toHaveLength(cos);
    expect(o.machineConfigPools.map((p) => p.object.metadata.name)).toEqual(['master', 'worker']);
    expect(o.machineConfigPools).toHaveLength(pools);
    expect(o.machineConfigs).toHaveLength(mcs);
    expect(o.nodes).toHaveLength(nodes);
    expect(
      o.machineConfigPools.filter((p) => p.object.spec?.paused).map((p) => p.object.metadata.name),
    ).toEqual(paused);
    expect(parts.inputs).toHaveLength(5);
  });

  it('reads the List-wrapped ClusterVersion of 4.14.1-paused-worker-pool with its path', async () => {
    const parts = await loadHistoryParts([examples('4.14.1-paused-worker-pool')]);
    expect(parts.objects.clusterVersions[0]?.ref).toEqual({
      file: `${examples('4.14.1-paused-worker-pool')}-cv.yaml`,
      line: 1,
      path: 'items[0]',
    });
  });
});

describeFixtures('must-gathers', () => {
  it.each([
    // name, version, COs, MCs, events, alerts
    ['aws', '4.8.0-0.nightly-2021-07-31-065602', 31, 12, 124, 2],
    ['metal', '4.9.0-0.nightly-2021-09-10-170926', 32, 13, 106, undefined],
  ] as const)('%s', async (name, version, cos, mcs, events, alerts) => {
    const parts = await loadHistoryParts([mustGather(name)]);
    const o = parts.objects;
    expect(o.clusterVersions).toHaveLength(1);
    expect(o.clusterVersions[0]?.object.status?.desired?.version).toBe(version);
    // clusteroperators.yaml (a List) and clusteroperators/<name>.yaml hold the same objects: counted once.
    expect(o.clusterOperators).toHaveLength(cos);
    expect(new Set(o.clusterOperators.map((c) => c.object.metadata.name)).size).toBe(cos);
    expect(o.machineConfigPools.map((p) => p.object.metadata.name).sort()).toEqual(['master', 'worker']);
    expect(o.machineConfigs).toHaveLength(mcs);
    expect(o.nodes).toHaveLength(6);
    expect(o.events).toHaveLength(events);
    expect(o.pods).toHaveLength(11);
    expect(o.controllerConfigs).toHaveLength(1);
    expect(parts.alerts?.length).toBe(alerts);
    expect(parts.notes.some((n) => /objects were seen more than once/.test(n))).toBe(true);
  });
});

describeFixtures('origin interval files', () => {
  it('reads the duplicate-key startingEvents (the structured objects win)', async () => {
    const parts = await loadHistoryParts([
      origin('node/nodestateanalyzer/nodeTest/drain-02/startingEvents.json'),
    ]);
    expect(parts.monitorIntervals.map((i) => i.message.reason)).toEqual([
      'Cordon',
      'Drain',
      'InClusterUpgrade',
      'OSUpdateStarted',
    ]);
    expect(parts.monitorIntervals[0]?.locator).toEqual({
      type: 'Node',
      keys: { hmsg: '94b2a62d8a', node: 'ci-op-wh7nq7n4-206af-q9jvw-worker-a-rdxtm' },
    });
    expect(parts.monitorIntervals[0]?.from).toBe(Date.parse('2023-07-18T16:40:16Z'));
  });

  it('reads drain-01 startingEvents', async () => {
    const parts = await loadHistoryParts([
      origin('node/nodestateanalyzer/nodeTest/drain-01/startingEvents.json'),
    ]);
    expect(parts.monitorIntervals.map((i) => [i.message.reason, i.message.humanMessage])).toEqual([
      ['Drain', 'Draining node to update config.'],
      ['OSUpdateStarted', 'Upgrading OS'],
    ]);
  });

  it('reads the older tempStructured expected.json through its string locator and message', async () => {
    const parts = await loadHistoryParts([origin('node/nodestateanalyzer/nodeTest/drain-01/expected.json')]);
    expect(parts.monitorIntervals).toEqual([
      expect.objectContaining({
        level: 'Info',
        locator: { type: 'Node', keys: { node: 'ci-op-3zwth0s8-03fd1-bcssj-worker-a-2lcx7' } },
        message: {
          reason: 'NodeUpdate',
          humanMessage: 'drained node',
          annotations: {
            constructed: 'node-lifecycle-constructor',
            reason: 'NodeUpdate',
            phase: 'Drain',
            roles: 'worker',
          },
        },
        from: Date.parse('2023-07-17T22:58:52Z'),
        to: Date.parse('2023-07-17T23:00:24Z'),
      }),
      expect.objectContaining({
        level: 'Warning',
        message: expect.objectContaining({
          humanMessage: 'never completed',
          annotations: expect.objectContaining({ state: 'OperatingSystemUpdate' }),
        }),
      }),
    ]);
  });

  it('reads the current-format expected.json', async () => {
    const parts = await loadHistoryParts([origin('node/nodestateanalyzer/nodeTest/drain-02/expected.json')]);
    expect(
      parts.monitorIntervals.map((i) => [
        i.locator.keys.row,
        i.message.annotations.phase ?? i.message.annotations.state,
      ]),
    ).toEqual([
      ['NodeUpdatePhases', 'Drain'],
      ['NodeUpdatePhases', 'OperatingSystemUpdate'],
    ]);
    expect(parts.monitorIntervals[1]?.to).toBe(Date.parse('2023-07-19T23:58:52Z'));
  });

  it('reads pod and container intervals of render_test_01 (duplicate keys)', async () => {
    const parts = await loadHistoryParts([
      origin('testframework/timelineserializer/render_test_01_skip_e2e.json'),
    ]);
    expect(parts.monitorIntervals.map((i) => [i.locator.type, i.message.reason, i.to - i.from])).toEqual([
      ['Pod', 'Created', 0],
      ['Container', 'ContainerWait', 6000],
    ]);
  });
});

describeFixtures('release payloads', () => {
  it('takes a CVO payload folder as --release-to', async () => {
    const parts = await loadHistoryParts([examples('not-upgrading')], {
      releaseTo: fixture('openshift__cluster-version-operator/pkg/cvo/testdata/payloadtest'),
    });
    expect(parts.releases.to?.version).toBe('1.0.0-abc');
  });

  it('reads a nameless operator image-references given directly', async () => {
    const parts = await loadHistoryParts([
      fixture('openshift__machine-config-operator/install/image-references'),
    ]);
    expect(parts.releases.to?.components.map((c) => c.name)).toContain('machine-config-operator');
    expect(parts.notes.some((n) => n.includes('taken as the release updated to'))).toBe(true);
  });
});
