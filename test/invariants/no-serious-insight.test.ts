/**
 * no-serious-insight defers to pool-degraded's scoping (docs/rules/no-serious-insight.md): an insight a
 * pool's degradation raises (a degraded node, a failed render) is the update's failure only when
 * pool-degraded judges that degradation the update's; a day-2 change's after the update, or a paused
 * pool's never given the update's config, is a warning that says why; when the inputs cannot tell, the
 * rule is not checked, so the verdict is neither FAIL on a guess nor PASS.
 * Fixtures: test/fixtures/analyze/pool-after-update (written by make-pool-after-update.py).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { configOwner, poolDegradationOwner } from '../../src/invariants/pool-degraded.js';
import { MCO } from '../../src/model/index.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { assessStatus, isSerious } from '../../src/status/index.js';
import { findUpdates, poolHistory } from '../../src/timeline/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const AFTER = join(projectRoot, 'test/fixtures/analyze/pool-after-update');
const CASES = ['still-rolling', 'infra-still-rolling', 'day2-render-failed', 'infra-day2', 'paused'] as const;

async function judge(name: string, rules?: string[]) {
  const h = await loadHistory([join(AFTER, name)]);
  const r = analyzeHistory(h, rules ? { rules } : {});
  const nsi = r.outcomes.find((o) => o.rule.id === 'no-serious-insight');
  const pd = r.outcomes.find((o) => o.rule.id === 'pool-degraded');
  return { h, r, nsi, pd };
}

describe('no-serious-insight on a pool degraded after the update completed', () => {
  it('a paused pool never given the update’s config: a warning that says why, never a failure', async () => {
    const { r, nsi } = await judge('paused');
    expect(nsi?.state).toBe('holds');
    const [f] = nsi?.findings ?? [];
    expect(f?.severity).toBe('warning');
    expect(f?.summary).toContain(
      "Node ip-10-0-158-221.us-east-2.compute.internal is degraded, not the update's",
    );
    expect(f?.summary).toContain(
      'since 03:50:00, 20m49s after the update to 4.10.0-0.nightly-2021-11-03-020416 completed',
    );
    expect(f?.summary).toContain("the pool is paused and none of its 3 nodes was given the update's config");
    expect(f?.summary).toContain('a warning, not a failure');
    expect(f?.evidence.some((e) => e.field === 'spec.paused')).toBe(true);
    expect(r.findings.filter((x) => x.severity === 'failure')).toEqual([]);
    expect(renderAnalysisText(r, { colour: false })).not.toMatch(/^FAIL/);
  });

  it('a day-2 MachineConfig’s failed render: a warning naming it; with pool-degraded, the update passes', async () => {
    const { r, nsi } = await judge('day2-render-failed', ['no-serious-insight', 'pool-degraded']);
    expect(nsi?.state).toBe('holds');
    const [f] = nsi?.findings ?? [];
    expect(f?.severity).toBe('warning');
    expect(f?.summary).toContain("Pool worker cannot render its configuration, not the update's");
    expect(f?.summary).toContain(
      'the render of MachineConfig 99-worker-chrony, a day-2 change created at 03:40:00, failed',
    );
    expect(f?.evidence.some((e) => e.object === 'MachineConfig/99-worker-chrony')).toBe(true);
    expect(r.verdict).toBe('pass');
  });

  it('the inputs cannot tell whose: not checked, on its own too, so the verdict is inconclusive, not FAIL nor PASS', async () => {
    const alone = await judge('infra-day2', ['no-serious-insight']);
    expect(alone.nsi?.state).toBe('not-checked');
    expect(alone.nsi?.missing.length).toBeGreaterThan(0);
    expect(alone.nsi?.reason).toContain(
      'Node ip-10-0-166-9.us-east-2.compute.internal is degraded: pool infra',
    );
    expect(alone.nsi?.findings.map((f) => f.severity)).toEqual(['warning']);
    expect(alone.r.verdict).toBe('inconclusive');
    const all = await judge('infra-day2');
    expect(all.r.verdict).toBe('inconclusive');
    expect(renderAnalysisText(all.r, { colour: false })).toMatch(/^INCONCLUSIVE/);
  });

  it('the update’s own rollout still going: the failure it always was', async () => {
    for (const name of ['still-rolling', 'infra-still-rolling']) {
      const { r, nsi } = await judge(name);
      expect(nsi?.state, name).toBe('violated');
      expect(nsi?.findings.map((f) => [f.severity, f.summary])).toEqual([
        ['failure', expect.stringMatching(/^Node \S+ is degraded$/)],
      ]);
      expect(r.verdict).toBe('fail');
    }
  });

  it.each(CASES)(
    '%s: a failure on a pool’s insight exactly when pool-degraded fails that pool',
    async (name) => {
      const { h, nsi, pd } = await judge(name);
      const status = assessStatus(h, { now: h.span?.to as number });
      const poolInsights = status.insights.filter(
        (i) => isSerious(i) && (i.kind === 'node-degraded' || i.kind === 'pool-render-degraded'),
      );
      expect(poolInsights.length).toBeGreaterThan(0);
      const failed = (o: typeof nsi) =>
        (o?.findings ?? []).filter((f) => f.severity === 'failure').length > 0;
      expect(failed(nsi)).toBe(failed(pd));
      expect(nsi?.state === 'not-checked').toBe(pd?.state === 'not-checked');
    },
  );

  it('the evidence never dates the insight at a moment the degradation postdates', async () => {
    for (const [name, began] of [
      ['still-rolling', '03:39:30'],
      ['paused', '03:50:00'],
      ['day2-render-failed', '03:40:05'],
    ] as const) {
      const { nsi } = await judge(name);
      const statement = nsi?.findings[0]?.evidence[0]?.statement ?? '';
      expect(statement, name).toContain(
        `atlevel status, on the snapshot's objects as last seen (this began at ${began}, after 03:30:22, the moment status assesses)`,
      );
      expect(statement).not.toContain('at 03:30:22:');
    }
  });
});

describe("pool-degraded's judgement, as no-serious-insight reads it", () => {
  it('a pool rolling out a later config (a day-2 KubeletConfig) when it degraded: later, naming the config', async () => {
    const h = await loadHistory([join(projectRoot, 'test/fixtures/analyze/day2-degraded-after-update')]);
    const owner = poolDegradationOwner(h, 'master');
    expect(owner?.kind).toBe('later');
    expect(owner?.since).toBe(Date.parse('2021-11-03T03:36:10Z'));
    expect(owner?.kind === 'later' && owner.why).toBe(
      'pool master has been Degraded=True since 03:36:10, 6m59s after the update to 4.10.0-0.nightly-2021-11-03-020416 completed (03:29:11): the pool was rolling out rendered-master-3333aaaa3333aaaa3333aaaa3333aaaa, a later config rendered at 03:33:05 (a day-2 change)',
    );
    // A pool with no open degradation: nothing to judge, the insight stays as it was.
    expect(poolDegradationOwner(h, 'worker')).toBeUndefined();
  });
});

/**
 * A blocked drain is judged by the rollout it is part of: the config the node drains for (its
 * desiredConfig) against the update's own (configOwner, as pool-degraded judges a pool's target).
 * Fixtures: test/fixtures/analyze/drain-after-update (make-drain-after-update.py), and
 * test/fixtures/status/drain-blocked, the update's own variant.
 */
const DRAIN = join(projectRoot, 'test/fixtures/analyze/drain-after-update');
const DAY2_CONFIG = 'rendered-worker-d48e0f3a2b1c0d9e8f7a6b5c4d3e2f1a';
const OWN_CONFIG = 'rendered-worker-c37d9e2f1a0b9c8d7e6f5a4b3c2d1e0f';
const DESIRED = MCO.desiredConfig;

async function judgeDrain(dir: string, rules?: string[]) {
  const h = await loadHistory([dir]);
  const r = analyzeHistory(h, rules ? { rules } : {});
  const nsi = r.outcomes.find((o) => o.rule.id === 'no-serious-insight');
  const drain = nsi?.findings.filter((f) => f.subject?.insight === 'drain-blocked') ?? [];
  return { h, r, nsi, drain };
}

describe('no-serious-insight on a blocked drain after the update completed', () => {
  it('a drain for a day-2 KubeletConfig’s config: a warning naming it, never the update’s failure', async () => {
    const { r, nsi, drain } = await judgeDrain(join(DRAIN, 'day2-drain-blocked'), [
      'no-serious-insight',
      'pool-degraded',
    ]);
    expect(nsi?.state).toBe('holds');
    expect(drain.map((f) => f.severity)).toEqual(['warning']);
    const [f] = drain;
    expect(f?.summary).toContain(
      "Drain of node ip-10-0-2-22.ec2.internal is blocked by PodDisruptionBudget shop/db (pod shop/db-0), not the update's",
    );
    expect(f?.summary).toContain(
      `the node drains for ${DAY2_CONFIG} (its desiredConfig), a later config rendered at 11:50:05, 47m24s after the update 4.15.2 → 4.15.3 completed at 11:02:41 (a day-2 change, not the update's own ${OWN_CONFIG})`,
    );
    expect(f?.at).toBe(Date.parse('2024-03-12T11:51:02Z'));
    expect(f?.evidence.some((e) => e.object === `MachineConfig/${DAY2_CONFIG}`)).toBe(true);
    expect(f?.evidence.some((e) => e.value === DAY2_CONFIG && e.object?.startsWith('Node/'))).toBe(true);
    expect(r.findings.filter((x) => x.severity === 'failure')).toEqual([]);
    expect(r.verdict).toBe('pass');
    expect(renderAnalysisText(r, { colour: false })).toMatch(/^PASS/);
  });

  it('the config it drains for is not in the inputs: not checked, so inconclusive, never FAIL on a guess', async () => {
    const { r, nsi, drain } = await judgeDrain(join(DRAIN, 'day2-config-missing'), ['no-serious-insight']);
    expect(nsi?.state).toBe('not-checked');
    expect(nsi?.missing.length).toBeGreaterThan(0);
    expect(nsi?.reason).toContain(
      `the node drains for ${DAY2_CONFIG}, and no rendered config of that name for pool worker is in the inputs`,
    );
    expect(drain.map((f) => f.severity)).toEqual(['warning']);
    expect(r.verdict).toBe('inconclusive');
  });

  it('a drain for the update’s own config, begun after the CVO completed: the failure it always was', async () => {
    const dir = join(projectRoot, 'test/fixtures/status/drain-blocked');
    const { h, r, nsi, drain } = await judgeDrain(dir, ['no-serious-insight']);
    // The drain began at 11:06:09, after the completion at 11:02:41: the config decides, not the time.
    expect(h.objects.nodes.some((n) => n.object.metadata.annotations?.[DESIRED] === OWN_CONFIG)).toBe(true);
    expect(nsi?.state).toBe('violated');
    expect(drain.map((f) => [f.severity, f.summary])).toEqual([
      [
        'failure',
        'Drain of node ip-10-0-2-22.ec2.internal is blocked by PodDisruptionBudget shop/db (pod shop/db-0)',
      ],
    ]);
    expect(r.verdict).toBe('fail');
  });

  it('status dates the drain in progress by the node’s newest Drain event, not the update’s earlier drain', async () => {
    const h = await loadHistory([join(DRAIN, 'day2-drain-blocked')]);
    const status = assessStatus(h, { now: h.span?.to as number });
    const blocked = status.insights.filter((i) => i.kind === 'drain-blocked');
    expect(blocked.map((i) => [i.level, i.since])).toEqual([['Error', Date.parse('2024-03-12T11:51:02Z')]]);
    expect(blocked[0]?.description).toContain('The drain began at 2024-03-12T11:51:02Z (event Drain).');
  });

  it('an earlier drain’s FailedToDrain is not the drain in progress’s: a Warning until it gives up', async () => {
    const h = await loadHistory([join(DRAIN, 'day2-drain-blocked')]);
    const node = 'ip-10-0-2-22.ec2.internal';
    // The node not degraded (the day-2 drain still within its hour), and the only FailedToDrain one of
    // the update's drain at 11:10:00, before the day-2 drain began at 11:51:02.
    const nodes = h.objects.nodes.map((n) =>
      n.object.metadata.name !== node
        ? n
        : {
            ...n,
            object: {
              ...n.object,
              metadata: {
                ...n.object.metadata,
                annotations: { ...n.object.metadata.annotations, [MCO.state]: 'Working', [MCO.reason]: '' },
              },
            },
          },
    );
    const events = h.objects.events.map((e) =>
      e.object.reason !== 'FailedToDrain'
        ? e
        : {
            ...e,
            object: {
              ...e.object,
              firstTimestamp: '2024-03-12T11:10:00Z',
              lastTimestamp: '2024-03-12T11:10:00Z',
            },
          },
    );
    const edited = { ...h, objects: { ...h.objects, nodes, events } };
    const status = assessStatus(edited, { now: h.span?.to as number });
    const blocked = status.insights.filter((i) => i.kind === 'drain-blocked');
    expect(blocked.map((i) => [i.level, i.since])).toEqual([['Warning', Date.parse('2024-03-12T11:51:02Z')]]);
    expect(blocked[0]?.description).not.toContain('FailedToDrain');
  });

  it('configOwner tells the update’s own config from a day-2 one, as pool-degraded reads them', async () => {
    const h = await loadHistory([join(DRAIN, 'day2-drain-blocked')]);
    const update = findUpdates(h).at(-1);
    if (!update) throw new Error('no update');
    const rendered = poolHistory(h, 'worker').rendered;
    const config = (name: string) => rendered.find((c) => c.name === name);
    const own = config(OWN_CONFIG);
    const day2 = config(DAY2_CONFIG);
    if (!own || !day2) throw new Error('configs missing');
    expect(configOwner(h, 'worker', update, own).kind).toBe('own');
    const later = configOwner(h, 'worker', update, day2);
    expect(later.kind).toBe('later');
    expect(later.kind === 'later' && later.own?.name).toBe(OWN_CONFIG);
  });
});
