/**
 * The report page's script (bundled by scripts/build-report-bundle.mjs and inlined into the HTML).
 * It reads the report data from the inert JSON element and draws: the verdict, the findings, the
 * interval chart, the rules and inputs. It computes nothing about the cluster.
 */
import { unpackReportData } from '../pack.js';
import type { PackedReportData, ReportData } from '../report-data-types.js';
import { TimelineChart } from './chart.js';
import { el, plural } from './dom.js';
import { findingsSection } from './findings-view.js';
import { dateTime, duration } from './time-format.js';

/** What tests and the benchmark read from the page. */
interface PageState {
  ready: boolean;
  firstDrawMs: number | undefined;
  /** performance.now() at each step of the start-up: script start, data parsed, chart built, first frame. */
  timings: Record<string, number>;
  highlighted: ReturnType<TimelineChart['highlighted']>;
  drawTimes: number[];
  view: () => { from: number; to: number };
  visibleRows: () => string[];
  locate: (key: string, t: number) => { x: number; y: number } | null;
  locateGroup: (group: string) => { x: number; y: number } | null;
  select: (finding: number | null) => void;
  setFilter: (text: string) => void;
  reset: () => void;
}

declare global {
  interface Window {
    __atlevel?: PageState;
  }
}

function readData(): ReportData {
  const node = document.getElementById('atlevel-data');
  const packed = JSON.parse(node?.textContent ?? 'null') as PackedReportData | null;
  if (packed?.schema !== 1) throw new Error('report data missing or of an unknown schema');
  return unpackReportData(packed);
}

function header(data: ReportData): HTMLElement {
  const failures = data.findings.filter((f) => f.severity === 'failure').length;
  const warnings = data.findings.filter((f) => f.severity === 'warning').length;
  const warned = warnings ? ` with ${warnings} warning${warnings === 1 ? '' : 's'}` : '';
  const unchecked = data.rules.filter(
    (r) => r.state === 'not-checked' && (r.missing?.length ?? 0) > 0,
  ).length;
  const verdictOf = data.verdict ?? (failures > 0 ? 'fail' : undefined);
  const verdict =
    verdictOf === 'fail'
      ? el(
          'span',
          { class: 'verdict fail' },
          `FAIL: ${failures} invariant violation${failures === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`,
        )
      : verdictOf === 'inconclusive'
        ? el(
            'span',
            { class: 'verdict inconclusive' },
            `INCONCLUSIVE: no invariant violated, but ${unchecked} rule${unchecked === 1 ? '' : 's'} could not be checked`,
          )
        : verdictOf === 'no-update'
          ? el(
              'span',
              { class: 'verdict none' },
              `NO UPDATE: the inputs hold no cluster update to check${warned}`,
            )
          : verdictOf === 'pass'
            ? el(
                'span',
                { class: warnings ? 'verdict warn' : 'verdict pass' },
                `PASS${warned || (data.rules.some((r) => r.state === 'not-checked') ? ': every invariant that applies held' : ': every invariant checked and held')}`,
              )
            : el(
                'span',
                { class: 'verdict none' },
                `${plural(failures, 'failure')}, ${plural(warnings, 'warning')} (no verdict given)`,
              );
  const span = data.span
    ? `${dateTime(data.span.from)} to ${dateTime(data.span.to)} (${duration(data.span.to - data.span.from)})`
    : 'no times in the inputs';
  return el(
    'div',
    null,
    el(
      'p',
      { class: 'meta' },
      `From ${data.generatedFrom.join(', ') || '(no paths)'} · ${span} · all times UTC`,
    ),
    verdict,
  );
}

function rulesSection(data: ReportData): HTMLElement {
  return el(
    'section',
    null,
    el('h2', null, `Rules checked (${data.rules.length})`),
    el(
      'table',
      { class: 'inputs' },
      el(
        'tr',
        null,
        el('th', null, 'rule'),
        el('th', null, 'state'),
        el('th', null, 'findings'),
        el('th', null, 'statement'),
      ),
      ...data.rules.map((r) =>
        el(
          'tr',
          { class: `rule ${r.state ?? 'unknown'}` },
          el('td', { class: 'mono' }, r.id),
          el('td', null, ruleStateText(r)),
          el('td', null, r.findings),
          el('td', null, r.statement),
        ),
      ),
    ),
  );
}

/** A rule's state in words: not checked says why and what data it needed. */
function ruleStateText(r: ReportData['rules'][number]): string {
  // Checked on part of its set: the counts and names analyze gave, never recounted here.
  const c = r.coverage;
  const part = c
    ? ` for ${c.checked} of ${c.total} ${c.of}; ${c.notChecked.length} not checked: ${c.reason} (${c.notChecked.join(', ')})${c.enough ? '' : '; too little to count towards a pass'}`
    : '';
  if (r.state === 'holds') return `holds${part}`;
  if (r.state === 'violated') return `violated${part}`;
  if (r.state === 'not-checked') {
    const needs = r.missing && r.missing.length > 0 ? `; needs ${r.missing.join('; ')}` : '';
    return `not checked: ${r.reason ?? ''}${needs}`;
  }
  return '–';
}

function inputsSection(data: ReportData): HTMLElement {
  return el(
    'section',
    null,
    el('h2', null, `Inputs (${data.inputs.length})`),
    data.inputs.length === 0
      ? el('p', { class: 'empty' }, 'No input files were recorded.')
      : el(
          'table',
          { class: 'inputs' },
          el(
            'tr',
            null,
            el('th', null, 'file'),
            el('th', null, 'read as'),
            el('th', null, 'bytes'),
            el('th', null, 'gave'),
          ),
          ...data.inputs.map((i) =>
            el(
              'tr',
              null,
              el('td', { class: 'mono' }, i.path),
              el('td', null, i.reader),
              el('td', null, i.bytes),
              el('td', null, i.contributed),
            ),
          ),
        ),
    data.notes.length > 0 ? el('h2', null, 'Notes') : null,
    data.notes.length > 0 ? el('ul', null, ...data.notes.map((n) => el('li', null, n))) : null,
  );
}

function main(): void {
  const timings: Record<string, number> = { scriptStart: performance.now() };
  const data = readData();
  timings.dataParsed = performance.now();
  const app = document.getElementById('app');
  if (!app) return;
  app.appendChild(header(data));

  const chart = data.span && data.rows.length > 0 ? new TimelineChart(data) : null;
  timings.chartBuilt = performance.now();
  const findings = findingsSection(data, {
    toggle: (i) => {
      if (!chart) return;
      const next = chart.selectedFinding() === i ? null : i;
      chart.select(next);
      findings.markSelected(next);
      state.highlighted = chart.highlighted();
      if (next !== null) bringIntoView(chart.element);
    },
    showMoment: (i, at) => {
      if (!chart) return;
      if (chart.selectedFinding() !== i) {
        chart.select(i);
        findings.markSelected(i);
        state.highlighted = chart.highlighted();
      }
      chart.centerOn(at);
      bringIntoView(chart.element);
    },
    showRow: (row) => {
      if (!chart) return;
      chart.scrollToRow(row);
      bringIntoView(chart.element);
    },
  });
  app.appendChild(findings.element);
  app.appendChild(el('h2', null, 'Timeline'));
  if (chart) app.appendChild(chart.element);
  else app.appendChild(el('p', { class: 'empty' }, 'The inputs hold no intervals to draw.'));
  app.appendChild(rulesSection(data));
  app.appendChild(inputsSection(data));

  const state: PageState = {
    ready: false,
    firstDrawMs: undefined,
    timings,
    highlighted: null,
    drawTimes: chart?.drawTimes ?? [],
    view: () => chart?.currentView() ?? { from: 0, to: 0 },
    visibleRows: () => chart?.visibleRows() ?? [],
    locate: (key, t) => chart?.locate(key, t) ?? null,
    locateGroup: (group) => chart?.locateGroup(group) ?? null,
    select: (i) => {
      if (!chart) return;
      chart.select(i);
      findings.markSelected(i);
      state.highlighted = chart.highlighted();
    },
    setFilter: (text) => chart?.setFilter(text),
    reset: () => chart?.reset(),
  };
  window.__atlevel = state;
  chart?.start();
  state.firstDrawMs = chart?.firstDrawAt ?? performance.now();
  timings.firstDraw = state.firstDrawMs;
  state.ready = true;
}

/** Scroll the chart into view only when most of it is below the fold, so a click does not jump needlessly. */
function bringIntoView(node: HTMLElement): void {
  const r = node.getBoundingClientRect();
  if (r.top > window.innerHeight * 0.5 || r.bottom < 80) node.scrollIntoView({ block: 'start' });
}

main();
