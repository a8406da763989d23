/**
 * Verdicts never claim more than the evidence (issue 11): a rule that could not be checked says so and
 * names the data it needed; inputs with no update say "no-update"; the bundled examples keep failing
 * and passing; and status and analyze agree on every oc example (one assessment of the moment).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { renderAnalysisJunit } from '../../src/report/analyze-junit.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { buildReportData } from '../../src/report/html/index.js';
import { assessStatus, isSerious, statusPrerequisites } from '../../src/status/index.js';
import { describeFixtures, fixture, OC_STATUS_CASES, projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const EXAMPLES = join(projectRoot, 'examples');
const OC = 'openshift__oc/pkg/cli/admin/upgrade/status/examples';
const OC_CASES = OC_STATUS_CASES;

async function analyze(paths: string[]) {
  return analyzeHistory(await loadHistory(paths));
}

/** A copy of an example without some of its files. */
function without(example: string, drop: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-verdicts-'));
  cpSync(join(EXAMPLES, example), dir, { recursive: true });
  for (const f of drop) rmSync(join(dir, f));
  return dir;
}
const GATHER = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';

describe('the bundled examples', () => {
  it('bug-2019850 fails on both race rules', async () => {
    const r = await analyze([join(EXAMPLES, 'bug-2019850')]);
    expect(r.verdict).toBe('fail');
    const states = Object.fromEntries(r.outcomes.map((o) => [o.rule.id, o.state]));
    expect(states['master-pool-updated-before-cvo-complete']).toBe('violated');
    expect(states['operator-level-before-required-pool-target']).toBe('violated');
  });

  it('bug-2019850-fixed: every rule holds', async () => {
    const r = await analyze([join(EXAMPLES, 'bug-2019850-fixed')]);
    expect(r.verdict).toBe('pass');
    expect(r.outcomes.filter((o) => o.state === 'violated' || o.missing.length > 0)).toEqual([]);
  });

  it('bug-2019850-fixed without its workloads: operator-level-before-operands is not checked and names the missing workload files', async () => {
    const dir = without('bug-2019850-fixed', [
      `${GATHER}/deployments.json`,
      `${GATHER}/daemonsets.json`,
      `${GATHER}/pods.json`,
      `${GATHER}/replicasets.json`,
    ]);
    const r = await analyze([dir]).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(r.verdict).toBe('inconclusive');
    const missing = r.outcomes.filter((o) => o.missing.length > 0);
    expect(missing.map((o) => o.rule.id)).toEqual(['operator-level-before-operands']);
    expect(missing[0]?.missing.join('\n')).toMatch(
      /deployments\.json[\s\S]*daemonsets\.json[\s\S]*pods\.json[\s\S]*replicasets\.json/,
    );
    expect(r.outcomes.filter((o) => o.state === 'violated')).toEqual([]);
    expect(r.outcomes.find((o) => o.rule.id === 'master-pool-updated-before-cvo-complete')?.state).toBe(
      'holds',
    );
  });

  it('text wraps to the width asked for; only a word longer than a line overflows', async () => {
    const r = await analyze([join(EXAMPLES, 'bug-2019850')]);
    const unwrapped = renderAnalysisText(r, { colour: false });
    const text = renderAnalysisText(r, { colour: false, width: 80 });
    expect(Math.max(...unwrapped.split('\n').map((l) => l.length))).toBeGreaterThan(80);
    for (const line of text.split('\n')) {
      if (line.length > 80) expect(line.trim()).not.toContain(' ');
    }
    // nothing is lost: the same words in the same order
    expect(text.split(/\s+/).join(' ')).toBe(unwrapped.split(/\s+/).join(' '));
  });

  it('without release payloads, an image is never called an "unknown component"', async () => {
    const history = await loadHistory([join(EXAMPLES, 'bug-2019850')]);
    const r = analyzeHistory({ ...history, releases: {} });
    const text = renderAnalysisText(r, { colour: false });
    expect(text).not.toContain('unknown component');
    expect(text).toContain('not named: no release payload was given or found');
  });

  it('with both releases read and the image in neither, no advice to give them', async () => {
    const history = await loadHistory([join(EXAMPLES, 'bug-2019850')]);
    const other = (version: string, file: string) => ({ version, components: [], ref: { file } });
    const r = analyzeHistory({
      ...history,
      releases: { from: other('4.9.0', 'a.json'), to: other('4.9.1', 'b.json') },
    });
    const text = renderAnalysisText(r, { colour: false, width: 1000 });
    expect(text).not.toContain('give --release-from');
    expect(text).toContain('the changed image is in neither release (release 4.9.0, release 4.9.1)');
    // One release read: the advice names only the missing one.
    const one = renderAnalysisText(
      analyzeHistory({ ...history, releases: { to: other('4.9.1', 'b.json') } }),
      { colour: false, width: 1000 },
    );
    expect(one).toContain(
      'not in release 4.9.1, the only release read (give --release-from to name its component)',
    );
  });

  it('build-log.txt alone: the operator-level rule is not checked, naming the rendered configs; one update', async () => {
    const r = await analyze([join(EXAMPLES, 'bug-2019850/build-log.txt')]);
    const level = r.outcomes.find((o) => o.rule.id === 'operator-level-before-required-pool-target');
    expect(level?.state).toBe('not-checked');
    expect(level?.applicable).toBe(false);
    expect(level?.missing).toEqual([
      'the rendered MachineConfigs (gather-extra machineconfigs.json, or a must-gather)',
    ]);
    expect(r.updates).toHaveLength(1);
    expect(r.updates[0]?.target).toBe('4.10.0-0.nightly-2021-11-03-020416');
    expect(r.updates[0]?.image).toMatch(/@sha256:51f2f247/);
    const master = r.findings.find((f) => f.rule === 'master-pool-updated-before-cvo-complete');
    expect(master?.summary).not.toContain('unknown');
    expect(master?.summary).toContain(
      'Updated=False, Updating=True (as the upgrade test saw it at 03:23:33.079)',
    );
    // text and JUnit show the same state
    const text = renderAnalysisText(r, { colour: false });
    expect(text).toMatch(/– operator-level-before-required-pool-target +not checked: /);
    expect(text).toContain('needs the rendered MachineConfigs');
    expect(text).not.toMatch(/✓ operator-level-before-required-pool-target/);
    const junit = renderAnalysisJunit(r);
    expect(junit).toMatch(
      /name="atlevel invariant operator-level-before-required-pool-target"><skipped message="not checked: [^"]*needs the rendered MachineConfigs/,
    );
  });
});

describe('what is missing is never read as a fact', () => {
  it('fixed run without its pools: the test seeing every pool done later does not make the master pool "rolling"', async () => {
    const dir = without('bug-2019850-fixed', [`${GATHER}/machineconfigpools.json`]);
    try {
      const r = await analyze([dir]);
      const byId = Object.fromEntries(r.outcomes.map((o) => [o.rule.id, o]));
      expect(r.verdict).toBe('inconclusive');
      expect(byId['master-pool-updated-before-cvo-complete']?.state).toBe('not-checked');
      expect(byId['master-pool-updated-before-cvo-complete']?.findings).toEqual([]);
      // Only the pools' conditions can show Degraded.
      expect(byId['pool-degraded']?.state).toBe('not-checked');
      expect(byId['pool-degraded']?.reason).toContain('no MachineConfigPools in the inputs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the bug run without its pools still fails: the test saw the master pool rolling after completion', async () => {
    const dir = without('bug-2019850', [`${GATHER}/machineconfigpools.json`]);
    try {
      const r = await analyze([dir]);
      expect(r.outcomes.find((o) => o.rule.id === 'master-pool-updated-before-cvo-complete')?.state).toBe(
        'violated',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeFixtures('inputs that cannot give a pass', () => {
  it('drain-01 startingEvents.json: no ClusterVersion, so it cannot show there was no update: inconclusive, never pass', async () => {
    const r = await analyze([
      fixture(
        'openshift__origin/pkg/monitortests/node/nodestateanalyzer/nodeTest/drain-01/startingEvents.json',
      ),
    ]);
    expect(r.verdict).toBe('inconclusive');
    expect(r.outcomes.filter((o) => o.applicable)).toEqual([]);
    expect(r.verdictReason).toContain('cannot show whether an update happened');
    expect(renderAnalysisText(r, { colour: false })).toMatch(
      /^INCONCLUSIVE: the inputs hold no ClusterVersion/,
    );
  });

  it('4.15.0-ec2-early: only old completions, with nothing about the pool then: the master-pool rule is not checked', async () => {
    const r = await analyze([fixture(OC, '4.15.0-ec2-early')]);
    const rule = r.outcomes.find((o) => o.rule.id === 'master-pool-updated-before-cvo-complete');
    expect(rule?.state).toBe('not-checked');
    expect(rule?.missing.length).toBeGreaterThan(0);
  });

  it('must-gather-aws: only the install in history, so no update', async () => {
    const r = await analyze([
      fixture('openshift__must-gather-clean/test/files/extracted-subset/must-gather-aws'),
    ]);
    expect(r.verdict).toBe('no-update');
    expect(r.updates).toEqual([]);
  });
});

describeFixtures('status and analyze agree on the oc examples', () => {
  it.each(OC_CASES)(
    '%s: every Error or Critical insight is an analyze failure on the same objects',
    async (name) => {
      const history = await loadHistory([fixture(OC, name)]);
      expect(statusPrerequisites(history)).toBeUndefined();
      const status = assessStatus(history);
      const result = analyzeHistory(history);
      const serious = status.insights.filter(isSerious);
      const failures = result.findings.filter((f) => f.severity === 'failure');
      for (const i of serious) {
        const objects = i.objects.map((o) => `${o.kind}/${o.name}`);
        const match = failures.find(
          (f) => f.summary === i.message && objects.every((o) => f.subject?.objects?.includes(o)),
        );
        expect(match, `${name}: ${i.message}`).toBeDefined();
      }
      // one verdict: status's Error insights mean analyze fails; analyze's insight failures are status's
      if (serious.length > 0) expect(result.verdict).toBe('fail');
      const fromStatus = failures.filter((f) => f.rule === 'no-serious-insight');
      expect(fromStatus.length).toBe(serious.length);
    },
  );

  it('4.14.1-degraded: a MachineConfig from another year is context, never stretches the span or the chart', async () => {
    const history = await loadHistory([fixture(OC, '4.14.1-degraded')]);
    const r = analyzeHistory(history);
    expect(r.span).toEqual({
      from: Date.parse('2023-11-03T15:28:04Z'),
      to: Date.parse('2023-11-03T17:26:54Z'),
    });
    expect(r.notes.some((n) => /dated after the update window .* MachineConfig\/.* 2024-02-07/.test(n))).toBe(
      true,
    );
    const partial = r.findings.find((f) => f.rule === 'update-completed');
    expect(partial?.summary).toContain('(1h58m after it started)');
    const data = buildReportData({
      history,
      findings: r.findings,
      rules: r.outcomes.map((o) => o.rule),
      ...(r.span ? { window: r.span } : {}),
      title: 't',
      generatedFrom: [],
    });
    expect(data.span).toEqual(r.span);
  });

  it('4.14.1-degraded: status Error insights, analyze fail (was PASS with 6 warnings)', async () => {
    const r = await analyze([fixture(OC, '4.14.1-degraded')]);
    expect(r.verdict).toBe('fail');
    expect(r.findings.filter((f) => f.rule === 'no-serious-insight').length).toBeGreaterThan(0);
  });
});
