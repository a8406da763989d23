/**
 * `npm run screenshots`: the docs' picture of the HTML report, docs/img/report-bug-2019850.png, made
 * from the bundled example (examples/bug-2019850, written by `npm run examples`) with atlevel's own
 * renderer, in Debian's headless chromium through playwright-core (never a downloaded browser;
 * ATLEVEL_CHROMIUM names another). The report's first finding of FOCUS_RULE is selected and the chart
 * panel captured, as docs/report.md describes it. Fails, writing nothing, when the page breaks its
 * Content-Security-Policy, logs an error or asks for anything but itself.
 *
 *   npm run screenshots            (builds first: the page script is dist/report/html/page.bundle.js)
 */
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { main } from '../src/cli/main.js';
import { chromiumMissing, launchChromium, nextFrames, openReport } from '../test/report-html/chromium.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE = join(ROOT, 'examples/bug-2019850');
const OUT = join(ROOT, 'docs/img/report-bug-2019850.png');
/** The finding docs/report.md's picture shows: the CVO's completion before the master pool's. */
const FOCUS_RULE = 'master-pool-updated-before-cvo-complete';
/** Wide enough for the legend on one line; the chart panel is what is captured. */
const VIEWPORT = { width: 1400, height: 760 };

const missing = chromiumMissing();
if (missing) {
  process.stderr.write(`screenshots: ${missing}\n`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'atlevel-screenshots-'));
try {
  const report = join(work, 'report.html');
  const code = await main(['analyze', EXAMPLE, '-o', 'html', '--out', report]);
  // The example fails on purpose (bug 2019850): 1 is its verdict; anything but a verdict is not.
  if (code !== 0 && code !== 1 && code !== 4) throw new Error(`analyze exited ${code}`);
  const browser = await launchChromium();
  try {
    const { page, log } = await openReport(browser, pathToFileURL(report).href, VIEWPORT);
    await page.locator('.finding', { hasText: FOCUS_RULE }).first().locator('.finding-head').click();
    await page.locator('.chart-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await nextFrames(page);
    const shot = join(work, 'shot.png');
    await page.locator('.chart-panel').screenshot({ path: shot });
    const problems = [
      ...log.errors,
      ...log.cspViolations,
      ...log.requests.filter((u) => u !== pathToFileURL(report).href),
    ];
    if (problems.length > 0) throw new Error(`the report page misbehaved: ${problems.join('; ')}`);
    renameSync(shot, OUT);
  } finally {
    await browser.close();
  }
  process.stdout.write(`${relative(ROOT, OUT)}: ${statSync(OUT).size} bytes\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
