import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alertsOf } from '../../src/sources/alerts.js';
import { alertInsights, normalizeAlerts } from '../../src/status/alerts.js';
import { projectRoot } from '../helpers/fixtures.js';

const inspectDoc = JSON.parse(
  readFileSync(join(projectRoot, 'test/fixtures/status/alerts-inspect.json'), 'utf8'),
);
/** As the sources hand them over: flattened out of the inspect-alerts document. */
const inspect = alertsOf(inspectDoc);
const UPDATE_STARTED = Date.parse('2024-03-12T10:00:04Z');

describe('alerts as insights', () => {
  it('reads oc adm inspect-alerts output and skips entries without a name', () => {
    expect(normalizeAlerts(inspect).map((a) => a.name)).toEqual([
      'PodDisruptionBudgetAtLimit',
      'KubeAPIDown',
      'ClusterOperatorDegraded',
      'UpdateAvailable',
      'AlertmanagerReceiversNotConfigured',
    ]);
  });

  it('reads the rules API (must-gather monitoring/alerts.json) and inspect-alerts alike', () => {
    const alerts = inspectDoc.data.alerts;
    const rules = {
      status: 'success',
      data: { groups: [{ rules: [{ alerts: alerts.slice(0, 2) }, { alerts: alerts.slice(2) }] }] },
    };
    const names = (raw: unknown) => normalizeAlerts(alertsOf(raw)).map((a) => a.name);
    const expected = normalizeAlerts(inspect).map((a) => a.name);
    expect(expected).toHaveLength(5);
    expect(names(rules)).toEqual(expected);
    expect(normalizeAlerts(alerts).map((a) => a.name)).toEqual(expected);
    expect(normalizeAlerts(undefined)).toEqual([]);
    expect(alertsOf({ kind: 'ClusterVersion' })).toBeUndefined();
  });

  it('keeps firing warning and critical alerts begun during the update, and PDB alerts however old', () => {
    const insights = alertInsights(normalizeAlerts(inspect), UPDATE_STARTED);
    expect(insights.map((i) => [i.level, i.impact, i.message, i.reference ?? null])).toEqual([
      [
        'Warning',
        'Unknown',
        'Alert: The pod disruption budget is preventing further disruption to pods.',
        'https://github.com/openshift/runbooks/blob/master/alerts/cluster-kube-controller-manager-operator/PodDisruptionBudgetAtLimit.md',
      ],
      ['Critical', 'Unknown', 'Alert: Target disappeared from Prometheus target discovery.', null],
    ]);
    expect(insights[0]?.objects).toEqual([
      { kind: 'Alert', name: 'PodDisruptionBudgetAtLimit', namespace: 'shop' },
    ]);
    expect(insights[0]?.since).toBe(Date.parse('2024-03-10T08:00:00.123Z'));
  });
});
