/**
 * Past a flood of Events (MAX_EVENTS), live keeps only those an analysis reads: the level reports'
 * `OperatorVersionChanged` among them, in both forms (docs/domain.md 5.2.1), or a flood in an operator's
 * namespace would leave the level rules with no time for its report.
 */
import { describe, expect, it } from 'vitest';
import { LiveState, MAX_EVENTS, RESOURCES } from '../../src/live/index.js';
import { LIVE_READING } from '../../src/sources/index.js';

const NS = 'openshift-etcd-operator';

function event(name: string, reason: string, message: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: NS },
    involvedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'etcd-operator', namespace: NS },
    reason,
    message,
    firstTimestamp: '2021-11-03T02:56:26Z',
    lastTimestamp: '2021-11-03T02:56:26Z',
  };
}

describe('a flood of Events', () => {
  it("keeps a library-go operator's level report, and drops what no analysis reads", () => {
    const state = new LiveState('https://api.example:6443', RESOURCES, LIVE_READING.validate);
    for (let i = 0; i < MAX_EVENTS; i++)
      state.put('Event', event(`flood-${i}`, 'BackOff', 'Back-off restarting failed container'));
    expect(state.store('Event', event('late', 'BackOff', 'Back-off')).kept).toBe(false);
    const report = event(
      'etcd-operator.16b4327a8f3c1e20',
      'OperatorVersionChanged',
      'clusteroperator/etcd version "operator" changed from "4.10.0-a" to "4.10.0-b"',
    );
    expect(state.store('Event', report).kept).toBe(true);
    expect(state.count('Event')).toBe(MAX_EVENTS + 1);
  });
});
