/**
 * The race rules judge an update by its own rendered config (docs/domain.md 3.3.1), never the newest:
 * a config rendered after the update for the same release is a later rollout, and an update whose own
 * config the inputs do not hold is "not checked", never failed.
 */
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { findUpdates, laterRollouts, updateConfig } from '../../src/timeline/index.js';
import { clusterVersion, cond, parts, pool, ref, rendered } from '../helpers/build.js';

const A = '4.15.0-ec.0';
const B = '4.15.0-ec.1';

function history(opts: { configs: [string, string, string][]; target: string; updatedAt: string }) {
  const p = parts();
  p.objects.clusterVersions.push({
    object: clusterVersion([
      { state: 'Completed', version: B, started: '2023-10-23T13:34:38Z', completed: '2023-10-24T09:22:12Z' },
      { state: 'Completed', version: A, started: '2023-10-01T10:00:00Z', completed: '2023-10-01T11:00:00Z' },
    ]),
    ref: ref('cv.yaml'),
  });
  p.objects.machineConfigPools.push({
    object: pool('master', opts.target, [
      cond('Updated', 'True', opts.updatedAt),
      cond('Updating', 'False', opts.updatedAt),
      cond('Degraded', 'False', opts.updatedAt),
    ]),
    ref: ref('mcp.yaml'),
  });
  for (const [name, at, release] of opts.configs) {
    p.objects.machineConfigs.push({ object: rendered(name, at, { release }), ref: ref('mc.yaml') });
  }
  return buildHistory(p);
}

const state = (h: ReturnType<typeof history>, id: string) =>
  analyzeHistory(h).outcomes.find((o) => o.rule.id === id);

describe("an update's own rendered config", () => {
  it('a day-2 config rendered after the update, for the same release, is a later rollout, not the update’s', () => {
    const h = history({
      configs: [
        ['rendered-master-old', '2023-10-01T10:30:00Z', A],
        ['rendered-master-new', '2023-10-24T08:40:00Z', B],
        ['rendered-master-kargs', '2023-10-24T10:57:00Z', B],
      ],
      target: 'rendered-master-kargs',
      updatedAt: '2023-10-24T11:05:00Z',
    });
    const update = findUpdates(h).find((u) => u.target === B);
    if (!update) throw new Error('no update');
    const own = updateConfig(h, 'master', update);
    expect(own.config?.name).toBe('rendered-master-new');
    expect(own.later.map((r) => r.name)).toEqual(['rendered-master-kargs']);
    expect(laterRollouts(h, 'master').get('rendered-master-kargs')?.target).toBe(B);
    expect(state(h, 'master-pool-updated-before-cvo-complete')?.state).not.toBe('violated');
    const rollout = h.intervals.find((i) => i.message.annotations.config === 'rendered-master-kargs');
    expect(rollout?.message.reason).toBe('LaterRollout');
    expect(rollout?.message.humanMessage).toContain(
      `later rollout of rendered-master-kargs, after the update ${A} → ${B}`,
    );
  });

  it('configs stamped for the release but rendered months after it (oc 4.15.0-ec2-b02-cos-not-annotated): not checked, never failed', () => {
    const h = history({
      configs: [
        ['rendered-master-5386', '2024-02-07T16:03:30Z', B],
        ['rendered-master-354c', '2024-02-07T16:11:40Z', B],
      ],
      target: 'rendered-master-354c',
      updatedAt: '2024-02-07T16:12:48Z',
    });
    const o = state(h, 'master-pool-updated-before-cvo-complete');
    expect(o?.state).toBe('not-checked');
    expect(o?.reason).toContain(`the update ${A} → ${B}`);
    expect(o?.reason).toContain('rendered after the update completed');
    expect(state(h, 'operator-level-before-required-pool-target')?.state).not.toBe('violated');
  });

  it("the update's config rendered seconds after the completion (bug 2019850) is still the update's", () => {
    const h = history({
      configs: [
        ['rendered-master-old', '2023-10-01T10:30:00Z', A],
        ['rendered-master-late', '2023-10-24T09:22:14Z', B],
      ],
      target: 'rendered-master-late',
      updatedAt: '2023-10-24T09:30:00Z',
    });
    const o = state(h, 'master-pool-updated-before-cvo-complete');
    expect(o?.state).toBe('violated');
    expect(o?.findings[0]?.summary).toContain(`(in the update ${A} → ${B})`);
  });
});
