/**
 * Screenshot of a stats page for the docs, in Debian's headless chromium:
 *   node --import tsx test/runs/stats-screenshot.ts STATS.html OUT.png
 * Fails when the page breaks its own Content-Security-Policy or asks for anything but itself.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../report-html/chromium.js';

const [html, out] = process.argv.slice(2);
if (!html || !out) {
  process.stderr.write('usage: stats-screenshot.ts STATS.html OUT.png\n');
  process.exit(2);
}
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const requests: string[] = [];
  const violations: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.exposeFunction('__csp', (t: string) => violations.push(t));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __csp: (t: string) => void }).__csp(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(pathToFileURL(resolve(html)).href);
  await page.screenshot({ path: out, fullPage: true });
  process.stdout.write(`${out}: ${requests.length} request(s), ${violations.length} CSP violation(s)\n`);
  if (violations.length > 0 || requests.length !== 1) process.exitCode = 1;
} finally {
  await browser.close();
}
