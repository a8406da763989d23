/**
 * Partial evidence is shown as partial: a rule that could check only part of the set it judges says
 * how much (and a holds on too little never carries a PASS), and a line quoted from origin's upgrade
 * test is origin's claim, with atlevel's own verdict on the same question beside it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { renderAnalysisJson } from '../../src/report/analyze-json.js';
import { renderAnalysisJunit } from '../../src/report/analyze-junit.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { analyzeHtml } from '../../src/report/html/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { clusterVersion, cond, monitor, parts, pool, ref } from '../helpers/build.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';
import { dayTwoRightAfterCompletion } from '../helpers/origin-day2.js';

const DAY2 = join(projectRoot, 'test/fixtures/analyze/day2-kubeletconfig-after-update');
const FIXED = join(projectRoot, 'examples/bug-2019850-fixed');
const RULE = 'clusteroperator-level-then-progressing';

describe('a snapshot dates the level reports of a few operators only', () => {
  it('clusteroperator-level-then-progressing holds for 1 of 29 operators, names the 28 others, and the verdict is inconclusive', async () => {
    const h = await loadHistory([DAY2]);
    const r = analyzeHistory(h);
    const o = r.outcomes.find((x) => x.rule.id === RULE);
    expect(o?.state).toBe('holds');
    expect(o?.coverage).toMatchObject({ of: 'operators', checked: 1, total: 29, enough: false });
    expect(o?.coverage?.unchecked).toHaveLength(28);
    expect(o?.coverage?.unchecked).toContain('kube-apiserver');
    expect(o?.coverage?.unchecked).not.toContain('machine-config');
    expect(r.verdict).toBe('inconclusive');
    expect(r.verdictReason).toContain(
      `held on too little of what they apply to: ${RULE} (1 of 29 operators)`,
    );

    const text = renderAnalysisText(r, { colour: false });
    expect(text).toMatch(
      new RegExp(
        `✓ ${RULE} +holds for 1 of 29 operators; 28 not checked: no level report time \\(no OperatorVersionChanged event, no monitor line\\)`,
      ),
    );
    expect(text).toContain('      not checked: authentication, baremetal, cluster-autoscaler,');
    expect(text).toContain('and 16 more');

    const json = JSON.parse(renderAnalysisJson(r)) as {
      rules: { id: string; state: string; coverage: Record<string, unknown> | null }[];
    };
    const rule = json.rules.find((x) => x.id === RULE);
    expect(rule?.state).toBe('holds');
    expect(rule?.coverage).toMatchObject({ of: 'operators', checked: 1, total: 29, enough: false });
    expect(rule?.coverage?.notChecked).toHaveLength(28);
    expect(json.rules.find((x) => x.id === 'pool-degraded')?.coverage).toBeNull();

    // JUnit: too little to count is skipped, as a rule not checked, never a green case.
    const junit = renderAnalysisJunit(r);
    const testcase = new RegExp(
      `<testcase[^>]*name="atlevel invariant ${RULE}"><skipped message="held on too little`,
    );
    expect(junit).toMatch(testcase);

    // HTML: the page data carries analyze's coverage as it is.
    const html = analyzeHtml({ result: r, history: h, inputs: [DAY2] }, undefined);
    expect(html).toContain(
      '"coverage":{"of":"operators","checked":1,"total":29,"notChecked":["authentication"',
    );
  });

  it('a full CI run dates every report: no coverage, and the rule reads exactly as before', async () => {
    const r = analyzeHistory(await loadHistory([FIXED]));
    const o = r.outcomes.find((x) => x.rule.id === RULE);
    expect(o?.state).toBe('holds');
    expect(o?.coverage).toBeUndefined();
    expect(r.verdict).toBe('pass');
    expect(renderAnalysisText(r, { colour: false })).toMatch(new RegExp(`✓ ${RULE} +holds\\n`));
  });
});

describe("origin's upgrade test logs an invariant violation after a day-2 change", () => {
  it("atlevel's verdict is its own (holds); the test's line is quoted as origin's claim in a warning", async () => {
    const r = analyzeHistory(await loadHistory([dayTwoRightAfterCompletion()]));
    const o = r.outcomes.find((x) => x.rule.id === 'master-pool-updated-before-cvo-complete');
    expect(o?.state).toBe('holds');
    expect(r.verdict).not.toBe('fail');
    const [w, ...more] = o?.findings ?? [];
    expect(more).toHaveLength(0);
    expect(w?.severity).toBe('warning');
    expect(w?.summary).toContain(
      `origin's upgrade test logged "Invariant violation detected: the "master" pool`,
    );
    expect(w?.summary).toContain("but atlevel's evidence says the rule held");
    expect(w?.summary).toContain(
      'rolling out rendered-master-3333aaaa3333aaaa3333aaaa3333aaaa, rendered at 03:29:14',
    );
    expect(w?.evidence[0]?.statement).toContain("(origin's claim)");
    // No cause chain of a pool that missed the completion: this one did not.
    expect(w?.explanation).toBeUndefined();
    expect(renderAnalysisText(r, { colour: false })).toMatch(
      /! master-pool-updated-before-cvo-complete +holds, 1 warning/,
    );
  });

  it('the bundled bug-2019850 run keeps its failure: there atlevel sees the pool rolling out too', async () => {
    const r = analyzeHistory(await loadHistory([join(projectRoot, 'examples/bug-2019850')]));
    const o = r.outcomes.find((x) => x.rule.id === 'master-pool-updated-before-cvo-complete');
    expect(o?.state).toBe('violated');
    expect(o?.findings.map((f) => f.severity)).toEqual(['failure']);
  });
});

describe('pool-degraded with a pool the inputs name only in events', () => {
  it('holds for 1 of 2 pools, names the other, and half is enough not to make the verdict inconclusive on its own', () => {
    const p = parts();
    p.objects.clusterVersions.push({
      object: clusterVersion([
        {
          state: 'Completed',
          version: '4.15.0-ec.1',
          started: '2023-10-23T13:00:00Z',
          completed: '2023-10-23T14:00:00Z',
        },
        {
          state: 'Completed',
          version: '4.15.0-ec.0',
          started: '2023-10-01T10:00:00Z',
          completed: '2023-10-01T11:00:00Z',
        },
      ]),
      ref: ref('cv.yaml'),
    });
    p.objects.machineConfigPools.push({
      object: pool('master', 'rendered-master-new', [
        cond('Updated', 'True', '2023-10-23T13:50:00Z'),
        cond('Degraded', 'False', '2023-10-23T13:00:00Z'),
      ]),
      ref: ref('mcp.yaml'),
    });
    // An event about the worker pool: it names the pool and says nothing of its conditions.
    p.monitorIntervals.push(
      monitor(
        Date.parse('2023-10-23T13:30:00Z'),
        'MachineConfigPool',
        { machineconfigpool: 'worker' },
        'rendered-worker-new successfully generated',
        { reason: 'RenderedConfigGenerated' },
      ),
    );
    const r = analyzeHistory(buildHistory(p));
    const o = r.outcomes.find((x) => x.rule.id === 'pool-degraded');
    expect(o?.state).toBe('holds');
    expect(o?.coverage).toMatchObject({
      of: 'pools',
      checked: 1,
      total: 2,
      unchecked: ['worker'],
      enough: true,
    });
    expect(r.verdictReason).not.toContain('pool-degraded');
    expect(renderAnalysisText(r, { colour: false })).toMatch(
      /✓ pool-degraded +holds for 1 of 2 pools; 1 not checked: no conditions of the pool in the inputs \(only events about it\)\n +not checked: worker\n/,
    );
  });
});
