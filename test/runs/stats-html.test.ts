/**
 * The stats page in a real headless chromium: its stylesheet is allowed by its own CSP (a wrong hash
 * would be reported as a violation and leave the tables unstyled), it asks for nothing but itself,
 * and text from the store is escaped.
 */

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { statsHtml } from '../../src/stats/html.js';
import type { StatsResult } from '../../src/stats/index.js';
import { describeBrowser, launchChromium, writeArtifact } from '../report-html/chromium.js';

const result: StatsResult = {
  store: '/tmp/<store>',
  filter: {},
  source: 'summary',
  percentileBucketMs: 1000,
  runs: 3,
  firstRun: Date.UTC(2021, 10, 3),
  lastRun: Date.UTC(2021, 10, 10),
  ingestErrors: 1,
  errors: [{ source: '/runs/<img src=x onerror=alert(1)>', error: 'invalid JSON', at: 0 }],
  rates: [
    {
      rule: 'master-pool-updated-before-cvo-complete',
      by: 'all',
      key: 'all',
      runs: 3,
      checked: 3,
      violated: 2,
      notChecked: 0,
      rate: 2 / 3,
      holdsFull: 1,
      holdsPartial: 0,
      holdsThin: 0,
      holdsCoverageUnknown: 0,
    },
    {
      rule: 'master-pool-updated-before-cvo-complete',
      by: 'stream',
      key: '4.9→4.10',
      runs: 3,
      checked: 3,
      violated: 2,
      notChecked: 0,
      rate: 2 / 3,
      holdsFull: 1,
      holdsPartial: 0,
      holdsThin: 0,
      holdsCoverageUnknown: 0,
    },
  ],
  signatures: [
    {
      signature: 'bug-1999556',
      label: 'embedded-image-only race',
      bug: null,
      fix: null,
      runs: 2,
      findings: 2,
      firstSeen: 0,
      lastSeen: 0,
    },
  ],
  earlyLevels: [
    {
      operator: 'dns<b>',
      runs: 2,
      findings: 2,
      firstSeen: Date.UTC(2021, 10, 3),
      lastSeen: Date.UTC(2021, 10, 10),
    },
  ],
  raceRule: 'master-pool-updated-before-cvo-complete',
  components: [
    {
      changed: 'pod',
      unchanged: 'machine-config-operator',
      fix: 'absent',
      runs: 5,
      race: 2,
      notChecked: 1,
      holdsFull: 1,
      holdsPartial: 0,
      holdsThin: 1,
      holdsCoverageUnknown: 0,
      checked: 4,
      rate: 0.5,
    },
    {
      changed: 'pod',
      unchanged: 'machine-config-operator',
      fix: 'present',
      runs: 3,
      race: 0,
      notChecked: 0,
      holdsFull: 1,
      holdsPartial: 1,
      holdsThin: 0,
      holdsCoverageUnknown: 1,
      checked: 3,
      rate: 0,
    },
  ],
  updateMs: { n: 3, min: 1_500_000, p50: 1_500_000, p90: 1_700_000, p99: 1_700_000, max: 1_700_000 },
  levelGapMs: [{ name: 'master', n: 2, min: -1_000, p50: null, p90: null, p99: null, max: 762_000 }],
  rolloutMs: [],
  operatorLevelMs: [],
  filterMisses: [],
};

describeBrowser('atlevel stats -o html in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('is styled under its own CSP, fetches nothing and shows store text as text', async () => {
    const { url } = writeArtifact('stats/stats.html', statsHtml(result));
    const page = await browser.newPage();
    const requests: string[] = [];
    const violations: string[] = [];
    const dialogs: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.exposeFunction('__csp', (t: string) => violations.push(t));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __csp: (t: string) => void }).__csp(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    await page.goto(url);
    expect(violations).toEqual([]);
    expect(requests).toEqual([url]);
    expect(dialogs).toEqual([]);
    const th = await page
      .locator('table.stats th')
      .first()
      .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(th).toBe('600');
    await expect(page.locator('text=<img src=x onerror=alert(1)>').count()).resolves.toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    const rows = await page.locator('table.stats').nth(0).locator('tr').count();
    expect(rows).toBe(2);
  });

  it("shows a component's race out of its checked runs, with every hold by coverage and the runs not checked", async () => {
    const { url } = writeArtifact('stats/stats.html', statsHtml(result));
    const page = await browser.newPage();
    await page.goto(url);
    const table = page.locator('section', {
      has: page.locator('h2', { hasText: 'Changed release components' }),
    });
    const heads = await table.locator('th').allInnerTexts();
    // No run without rendered configs: no column for them.
    expect(heads).toEqual(['changed', 'unchanged', 'before the fix', '', 'after', '']);
    const cells = await table.locator('tr').nth(1).locator('td').allInnerTexts();
    expect(cells.map((c) => c.replace(/\s+/g, ' ').trim())).toEqual([
      'pod',
      'machine-config-operator',
      '2 of 4 held: full 1, partial 0, thin 1, coverage unknown 0; not checked 1',
      '',
      '0 of 3 held: full 1, partial 1, thin 0, coverage unknown 1; not checked 0',
      '',
    ]);
    // The labels sit under the count, in the muted small print, and the bar is the rate of the checked runs.
    const cov = table.locator('tr').nth(1).locator('td .cov').first();
    expect(await cov.evaluate((el) => getComputedStyle(el).display)).toBe('block');
    await expect(
      table.locator('tr').nth(1).locator('svg.bar').first().getAttribute('aria-label'),
    ).resolves.toBe('50.0%');
  });
});
