/**
 * Operand rollouts under their operator, on a CI run with gather-extra workload files
 * (test/fixtures/operand-rollout): the report data (golden) and the page in a real browser.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import type { ClusterHistory } from '../../src/model/index.js';
import { buildReportData, type HtmlReportInput, renderHtmlReport } from '../../src/report/html/index.js';
import { TONE_FILL } from '../../src/report/html/page/palette.js';
import { loadHistory } from '../helpers/load.js';
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
import { expectGolden } from './golden.js';

const RUN = 'test/fixtures/operand-rollout';
const T = (clock: string): number => Date.parse(`2024-05-10T${clock}Z`);
const APISERVER = 'Deployment/openshift-oauth-apiserver/apiserver';
const DNS_DEFAULT = 'DaemonSet/openshift-dns/dns-default';

async function input(): Promise<{ history: ClusterHistory; input: HtmlReportInput }> {
  // Relative to the project root (vitest's working directory), so the golden holds no absolute path.
  const history = await loadHistory([RUN]);
  const result = analyzeHistory(history);
  return {
    history,
    input: {
      history,
      findings: result.findings,
      rules: result.outcomes.map((o) => o.rule),
      title: `atlevel: ${RUN}`,
      generatedFrom: [RUN],
    },
  };
}

describe('report data: operands under their operator', () => {
  let data: ReturnType<typeof buildReportData>;
  beforeAll(async () => {
    data = buildReportData((await input()).input);
  });

  it('matches its golden file', () => {
    expectGolden('operand-rollout.report-data.golden.json', `${JSON.stringify(data, null, 2)}\n`);
  });

  it("puts each operator's Deployments and DaemonSets right under it, in the operators' group", () => {
    const group = data.groups.find((g) => g.id === 'ClusterOperator');
    expect(group?.rows.map((r) => [data.rows[r]?.key, data.rows[r]?.parent ?? null])).toEqual([
      ['ClusterOperator/authentication', null],
      [
        'Deployment/openshift-authentication-operator/authentication-operator',
        'ClusterOperator/authentication',
      ],
      [APISERVER, 'ClusterOperator/authentication'],
      ['ClusterOperator/dns', null],
      [DNS_DEFAULT, 'ClusterOperator/dns'],
      ['Deployment/openshift-dns-operator/dns-operator', 'ClusterOperator/dns'],
      ['ClusterOperator/openshift-apiserver', null],
    ]);
    // No group of their own any more.
    expect(data.groups.map((g) => g.id)).not.toContain('Deployment');
    expect(data.groups.map((g) => g.id)).not.toContain('DaemonSet');
  });

  it('draws each rollout as a bar from its start to its end, with the counts, and a mark per pod created', () => {
    const row = (key: string) => data.rows.findIndex((r) => r.key === key);
    const rollouts = (key: string) =>
      data.bars
        .filter((b) => b.row === row(key) && data.strings[b.source] === 'derived:operand-rollout')
        .map((b) => ({ from: b.from, to: b.to, tone: b.tone, label: data.strings[b.label] }));
    // A DaemonSet has no conditions: after its rollout, its pods' Ready times say how it stood.
    expect(rollouts(DNS_DEFAULT)).toEqual([
      { from: T('10:08:00'), to: T('10:11:20'), tone: 'progress', label: 'rollout 3/3' },
      { from: T('10:11:20'), to: T('10:18:30'), tone: 'ok', label: 'pods Ready 3/3' },
    ]);
    const ready = data.bars.find((b) => b.row === row(DNS_DEFAULT) && b.from === T('10:11:20'))?.text;
    expect(data.strings[ready ?? -1]).toContain(
      'DaemonSet openshift-dns/dns-default (revision 7f6d5c8b9): every pod Ready since 10:11:20',
    );
    // A Deployment's Available condition says as much already: no such bar on its row.
    expect(rollouts(APISERVER).map((b) => b.label)).not.toContain(expect.stringContaining('pods Ready'));
    // Begun by the ScalingReplicaSet event, still rolling at the end of the inputs.
    const [apiserver] = rollouts(APISERVER);
    expect(apiserver).toMatchObject({ from: T('10:15:02'), tone: 'warn', label: 'rollout 2/3' });
    const text = data.bars.find((b) => b.row === row(APISERVER) && b.from === T('10:15:02'))?.text;
    expect(data.strings[text ?? -1]).toContain(
      'Deployment openshift-oauth-apiserver/apiserver rolling out (ReplicaSet apiserver-6b7c8d9f5): began 10:15:02, not finished by the end of the inputs; 2/3 updated, 2/3 available as last seen',
    );
    const podMarks = data.marks
      .filter((m) => m.row === row(DNS_DEFAULT) && data.strings[m.source] === 'derived:operand-rollout')
      .map((m) => [m.at, data.strings[m.text]]);
    expect(podMarks).toEqual([
      [T('10:08:00'), expect.stringContaining('1/3 updated')],
      [T('10:09:10'), expect.stringContaining('2/3 updated')],
      [T('10:10:20'), expect.stringContaining('3/3 updated')],
    ]);
  });
});

let browser: Browser;
let url = '';
const state = <R>(page: Page, fn: (s: NonNullable<Window['__atlevel']>) => R): Promise<R> =>
  page.evaluate(`(${fn.toString()})(window.__atlevel)`) as Promise<R>;

describeBrowser('HTML report in chromium: operand rollouts under their operator', () => {
  beforeAll(async () => {
    await buildPageBundle();
    url = writeArtifact('report-html/operand-rollout.html', renderHtmlReport((await input()).input)).url;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the operands under their operator, the rollout on hover, in the tone of its state', async () => {
    const { page, log } = await openReport(browser, url);
    await page.locator('.chart-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const rows = await state(page, (s) => s.visibleRows());
    const i = rows.indexOf('ClusterOperator/authentication');
    expect(rows.slice(i, i + 4)).toEqual([
      'ClusterOperator/authentication',
      'Deployment/openshift-authentication-operator/authentication-operator',
      APISERVER,
      'ClusterOperator/dns',
    ]);
    // Zoom to the update, so the rollouts are wide enough to point at.
    await page.evaluate(`window.__atlevel.setFilter('')`);
    const p = await page.evaluate(`window.__atlevel.locate(${JSON.stringify(APISERVER)}, ${T('10:17:30')})`);
    if (!p) throw new Error('apiserver row not on screen');
    const at = p as { x: number; y: number };
    await page.mouse.move(at.x, at.y);
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    expect(await tip.locator('.tt-msg').textContent()).toContain(
      'rolling out (ReplicaSet apiserver-6b7c8d9f5): began 10:15:02, not finished by the end of the inputs',
    );
    await page.mouse.move(0, 0);
    await nextFrames(page);
    expect(hex(await pixelAt(page, at))).toBe(TONE_FILL.warn);
    const ds = (await page.evaluate(
      `window.__atlevel.locate(${JSON.stringify(DNS_DEFAULT)}, ${T('10:10:50')})`,
    )) as {
      x: number;
      y: number;
    };
    expect(hex(await pixelAt(page, { x: ds.x, y: ds.y + 5 }))).toBe(TONE_FILL.progress);
    // After it, every pod Ready: the DaemonSet's row is not blank where the Deployments show conditions.
    const settled = (await page.evaluate(
      `window.__atlevel.locate(${JSON.stringify(DNS_DEFAULT)}, ${T('10:15:00')})`,
    )) as { x: number; y: number };
    expect(hex(await pixelAt(page, { x: settled.x, y: settled.y + 5 }))).toBe(TONE_FILL.ok);
    await page.mouse.move(settled.x, settled.y + 5);
    await tip.waitFor({ state: 'visible' });
    expect(await tip.locator('.tt-msg').textContent()).toContain('every pod Ready since 10:11:20');
    await page.mouse.move(0, 0);
    await nextFrames(page);
    await page.screenshot({ path: join(artifactsDir, 'report-operand-rollout.png'), fullPage: true });
    expect(log.errors).toEqual([]);
    expect(log.cspViolations).toEqual([]);
  });

  it('filtering on an operator keeps its operands', async () => {
    const { page } = await openReport(browser, url);
    await state(page, (s) => s.setFilter('dns'));
    await nextFrames(page);
    const rows = await state(page, (s) => s.visibleRows());
    expect(rows).toEqual(
      expect.arrayContaining([
        'ClusterOperator/dns',
        DNS_DEFAULT,
        'Deployment/openshift-dns-operator/dns-operator',
      ]),
    );
    expect(rows).not.toContain(APISERVER);
  });
});
