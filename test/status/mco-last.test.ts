/**
 * oc's control-plane rule (openshift/oc pkg/cli/admin/upgrade/status, controlplane.go): when
 * machine-config is the last operator still updating, its Progressing start counts as the last
 * observed progress, because DaemonSet operators flip Progressing while nodes reboot. A late flip of
 * such an operator must not change the estimate then; while other operators still update, it does.
 */
import { describe, expect, it } from 'vitest';
import type { Observed } from '../../src/model/history.js';
import type { ClusterOperator, ClusterVersion, Condition } from '../../src/model/objects.js';
import { assessControlPlane } from '../../src/status/controlplane.js';

const OLD = '4.15.0';
const NEW = '4.16.0';
const t = (clock: string) => `2024-06-01T${clock}Z`;
const cond = (type: string, status: string, at: string): Condition => ({
  type,
  status,
  lastTransitionTime: at,
});

function cv(): Observed<ClusterVersion> {
  return {
    object: {
      kind: 'ClusterVersion',
      metadata: { name: 'version' },
      spec: {},
      status: {
        desired: { version: NEW, image: `registry/release:${NEW}` },
        history: [
          {
            state: 'Partial',
            version: NEW,
            image: `registry/release:${NEW}`,
            startedTime: t('10:00:00'),
            completionTime: null,
            verified: false,
          },
          {
            state: 'Completed',
            version: OLD,
            image: `registry/release:${OLD}`,
            startedTime: t('08:00:00'),
            completionTime: t('09:00:00'),
            verified: false,
          },
        ],
        conditions: [cond('Progressing', 'True', t('10:00:00')), cond('Failing', 'False', t('10:00:00'))],
      },
    } as ClusterVersion,
    ref: { file: 'cv.yaml' },
  };
}

function co(name: string, version: string, progressing: Condition): Observed<ClusterOperator> {
  return {
    object: {
      kind: 'ClusterOperator',
      metadata: {
        name,
        annotations: { 'include.release.openshift.io/self-managed-high-availability': 'true' },
      },
      status: {
        conditions: [
          cond('Available', 'True', t('09:00:00')),
          cond('Degraded', 'False', t('09:00:00')),
          progressing,
        ],
        versions: [{ name: 'operator', version }],
      },
    } as ClusterOperator,
    ref: { file: 'co.yaml' },
  };
}

const now = Date.parse(t('10:40:00'));

function estimate(dnsFlip: string, stillUpdating: readonly string[]) {
  const operators = [
    co('machine-config', OLD, cond('Progressing', 'True', t('10:20:00'))),
    co('dns', NEW, cond('Progressing', 'False', dnsFlip)),
    ...stillUpdating.map((n) => co(n, OLD, cond('Progressing', 'True', t('10:05:00')))),
    ...Array.from({ length: 8 }, (_, i) => co(`op-${i}`, NEW, cond('Progressing', 'False', t('10:10:00')))),
  ];
  return assessControlPlane(cv(), operators, now).status.estimate;
}

describe('machine-config, last to update, sets the last observed progress', () => {
  it('a DaemonSet operator flipping Progressing while nodes reboot does not move the estimate', () => {
    expect(estimate(t('10:38:00'), [])).toEqual(estimate(t('10:25:00'), []));
  });

  it('while another operator still updates, the latest Progressing change is the last progress', () => {
    expect(estimate(t('10:38:00'), ['etcd'])).not.toEqual(estimate(t('10:25:00'), ['etcd']));
  });
});
