import { describe, expect, it } from 'vitest';
import { assessPool, assignNodesToPools } from '../../src/status/pools.js';
import type { NodeStatus } from '../../src/status/types.js';
import { node, pool } from './build.js';

describe('nodes are matched to pools by label selector (docs/domain.md 4.4)', () => {
  const pools = [pool('master'), pool('worker'), pool('infra'), pool('gpu')];

  it('master first, then a custom pool, then worker', () => {
    const m = assignNodesToPools(pools, [
      node({
        name: 'm',
        labels: { 'node-role.kubernetes.io/master': '', 'node-role.kubernetes.io/worker': '' },
      }),
      node({
        name: 'i',
        labels: { 'node-role.kubernetes.io/infra': '', 'node-role.kubernetes.io/worker': '' },
      }),
      node({ name: 'w', labels: { 'node-role.kubernetes.io/worker': '' } }),
    ]);
    const names = (p: string) => m.byPool.get(p)?.map((n) => n.object.metadata.name);
    expect([names('master'), names('infra'), names('worker'), names('gpu')]).toEqual([
      ['m'],
      ['i'],
      ['w'],
      [],
    ]);
    expect(m.insights).toEqual([]);
    expect(m.unassigned).toEqual([]);
  });

  it('a node two custom pools select is flagged: the MCO will not update it', () => {
    const m = assignNodesToPools(pools, [
      node({ name: 'x', labels: { 'node-role.kubernetes.io/infra': '', 'node-role.kubernetes.io/gpu': '' } }),
    ]);
    expect(m.byPool.get('gpu')?.map((n) => n.object.metadata.name)).toEqual(['x']);
    expect(m.insights.map((i) => [i.kind, i.level, i.message])).toEqual([
      ['node-pool-conflict', 'Warning', 'Node x is selected by pools gpu, infra; the MCO will not update it'],
    ]);
  });

  it('Windows nodes are left out, unselected nodes are reported', () => {
    const m = assignNodesToPools(pools, [
      node({ name: 'win', labels: { 'kubernetes.io/os': 'windows', 'node-role.kubernetes.io/worker': '' } }),
      node({ name: 'stray', labels: { 'node-role.kubernetes.io/edge': '' } }),
    ]);
    expect(m.byPool.get('worker')).toEqual([]);
    expect(m.unassigned).toEqual(['stray']);
  });
});

describe('pool assessment from its nodes', () => {
  const n = (phase: NodeStatus['phase'], extra: Partial<NodeStatus> = {}) =>
    ({
      name: phase,
      phase,
      unavailable: false,
      degraded: false,
      updated: phase === 'Updated',
      ...extra,
    }) as NodeStatus;

  it.each([
    [[], 'Empty'],
    [[n('Updated'), n('Updated')], 'Completed'],
    [[n('Pending'), n('Pending')], 'Pending'],
    [[n('Updated'), n('Draining', { degraded: true })], 'Degraded'],
    [[n('Paused'), n('Updated')], 'Excluded'],
    [[n('Updating'), n('Pending')], 'Progressing'],
  ] as const)('%j is %s', (nodes, expected) => {
    expect(assessPool(pool('worker'), nodes).status.assessment).toBe(expected);
  });

  it('counts as oc does: draining nodes are outdated and progressing unless degraded', () => {
    const { status } = assessPool(pool('worker'), [
      n('Draining'),
      n('Draining', { degraded: true }),
      n('Rebooting', { unavailable: true }),
      n('Updated'),
    ]);
    expect(status).toMatchObject({ updated: 1, total: 4, completionPercent: 25 });
    expect(status.counts).toEqual({
      available: 3,
      progressing: 2,
      draining: 2,
      excluded: 0,
      degraded: 1,
      outdated: 3,
      unknown: 0,
    });
  });

  it('a paused pool with outdated nodes gets the Update Stalled warning', () => {
    const { insights } = assessPool(pool('worker', { paused: true }), [n('Paused')]);
    expect(insights.map((i) => [i.level, i.impact, i.message])).toEqual([
      ['Warning', 'Update Stalled', "Outdated nodes in a paused pool 'worker' will not be updated"],
    ]);
  });

  it('never says 100% before every node is updated', () => {
    const nodes = [...Array.from({ length: 199 }, () => n('Updated')), n('Pending')];
    expect(assessPool(pool('worker'), nodes).status.completionPercent).toBe(99);
  });
});
