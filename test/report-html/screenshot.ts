/**
 * Screenshot of a report's chart with a finding selected, for the docs:
 *   node --import tsx test/report-html/screenshot.ts REPORT.html OUT.png [RULE-ID]
 * Selects the first finding of RULE-ID (default: the first finding), then captures the chart panel.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, nextFrames, openReport } from './chromium.js';

const [report, out, rule] = process.argv.slice(2);
if (!report || !out) {
  process.stderr.write('usage: screenshot.ts REPORT.html OUT.png [RULE-ID]\n');
  process.exit(2);
}
const browser = await launchChromium();
try {
  const { page, log } = await openReport(browser, pathToFileURL(resolve(report)).href, {
    width: 1400,
    height: 1000,
  });
  const cards = rule ? page.locator('.finding', { hasText: rule }) : page.locator('.finding');
  await cards.first().locator('.finding-head').click();
  await page.locator('.chart-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await nextFrames(page);
  await page.locator('.chart-panel').screenshot({ path: out });
  process.stdout.write(`${out}: ${log.requests.length} request(s), ${log.errors.length} error(s)\n`);
} finally {
  await browser.close();
}
