import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { clusterVersion, cond, monitor, operator, parts, pool, ref, rendered } from '../helpers/build.js';

const A = '4.10.0-a';
const B = '4.10.0-b';
const BASE = Date.parse('2021-11-03T03:00:00Z');
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Random timings of the race: when machine-config reports level, when the new master config is
 * rendered, how long the rollout takes, and when the CVO completes. The rules must agree with the
 * definition, whatever the order.
 */
const timings = fc.record({
  levelAt: fc.integer({ min: 0, max: 600_000 }),
  renderAt: fc.integer({ min: 1_000, max: 600_000 }),
  rollout: fc.integer({ min: 60_000, max: 1_200_000 }),
  cvoAfterLevel: fc.integer({ min: 1_000, max: 900_000 }),
});

function history(t: { levelAt: number; renderAt: number; rollout: number; cvoAfterLevel: number }) {
  const p = parts();
  const render = Math.floor((BASE + t.renderAt) / 1000) * 1000; // creationTimestamp has seconds
  const finish = Math.floor((render + t.rollout) / 1000) * 1000;
  const cvo = Math.floor((BASE + t.levelAt + t.cvoAfterLevel) / 1000) * 1000;
  p.objects.clusterVersions.push({
    object: clusterVersion([
      { state: 'Completed', version: B, started: iso(BASE - 600_000), completed: iso(cvo) },
      { state: 'Completed', version: A, started: iso(BASE - 7_200_000), completed: iso(BASE - 3_600_000) },
    ]),
    ref: ref('cv'),
  });
  p.objects.machineConfigPools.push({
    object: pool('master', 'rendered-master-new', [
      cond('Updated', 'True', iso(finish)),
      cond('Updating', 'False', iso(finish)),
    ]),
    ref: ref('mcp'),
  });
  p.objects.machineConfigs.push(
    { object: rendered(`rendered-master-${'0'.repeat(32)}`, iso(BASE - 7_000_000)), ref: ref('mc') },
    {
      object: rendered(`rendered-master-${'1'.repeat(32)}`, iso(render), {
        kubeletImage: 'quay.io/pod@sha256:bbbb',
      }),
      ref: ref('mc'),
    },
  );
  p.objects.clusterOperators.push({ object: operator('machine-config', B, []), ref: ref('co') });
  p.monitorIntervals.push(
    monitor(
      BASE + t.levelAt,
      'ClusterOperator',
      { clusteroperator: 'machine-config' },
      `versions: operator ${A} -> ${B}`,
    ),
  );
  return { h: buildHistory(p), render, finish, cvo, level: BASE + t.levelAt };
}

describe('race rules, for any timing', () => {
  it('master-pool rule fires exactly when the CVO completed before the new config was rolled out', () => {
    fc.assert(
      fc.property(timings, (t) => {
        // Before the render the pool sits Updated on the old config, which is not the new release's.
        const { h, finish, cvo } = history(t);
        const fired = analyzeHistory(h).findings.some(
          (f) => f.rule === 'master-pool-updated-before-cvo-complete',
        );
        expect(fired).toBe(cvo < finish);
      }),
      { numRuns: 200 },
    );
  });

  it('operator-level rule fails exactly when the config was rendered in a later second than the level report', () => {
    fc.assert(
      fc.property(timings, (t) => {
        const { h, render, level } = history(t);
        const failed = analyzeHistory(h).findings.some(
          (f) => f.rule === 'operator-level-before-required-pool-target' && f.severity === 'failure',
        );
        expect(failed).toBe(render > Math.floor(level / 1000) * 1000);
      }),
      { numRuns: 200 },
    );
  });
});
