/**
 * pool-degraded judges the update (docs/rules/pool-degraded.md): a pool degraded during the update, or
 * while rolling out the update's own config, is the update's failure; one degraded after the update
 * completed, while rolling out a day-2 config, is a warning that says so, never the update's failure;
 * when the inputs cannot tell which config the pool was rolling out, the rule is not checked.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import type { Interval } from '../../src/model/history.js';
import type { Condition, MachineConfig } from '../../src/model/objects.js';
import { buildHistory } from '../../src/timeline/build.js';
import { clusterVersion, cond, monitor, parts, pool, ref, rendered, T } from '../helpers/build.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const A = '4.15.0-ec.0';
const B = '4.15.0-ec.1';
const DAY = '2023-10-23';
const at = (clock: string) => `${DAY}T${clock}Z`;
const DRIFT = 'Node worker-0 is reporting: "unexpected on-disk state validating against rendered-worker-x"';

/** A user's MachineConfig for the worker pool (no controller annotation): a day-2 change. */
function userMc(created: string): MachineConfig {
  return {
    kind: 'MachineConfig',
    metadata: {
      name: '99-worker-custom',
      creationTimestamp: created,
      labels: { 'machineconfiguration.openshift.io/role': 'worker' },
    },
    spec: {},
  };
}

function shape(opts: {
  /** Update A → B started 13:00; completed 14:00 unless `partial`. */
  partial?: boolean;
  noUpdate?: boolean;
  configs?: [string, string, string | undefined][];
  sources?: MachineConfig[];
  /** The worker pool's snapshot: spec target, status configuration, conditions. */
  target?: string;
  current?: string;
  conditions?: Condition[];
  intervals?: Interval[];
}) {
  const p = parts();
  p.objects.clusterVersions.push({
    object: clusterVersion(
      opts.noUpdate
        ? [{ state: 'Completed', version: B, started: at('10:00:00'), completed: at('11:00:00') }]
        : [
            {
              state: opts.partial ? 'Partial' : 'Completed',
              version: B,
              started: at('13:00:00'),
              ...(opts.partial ? {} : { completed: at('14:00:00') }),
            },
            {
              state: 'Completed',
              version: A,
              started: '2023-10-01T10:00:00Z',
              completed: '2023-10-01T11:00:00Z',
            },
          ],
    ),
    ref: ref('cv.yaml'),
  });
  const target = opts.target ?? 'rendered-worker-new';
  const mcp = pool('worker', target, opts.conditions ?? [], false);
  if (opts.current !== undefined && mcp.status?.configuration) mcp.status.configuration.name = opts.current;
  p.objects.machineConfigPools.push({ object: mcp, ref: ref('mcp.yaml') });
  for (const [name, created, release] of opts.configs ?? [
    ['rendered-worker-old', '2023-10-01T10:30:00Z', A],
    ['rendered-worker-new', at('13:30:00'), B],
  ]) {
    p.objects.machineConfigs.push({
      object: rendered(name, created, release ? { release } : {}),
      ref: ref('mc.yaml'),
    });
  }
  for (const object of opts.sources ?? []) p.objects.machineConfigs.push({ object, ref: ref('mc.yaml') });
  p.monitorIntervals.push(...(opts.intervals ?? []));
  return buildHistory(p);
}

const outcome = (h: ReturnType<typeof shape>) =>
  analyzeHistory(h).outcomes.find((o) => o.rule.id === 'pool-degraded');

const flip = (clock: string, condition: string, status: string, extra: Record<string, string> = {}) =>
  monitor(
    T(clock, DAY),
    'MachineConfigPool',
    { machineconfigpool: 'worker' },
    `changed to ${condition}=${status}`,
    { condition, status, ...extra },
  );

const DAY2_CONFIGS: [string, string, string][] = [
  ['rendered-worker-old', '2023-10-01T10:30:00Z', A],
  ['rendered-worker-new', at('13:30:00'), B],
  ['rendered-worker-day2', at('14:30:05'), B],
];

describe('pool-degraded judges the update, not the cluster', () => {
  it('degraded after the update completed while rolling out a day-2 config: holds, with a warning that names it', () => {
    const h = shape({
      configs: DAY2_CONFIGS,
      sources: [userMc(at('14:30:00'))],
      target: 'rendered-worker-day2',
      current: 'rendered-worker-new',
      conditions: [
        cond('Updated', 'False', at('14:30:06')),
        cond('Updating', 'True', at('14:30:06')),
        cond('NodeDegraded', 'True', at('14:40:00'), DRIFT, '1 nodes are reporting degraded status on sync'),
        cond('Degraded', 'True', at('14:40:00')),
      ],
    });
    const o = outcome(h);
    expect(o?.state).toBe('holds');
    expect(o?.findings).toHaveLength(1);
    const f = o?.findings[0];
    expect(f?.severity).toBe('warning');
    expect(f?.summary).toContain('14:40:00');
    expect(f?.summary).toContain('rendered-worker-day2');
    expect(f?.summary).toContain("a day-2 change, not the update's rendered-worker-new");
    expect(f?.summary).toContain('a warning, not a failure of the update');
    // Degraded carries no words of its own: the NodeDegraded message says why.
    expect(f?.summary).toContain(`NodeDegraded: ${DRIFT}`);
    expect(f?.subject?.toConfig).toBe('rendered-worker-day2');
    expect(analyzeHistory(h).verdict).not.toBe('fail');
  });

  it("degraded after the CVO completed while still rolling out the update's own config (a worker pool): a failure", () => {
    const h = shape({
      current: 'rendered-worker-old',
      conditions: [
        cond('Updated', 'False', at('13:30:01')),
        cond('Updating', 'True', at('13:30:01')),
        cond('NodeDegraded', 'True', at('14:20:00'), DRIFT),
      ],
    });
    const o = outcome(h);
    expect(o?.state).toBe('violated');
    expect(o?.findings[0]?.severity).toBe('failure');
    expect(o?.findings[0]?.summary).toContain('14:20:00');
  });

  it('degraded during the update and still degraded: a failure, as always', () => {
    const o = outcome(shape({ conditions: [cond('NodeDegraded', 'True', at('13:50:00'), DRIFT)] }));
    expect(o?.state).toBe('violated');
  });

  it('an update still in progress: any degradation since it started is its own', () => {
    const o = outcome(
      shape({ partial: true, conditions: [cond('NodeDegraded', 'True', at('15:50:00'), DRIFT)] }),
    );
    expect(o?.state).toBe('violated');
  });

  it("degraded once the pool had finished the update's own config: not the update's, and says so", () => {
    const h = shape({
      conditions: [cond('NodeDegraded', 'True', at('16:00:00'), DRIFT)],
      intervals: [flip('13:50:00', 'Updated', 'True'), flip('13:50:00', 'Updating', 'False')],
    });
    const o = outcome(h);
    expect(o?.state).toBe('holds');
    expect(o?.findings[0]?.severity).toBe('warning');
    expect(o?.findings[0]?.summary).toContain(
      "once it had finished rolling out the update's own config rendered-worker-new (at 13:50:00)",
    );
  });

  it("a snapshot still degraded, its status.configuration on the update's own config: it had finished it first", () => {
    // A degraded node is never counted updated, so status.configuration cannot have moved since.
    const h = shape({
      conditions: [
        cond('Updated', 'False', at('16:00:00')),
        cond('NodeDegraded', 'True', at('16:00:00'), DRIFT),
      ],
    });
    const o = outcome(h);
    expect(o?.state).toBe('holds');
    expect(o?.findings[0]?.summary).toContain('its status.configuration names it');
  });

  it('degraded after the update, and the inputs hold no rendered config: not checked, the degradation shown', () => {
    const h = shape({ configs: [], conditions: [cond('NodeDegraded', 'True', at('14:40:00'), DRIFT)] });
    const o = outcome(h);
    expect(o?.state).toBe('not-checked');
    expect(o?.missing.length).toBeGreaterThan(0);
    expect(o?.reason).toContain('pool worker has been NodeDegraded=True since 14:40:00');
    expect(o?.findings[0]?.severity).toBe('warning');
    expect(o?.findings[0]?.summary).toContain('the inputs do not say');
    const r = analyzeHistory(h);
    expect(r.verdict).toBe('inconclusive');
    expect(r.findings.some((f) => f.rule === 'pool-degraded')).toBe(true);
  });

  // Without the stamp, the same controller rendered the pool during the update and again just after
  // it completed: the later config may be the update's own rendered late, or a day-2 change.
  it('degraded while rolling out a config that may be the update’s own or a day-2 change: not checked', () => {
    const h = shape({
      configs: [
        ['rendered-worker-old', '2023-10-01T10:30:00Z', undefined],
        ['rendered-worker-new', at('13:30:00'), undefined],
        ['rendered-worker-late', at('14:02:00'), undefined],
      ],
      target: 'rendered-worker-late',
      current: 'rendered-worker-new',
      conditions: [cond('NodeDegraded', 'True', at('14:10:00'), DRIFT)],
    });
    const o = outcome(h);
    expect(o?.state).toBe('not-checked');
    expect(o?.findings[0]?.summary).toContain('the inputs do not say');
    expect(o?.reason).toContain('may be the update');
  });

  it('no update in the inputs: a degraded pool is a failure, as always', () => {
    const o = outcome(shape({ noUpdate: true, conditions: [cond('NodeDegraded', 'True', at('14:40:00'))] }));
    expect(o?.state).toBe('violated');
  });
});

// The watch-recorded case (truth branch): degraded, recovered, then degraded again.
describe('a pool degraded twice, judged per bad period', () => {
  const twice = (again: string) => [
    flip('13:40:00', 'NodeDegraded', 'True'),
    flip('13:45:00', 'NodeDegraded', 'False'),
    flip(again, 'NodeDegraded', 'True'),
  ];

  it('again after the update, while rolling out a day-2 config: the update’s recovered degradation and the day-2 one, no failure', () => {
    const h = shape({
      configs: DAY2_CONFIGS,
      sources: [userMc(at('14:30:00'))],
      target: 'rendered-worker-day2',
      intervals: twice('14:40:00'),
    });
    const o = outcome(h);
    expect(o?.state).toBe('holds');
    expect(o?.findings.map((f) => f.severity)).toEqual(['warning', 'warning']);
    expect(o?.findings[0]?.summary).toContain('from 13:40:00 to 13:45:00');
    expect(o?.findings[1]?.summary).toContain('rendered-worker-day2');
    expect(o?.findings[1]?.summary).toContain('to the end of the inputs');
  });

  it("again after the update, while still rolling out the update's own config: a failure", () => {
    const o = outcome(shape({ current: 'rendered-worker-old', intervals: twice('14:40:00') }));
    expect(o?.state).toBe('violated');
    expect(o?.findings[0]?.summary).toContain('from 14:40:00 to the end of the inputs');
  });
});

// test/fixtures/analyze/day2-degraded-after-update: the KubeletConfig fixture with the master pool
// degraded while rolling out the day-2 config (a node's on-disk state drifted from it).
describe('a snapshot whose master pool a day-2 KubeletConfig degraded after the update', () => {
  it('pool-degraded holds with a warning naming the day-2 config; the verdict is not fail', async () => {
    const h = await loadHistory([join(projectRoot, 'test/fixtures/analyze/day2-degraded-after-update')]);
    const r = analyzeHistory(h);
    expect(r.verdict).not.toBe('fail');
    const o = r.outcomes.find((x) => x.rule.id === 'pool-degraded');
    expect(o?.state).toBe('holds');
    const f = o?.findings[0];
    expect(f?.severity).toBe('warning');
    expect(f?.summary).toContain('rendered-master-3333aaaa3333aaaa3333aaaa3333aaaa');
    expect(f?.summary).toContain('a day-2 change');
    expect(f?.summary).toContain('unexpected on-disk state');
  });
});

// Degraded after the CVO completed while the pool still targeted the update's own config, with no
// finish of it seen (test/fixtures/analyze/pool-after-update, written by make-pool-after-update.py).
describe("pool-degraded after the update, the pool on the update's own config", () => {
  const AFTER = join(projectRoot, 'test/fixtures/analyze/pool-after-update');
  const judge = async (name: string) => {
    const r = analyzeHistory(await loadHistory([join(AFTER, name)]), { rules: ['pool-degraded'] });
    const o = r.outcomes.find((x) => x.rule.id === 'pool-degraded');
    return { r, o, f: o?.findings[0] };
  };

  it('still rolling out the update’s config (status.configuration on the old one): the update’s failure, and it says the update is not done for the pool', async () => {
    const { o, f } = await judge('still-rolling');
    expect(o?.state).toBe('violated');
    expect(f?.severity).toBe('failure');
    expect(f?.summary).toContain(
      "after the CVO completed the update, while the pool was still rolling out the update's own config rendered-worker-394e5da9641f039370a7733d36a02e42 (its status.configuration is still rendered-worker-bb73800c712b0b46098cf3d5f262b5c2, 1 of 3 nodes updated): the update is not done for this pool",
    );
    expect(f?.evidence.map((e) => e.field)).toContain('status.configuration.name');
  });

  it('a custom pool (infra) still rolling out the update’s config: the same failure', async () => {
    const { o, f } = await judge('infra-still-rolling');
    expect(o?.state).toBe('violated');
    expect(f?.subject?.pool).toBe('infra');
    expect(f?.summary).toContain('the update is not done for this pool');
  });

  it('a day-2 MachineConfig whose render failed (RenderDegraded) while the pool was still rolling out the update’s config: not the update’s', async () => {
    const { r, o, f } = await judge('day2-render-failed');
    expect(o?.state).toBe('holds');
    expect(f?.severity).toBe('warning');
    expect(f?.summary).toContain(
      'when the render of MachineConfig 99-worker-chrony, a day-2 change created at 03:40:00, failed',
    );
    expect(f?.summary).toContain('a warning, not a failure of the update');
    expect(f?.evidence.some((e) => e.object === 'MachineConfig/99-worker-chrony')).toBe(true);
    expect(f?.subject?.objects).toEqual(['MachineConfigPool/worker', 'MachineConfig/99-worker-chrony']);
    expect(r.verdict).toBe('pass');
  });

  it('a day-2 MachineConfig for the worker role before a custom pool’s node degraded, no config rendered from it: not checked', async () => {
    const { r, o, f } = await judge('infra-day2');
    expect(o?.state).toBe('not-checked');
    expect(o?.missing.length).toBeGreaterThan(0);
    expect(o?.reason).toContain('MachineConfig 99-worker-chrony, a day-2 change');
    expect(o?.reason).toContain('the inputs do not say');
    expect(f?.severity).toBe('warning');
    expect(r.verdict).toBe('inconclusive');
  });

  it('a paused pool none of whose nodes was given the update’s config: not the update’s rollout', async () => {
    const { o, f } = await judge('paused');
    expect(o?.state).toBe('holds');
    expect(f?.severity).toBe('warning');
    expect(f?.summary).toContain(
      'while the pool was paused and none of its 3 nodes had been given the update',
    );
    expect(f?.summary).toContain('the update is not done for this pool until it is unpaused');
    expect(f?.evidence.some((e) => e.field === 'spec.paused')).toBe(true);
  });

  it('neither a finish nor a rollout in the inputs: not checked, never the update’s on a guess', () => {
    // A pool whose status names no config (as a monitor-only record would leave it), no condition lines.
    const h = shape({
      current: '',
      conditions: [cond('NodeDegraded', 'True', at('14:40:00'), DRIFT)],
    });
    const o = outcome(h);
    expect(o?.state).toBe('not-checked');
    expect(o?.reason).toContain(
      'the inputs show neither that it had finished it nor that it was still rolling it out',
    );
  });
});
