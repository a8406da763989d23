/**
 * Debian's chromium through playwright-core, for the report's browser tests and its benchmark.
 * Never downloads a browser: when /usr/bin/chromium is missing the tests skip and say why.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

export const CHROMIUM = process.env.ATLEVEL_CHROMIUM ?? '/usr/bin/chromium';
export const artifactsDir = join(projectRoot, 'test-artifacts');

export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (apt-get install chromium)`;
}

export function describeBrowser(name: string, body: () => void): void {
  const missing = chromiumMissing();
  if (missing) describe.skip(`${name} (skipped: ${missing})`, body);
  else describe(name, body);
}

/** Headless, sandbox off (containers), and nothing that phones home. Each launch gets a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Write `html` under test-artifacts/ and return its file:// URL. */
export function writeArtifact(name: string, html: string): { file: string; url: string } {
  const file = join(artifactsDir, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, html);
  return { file, url: pathToFileURL(file).href };
}

/** What a page did while a test drove it. */
export interface PageLog {
  /** Every request the page started, as chromium reports them (a CSP-blocked one included). */
  readonly requests: string[];
  /** Requests that got past the page's own checks to the network layer (they are aborted there). */
  readonly escaped: string[];
  /** `url errorText` of requests that failed, e.g. blocked by the CSP. */
  readonly failed: string[];
  readonly dialogs: string[];
  readonly errors: string[];
  readonly cspViolations: string[];
}

/** Open a report and wait for its first drawn frame, recording requests, dialogs, errors and CSP reports. */
export async function openReport(
  browser: Browser,
  url: string,
  viewport = { width: 1400, height: 1000 },
): Promise<{ page: Page; log: PageLog }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const log: PageLog = { requests: [], escaped: [], failed: [], dialogs: [], errors: [], cspViolations: [] };
  page.on('request', (r) => log.requests.push(r.url()));
  page.on('requestfailed', (r) => log.failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
  await context.route(/^(?!file:)/, (route) => {
    log.escaped.push(route.request().url());
    void route.abort();
  });
  page.on('dialog', (d) => {
    log.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(m.text());
  });
  await page.exposeFunction('__reportCsp', (text: string) => log.cspViolations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCsp: (t: string) => void }).__reportCsp(
        `${e.violatedDirective} ${e.blockedURI}`,
      );
    });
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__atlevel?.ready === true);
  return { page, log };
}

/** Wait until the chart has drawn the frame for the latest change (it draws on animation frames). */
export function nextFrames(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** The RGB of the chart canvas under a viewport point. */
export function pixelAt(page: Page, p: { x: number; y: number }): Promise<[number, number, number]> {
  return page.evaluate((point) => {
    const canvas = document.querySelector('.chart-scroll canvas') as HTMLCanvasElement;
    const rect = canvas.getBoundingClientRect();
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
    const ratio = canvas.width / rect.width;
    const d = ctx.getImageData(
      Math.round((point.x - rect.left) * ratio),
      Math.round((point.y - rect.top) * ratio),
      1,
      1,
    ).data;
    return [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0] as [number, number, number];
  }, p);
}

export function hex(rgb: readonly number[]): string {
  return `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}
