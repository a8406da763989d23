/**
 * The HTML report at scale: a generated history of 100,000 intervals over about 1,000 rows (and a
 * 10,000-interval one for comparison), rendered in Node, then loaded in headless chromium.
 * Prints: render time and size; load time (navigation start → first chart frame drawn); and frame
 * times while the chart is zoomed with the wheel, panned by dragging and scrolled, measured in the
 * page from requestAnimationFrame deltas and from the chart's own draw durations.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Finding } from '../src/model/finding.js';
import type { ClusterHistory, Interval, IntervalLevel } from '../src/model/history.js';
import { emptySnapshot } from '../src/model/history.js';
import { buildReportData, renderHtmlReport } from '../src/report/html/index.js';
import { buildPageBundle } from '../test/report-html/bundle.js';
import { chromiumMissing, launchChromium } from '../test/report-html/chromium.js';

const outDir = fileURLToPath(new URL('./out/', import.meta.url));
const START = Date.parse('2021-11-03T02:00:00Z');
const HOURS = 2;

/** mulberry32: a small seeded generator, so every run draws the same history. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RowSpec {
  readonly type: string;
  readonly keys: Record<string, string>;
}

function rowsFor(count: number): RowSpec[] {
  const rows: RowSpec[] = [{ type: 'ClusterVersion', keys: { clusterversion: 'version' } }];
  for (let i = 0; i < 50; i++)
    rows.push({ type: 'ClusterOperator', keys: { clusteroperator: `operator-${i}` } });
  for (const p of ['master', 'worker', 'infra'])
    rows.push({ type: 'MachineConfigPool', keys: { machineconfigpool: p } });
  for (let i = 0; i < 240; i++)
    rows.push({ type: 'Node', keys: { node: `ip-10-0-${Math.floor(i / 200)}-${i % 200}.ec2.internal` } });
  for (let i = 0; rows.length < count; i++) {
    rows.push({ type: 'KubeEvent', keys: { namespace: `ns-${i % 40}`, pod: `pod-${i}` } });
  }
  return rows;
}

const CONDITIONS = ['Available', 'Degraded', 'Progressing', 'Upgradeable', 'Updating', 'Ready'];

function generate(total: number, rowCount: number, seed: number): ClusterHistory {
  const random = rng(seed);
  const rows = rowsFor(rowCount);
  // Uneven load, as in real runs: a few rows carry thousands of intervals, most carry tens; each at least one.
  const weights = rows.map(() => random() ** 3);
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => 1 + Math.floor(((total - rows.length) * w) / sum));
  counts[0] = (counts[0] ?? 0) + total - counts.reduce((a, b) => a + b, 0);
  const span = HOURS * 3600_000;
  const intervals: Interval[] = [];
  rows.forEach((row, r) => {
    for (let k = 0; k < (counts[r] ?? 0); k++) {
      const from = START + Math.floor(random() * span);
      const instant = random() < 0.35;
      const length = instant ? 0 : Math.floor(random() ** 4 * span * 0.3) + 500;
      const condition = CONDITIONS[Math.floor(random() * CONDITIONS.length)] ?? 'Available';
      const status = random() < 0.5 ? 'True' : 'False';
      const level: IntervalLevel = random() < 0.1 ? 'Error' : random() < 0.4 ? 'Warning' : 'Info';
      intervals.push({
        from,
        to: from + length,
        level,
        locator: row,
        message: {
          reason: instant ? 'Event' : '',
          humanMessage: instant
            ? `event ${k} on ${Object.values(row.keys).join('/')}`
            : `condition changed (${k})`,
          annotations: instant ? {} : { condition, status },
        },
        source: 'e2e-events',
        ref: { file: 'e2e-events_20211103-020000.json', path: `items[${intervals.length}]` },
      });
    }
  });
  intervals.sort((a, b) => a.from - b.from || a.to - b.to);
  return {
    objects: emptySnapshot(),
    intervals,
    testLog: [],
    releases: {},
    inputs: [{ path: 'generated', reader: 'bench', bytes: 0, contributed: `${intervals.length} intervals` }],
    span: { from: START, to: START + span },
    notes: [],
  };
}

function finding(): Finding {
  const at = START + 3600_000;
  return {
    rule: 'master-pool-updated-before-cvo-complete',
    severity: 'failure',
    summary: 'generated finding, to exercise the highlight',
    at,
    evidence: [],
    moments: [
      { label: 'CVO reported the update complete', at, objects: ['ClusterVersion/version'] },
      { label: 'master pool really finished', at: at + 420_000, objects: ['MachineConfigPool/master'] },
    ],
  };
}

const stats = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return { n: s.length, mean, p50: q(0.5), p95: q(0.95), max: s[s.length - 1] ?? Number.NaN };
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function measure(total: number, rowCount: number): Promise<void> {
  const history = generate(total, rowCount, 2019850);
  const input = {
    history,
    findings: [finding()],
    rules: [],
    title: `bench: ${total} intervals`,
    generatedFrom: ['generated'],
  };
  let t = performance.now();
  const data = buildReportData(input);
  const shapeMs = performance.now() - t;
  t = performance.now();
  const html = renderHtmlReport(input);
  const renderMs = performance.now() - t;
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `report-${total}.html`);
  writeFileSync(file, html);
  process.stdout.write(
    `\n${total} intervals (${data.bars.length} bars, ${data.marks.length} marks) on ${data.rows.length} rows\n` +
      `  node: report data ${ms(shapeMs)}, whole page ${ms(renderMs)}, ${(Buffer.byteLength(html) / 1e6).toFixed(1)} MB\n`,
  );

  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
    const loads: number[] = [];
    for (let run = 0; run < 3; run++) {
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(() => window.__atlevel?.ready === true);
      loads.push(await page.evaluate(() => window.__atlevel?.firstDrawMs ?? Number.NaN));
    }
    const dcl = await page.evaluate(
      () =>
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
          .domContentLoadedEventEnd,
    );
    const steps = (await page.evaluate('window.__atlevel.timings')) as Record<string, number>;
    const at = (k: string): number => steps[k] ?? Number.NaN;
    const load = stats(loads);
    process.stdout.write(
      `  load, navigation start → first chart frame: ${ms(load.p50)} median of 3 (min ${ms(Math.min(...loads))}, max ${ms(load.max)}); DOMContentLoaded ${ms(dcl)}\n` +
        `    last load: page parsed at ${ms(at('scriptStart'))}, data parsed +${ms(at('dataParsed') - at('scriptStart'))}, ` +
        `chart index +${ms(at('chartBuilt') - at('dataParsed'))}, first frame +${ms(at('firstDraw') - at('chartBuilt'))}\n`,
    );

    await page.locator('.chart-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const box = await page.locator('.chart-scroll canvas').boundingBox();
    if (!box) throw new Error('chart not found');
    const cx = box.x + box.width * 0.65;
    const cy = box.y + box.height * 0.5;
    const drawsBefore = await page.evaluate(() => window.__atlevel?.drawTimes.length ?? 0);
    // Passed as text: tsx would wrap a named function in a helper the page does not have.
    await page.evaluate(`(() => {
      window.__frames = [];
      window.__sampling = true;
      const tick = (now) => { window.__frames.push(now); if (window.__sampling) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`);
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 25; i++) {
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(16);
    }
    for (let d = 0; d < 3; d++) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx - 300, cy - 120, { steps: 30 });
      await page.mouse.up();
    }
    for (let i = 0; i < 25; i++) {
      await page.mouse.wheel(0, 120);
      await page.waitForTimeout(16);
    }
    await page.locator('.finding-head').first().click();
    await page.waitForTimeout(100);
    const result = (await page.evaluate(`(() => {
      window.__sampling = false;
      const f = window.__frames;
      return { deltas: f.slice(1).map((x, i) => x - f[i]), draws: window.__atlevel.drawTimes.slice(${drawsBefore}) };
    })()`)) as { deltas: number[]; draws: number[] };
    const frames = stats(result.deltas);
    const draws = stats(result.draws);
    const long = result.deltas.filter((d) => d > 50).length;
    process.stdout.write(
      `  interaction (25 wheel zooms in, 3 drags, 25 zooms out, select a finding): ${draws.n} chart redraws\n` +
        `    frame interval (rAF deltas, ${frames.n} frames): median ${ms(frames.p50)}, p95 ${ms(frames.p95)}, max ${ms(frames.max)}, ${long} over 50 ms\n` +
        `    chart draw time: mean ${ms(draws.mean)}, p95 ${ms(draws.p95)}, max ${ms(draws.max)}\n`,
    );
  } finally {
    await browser.close();
  }
}

const missing = chromiumMissing();
if (missing) {
  process.stdout.write(`report bench skipped: ${missing}\n`);
} else {
  await buildPageBundle();
  await measure(10_000, 1_000);
  await measure(100_000, 1_000);
}
