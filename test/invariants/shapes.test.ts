/**
 * Cluster shapes that once drew a verdict the inputs did not support (issue: adversarial review of
 * the rules on realistic shapes). Each states the shape in a few objects and the verdict a careful
 * engineer would give.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { clusterVersion, cond, monitor, parts, pool, ref, rendered, T } from '../helpers/build.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const A = '4.15.0-ec.0';
const B = '4.15.0-ec.1';

const outcome = (h: ReturnType<typeof buildHistory>, id: string) =>
  analyzeHistory(h).outcomes.find((o) => o.rule.id === id);

describe('shapes whose verdict the inputs do not support', () => {
  it('history marks the update Completed without a completionTime: the master-pool rule is not checked, never "does not apply"', () => {
    const p = parts();
    p.objects.clusterVersions.push({
      object: clusterVersion([
        { state: 'Completed', version: B, started: '2023-10-23T13:34:38Z' },
        {
          state: 'Completed',
          version: A,
          started: '2023-10-01T10:00:00Z',
          completed: '2023-10-01T11:00:00Z',
        },
      ]),
      ref: ref('cv.yaml'),
    });
    p.objects.machineConfigPools.push({
      object: pool('master', 'rendered-master-new', [
        cond('Updated', 'True', '2023-10-23T14:30:00Z'),
        cond('Updating', 'False', '2023-10-23T14:30:00Z'),
      ]),
      ref: ref('mcp.yaml'),
    });
    for (const [name, at, release] of [
      ['rendered-master-old', '2023-10-01T10:30:00Z', A],
      ['rendered-master-new', '2023-10-23T14:00:00Z', B],
    ] as const) {
      p.objects.machineConfigs.push({ object: rendered(name, at, { release }), ref: ref('mc.yaml') });
    }
    const o = outcome(buildHistory(p), 'master-pool-updated-before-cvo-complete');
    expect(o?.state).toBe('not-checked');
    expect(o?.reason).toContain('do not say when the CVO completed it');
    expect(o?.missing.length).toBeGreaterThan(0);
  });
});

describe('a pool degraded twice', () => {
  it('degraded, recovered, then degraded again to the end of the inputs: a failure, not "recovered"', () => {
    const p = parts();
    p.objects.clusterVersions.push({
      object: clusterVersion([
        {
          state: 'Completed',
          version: B,
          started: '2023-10-23T13:00:00Z',
          completed: '2023-10-23T14:00:00Z',
        },
        {
          state: 'Completed',
          version: A,
          started: '2023-10-01T10:00:00Z',
          completed: '2023-10-01T11:00:00Z',
        },
      ]),
      ref: ref('cv.yaml'),
    });
    const flip = (clock: string, status: string) =>
      monitor(
        T(clock, '2023-10-23'),
        'MachineConfigPool',
        { machineconfigpool: 'worker' },
        `changed to NodeDegraded=${status}`,
        { condition: 'NodeDegraded', status },
      );
    p.monitorIntervals.push(flip('13:30:00', 'True'), flip('13:35:00', 'False'), flip('13:50:00', 'True'));
    const o = outcome(buildHistory(p), 'pool-degraded');
    expect(o?.state).toBe('violated');
    expect(o?.findings[0]?.summary).toContain('13:50:00');
    expect(o?.findings[0]?.summary).toContain('to the end of the inputs');
  });
});

// test/fixtures/analyze/day2-kubeletconfig-after-update: the bundled fixed example's snapshot with a
// KubeletConfig applied 4 minutes after the CVO completed (its `99-master-generated-kubelet` annotated
// by the controller, rendered at 03:33:05 and stamped for the new release, rolled out by 03:45).
describe('a snapshot with a KubeletConfig applied right after the update', () => {
  it('the race rules hold: the day-2 config is a later rollout, not the update’s own', async () => {
    const h = await loadHistory([join(projectRoot, 'test/fixtures/analyze/day2-kubeletconfig-after-update')]);
    const r = analyzeHistory(h);
    expect(r.verdict).not.toBe('fail');
    const states = Object.fromEntries(r.outcomes.map((o) => [o.rule.id, o.state]));
    expect(states['master-pool-updated-before-cvo-complete']).toBe('holds');
    expect(states['operator-level-before-required-pool-target']).toBe('holds');
    const later = h.intervals.find(
      (i) => i.message.annotations.config === 'rendered-master-3333aaaa3333aaaa3333aaaa3333aaaa',
    );
    expect(later?.message.reason).toBe('LaterRollout');
  });
});

// A user's MachineConfig created in the last seconds of an update: the new controller renders it,
// stamped for the new release, before the CVO completes, and the master pool is rolling it out at the
// completion. The update's own config is the one before it.
describe('a day-2 MachineConfig created while the update ran', () => {
  function shape(finishedBefore: boolean, stamped = true) {
    const p = parts();
    p.objects.clusterVersions.push({
      object: clusterVersion([
        {
          state: 'Completed',
          version: B,
          started: '2023-10-24T08:00:00Z',
          completed: '2023-10-24T09:22:12Z',
        },
        {
          state: 'Completed',
          version: A,
          started: '2023-10-01T10:00:00Z',
          completed: '2023-10-01T11:00:00Z',
        },
      ]),
      ref: ref('cv.yaml'),
    });
    p.objects.machineConfigPools.push({
      object: pool('master', 'rendered-master-kargs', [
        cond('Updated', 'True', '2023-10-24T09:40:00Z'),
        cond('Updating', 'False', '2023-10-24T09:40:00Z'),
      ]),
      ref: ref('mcp.yaml'),
    });
    for (const [name, at, release] of [
      ['rendered-master-old', '2023-10-01T10:30:00Z', A],
      ['rendered-master-new', '2023-10-24T08:40:00Z', B],
      ['rendered-master-kargs', '2023-10-24T09:22:05Z', B],
    ] as const) {
      const opts = stamped ? { release } : {};
      p.objects.machineConfigs.push({ object: rendered(name, at, opts), ref: ref('mc.yaml') });
    }
    p.objects.machineConfigs.push({
      object: {
        kind: 'MachineConfig',
        metadata: {
          name: '99-master-kargs',
          creationTimestamp: '2023-10-24T09:22:00Z',
          labels: { 'machineconfiguration.openshift.io/role': 'master' },
        },
        spec: { kernelArguments: ['nosmt'] },
      },
      ref: ref('mc.yaml'),
    });
    if (finishedBefore) {
      // a watch recording of the pool: Updated on the update's config at 09:05
      p.monitorIntervals.push(
        monitor(
          T('09:05:00', '2023-10-24'),
          'MachineConfigPool',
          { machineconfigpool: 'master' },
          'changed to Updated=True',
          { condition: 'Updated', status: 'True' },
        ),
      );
    }
    return buildHistory(p);
  }

  it('the pool had finished the update’s config before the day-2 render: holds, never a race', () => {
    const h = shape(true);
    expect(outcome(h, 'master-pool-updated-before-cvo-complete')?.state).toBe('holds');
    expect(outcome(h, 'operator-level-before-required-pool-target')?.state).not.toBe('violated');
  });

  it('nothing says the pool had finished it: not checked, never a race', () => {
    const o = outcome(shape(false), 'master-pool-updated-before-cvo-complete');
    expect(o?.state).toBe('not-checked');
    expect(o?.reason).toContain('rendered-master-kargs, a later change');
  });

  it('without the stamp (an MCO before 4.10) the same: holds when the pool had finished the update’s config', () => {
    expect(outcome(shape(true, false), 'master-pool-updated-before-cvo-complete')?.state).toBe('holds');
    expect(outcome(shape(false, false), 'master-pool-updated-before-cvo-complete')?.state).toBe(
      'not-checked',
    );
  });
});
