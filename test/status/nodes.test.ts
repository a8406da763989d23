import { describe, expect, it } from 'vitest';
import { assessNode, compareNodes } from '../../src/status/nodes.js';
import type { NodeStatus } from '../../src/status/types.js';
import type { ConfigVersion } from '../../src/status/versions.js';
import { node, pool } from './build.js';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const versions = new Map<string, ConfigVersion>([
  ['rendered-worker-old', { version: '4.15.2', source: 'annotation' }],
  ['rendered-worker-new', { version: '4.15.3', source: 'annotation' }],
]);
const ctx = (paused = false) => ({
  pool: pool('worker', { paused }).object,
  targetVersion: '4.15.3',
  configVersions: versions,
  now: NOW,
});
const OLD = 'rendered-worker-old';
const NEW = 'rendered-worker-new';

function assess(spec: Parameters<typeof node>[0], paused = false) {
  return assessNode(node(spec), ctx(paused));
}

describe('node phase and assessment (docs/domain.md 9.2)', () => {
  it('a node on the target version is Updated / Completed', () => {
    const { status } = assess({ current: NEW, desired: NEW, state: 'Done' });
    expect(status).toMatchObject({
      phase: 'Updated',
      assessment: 'Completed',
      version: '4.15.3',
      timeLeft: 0,
    });
  });

  it('a node not yet targeted waits: Pending / Outdated, no estimate', () => {
    const { status } = assess({ current: OLD, desired: OLD, state: 'Done' });
    expect(status).toMatchObject({ phase: 'Pending', assessment: 'Outdated', version: '4.15.2' });
    expect(status.timeLeft).toBeUndefined();
  });

  it('in a paused pool the same node is Paused / Excluded', () => {
    expect(assess({ current: OLD, desired: OLD, state: 'Done' }, true).status).toMatchObject({
      phase: 'Paused',
      assessment: 'Excluded',
    });
  });

  it('an unfinished drain request is Draining (+10m)', () => {
    const { status } = assess({
      current: OLD,
      desired: NEW,
      state: 'Working',
      desiredDrain: `drain-${NEW}`,
      lastAppliedDrain: `uncordon-${OLD}`,
      unschedulable: true,
    });
    expect(status).toMatchObject({
      phase: 'Draining',
      assessment: 'Progressing',
      timeLeft: 600_000,
      updating: true,
    });
  });

  it('targeted but the daemon still says Done: about to drain', () => {
    expect(assess({ current: OLD, desired: NEW, state: 'Done' }).status.phase).toBe('Draining');
  });

  it('drained and working is Updating; the daemon rebooting is Rebooting (+5m)', () => {
    const drained = {
      current: OLD,
      desired: NEW,
      desiredDrain: `drain-${NEW}`,
      lastAppliedDrain: `drain-${NEW}`,
    };
    expect(assess({ ...drained, state: 'Working' }).status).toMatchObject({
      phase: 'Updating',
      timeLeft: 300_000,
    });
    expect(assess({ ...drained, state: 'Rebooting' }).status).toMatchObject({
      phase: 'Rebooting',
      timeLeft: 300_000,
    });
  });

  it('a degraded daemon makes the node Degraded with its reason, and an Error insight', () => {
    const { status, insights } = assess({
      name: 'worker-7',
      current: OLD,
      desired: NEW,
      state: 'Degraded',
      reason: 'failed to drain node: worker-7 after 1 hour',
      desiredDrain: `drain-${NEW}`,
      lastAppliedDrain: `uncordon-${OLD}`,
    });
    expect(status).toMatchObject({ assessment: 'Degraded', phase: 'Draining', degraded: true });
    expect(status.message).toBe('failed to drain node: worker-7 after 1 hour');
    expect(insights.map((i) => [i.kind, i.level, i.impact, i.message])).toEqual([
      ['node-degraded', 'Error', 'Update Stalled', 'Node worker-7 is degraded'],
    ]);
  });

  it('NotReady for more than 5 minutes is Unavailable with a Warning; for 2 minutes, no insight yet', () => {
    const notReady = (since: string) =>
      assess({
        name: 'worker-9',
        current: OLD,
        desired: OLD,
        state: 'Done',
        conditions: [
          { type: 'Ready', status: 'False', lastTransitionTime: since, message: 'PLEG is not healthy' },
        ],
      });
    const long = notReady('2024-01-01T11:50:00Z');
    expect(long.status).toMatchObject({ assessment: 'Unavailable', message: 'Not ready', unavailable: true });
    expect(long.insights.map((i) => [i.level, i.impact, i.message, i.since])).toEqual([
      ['Warning', 'Update Speed', 'Node worker-9 is not ready', Date.parse('2024-01-01T11:50:00Z')],
    ]);
    expect(long.insights[0]?.description).toBe(
      'Node has a Ready!=True condition with message "PLEG is not healthy"',
    );
    const short = notReady('2024-01-01T11:58:00Z');
    expect(short.status.assessment).toBe('Unavailable');
    expect(short.insights).toEqual([]);
  });

  it('status --at: NotReady known but its message not (reason NotRewound) is still NotReady, and says so', () => {
    const { status, insights } = assess({
      name: 'worker-9',
      current: OLD,
      desired: OLD,
      state: 'Done',
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          lastTransitionTime: '2024-01-01T11:50:00Z',
          reason: 'NotRewound',
          message: "atlevel cannot tell this condition's message at 2024-01-01T12:00:00Z from the inputs",
        },
      ],
    });
    expect(status).toMatchObject({ assessment: 'Unavailable', message: 'Not ready', unavailable: true });
    expect(insights.map((i) => i.description)).toEqual([
      'Node has a Ready!=True condition; its message then is not known (not rewound)',
    ]);
    // Unknown status (reason NotRewound, status Unknown) is not held against the node.
    const unknown = assess({
      current: OLD,
      desired: OLD,
      state: 'Done',
      conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NotRewound' }],
    });
    expect(unknown.status.unavailable).toBe(false);
  });

  it('a cordoned node is unavailable but not a problem worth an insight', () => {
    const { status, insights } = assess({ current: OLD, desired: OLD, state: 'Done', unschedulable: true });
    expect(status).toMatchObject({ assessment: 'Unavailable', message: 'Node is marked unschedulable' });
    expect(insights).toEqual([]);
  });

  it('a config whose version is unknown leaves the node Pending with no version', () => {
    const { status } = assess({
      current: 'rendered-worker-unknown',
      desired: 'rendered-worker-unknown',
      state: 'Done',
    });
    expect(status.version).toBeUndefined();
    expect(status.phase).toBe('Pending');
  });

  it('orders problems first, then work in progress, then waiting, then done', () => {
    const s = (name: string, assessment: NodeStatus['assessment'], phase: NodeStatus['phase']) =>
      ({ name, assessment, phase }) as NodeStatus;
    const sorted = [
      s('d', 'Completed', 'Updated'),
      s('c', 'Outdated', 'Pending'),
      s('b', 'Progressing', 'Rebooting'),
      s('a', 'Progressing', 'Draining'),
      s('e', 'Degraded', 'Draining'),
    ].sort(compareNodes);
    expect(sorted.map((n) => n.name)).toEqual(['e', 'a', 'b', 'c', 'd']);
  });
});
