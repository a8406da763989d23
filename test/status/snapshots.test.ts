/**
 * atlevel status on snapshots oc has no expected output for: two real steady-state must-gathers
 * (4.8 and 4.9, whose rendered configs predate the release-image-version annotation), a stuck drain
 * and an update the CVO refused to start (hand-made, test/fixtures/status).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type StatusJson, statusToJson } from '../../src/report/status-json.js';
import { renderStatusText } from '../../src/report/status-text.js';
import { assessStatus, isSerious, type UpdateStatus } from '../../src/status/index.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const MUST_GATHERS = 'openshift__must-gather-clean/test/files/extracted-subset';
const ours = (name: string) => join(projectRoot, 'test/fixtures/status', name);

describeFixtures('steady-state must-gathers', () => {
  it.each([
    ['must-gather-aws', '4.8.0-0.nightly-2021-07-31-065602', 'ip-10-0-187-218.ec2.internal'],
    [
      'must-gather-metal',
      '4.9.0-0.nightly-2021-09-10-170926',
      'master-0.ci-ln-xj8t7ct-86010.origin-ci-int-aws.dev.rhcloud.com',
    ],
  ])('%s is not updating and counts 3 masters and 3 workers', async (dir, version, aMaster) => {
    const json = statusToJson(assessStatus(await loadHistory([fixture(MUST_GATHERS, dir)])));
    expect(json.updating).toBe(false);
    expect(json.state).toBe('idle');
    expect(json.request).toBeNull();
    expect(json.currentVersion).toBe(version);
    expect(json.controlPlane.assessment).toBe('Completed');
    expect(json.insights).toEqual([]);
    expect(json.pools.map((p) => [p.name, p.assessment, p.updated, p.total])).toEqual([
      ['master', 'Completed', 3, 3],
      ['worker', 'Completed', 3, 3],
    ]);
    const master = json.pools[0]?.nodes.find((n) => n.name === aMaster);
    // These MCOs wrote no release-image-version: the version comes from the running controller.
    expect(master).toMatchObject({
      version,
      versionSource: 'controller',
      phase: 'Updated',
      assessment: 'Completed',
    });
  });

  it('prints "not updating" with the version and pool totals, and calls the install an install', async () => {
    const status = assessStatus(await loadHistory([fixture(MUST_GATHERS, 'must-gather-aws')]));
    const text = renderStatusText(status, { width: 200, details: 'none', colour: false });
    expect(text).toContain('The cluster is not updating.');
    // The only history entry is the installation: never called an update (issue 11).
    expect(text).toContain('4.8.0-0.nightly-2021-07-31-065602 (installed at 2021-08-03T09:45:28Z, took 30m)');
    expect(text).not.toContain('update completed');
    expect(status.controlPlane.newInstall).toBe(true);
    expect(text).toContain('Pools:           master 3/3 Completed, worker 3/3 Completed');
  });
});

describe('a drain blocked by a PodDisruptionBudget (test/fixtures/status/drain-blocked)', () => {
  let status: UpdateStatus;
  let json: StatusJson;
  beforeAll(async () => {
    status = assessStatus(await loadHistory([ours('drain-blocked')]));
    json = statusToJson(status);
  });

  it('is updating: the control plane is done, the worker pool is degraded at 1/3', () => {
    expect(json.state).toBe('updating');
    expect(json.controlPlane.assessment).toBe('Completed');
    expect(json.controlPlane.completedAt).toBe('2024-03-12T11:02:41Z');
    const worker = json.pools.find((p) => p.name === 'worker');
    expect(worker).toMatchObject({ assessment: 'Degraded', updated: 1, total: 3 });
    expect(worker?.counts).toEqual({
      available: 2,
      progressing: 0,
      draining: 1,
      excluded: 0,
      degraded: 1,
      outdated: 2,
      unknown: 0,
    });
    expect(worker?.nodes.map((n) => [n.name, n.assessment, n.phase, n.version])).toEqual([
      ['ip-10-0-2-22.ec2.internal', 'Degraded', 'Draining', '4.15.2'],
      ['ip-10-0-2-23.ec2.internal', 'Outdated', 'Pending', '4.15.2'],
      ['ip-10-0-2-21.ec2.internal', 'Completed', 'Updated', '4.15.3'],
    ]);
  });

  it('names the pod and the budget that block the drain, and not the budget that allows it', () => {
    const blocked = json.insights.find((i) => i.kind === 'drain-blocked');
    expect(blocked).toMatchObject({
      level: 'Error',
      impact: 'Update Stalled',
      message:
        'Drain of node ip-10-0-2-22.ec2.internal is blocked by PodDisruptionBudget shop/db (pod shop/db-0)',
      since: '2024-03-12T11:06:09Z',
    });
    expect(blocked?.objects).toEqual([
      { kind: 'Node', name: 'ip-10-0-2-22.ec2.internal', namespace: null },
      { kind: 'Pod', name: 'db-0', namespace: 'shop' },
      { kind: 'PodDisruptionBudget', name: 'db', namespace: 'shop' },
    ]);
    expect(blocked?.description).toContain('allows 0 disruptions (2 healthy, 2 required, 2 expected)');
    expect(blocked?.description).toContain('FailedToDrain at 2024-03-12T12:06:18Z');
    expect(JSON.stringify(json.insights)).not.toContain('prometheus-k8s');
  });

  it('warns that the next node will wait for another budget', () => {
    const next = json.insights.find((i) => i.kind === 'drain-will-block');
    expect(next).toMatchObject({ level: 'Warning', impact: 'Update Speed' });
    expect(next?.message).toBe(
      'PodDisruptionBudget shop/web allows no disruption; draining 1 node will wait for it',
    );
    expect(next?.objects.map((o) => o.name)).toEqual(['web', 'ip-10-0-2-23.ec2.internal']);
  });

  it('keeps what oc reports: the degraded node, with the daemon message', () => {
    const degraded = json.insights.find((i) => i.kind === 'node-degraded');
    expect(degraded?.message).toBe('Node ip-10-0-2-22.ec2.internal is degraded');
    expect(degraded?.description).toMatch(/^failed to drain node: ip-10-0-2-22\.ec2\.internal after 1 hour/);
    expect(status.insights.some(isSerious)).toBe(true);
  });

  it('lists the insights most severe first, then most recent first', () => {
    expect(json.insights.map((i) => `${i.level}:${i.kind}`)).toEqual([
      'Error:drain-blocked',
      'Error:node-degraded',
      'Warning:drain-will-block',
    ]);
  });
});

describe('an update requested but refused (test/fixtures/status/not-accepted)', () => {
  let status: UpdateStatus;
  let json: StatusJson;
  beforeAll(async () => {
    status = assessStatus(await loadHistory([ours('not-accepted')]));
    json = statusToJson(status);
  });

  it('is "requested", not "not updating"', () => {
    expect(json.updating).toBe(false);
    expect(json.state).toBe('requested');
    expect(json.currentVersion).toBe('4.15.3');
    expect(json.request).toMatchObject({
      version: '4.16.0',
      accepted: false,
      reason: 'PreconditionChecks',
      since: '2024-03-20T09:12:44Z',
    });
    expect(json.request?.message).toContain(
      'Precondition "ClusterVersionUpgradeable" failed because of "AdminAckRequired"',
    );
  });

  it('raises an Error insight, so the command exits 1', () => {
    expect(json.insights.map((i) => [i.kind, i.level, i.impact, i.message])).toEqual([
      [
        'update-not-accepted',
        'Error',
        'Update Stalled',
        'Update to 4.16.0 was requested but not accepted (PreconditionChecks)',
      ],
    ]);
    expect(status.insights.some(isSerious)).toBe(true);
  });

  it('says so in text', () => {
    const text = renderStatusText(status, { width: 100, details: 'none', colour: false });
    expect(text).toContain('An update was requested but has not started.');
    expect(text).toContain('Status:          not accepted (PreconditionChecks) since 2024-03-20T09:12:44Z');
    expect(text).not.toContain('The cluster is not updating');
  });
});

describe('alerts captured with the snapshot', () => {
  it('become insights when they fired during the update (PDB alerts whenever they began)', async () => {
    const history = await loadHistory([ours('drain-blocked')]);
    const alerts = JSON.parse(readFileSync(ours('alerts-inspect.json'), 'utf8')).data.alerts;
    const json = statusToJson(assessStatus({ ...history, alerts } as typeof history));
    expect(json.insights.filter((i) => i.kind === 'alert').map((i) => [i.level, i.objects[0]?.name])).toEqual(
      [
        ['Critical', 'KubeAPIDown'],
        ['Warning', 'PodDisruptionBudgetAtLimit'],
      ],
    );
    // Critical sorts above the Error insights; the alert that predates the update is left out.
    expect(json.insights[0]?.level).toBe('Critical');
    expect(JSON.stringify(json.insights)).not.toContain('AlertmanagerReceiversNotConfigured');
  });
});
