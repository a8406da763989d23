/**
 * The HTML report of a hypershift dump in chromium (docs/hosted.md): the NodePool and its Machines
 * have rows of their own, grouped after the control plane's; the NodePool's UpdatingVersion interval,
 * a Machine's creation and the HostedCluster's control-plane update are drawn where their times say.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { renderHtmlReport } from '../../src/report/html/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';
import { buildPageBundle } from './bundle.js';
import {
  artifactsDir,
  describeBrowser,
  launchChromium,
  nextFrames,
  openReport,
  writeArtifact,
} from './chromium.js';

const DUMP = join(projectRoot, 'test/fixtures/hosted/ocpbugs-77922');
const NODEPOOL = 'NodePool/clusters/example-workers';
const OLD_MACHINE = 'Machine/clusters-example/example-workers-5f4a8c21-pqrst';
const NEW_MACHINE = 'Machine/clusters-example/example-workers-6b7c9d03-abcde';

let browser: Browser;
let page: Page;

const state = <R>(fn: string): Promise<R> => page.evaluate(`(${fn})(window.__atlevel)`) as Promise<R>;

describeBrowser('HTML report of a hypershift dump in chromium', () => {
  beforeAll(async () => {
    await buildPageBundle();
    const history = await loadHistory([DUMP]);
    const result = analyzeHistory(history);
    const html = renderHtmlReport({
      history,
      findings: result.findings,
      rules: result.outcomes.map((o) => o.rule),
      title: 'atlevel: ocpbugs-77922',
      generatedFrom: [DUMP],
    });
    browser = await launchChromium();
    const opened = await openReport(
      browser,
      writeArtifact('report-html/hosted-ocpbugs-77922.html', html).url,
    );
    page = opened.page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws NodePool and Machine rows after the hosted cluster, in that order', async () => {
    const rows = await state<string[]>('(s) => s.visibleRows()');
    for (const key of ['HostedCluster/clusters/example', NODEPOOL, OLD_MACHINE, NEW_MACHINE]) {
      expect(rows, key).toContain(key);
    }
    const at = (k: string) => rows.indexOf(k);
    expect(at('HostedCluster/clusters/example')).toBeLessThan(at(NODEPOOL));
    expect(at(NODEPOOL)).toBeLessThan(at(NEW_MACHINE));
    // Each kind is a group of its own, with its header on the chart.
    for (const group of ['HostedCluster', 'NodePool', 'Machine']) {
      expect(await state(`(s) => s.locateGroup(${JSON.stringify(group)})`), group).not.toBeNull();
    }
  });

  it('places a Machine at its creation and the NodePool at its UpdatingVersion change, and finds the rule', async () => {
    // The new Machine's row and its creation moment are on the chart.
    const created = Date.parse('2026-11-20T10:41:05Z');
    expect(await state(`(s) => s.locate(${JSON.stringify(NEW_MACHINE)}, ${created})`)).not.toBeNull();
    expect(
      await state(`(s) => s.locate(${JSON.stringify(NODEPOOL)}, ${Date.parse('2026-11-20T10:56:20Z')})`),
    ).not.toBeNull();
    const finding = page.locator('.finding.failure', { hasText: 'nodepool-level-before-rollout' }).first();
    await finding.locator('.finding-head').click();
    await nextFrames(page);
    const hl = await state<{ rows: string[] } | null>('(s) => s.highlighted');
    expect(hl?.rows).toContain(NODEPOOL);
    await page.screenshot({ path: join(artifactsDir, 'report-hosted-ocpbugs-77922.png'), fullPage: true });
  });
});
