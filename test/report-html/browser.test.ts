/**
 * The HTML report in a real browser (Debian chromium via playwright-core): the finding, its highlight
 * on the chart, hover, zoom, pan, filter, collapse; no network; hostile strings stay text.
 * Screenshots are kept under test-artifacts/ (gitignored).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { analyzeHtml, renderHtmlReport } from '../../src/report/html/index.js';
import { TONE_FILL } from '../../src/report/html/page/palette.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';
import { dayTwoRightAfterCompletion } from '../helpers/origin-day2.js';
import { buildPageBundle } from './bundle.js';
import {
  artifactsDir,
  describeBrowser,
  hex,
  launchChromium,
  nextFrames,
  openReport,
  pixelAt,
  writeArtifact,
} from './chromium.js';
import { bugInput, hostileInput, NEW_MASTER, T, XSS_IMG, XSS_NAME, XSS_SCRIPT } from './inputs.js';

const FOCUS_ROWS = [
  'ClusterVersion/version',
  'ClusterOperator/machine-config',
  `MachineConfig/${NEW_MASTER}`,
  'MachineConfigPool/master',
];
const MOMENTS = [T('03:28:35'), T('03:23:09.856'), T('03:23:11'), T('03:35:50')];

let browser: Browser;

/** Scroll the chart to the top of the window, so pointer events land on it. */
const showChart = (page: Page): Promise<void> =>
  page.locator('.chart-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
let bugUrl = '';
let hostileUrl = '';

/** Read the page's exposed state. Passed as source text: DevTools evaluation is not subject to the page's CSP. */
const state = <R>(page: Page, fn: (s: NonNullable<Window['__atlevel']>) => R): Promise<R> =>
  page.evaluate(`(${fn.toString()})(window.__atlevel)`) as Promise<R>;

describeBrowser('HTML report in chromium', () => {
  beforeAll(async () => {
    await buildPageBundle();
    bugUrl = writeArtifact('report-html/bug-2019850.html', renderHtmlReport(bugInput())).url;
    hostileUrl = writeArtifact('report-html/hostile.html', renderHtmlReport(hostileInput())).url;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the finding; clicking it pins and highlights its rows, marks its moments and zooms to them', async () => {
    const { page, log } = await openReport(browser, bugUrl);
    const failure = page.locator('.finding.failure');
    await expect(failure.locator('.summary').textContent()).resolves.toContain(
      'the CVO reported 4.10.0-0.nightly-2021-11-03-020416 complete at 03:28:35 while the master pool was Updated=False, Updating=True',
    );
    expect(await page.locator('.finding').count()).toBe(2);
    expect(await state(page, (s) => s.highlighted)).toBeNull();
    const full = await state(page, (s) => s.view());

    await failure.locator('.finding-head').click();
    await nextFrames(page);
    const hl = await state(page, (s) => s.highlighted);
    expect(hl?.rows).toEqual(FOCUS_ROWS);
    expect(hl?.times).toEqual(MOMENTS);
    expect(hl?.labels).toEqual([
      'CVO reported the update complete',
      'machine-config reported level',
      `${NEW_MASTER} created`,
      'master pool really finished',
    ]);
    expect(await failure.getAttribute('class')).toContain('selected');
    // Pinned at the top of the chart, and the view narrowed to the moments.
    expect((await state(page, (s) => s.visibleRows())).slice(0, 4)).toEqual(FOCUS_ROWS);
    const view = await state(page, (s) => s.view());
    expect(view.from).toBeLessThan(Math.min(...MOMENTS));
    expect(view.to).toBeGreaterThan(Math.max(...MOMENTS));
    expect(view.to - view.from).toBeLessThan((full.to - full.from) / 3);

    // The master pool, pinned, is drawn updating (amber) after the CVO's completion and healthy after it finished.
    const during = await state(page, (s) =>
      s.locate('MachineConfigPool/master', Date.parse('2021-11-03T03:31:00Z')),
    );
    const after = await state(page, (s) =>
      s.locate('MachineConfigPool/master', Date.parse('2021-11-03T03:37:30Z')),
    );
    if (!during || !after) throw new Error('master pool row not on screen');
    expect(hex(await pixelAt(page, during))).toBe(TONE_FILL.progress);
    expect(hex(await pixelAt(page, after))).toBe(TONE_FILL.ok);

    await page.screenshot({ path: join(artifactsDir, 'report-bug-2019850.png'), fullPage: true });
    await page
      .locator('.chart-panel')
      .screenshot({ path: join(artifactsDir, 'report-bug-2019850-chart.png') });

    await failure.locator('.finding-head').click();
    expect(await state(page, (s) => s.highlighted)).toBeNull();
    expect(log.errors).toEqual([]);
    expect(log.cspViolations).toEqual([]);
    expect(log.requests).toEqual([bugUrl]);
  });

  it("shows an interval's time, locator, message and source on hover", async () => {
    const { page } = await openReport(browser, bugUrl);
    await showChart(page);
    // Before the upgrade test starts polling, so the pool's own Updating interval is what is under the pointer.
    const p = await state(page, (s) =>
      s.locate('MachineConfigPool/master', Date.parse('2021-11-03T03:25:00Z')),
    );
    if (!p) throw new Error('master pool row not on screen');
    await page.mouse.move(p.x, p.y);
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    expect(await tip.locator('.tt-time').textContent()).toBe('2021-11-03 03:23:11Z → 03:35:50 (12m39s)');
    expect(await tip.locator('.tt-loc').textContent()).toBe('MachineConfigPool machineconfigpool/master');
    expect(await tip.locator('.tt-msg').textContent()).toBe(
      `condition/Updating status/True All nodes are updating to ${NEW_MASTER}`,
    );
    expect(await tip.locator('.tt-ref').textContent()).toBe(
      'examples/bug-2019850/gather-extra/machineconfigpools.json items[0].status.conditions[1] (derived:pool)',
    );
  });

  it('zooms around the pointer with the wheel, pans by dragging, and resets', async () => {
    const { page, log } = await openReport(browser, bugUrl);
    const full = await state(page, (s) => s.view());
    await showChart(page);
    const p = await state(page, (s) =>
      s.locate('MachineConfigPool/master', Date.parse('2021-11-03T03:00:00Z')),
    );
    if (!p) throw new Error('row not on screen');
    await page.mouse.move(p.x, p.y);
    await page.mouse.wheel(0, -400);
    await nextFrames(page);
    const zoomed = await state(page, (s) => s.view());
    expect(zoomed.to - zoomed.from).toBeLessThan((full.to - full.from) * 0.6);
    // The time under the pointer stays under the pointer.
    const under = (v: { from: number; to: number }, f: { from: number; to: number }) =>
      v.from + ((T('03:00:00') - f.from) / (f.to - f.from)) * (v.to - v.from);
    expect(Math.abs(under(zoomed, full) - T('03:00:00'))).toBeLessThan(((full.to - full.from) / 1000) * 1.5); // within a pixel and a half

    await page.mouse.down();
    await page.mouse.move(p.x + 200, p.y, { steps: 8 });
    await page.mouse.up();
    await nextFrames(page);
    const panned = await state(page, (s) => s.view());
    expect(panned.to - panned.from).toBeCloseTo(zoomed.to - zoomed.from, 0);
    expect(panned.from).toBeLessThan(zoomed.from);

    await page.getByRole('button', { name: 'Reset view' }).click();
    expect(await state(page, (s) => s.view())).toEqual(full);
    expect(log.requests).toEqual([bugUrl]);
  });

  it('filters rows by substring and collapses a group by its header', async () => {
    const { page } = await openReport(browser, bugUrl);
    await showChart(page);
    await page.getByRole('searchbox', { name: 'Filter rows' }).fill('master');
    await nextFrames(page);
    // Names and labels both count: a node's label carries its roles.
    expect(await state(page, (s) => s.visibleRows())).toEqual([
      'MachineConfigPool/master',
      'MachineConfig/rendered-master-78d48a9fbc8ba6a746040c11f8335d1a',
      `MachineConfig/${NEW_MASTER}`,
      'Node/ip-10-0-128-10.ec2.internal',
      'Node/ip-10-0-160-21.ec2.internal',
      'Node/ip-10-0-190-32.ec2.internal',
      'KubeEvent/namespace/openshift-machine-config-operator machineconfigpool/master',
    ]);
    await page.getByRole('searchbox', { name: 'Filter rows' }).fill('');
    await nextFrames(page);
    expect((await state(page, (s) => s.visibleRows())).some((r) => r.startsWith('Node/'))).toBe(true);

    const header = await state(page, (s) => s.locateGroup('Node'));
    if (!header) throw new Error('Nodes header not on screen');
    await page.mouse.click(header.x, header.y);
    await nextFrames(page);
    expect((await state(page, (s) => s.visibleRows())).some((r) => r.startsWith('Node/'))).toBe(false);
  });

  it('loads nothing from the network, even when told to', async () => {
    const { page, log } = await openReport(browser, bugUrl);
    const fetched = await page.evaluate(() =>
      fetch('http://127.0.0.1:9/probe').then(
        () => 'loaded',
        () => 'blocked',
      ),
    );
    expect(fetched).toBe('blocked');
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.src = 'http://127.0.0.1:9/pixel.png';
      document.body.appendChild(img);
      const s = document.createElement('script');
      s.src = 'http://127.0.0.1:9/x.js';
      document.body.appendChild(s);
    });
    await page.waitForTimeout(200);
    expect(log.cspViolations.map((v) => v.split(' ')[0]).sort()).toEqual([
      'connect-src',
      'img-src',
      'script-src-elem',
    ]);
    // Chromium announces the attempts, fails them on the CSP, and none reaches the network.
    expect(log.failed.sort()).toEqual(['http://127.0.0.1:9/pixel.png csp', 'http://127.0.0.1:9/x.js csp']);
    expect(log.escaped).toEqual([]);
  });

  it('says "no dated data" on a row a finding names that no interval is about', async () => {
    const base = bugInput();
    const GHOST = 'Node/ip-10-0-9-9.ec2.internal';
    const [first] = base.findings;
    if (!first) throw new Error('no finding');
    const html = renderHtmlReport({
      ...base,
      findings: [
        ...base.findings,
        {
          ...first,
          moments: [{ label: 'a node no interval is about', at: T('03:30:00'), objects: [GHOST] }],
        },
      ],
    });
    const { page, log } = await openReport(
      browser,
      writeArtifact('report-html/no-dated-data.html', html).url,
    );
    await showChart(page);
    const darkIn = async (key: string): Promise<number> => {
      const from = (await state(page, (s) => s.view().from)) as number;
      const p = (await page.evaluate(`window.__atlevel.locate(${JSON.stringify(key)}, ${from})`)) as {
        x: number;
        y: number;
      } | null;
      if (!p) throw new Error(`${key} not on screen`);
      let dark = 0;
      for (let dx = 4; dx < 90; dx += 1) {
        const [r, g, b] = await pixelAt(page, { x: p.x + dx, y: p.y });
        if (r + g + b < 500) dark += 1;
      }
      return dark;
    };
    await state(page, (s) => s.setFilter('ip-10-0-9-9'));
    await nextFrames(page);
    expect(await state(page, (s) => s.visibleRows())).toContain(GHOST);
    // Muted text where its bars would be: some dark pixels, on a row that has no bar or mark at all.
    expect(await darkIn(GHOST)).toBeGreaterThan(5);
    await page.screenshot({ path: join(artifactsDir, 'report-no-dated-data.png') });
    expect(log.errors).toEqual([]);
  });

  it('says so when there is nothing to draw and nothing found', async () => {
    const empty = bugInput();
    const html = renderHtmlReport({
      ...empty,
      history: { ...empty.history, intervals: [], testLog: [], span: undefined },
      findings: [],
      verdict: 'no-update',
      title: 'empty',
    });
    const { page, log } = await openReport(browser, writeArtifact('report-html/empty.html', html).url);
    expect(await page.locator('.verdict').textContent()).toBe(
      'NO UPDATE: the inputs hold no cluster update to check',
    );
    expect(await page.locator('.findings-section .empty').textContent()).toBe(
      'No rule found anything wrong in these inputs.',
    );
    expect(await page.getByText('The inputs hold no intervals to draw.').count()).toBe(1);
    expect(await page.locator('canvas').count()).toBe(0);
    expect(log.errors).toEqual([]);
  });

  it('shows the three rule states and the verdict as analyze gave them', async () => {
    const base = bugInput();
    const [a, b, c] = base.rules;
    const html = renderHtmlReport({
      ...base,
      verdict: 'inconclusive',
      findings: [],
      outcomes: new Map([
        [a?.id ?? '', { state: 'holds' as const, missing: [] }],
        [b?.id ?? '', { state: 'violated' as const, missing: [] }],
        [
          c?.id ?? '',
          {
            state: 'not-checked' as const,
            reason: 'no rendered config',
            missing: ['the rendered MachineConfigs (gather-extra machineconfigs.json, or a must-gather)'],
          },
        ],
      ]),
      title: 'states',
    });
    const { page, log } = await openReport(browser, writeArtifact('report-html/states.html', html).url);
    expect(await page.locator('.verdict').textContent()).toBe(
      'INCONCLUSIVE: no invariant violated, but 1 rule could not be checked',
    );
    expect(await page.locator('tr.rule.holds td').nth(1).textContent()).toBe('holds');
    expect(await page.locator('tr.rule.violated td').nth(1).textContent()).toBe('violated');
    expect(await page.locator('tr.rule.not-checked td').nth(1).textContent()).toBe(
      'not checked: no rendered config; needs the rendered MachineConfigs (gather-extra machineconfigs.json, or a must-gather)',
    );
    expect(log.errors).toEqual([]);
  });

  it('shows hostile names and messages as text and never runs them', async () => {
    const { page, log } = await openReport(browser, hostileUrl);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(log.dialogs).toEqual([]);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(2);
    expect(await page.title()).toBe(`</title>${XSS_NAME}`);
    expect(await page.locator('h1').textContent()).toBe(`</title>${XSS_NAME}`);
    expect(await page.locator('.finding.failure .summary').textContent()).toContain(XSS_IMG);
    expect(await page.locator('pre.diff').textContent()).toContain(`+${XSS_SCRIPT}`);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.locator('.signature li').first().textContent()).toBe('javascript:window.__pwned=3');

    await page.locator('.finding.failure .finding-head').click();
    await nextFrames(page);
    expect((await state(page, (s) => s.highlighted))?.rows).toContain(`ClusterOperator/${XSS_NAME}`);
    const p = await state(page, (s) =>
      s.locate(
        `ClusterOperator/<img src=x onerror="window.__pwned=1;alert(1)"></script><script>window.__pwned=2</script>`,
        Date.parse('2021-11-03T03:15:00Z'),
      ),
    );
    if (!p) throw new Error('hostile row not on screen');
    await page.mouse.move(p.x, p.y);
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    expect(await tip.locator('.tt-loc').textContent()).toBe(`ClusterOperator clusteroperator/${XSS_NAME}`);
    expect(await tip.locator('.tt-msg').textContent()).toContain(
      `Degraded because ${XSS_IMG} <!-- ${XSS_SCRIPT}`,
    );
    await page.screenshot({ path: join(artifactsDir, 'report-hostile.png'), fullPage: true });

    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(log.dialogs).toEqual([]);
    expect(log.errors).toEqual([]);
    expect(log.cspViolations).toEqual([]);
    expect(log.requests).toEqual([hostileUrl]);
    expect(log.escaped).toEqual([]);
  });
});

// The bundled example, read and analysed by the library from source, as `atlevel report` does.
const example = join(projectRoot, 'examples/bug-2019850');
const exampleReady = existsSync(example);
(exampleReady ? describeBrowser : describe.skip)(
  `report of examples/bug-2019850${exampleReady ? '' : ' (skipped: examples/bug-2019850 not there yet)'}`,
  () => {
    let page: Page;
    beforeAll(async () => {
      await buildPageBundle();
      const history = await loadHistory([example]);
      const result = analyzeHistory(history);
      const html = renderHtmlReport({
        history,
        findings: result.findings,
        rules: result.outcomes.map((o) => o.rule),
        title: 'atlevel: examples/bug-2019850',
        generatedFrom: ['examples/bug-2019850'],
      });
      browser = await launchChromium();
      page = (await openReport(browser, writeArtifact('report-html/example-bug-2019850.html', html).url))
        .page;
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('shows the master pool finding, and the pool still updating after the CVO completed', async () => {
      const finding = page
        .locator('.finding.failure', { hasText: 'master-pool-updated-before-cvo-complete' })
        .first();
      await finding.locator('.finding-head').click();
      await nextFrames(page);
      const hl = await state(page, (s) => s.highlighted);
      expect(hl?.rows).toContain('MachineConfigPool/master');
      expect(hl?.rows).toContain('ClusterVersion/version');
      const at = (label: string): number => hl?.times[hl.labels.indexOf(label)] ?? Number.NaN;
      const cvoDone = at('CVO reported the update complete');
      const poolDone = at('master pool really finished');
      expect(poolDone - cvoDone).toBeGreaterThan(60_000);
      // Halfway between the two, the pinned master pool row is drawn amber: still updating.
      const p = await state(page, (s) => s.locate('MachineConfigPool/master', 0));
      const mid = await page.evaluate(
        `window.__atlevel.locate('MachineConfigPool/master', ${(cvoDone + poolDone) / 2})`,
      );
      expect(p).not.toBeNull();
      expect(hex(await pixelAt(page, mid as { x: number; y: number }))).toBe(TONE_FILL.progress);
      await page.screenshot({ path: join(artifactsDir, 'report-example-bug-2019850.png'), fullPage: true });
    });
  },
);

// origin's upgrade test logs "Invariant violation detected" on its own evidence; atlevel's verdict on
// the same question is its own rule's. The upgrade test row's mark says whose claim it is.
describeBrowser("origin's invariant violation line on the upgrade test row", () => {
  let page: Page;
  const open = async (inputs: string[], name: string): Promise<void> => {
    const history = await loadHistory(inputs);
    const html = analyzeHtml({ result: analyzeHistory(history), history, inputs }, undefined);
    page = (await openReport(browser, writeArtifact(`report-html/${name}.html`, html).url)).page;
  };
  /** Zoom in on `t` on the upgrade test row and hover its mark there; the tooltip's lines. */
  const hover = async (t: number): Promise<{ msg: string; claim: string | null }> => {
    await showChart(page);
    // Only the test's rows, so the row is on screen whatever the run's size.
    await page.evaluate(`window.__atlevel.setFilter('upgrade test log')`);
    await nextFrames(page);
    const key = 'UpgradeTest/upgrade test log';
    for (let i = 0; i < 6; i++) {
      const p = await page.evaluate(`window.__atlevel.locate(${JSON.stringify(key)}, ${t})`);
      if (!p) throw new Error('upgrade test row not on screen');
      const { x, y } = p as { x: number; y: number };
      await page.mouse.move(x, y);
      await page.mouse.wheel(0, -400);
      await nextFrames(page);
    }
    const p = (await page.evaluate(`window.__atlevel.locate(${JSON.stringify(key)}, ${t})`)) as {
      x: number;
      y: number;
    };
    await page.mouse.move(p.x, p.y + 1);
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    const claim = tip.locator('.tt-claim');
    return {
      msg: (await tip.locator('.tt-msg').textContent()) ?? '',
      claim: (await claim.count()) > 0 ? await claim.textContent() : null,
    };
  };
  const LINE =
    'origin\'s upgrade test logged "Invariant violation detected: the "master" pool should be updated before the CVO reports available at the new version"';

  beforeAll(async () => {
    await buildPageBundle();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("atlevel's rule holds: the mark is origin's claim, with atlevel's verdict beside it", async () => {
    await open([dayTwoRightAfterCompletion()], 'origin-claim-holds');
    const tip = await hover(Date.parse('2021-11-03T03:29:15.079Z'));
    expect(tip.msg).toBe(LINE);
    expect(tip.claim).toBe(
      "origin's upgrade test's claim, not atlevel's verdict. atlevel's own verdict on the same question (master-pool-updated-before-cvo-complete): holds: atlevel's evidence says the rule held",
    );
    await page.screenshot({ path: join(artifactsDir, 'report-origin-claim-holds.png') });
  });

  it('atlevel sees the violation too (examples/bug-2019850): still origin’s claim, and atlevel’s verdict says violated', async () => {
    await open([join(projectRoot, 'examples/bug-2019850')], 'origin-claim-violated');
    const tip = await hover(Date.parse('2021-11-03T03:23:33.079Z'));
    expect(tip.msg).toBe(LINE);
    expect(tip.claim).toBe(
      "origin's upgrade test's claim, not atlevel's verdict. atlevel's own verdict on the same question (master-pool-updated-before-cvo-complete): violated: atlevel sees it too",
    );
  });
});
