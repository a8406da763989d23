/**
 * The level is the payload, not the version string (issue 11, section 5): an update that keeps the
 * version string but changes the payload image is in progress until the nodes run a config rendered
 * for the new payload. Built on oc's `no-version-upgrading` snapshot (4.18.0-ec.3 → 4.18.0-ec.3, a new
 * payload image), where every node already runs such a config and oc says "not updating".
 */
import { beforeAll, expect, it } from 'vitest';
import type { ClusterHistory, Observed } from '../../src/model/history.js';
import { MCO, type Node } from '../../src/model/objects.js';
import { renderStatusText } from '../../src/report/status-text.js';
import { assessStatus } from '../../src/status/index.js';
import { describeFixtures, fixture } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const CASE = 'openshift__oc/pkg/cli/admin/upgrade/status/examples/no-version-upgrading';
const STARTED = Date.parse('2024-12-10T18:19:30Z');

describeFixtures('an update to the same version with a new payload', () => {
  let history: ClusterHistory;
  beforeAll(async () => {
    history = await loadHistory([fixture(CASE)]);
  });

  it('is recognised from ClusterVersion history: same version, another image', () => {
    const [latest, previous] = history.objects.clusterVersions[0]?.object.status?.history ?? [];
    expect(latest?.version).toBe(previous?.version);
    expect(latest?.image).not.toBe(previous?.image);
  });

  it('as captured: every node runs a config rendered for the new payload, so it is at level (as oc says)', () => {
    const s = assessStatus(history);
    expect(s.updating).toBe(false);
    expect(s.pools.map((p) => [p.name, p.updated, p.total])).toEqual([
      ['master', 3, 3],
      ['worker', 3, 3],
    ]);
  });

  it('the pools line does not call a pool rolling out a config "Completed" without saying so', () => {
    const text = renderStatusText(assessStatus(history), { colour: false, width: 200, details: 'none' });
    expect(text).toContain('worker 3/3 at version, rolling out a new config (0/3)');
    expect(text).not.toContain('worker 3/3 Completed');
  });

  it('with the workers still on a config rendered before the update: in progress, workers not updated', () => {
    const old = history.objects.machineConfigs
      .filter((m) => m.object.metadata.name.startsWith('rendered-worker-'))
      .map((m) => ({
        name: m.object.metadata.name,
        at: Date.parse(m.object.metadata.creationTimestamp ?? ''),
      }))
      .filter((m) => m.at < STARTED)
      .sort((a, b) => a.at - b.at)[0];
    expect(old).toBeDefined();
    const worker = history.objects.machineConfigPools.find((p) => p.object.metadata.name === 'worker');
    const selector = worker?.object.spec?.nodeSelector?.matchLabels ?? {};
    const isWorker = (n: Observed<Node>) =>
      Object.entries(selector).every(([k, v]) => n.object.metadata.labels?.[k] === v) &&
      n.object.metadata.labels?.['node-role.kubernetes.io/master'] === undefined;
    const nodes = history.objects.nodes.map((n) =>
      isWorker(n)
        ? {
            ...n,
            object: {
              ...n.object,
              metadata: {
                ...n.object.metadata,
                annotations: {
                  ...n.object.metadata.annotations,
                  [MCO.currentConfig]: old?.name ?? '',
                  [MCO.desiredConfig]: old?.name ?? '',
                  [MCO.state]: 'Done',
                },
              },
            },
          }
        : n,
    );
    const s = assessStatus({ ...history, objects: { ...history.objects, nodes } });
    const w = s.pools.find((p) => p.name === 'worker');
    expect(w?.updated).toBe(0);
    expect(w?.assessment).not.toBe('Completed');
    expect(s.updating).toBe(true);
    expect(s.state).toBe('updating');
    expect(s.pools.find((p) => p.name === 'master')?.updated).toBe(3);
  });
});
