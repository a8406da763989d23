/**
 * `npm run screenshots`: the docs' pictures, made with atlevel's own renderers in Debian's headless
 * chromium through playwright-core (never a downloaded browser; ATLEVEL_CHROMIUM names another). Each
 * fails, writing nothing, when its page breaks its Content-Security-Policy, logs an error or asks for
 * anything but itself.
 *
 * - docs/img/report-bug-2019850.png (docs/report.md): the HTML report of the bundled example
 *   (examples/bug-2019850, written by `npm run examples`) with the first finding of FOCUS_RULE
 *   selected, its chart panel captured.
 * - docs/img/stats.png (docs/runs.md), only with `--stats-db DIR`: the top of `atlevel stats -o html`
 *   of the run store DIR (failure rate per rule, and by version stream; the whole page would be three
 *   times the bytes for tables of the same look). The docs' picture is of the 2,000-run corpus
 *   (`node --import tsx scripts/make-run-corpus.ts CORPUS`, then `atlevel ingest --db DIR CORPUS`).
 *
 *   npm run screenshots [-- --stats-db DIR]      (builds first: the report's page script is in dist/)
 */
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { main } from '../src/cli/main.js';
import { chromiumMissing, launchChromium, nextFrames, openReport } from '../test/report-html/chromium.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE = join(ROOT, 'examples/bug-2019850');
const REPORT_PNG = join(ROOT, 'docs/img/report-bug-2019850.png');
const STATS_PNG = join(ROOT, 'docs/img/stats.png');
/** The finding docs/report.md's picture shows: the CVO's completion before the master pool's. */
const FOCUS_RULE = 'master-pool-updated-before-cvo-complete';
/** Wide enough for the report's legend on one line; the chart panel is what is captured. */
const REPORT_VIEWPORT = { width: 1400, height: 760 };
/** The stats page's first two tables, as the 2,000-run corpus fills them. */
const STATS_VIEWPORT = { width: 1100, height: 940 };

/** Run the CLI in-process; anything but a verdict (0, 1 or 4) is a failure. */
async function atlevel(args: string[]): Promise<void> {
  const code = await main(args);
  if (code !== 0 && code !== 1 && code !== 4) throw new Error(`atlevel ${args[0]} exited ${code}`);
}

type Page = Awaited<ReturnType<typeof openReport>>['page'];

/** What a page did that a picture of it must not show: errors, CSP violations, requests but itself. */
interface Opened {
  readonly page: Page;
  readonly problems: () => string[];
}

/** The report page, once its chart has drawn (test/report-html/chromium.ts). */
async function openReportPage(browser: Browser, url: string): Promise<Opened> {
  const { page, log } = await openReport(browser, url, REPORT_VIEWPORT);
  return {
    page,
    problems: () => [...log.errors, ...log.cspViolations, ...log.requests.filter((u) => u !== url)],
  };
}

/** The stats page, which has no script: loaded is ready. */
async function openStatsPage(browser: Browser, url: string): Promise<Opened> {
  const context = await browser.newContext({ viewport: STATS_VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.url() !== url) seen.push(r.url());
  });
  page.on('pageerror', (e) => seen.push(e.message));
  await page.exposeFunction('__csp', (t: string) => seen.push(`CSP ${t}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __csp: (t: string) => void }).__csp(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(url);
  return { page, problems: () => seen };
}

/** Open `html`, let `shoot` write the picture to a temporary file, then move it to `out` if the page behaved. */
async function picture(
  browser: Browser,
  html: string,
  out: string,
  open: (browser: Browser, url: string) => Promise<Opened>,
  shoot: (page: Page, path: string) => Promise<void>,
): Promise<void> {
  const { page, problems } = await open(browser, pathToFileURL(html).href);
  const shot = `${html}.png`;
  await shoot(page, shot);
  const found = problems();
  if (found.length > 0) throw new Error(`${relative(ROOT, out)}: the page misbehaved: ${found.join('; ')}`);
  renameSync(shot, out);
  process.stdout.write(`${relative(ROOT, out)}: ${statSync(out).size} bytes\n`);
}

const { values } = parseArgs({ options: { 'stats-db': { type: 'string' } } });
const missing = chromiumMissing();
if (missing) {
  process.stderr.write(`screenshots: ${missing}\n`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'atlevel-screenshots-'));
const browser = await launchChromium();
try {
  const report = join(work, 'report.html');
  // The example fails on purpose (bug 2019850): 1 is its verdict.
  await atlevel(['analyze', EXAMPLE, '-o', 'html', '--out', report]);
  await picture(browser, report, REPORT_PNG, openReportPage, async (page, path) => {
    await page.locator('.finding', { hasText: FOCUS_RULE }).first().locator('.finding-head').click();
    await page.locator('.chart-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await nextFrames(page);
    await page.locator('.chart-panel').screenshot({ path });
  });
  const db = values['stats-db'];
  if (db !== undefined) {
    const stats = join(work, 'stats.html');
    await atlevel(['stats', '--db', db, '-o', 'html', '--out', stats]);
    await picture(browser, stats, STATS_PNG, openStatsPage, async (page, path) => {
      await page.screenshot({ path });
    });
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
