/**
 * The interval chart, drawn on one canvas: a row gutter, a time axis, and only the rows and bars that
 * are on screen. Rows scroll natively (the canvas is sticky inside a scrolling box); time zooms with the
 * wheel and pans by dragging. This module builds the chart's DOM and holds its public operations; the
 * view state is in view.ts, painting in paint.ts, pointer and keyboard handling in input.ts and the
 * tooltip in tooltip.ts.
 */
import type { ReportData, Tone } from '../report-data-types.js';
import { el, plural } from './dom.js';
import { listen } from './input.js';
import { FOCUS_GROUP, GROUP_HEIGHT, ROW_HEIGHT, rowSearchText } from './layout.js';
import { Painter } from './paint.js';
import { CHART, MARK_FILL, TONE_FILL, TONE_NAMES, TONE_TICK } from './palette.js';
import { clock, dateTime } from './time-format.js';
import { TimelineIndex } from './timeline-index.js';
import { Tooltip } from './tooltip.js';
import { ChartView, type TimeRange } from './view.js';

export type { TimeRange } from './view.js';

export class TimelineChart {
  readonly element: HTMLElement;
  /** Duration of each of the last frames' drawing, in ms (read by the benchmark). */
  readonly drawTimes: number[] = [];
  /** performance.now() when the first frame was drawn: time since navigation start. */
  firstDrawAt: number | undefined;
  onViewChange: (() => void) | undefined;

  readonly view: ChartView;
  readonly index: TimelineIndex;
  readonly canvas: HTMLCanvasElement;
  readonly scroller: HTMLDivElement;
  readonly tooltip: Tooltip;
  private readonly data: ReportData;
  private readonly painter: Painter;
  private readonly spacer: HTMLDivElement;
  private readonly status: HTMLSpanElement;
  private readonly filterInput: HTMLInputElement;
  private flashTimer: ReturnType<typeof setTimeout> | undefined;
  private frame = 0;

  constructor(data: ReportData) {
    this.data = data;
    this.index = new TimelineIndex(data.rows.length, data.bars, data.marks);
    this.view = new ChartView(data, rowSearchText(data), () => this.scroller.scrollTop);

    this.filterInput = el('input', { type: 'search', title: 'Show only rows whose name contains this text' });
    this.filterInput.placeholder = 'Filter rows (e.g. master, machine-config)';
    this.filterInput.setAttribute('aria-label', 'Filter rows');
    this.filterInput.addEventListener('input', () => this.setFilter(this.filterInput.value));
    this.status = el('span', { class: 'status' });
    const button = (text: string, title: string, action: () => void): HTMLButtonElement =>
      el('button', { type: 'button', title, onClick: action }, text);
    const toolbar = el(
      'div',
      { class: 'toolbar' },
      this.filterInput,
      button('−', 'Zoom out (or scroll the wheel over the chart)', () => this.zoomBy(2)),
      button('+', 'Zoom in (or scroll the wheel over the chart)', () => this.zoomBy(0.5)),
      button('Reset view', 'Show the whole time span (key 0)', () => this.reset()),
      button('Collapse all', 'Collapse every group', () => this.collapseAll(true)),
      button('Expand all', 'Expand every group', () => this.collapseAll(false)),
      this.status,
    );

    this.canvas = el('canvas', null);
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute(
      'aria-label',
      'Interval chart: one row per object, time across. Wheel zooms, drag pans, arrow keys pan, + and - zoom, 0 resets.',
    );
    const ctx = this.canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('canvas 2d context unavailable');
    this.painter = new Painter(ctx, data, this.index, this.view);
    this.spacer = el('div', null);
    this.scroller = el('div', { class: 'chart-scroll' }, this.canvas, this.spacer);
    this.tooltip = new Tooltip(data);
    this.element = el(
      'div',
      { class: 'chart-panel' },
      toolbar,
      legend(),
      this.scroller,
      this.tooltip.element,
    );
    listen(this);
  }

  /** Call once the element is in the document: sizes the canvas and draws the first frame. */
  start(): void {
    this.resize();
    new ResizeObserver(() => this.resize()).observe(this.element);
    window.addEventListener('resize', () => this.resize());
  }

  // ---- public operations (buttons, findings, tests) ----

  currentView(): TimeRange {
    return this.view.range;
  }

  setView(range: TimeRange): void {
    this.view.range = this.view.clamp(range);
    this.requestDraw();
    this.onViewChange?.();
  }

  reset(): void {
    this.setView(this.view.full);
  }

  zoomBy(factor: number, at?: number): void {
    this.setView(this.view.zoomed(factor, at));
  }

  centerOn(t: number, span?: number): void {
    const s = span ?? this.view.range.to - this.view.range.from;
    this.setView({ from: t - s / 2, to: t + s / 2 });
  }

  setFilter(text: string): void {
    this.view.filter = text;
    if (this.filterInput.value !== text) this.filterInput.value = text;
    this.applyLayout();
  }

  collapseAll(collapse: boolean): void {
    this.view.collapsed.clear();
    if (collapse) for (const g of this.data.groups) this.view.collapsed.add(g.id);
    this.applyLayout();
  }

  toggleGroup(group: string): void {
    if (this.view.collapsed.has(group)) this.view.collapsed.delete(group);
    else this.view.collapsed.add(group);
    this.applyLayout();
  }

  /** Pin, highlight and zoom to a finding's rows and moments; null clears the selection. */
  select(findingIndex: number | null): void {
    const f = findingIndex === null ? undefined : this.data.findings[findingIndex];
    if (!f || findingIndex === null) {
      this.view.focus = null;
      this.applyLayout();
      return;
    }
    const momentsByRow = new Map<number, number[]>();
    f.moments.forEach((m, i) => {
      for (const r of m.rows) momentsByRow.set(r, [...(momentsByRow.get(r) ?? []), i]);
    });
    this.view.focus = {
      finding: findingIndex,
      rows: f.rows,
      highlighted: new Set(f.rows),
      moments: f.moments,
      momentsByRow,
    };
    this.view.collapsed.delete(FOCUS_GROUP);
    this.applyLayout();
    this.scroller.scrollTop = 0;
    if (f.window) this.setView(f.window);
    else this.requestDraw();
  }

  selectedFinding(): number | null {
    return this.view.focus?.finding ?? null;
  }

  /** Keys of the highlighted rows and the marked times, for the page's exposed state. */
  highlighted(): { finding: number; rows: string[]; times: number[]; labels: string[] } | null {
    const focus = this.view.focus;
    if (!focus) return null;
    return {
      finding: focus.finding,
      rows: focus.rows.map((r) => this.data.rows[r]?.key ?? ''),
      times: focus.moments.map((m) => m.at),
      labels: focus.moments.map((m) => m.label),
    };
  }

  /** Bring a row into view in its own group (expanding it, clearing a filter that hides it) and flash it. */
  scrollToRow(row: number): void {
    const info = this.data.rows[row];
    if (!info) return;
    const v = this.view;
    v.collapsed.delete(info.group);
    if (!v.matchesFilter(row)) this.setFilter('');
    this.applyLayout();
    const i = v.layout.entries.findIndex((e) => e.kind === 'row' && e.row === row && !e.pinned);
    if (i === -1) return;
    const rowsArea = v.height - v.top();
    this.scroller.scrollTop = Math.max(0, v.layout.offsets[i]! - rowsArea / 2);
    v.flashRow = row;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      v.flashRow = -1;
      this.requestDraw();
    }, 1600);
    this.requestDraw();
  }

  /** Keys of the rows currently drawn (on screen), in order. */
  visibleRows(): string[] {
    const out: string[] = [];
    this.view.forVisible((i) => {
      const e = this.view.layout.entries[i];
      if (e?.kind === 'row') out.push(this.data.rows[e.row]?.key ?? '');
    });
    return out;
  }

  /** Viewport coordinates of row `key` (its first, pinned or not, on screen) at time `t`, or null. */
  locate(key: string, t: number): { x: number; y: number } | null {
    const v = this.view;
    const row = this.data.rows.findIndex((r) => r.key === key);
    let found: { x: number; y: number } | null = null;
    v.forVisible((i, y) => {
      const e = v.layout.entries[i];
      if (found || e?.kind !== 'row' || e.row !== row || y < v.top()) return;
      const rect = this.canvas.getBoundingClientRect();
      found = { x: rect.left + v.xOf(t), y: rect.top + y + ROW_HEIGHT / 2 };
    });
    return found;
  }

  /** Viewport coordinates of a group's header (`__finding` for the pinned one), or null when off screen. */
  locateGroup(group: string): { x: number; y: number } | null {
    const v = this.view;
    let found: { x: number; y: number } | null = null;
    v.forVisible((i, y) => {
      const e = v.layout.entries[i];
      if (found || e?.kind !== 'group' || e.group !== group || y < v.top()) return;
      const rect = this.canvas.getBoundingClientRect();
      found = { x: rect.left + 40, y: rect.top + y + GROUP_HEIGHT / 2 };
    });
    return found;
  }

  requestDraw(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  // ---- layout, size, frames ----

  private applyLayout(): void {
    this.view.relayout();
    this.view.hover = null;
    this.tooltip.hide();
    this.resize();
  }

  private resize(): void {
    const v = this.view;
    const content = v.contentHeight();
    const maxHeight = Math.max(260, window.innerHeight - 150);
    const height = Math.max(v.top() + GROUP_HEIGHT, Math.min(content, maxHeight));
    this.scroller.style.height = `${height}px`;
    const width = Math.max(320, this.scroller.clientWidth);
    this.spacer.style.height = `${Math.max(0, content - height)}px`;
    if (v.setSize(width, height, window.devicePixelRatio || 1, this.canvas.width)) {
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
      this.canvas.width = Math.round(width * v.dpr);
      this.canvas.height = Math.round(height * v.dpr);
      this.painter.resized();
    }
    this.draw();
  }

  private draw(): void {
    if (this.view.width === 0) return;
    const started = performance.now();
    this.painter.paint();
    const took = performance.now() - started;
    this.drawTimes.push(took);
    if (this.drawTimes.length > 2000) this.drawTimes.splice(0, this.drawTimes.length - 2000);
    if (this.firstDrawAt === undefined) {
      this.firstDrawAt = performance.now();
      performance.mark('atlevel:first-draw');
    }
    this.updateStatus();
  }

  private updateStatus(): void {
    const v = this.view;
    const rows = v.layout.entries.filter((e) => e.kind === 'row' && !e.pinned).length;
    const text = `${rows} of ${plural(this.data.rows.length, 'row')} · ${plural(this.data.bars.length + this.data.marks.length, 'interval')} · ${dateTime(v.range.from)} → ${clock(v.range.to)}`;
    if (this.status.textContent !== text) this.status.textContent = text;
  }
}

function legend(): HTMLElement {
  const swatch = (colour: string): HTMLElement => {
    const s = el('span', { class: 'sw' });
    s.style.background = colour;
    return s;
  };
  const order: Tone[] = ['bad', 'progress', 'warn', 'ok', 'info'];
  return el(
    'div',
    { class: 'legend' },
    ...order.map((t) => el('span', { title: TONE_NAMES[t] }, swatch(TONE_FILL[t]), legendName(t))),
    el('span', null, swatch(MARK_FILL.version), 'version change ◆'),
    el('span', null, swatch(MARK_FILL.created), 'rendered config created ▲'),
    el('span', null, swatch(TONE_TICK.info), 'event |'),
    el('span', null, swatch(CHART.moment), 'finding moment ┆'),
  );
}

function legendName(t: Tone): string {
  switch (t) {
    case 'bad':
      return 'unavailable / degraded / failing';
    case 'progress':
      return 'progressing / updating';
    case 'warn':
      return 'not updated / not upgradeable / warning';
    case 'ok':
      return 'healthy';
    case 'info':
      return 'other';
  }
}
