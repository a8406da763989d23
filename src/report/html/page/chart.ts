import { type ReportBar, type ReportData, type ReportMark, TONES, type Tone } from '../report-data-types.js';
import { append, el } from './dom.js';
import {
  entryAt,
  FOCUS_GROUP,
  GROUP_HEIGHT,
  type Layout,
  layoutEntries,
  ROW_HEIGHT,
  rowSearchText,
} from './layout.js';
import { CHART, MARK_FILL, TONE_FILL, TONE_NAMES, TONE_TEXT, TONE_TICK } from './palette.js';
import { clock, dateTime, day, duration, tickLabel, ticks } from './time-format.js';
import { type Hit, TimelineIndex } from './timeline-index.js';

const AXIS_HEIGHT = 30;
/** Height of one line of moment labels in the band under the axis (shown while a finding is selected). */
const MOMENT_LINE = 17;
const MOMENT_LEVELS = 3;
const BAR_HEIGHT = 12;
const RIGHT_PAD = 10;
const MIN_SPAN_MS = 20;
const HIT_PX = 4;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const SMALL_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const BOLD_FONT = `600 ${FONT}`;

export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

/** What the chart shows for the selected finding. */
interface Focus {
  readonly finding: number;
  readonly rows: readonly number[];
  readonly highlighted: ReadonlySet<number>;
  readonly moments: readonly {
    readonly label: string;
    readonly at: number;
    readonly rows: readonly number[];
  }[];
  /** Row → moments that concern it, to ring their crossing. */
  readonly momentsByRow: ReadonlyMap<number, readonly number[]>;
}

interface Drag {
  readonly x: number;
  readonly y: number;
  readonly view: TimeRange;
  readonly scrollTop: number;
  readonly inGutter: boolean;
  moved: boolean;
}

/**
 * The interval chart, drawn on one canvas: a row gutter, a time axis, and only the rows and bars
 * that are on screen. Rows scroll natively (the canvas is sticky inside a scrolling box); time zooms
 * with the wheel and pans by dragging.
 */
export class TimelineChart {
  readonly element: HTMLElement;
  /** Duration of each of the last frames' drawing, in ms (read by the benchmark). */
  readonly drawTimes: number[] = [];
  /** performance.now() when the first frame was drawn: time since navigation start. */
  firstDrawAt: number | undefined;
  onViewChange: (() => void) | undefined;

  private readonly data: ReportData;
  private readonly index: TimelineIndex;
  private readonly search: string[];
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly scroller: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly tooltip: HTMLDivElement;
  private readonly status: HTMLSpanElement;
  private readonly filterInput: HTMLInputElement;
  private readonly full: TimeRange;
  private view: TimeRange;
  private layout: Layout;
  private filter = '';
  private readonly collapsed = new Set<string>();
  private focus: Focus | null = null;
  private flashRow = -1;
  private flashTimer: ReturnType<typeof setTimeout> | undefined;
  private hover: { entry: number; hit: Hit } | null = null;
  private drag: Drag | null = null;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private gutter = 300;
  private frame = 0;
  private readonly labelCache = new Map<string, string>();

  constructor(data: ReportData) {
    this.data = data;
    this.index = new TimelineIndex(data.rows.length, data.bars, data.marks);
    this.search = rowSearchText(data);
    this.full = fullRange(data.span ?? { from: 0, to: 1 });
    this.view = this.full;
    this.layout = this.relayout();

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
    this.ctx = ctx;
    this.spacer = el('div', null);
    this.scroller = el('div', { class: 'chart-scroll' }, this.canvas, this.spacer);
    this.tooltip = el('div', { class: 'tooltip' });
    this.tooltip.hidden = true;
    this.tooltip.setAttribute('role', 'tooltip');
    this.element = el('div', { class: 'chart-panel' }, toolbar, legend(), this.scroller, this.tooltip);
    this.listen();
  }

  /** Call once the element is in the document: sizes the canvas and draws the first frame. */
  start(): void {
    this.resize();
    new ResizeObserver(() => this.resize()).observe(this.element);
    window.addEventListener('resize', () => this.resize());
  }

  // ---- public operations (buttons, findings, tests) ----

  currentView(): TimeRange {
    return this.view;
  }

  setView(range: TimeRange): void {
    this.view = this.clamp(range);
    this.requestDraw();
    this.onViewChange?.();
  }

  reset(): void {
    this.setView(this.full);
  }

  zoomBy(factor: number, at?: number): void {
    const center = at ?? (this.view.from + this.view.to) / 2;
    const span = this.view.to - this.view.from;
    const next = Math.min(Math.max(span * factor, MIN_SPAN_MS), this.full.to - this.full.from);
    const from = center - ((center - this.view.from) / span) * next;
    this.setView({ from, to: from + next });
  }

  centerOn(t: number, span?: number): void {
    const s = span ?? this.view.to - this.view.from;
    this.setView({ from: t - s / 2, to: t + s / 2 });
  }

  setFilter(text: string): void {
    this.filter = text;
    if (this.filterInput.value !== text) this.filterInput.value = text;
    this.applyLayout();
  }

  collapseAll(collapse: boolean): void {
    this.collapsed.clear();
    if (collapse) for (const g of this.data.groups) this.collapsed.add(g.id);
    this.applyLayout();
  }

  /** Pin, highlight and zoom to a finding's rows and moments; null clears the selection. */
  select(findingIndex: number | null): void {
    const f = findingIndex === null ? undefined : this.data.findings[findingIndex];
    if (!f || findingIndex === null) {
      this.focus = null;
      this.applyLayout();
      return;
    }
    const momentsByRow = new Map<number, number[]>();
    f.moments.forEach((m, i) => {
      for (const r of m.rows) momentsByRow.set(r, [...(momentsByRow.get(r) ?? []), i]);
    });
    this.focus = {
      finding: findingIndex,
      rows: f.rows,
      highlighted: new Set(f.rows),
      moments: f.moments,
      momentsByRow,
    };
    this.collapsed.delete(FOCUS_GROUP);
    this.applyLayout();
    this.scroller.scrollTop = 0;
    if (f.window) this.setView(f.window);
    else this.requestDraw();
  }

  selectedFinding(): number | null {
    return this.focus?.finding ?? null;
  }

  /** Keys of the highlighted rows and the marked times, for the page's exposed state. */
  highlighted(): { finding: number; rows: string[]; times: number[]; labels: string[] } | null {
    if (!this.focus) return null;
    return {
      finding: this.focus.finding,
      rows: this.focus.rows.map((r) => this.data.rows[r]?.key ?? ''),
      times: this.focus.moments.map((m) => m.at),
      labels: this.focus.moments.map((m) => m.label),
    };
  }

  /** Bring a row into view in its own group (expanding it, clearing a filter that hides it) and flash it. */
  scrollToRow(row: number): void {
    const info = this.data.rows[row];
    if (!info) return;
    this.collapsed.delete(info.group);
    if (this.filter && !(this.search[row] ?? '').includes(this.filter.trim().toLowerCase()))
      this.setFilter('');
    this.applyLayout();
    const i = this.layout.entries.findIndex((e) => e.kind === 'row' && e.row === row && !e.pinned);
    if (i === -1) return;
    const rowsArea = this.height - this.top();
    this.scroller.scrollTop = Math.max(0, this.layout.offsets[i]! - rowsArea / 2);
    this.flashRow = row;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      this.flashRow = -1;
      this.requestDraw();
    }, 1600);
    this.requestDraw();
  }

  /** Keys of the rows currently drawn (on screen), in order. */
  visibleRows(): string[] {
    const out: string[] = [];
    this.forVisible((i) => {
      const e = this.layout.entries[i];
      if (e?.kind === 'row') out.push(this.data.rows[e.row]?.key ?? '');
    });
    return out;
  }

  /** Viewport coordinates of row `key` (its first, pinned or not, on screen) at time `t`, or null. */
  locate(key: string, t: number): { x: number; y: number } | null {
    const row = this.data.rows.findIndex((r) => r.key === key);
    let found: { x: number; y: number } | null = null;
    this.forVisible((i, y) => {
      const e = this.layout.entries[i];
      if (found || e?.kind !== 'row' || e.row !== row || y < this.top()) return;
      const rect = this.canvas.getBoundingClientRect();
      found = { x: rect.left + this.xOf(t), y: rect.top + y + ROW_HEIGHT / 2 };
    });
    return found;
  }

  /** Viewport coordinates of a group's header (`__finding` for the pinned one), or null when off screen. */
  locateGroup(group: string): { x: number; y: number } | null {
    let found: { x: number; y: number } | null = null;
    this.forVisible((i, y) => {
      const e = this.layout.entries[i];
      if (found || e?.kind !== 'group' || e.group !== group || y < this.top()) return;
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

  // ---- layout and geometry ----

  private relayout(): Layout {
    const f = this.focus ? this.data.findings[this.focus.finding] : undefined;
    return layoutEntries(this.data, this.search, {
      filter: this.filter,
      collapsed: this.collapsed,
      focus: this.focus ? this.focus.rows : null,
      ...(f ? { focusLabel: `Selected finding: ${f.rule}` } : {}),
    });
  }

  private applyLayout(): void {
    this.layout = this.relayout();
    this.hover = null;
    this.tooltip.hidden = true;
    this.resize();
  }

  private resize(): void {
    const content = this.top() + this.layout.offsets[this.layout.entries.length]!;
    const maxHeight = Math.max(260, window.innerHeight - 150);
    const height = Math.max(this.top() + GROUP_HEIGHT, Math.min(content, maxHeight));
    this.scroller.style.height = `${height}px`;
    const width = Math.max(320, this.scroller.clientWidth);
    this.spacer.style.height = `${Math.max(0, content - height)}px`;
    this.dpr = window.devicePixelRatio || 1;
    if (
      width !== this.width ||
      height !== this.height ||
      this.canvas.width !== Math.round(width * this.dpr)
    ) {
      this.width = width;
      this.height = height;
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
      this.canvas.width = Math.round(width * this.dpr);
      this.canvas.height = Math.round(height * this.dpr);
      this.gutter = Math.round(Math.min(340, Math.max(160, width * 0.26)));
      this.labelCache.clear();
    }
    this.draw();
  }

  private clamp(range: TimeRange): TimeRange {
    const fullSpan = this.full.to - this.full.from;
    let span = Math.min(Math.max(range.to - range.from, MIN_SPAN_MS), fullSpan);
    if (!Number.isFinite(span) || span <= 0) span = fullSpan;
    let from = Number.isFinite(range.from) ? range.from : this.full.from;
    if (from < this.full.from) from = this.full.from;
    if (from + span > this.full.to) from = this.full.to - span;
    return { from, to: from + span };
  }

  private plotWidth(): number {
    return Math.max(1, this.width - this.gutter - RIGHT_PAD);
  }

  private xOf(t: number): number {
    return this.gutter + ((t - this.view.from) / (this.view.to - this.view.from)) * this.plotWidth();
  }

  private tOf(x: number): number {
    return this.view.from + ((x - this.gutter) / this.plotWidth()) * (this.view.to - this.view.from);
  }

  private msPerPx(): number {
    return (this.view.to - this.view.from) / this.plotWidth();
  }

  /** Calls `fn(entryIndex, yOnCanvas)` for each entry that is at least partly on screen. */
  private forVisible(fn: (i: number, y: number) => void): void {
    const top = this.scroller.scrollTop;
    const first = Math.max(0, entryAt(this.layout, top));
    for (let i = first; i < this.layout.entries.length; i++) {
      const y = this.top() + this.layout.offsets[i]! - top;
      if (y >= this.height) break;
      fn(i, y);
    }
  }

  // ---- drawing ----

  private draw(): void {
    if (this.width === 0) return;
    const started = performance.now();
    const ctx = this.ctx;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = CHART.background;
    ctx.fillRect(0, 0, this.width, this.height);
    ctx.textBaseline = 'middle';
    const axis = ticks(this.view.from, this.view.to, this.plotWidth(), 90);

    // Backgrounds first, then grid lines, then content, so the grid never crosses a bar.
    this.forVisible((i, y) => this.drawBackground(i, y));
    ctx.fillStyle = CHART.grid;
    for (const t of axis.at) ctx.fillRect(Math.round(this.xOf(t)), this.top(), 1, this.height - this.top());
    this.forVisible((i, y) => this.drawEntry(i, y));
    this.drawHover();
    this.drawMoments();
    this.drawAxis(axis);
    ctx.fillStyle = CHART.border;
    ctx.fillRect(this.gutter - 1, 0, 1, this.height);

    const took = performance.now() - started;
    this.drawTimes.push(took);
    if (this.drawTimes.length > 2000) this.drawTimes.splice(0, this.drawTimes.length - 2000);
    if (this.firstDrawAt === undefined) {
      this.firstDrawAt = performance.now();
      performance.mark('atlevel:first-draw');
    }
    this.updateStatus();
  }

  private drawBackground(i: number, y: number): void {
    const ctx = this.ctx;
    const e = this.layout.entries[i];
    if (!e) return;
    if (e.kind === 'group') {
      ctx.fillStyle = e.group === FOCUS_GROUP ? '#d7e5fb' : CHART.groupBg;
      ctx.fillRect(0, y, this.width, GROUP_HEIGHT);
      return;
    }
    let bg: string = i % 2 === 0 ? CHART.background : CHART.stripe;
    if (this.focus?.highlighted.has(e.row)) bg = CHART.highlight;
    if (e.row === this.flashRow) bg = CHART.flash;
    ctx.fillStyle = bg;
    ctx.fillRect(0, y, this.width, ROW_HEIGHT);
  }

  private drawEntry(i: number, y: number): void {
    const ctx = this.ctx;
    const e = this.layout.entries[i];
    if (!e) return;
    if (e.kind === 'group') {
      ctx.font = BOLD_FONT;
      ctx.fillStyle = CHART.groupText;
      const text = `${e.collapsed ? '▸' : '▾'} ${e.label} (${e.count})`;
      ctx.fillText(this.fit(text, this.width - 16, BOLD_FONT), 6, y + GROUP_HEIGHT / 2);
      return;
    }
    const info = this.data.rows[e.row];
    if (!info) return;
    ctx.font = FONT;
    ctx.fillStyle = CHART.label;
    const label = e.pinned ? info.key : info.label;
    ctx.fillText(this.fit(label, this.gutter - 22, FONT), 16, y + ROW_HEIGHT / 2);

    ctx.save();
    ctx.beginPath();
    ctx.rect(this.gutter, y, this.width - this.gutter, ROW_HEIGHT);
    ctx.clip();
    this.drawBars(e.row, y + (ROW_HEIGHT - BAR_HEIGHT) / 2);
    this.drawMarks(e.row, y + ROW_HEIGHT / 2);
    const crossing = this.focus?.momentsByRow.get(e.row);
    if (crossing && this.focus) {
      ctx.strokeStyle = CHART.moment;
      ctx.lineWidth = 2;
      for (const m of crossing) {
        const at = this.focus.moments[m]?.at;
        if (at === undefined) continue;
        ctx.beginPath();
        ctx.arc(this.xOf(at), y + ROW_HEIGHT / 2, 6, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
    ctx.restore();
  }

  /**
   * Bars of one row, tone by tone so the worst state is on top. Neighbouring bars that fall on the same
   * pixels are merged into one rectangle, so a row with 50,000 intervals costs at most a few hundred
   * fills per frame.
   */
  private drawBars(row: number, top: number): void {
    const ctx = this.ctx;
    const x0 = this.gutter;
    const x1 = this.width - RIGHT_PAD;
    const scale = this.plotWidth() / (this.view.to - this.view.from);
    const from = this.view.from;
    TONES.forEach((tone, toneIndex) => {
      // Calm bars (a condition in its good state) are many and alike; only states worth reading get words.
      const labelled = tone !== 'ok' && tone !== 'info';
      ctx.fillStyle = TONE_FILL[tone];
      let runStart = -1;
      let runEnd = -1;
      const wide: { a: number; b: number; id: number }[] = [];
      this.index.barsIn(row, toneIndex, this.view.from, this.view.to, (id, f, t) => {
        const a = Math.max(x0, x0 + (f - from) * scale);
        let b = Math.min(x1, x0 + (t - from) * scale);
        if (b - a < 1) b = a + 1;
        if (labelled && b - a >= 44) wide.push({ a, b, id });
        if (a <= runEnd + 0.5) {
          if (b > runEnd) runEnd = b;
          return;
        }
        if (runEnd > runStart) ctx.fillRect(runStart, top, runEnd - runStart, BAR_HEIGHT);
        runStart = a;
        runEnd = b;
      });
      if (runEnd > runStart) ctx.fillRect(runStart, top, runEnd - runStart, BAR_HEIGHT);
      if (wide.length > 0) this.drawBarLabels(wide, tone, top);
    });
  }

  private drawBarLabels(
    wide: readonly { a: number; b: number; id: number }[],
    tone: Tone,
    top: number,
  ): void {
    const ctx = this.ctx;
    ctx.font = SMALL_FONT;
    ctx.fillStyle = TONE_TEXT[tone];
    // Bars of one tone can overlap (a history entry and a condition over the same minutes): a label
    // starts after the previous one of its tone, or is left out when no room remains.
    let textEnd = Number.NEGATIVE_INFINITY;
    for (const w of wide.slice(0, 60)) {
      const bar = this.data.bars[w.id];
      if (!bar) continue;
      const start = Math.max(w.a + 4, textEnd + 8);
      const text = this.fit(this.data.strings[bar.label] ?? '', w.b - start - 4, SMALL_FONT);
      if (!text) continue;
      ctx.fillText(text, start, top + BAR_HEIGHT / 2 + 0.5);
      textEnd = start + ctx.measureText(text).width;
    }
  }

  private drawMarks(row: number, mid: number): void {
    const ctx = this.ctx;
    const pad = HIT_PX * this.msPerPx();
    const last: Record<string, number> = { version: -9, created: -9, instant: -9 };
    this.index.marksIn(row, this.view.from - pad, this.view.to + pad, (id) => {
      const m = this.data.marks[id];
      if (!m) return;
      const x = Math.round(this.xOf(m.at));
      if (Math.abs(x - (last[m.kind] ?? -9)) < (m.kind === 'instant' ? 1 : 3)) return;
      last[m.kind] = x;
      drawMark(ctx, m, x, mid);
    });
  }

  private drawHover(): void {
    const h = this.hover;
    if (!h) return;
    let y = -1;
    this.forVisible((i, top) => {
      if (i === h.entry) y = top;
    });
    if (y < 0) return;
    const ctx = this.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(this.gutter, this.top(), this.width - this.gutter, this.height - this.top());
    ctx.clip();
    ctx.strokeStyle = CHART.hover;
    ctx.lineWidth = 1.5;
    if (h.hit.kind === 'bar') {
      const b = this.data.bars[h.hit.id];
      if (b) {
        const a = Math.max(this.gutter - 2, this.xOf(b.from));
        const z = Math.min(this.width + 2, this.xOf(b.to));
        ctx.strokeRect(
          a - 0.5,
          y + (ROW_HEIGHT - BAR_HEIGHT) / 2 - 1.5,
          Math.max(2, z - a) + 1,
          BAR_HEIGHT + 3,
        );
      }
    } else {
      const m = this.data.marks[h.hit.id];
      if (m) {
        ctx.beginPath();
        ctx.arc(this.xOf(m.at), y + ROW_HEIGHT / 2, 7, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
    ctx.restore();
  }

  /** Top of the rows area: the axis, plus the band of moment labels while a finding is selected. */
  private top(): number {
    return AXIS_HEIGHT + this.momentBand();
  }

  private momentBand(): number {
    const n = this.focus?.moments.length ?? 0;
    return n === 0 ? 0 : Math.min(n, MOMENT_LEVELS) * MOMENT_LINE + 4;
  }

  /**
   * The selected finding's moments: a dashed line down every row, labelled in the band under the axis.
   * Labels that would overlap go on the next line of the band.
   */
  private drawMoments(): void {
    const band = this.momentBand();
    if (!this.focus || band === 0) return;
    const ctx = this.ctx;
    ctx.fillStyle = CHART.axisBg;
    ctx.fillRect(0, AXIS_HEIGHT, this.width, band);
    ctx.fillStyle = CHART.border;
    ctx.fillRect(0, AXIS_HEIGHT + band - 1, this.width, 1);
    ctx.font = SMALL_FONT;
    ctx.fillStyle = CHART.labelMuted;
    ctx.fillText(
      this.fit('moments of the selected finding', this.gutter - 12, SMALL_FONT),
      8,
      AXIS_HEIGHT + band / 2,
    );
    ctx.save();
    ctx.beginPath();
    ctx.rect(this.gutter, AXIS_HEIGHT, this.width - this.gutter, this.height - AXIS_HEIGHT);
    ctx.clip();
    ctx.strokeStyle = CHART.moment;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 3]);
    const placed = this.focus.moments
      .map((m) => ({ m, x: this.xOf(m.at) }))
      .filter((p) => p.x >= this.gutter - 1 && p.x <= this.width)
      .sort((a, b) => a.x - b.x);
    for (const p of placed) {
      ctx.beginPath();
      ctx.moveTo(Math.round(p.x) + 0.5, AXIS_HEIGHT);
      ctx.lineTo(Math.round(p.x) + 0.5, this.height);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    const levelEnds: number[] = [];
    for (const p of placed) {
      const text = `${clock(p.m.at)} ${p.m.label}`;
      const w = Math.min(ctx.measureText(text).width + 10, this.width - this.gutter - 4);
      let left = p.x + 3;
      if (left + w > this.width) left = Math.max(this.gutter + 1, p.x - 3 - w);
      let level = levelEnds.findIndex((end) => end < left);
      if (level === -1 && levelEnds.length < MOMENT_LEVELS) {
        level = levelEnds.length;
        levelEnds.push(0);
      }
      if (level === -1) level = levelEnds.indexOf(Math.min(...levelEnds));
      levelEnds[level] = left + w + 4;
      const top = AXIS_HEIGHT + 2 + level * MOMENT_LINE;
      ctx.fillStyle = CHART.moment;
      ctx.fillRect(left, top, w, MOMENT_LINE - 2);
      ctx.fillStyle = CHART.momentText;
      ctx.fillText(this.fit(text, w - 8, SMALL_FONT), left + 5, top + (MOMENT_LINE - 2) / 2 + 0.5);
    }
    ctx.restore();
  }

  private drawAxis(axis: { step: number; at: readonly number[] }): void {
    const ctx = this.ctx;
    ctx.fillStyle = CHART.axisBg;
    ctx.fillRect(0, 0, this.width, AXIS_HEIGHT);
    ctx.fillStyle = CHART.border;
    ctx.fillRect(0, AXIS_HEIGHT - 1, this.width, 1);
    ctx.font = FONT;
    ctx.fillStyle = CHART.axisText;
    ctx.fillText(
      this.fit(
        `${day(this.view.from)} UTC · ${duration(this.view.to - this.view.from)}`,
        this.gutter - 12,
        FONT,
      ),
      8,
      AXIS_HEIGHT / 2,
    );
    ctx.save();
    ctx.beginPath();
    ctx.rect(this.gutter, 0, this.width - this.gutter, AXIS_HEIGHT);
    ctx.clip();
    ctx.textAlign = 'center';
    let lastDay = day(this.view.from);
    for (const t of axis.at) {
      const x = Math.round(this.xOf(t));
      ctx.fillRect(x, AXIS_HEIGHT - 6, 1, 5);
      const d = day(t);
      const label =
        d !== lastDay && axis.step < 86_400_000
          ? `${d.slice(5)} ${tickLabel(t, axis.step)}`
          : tickLabel(t, axis.step);
      lastDay = d;
      // A label cut by the gutter or the edge reads as a different time; leave it out.
      const half = ctx.measureText(label).width / 2;
      if (x - half >= this.gutter + 2 && x + half <= this.width - 2)
        ctx.fillText(label, x, AXIS_HEIGHT / 2 - 2);
    }
    ctx.restore();
    ctx.textAlign = 'left';
  }

  /** `text` cut with an ellipsis to fit `max` px; cached, since labels repeat frame after frame. */
  private fit(text: string, max: number, font: string): string {
    if (max <= 8) return '';
    const key = `${font}|${Math.floor(max)}|${text}`;
    const hit = this.labelCache.get(key);
    if (hit !== undefined) return hit;
    const ctx = this.ctx;
    ctx.font = font;
    let out = text;
    if (ctx.measureText(text).width > max) {
      let lo = 0;
      let hi = text.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (ctx.measureText(`${text.slice(0, mid)}…`).width <= max) lo = mid;
        else hi = mid - 1;
      }
      out = lo === 0 ? '' : `${text.slice(0, lo)}…`;
    }
    if (this.labelCache.size > 5000) this.labelCache.clear();
    this.labelCache.set(key, out);
    return out;
  }

  private updateStatus(): void {
    const rows = this.layout.entries.filter((e) => e.kind === 'row' && !e.pinned).length;
    const text = `${rows} of ${this.data.rows.length} rows · ${this.data.bars.length + this.data.marks.length} intervals · ${dateTime(this.view.from)} → ${clock(this.view.to)}`;
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  // ---- interaction ----

  private listen(): void {
    const c = this.canvas;
    this.scroller.addEventListener('scroll', () => {
      this.tooltip.hidden = true;
      this.requestDraw();
    });
    c.addEventListener('wheel', (ev) => this.onWheel(ev), { passive: false });
    c.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      const p = this.point(ev);
      this.drag = {
        x: ev.clientX,
        y: ev.clientY,
        view: this.view,
        scrollTop: this.scroller.scrollTop,
        inGutter: p.x < this.gutter,
        moved: false,
      };
      c.setPointerCapture(ev.pointerId);
    });
    c.addEventListener('pointermove', (ev) => {
      const d = this.drag;
      if (!d) {
        this.onHover(ev);
        return;
      }
      const dx = ev.clientX - d.x;
      const dy = ev.clientY - d.y;
      if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!d.moved) {
        d.moved = true;
        c.classList.add('dragging');
        this.tooltip.hidden = true;
        this.hover = null;
      }
      this.scroller.scrollTop = d.scrollTop - dy;
      if (!d.inGutter) {
        const shift = (dx * (d.view.to - d.view.from)) / this.plotWidth();
        this.setView({ from: d.view.from - shift, to: d.view.to - shift });
      }
    });
    const end = (ev: PointerEvent): void => {
      const d = this.drag;
      this.drag = null;
      c.classList.remove('dragging');
      if (c.hasPointerCapture(ev.pointerId)) c.releasePointerCapture(ev.pointerId);
      if (d && !d.moved && ev.type === 'pointerup') this.onClick(ev);
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    c.addEventListener('pointerleave', () => {
      if (this.drag) return;
      this.hover = null;
      this.tooltip.hidden = true;
      this.requestDraw();
    });
    c.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  private point(ev: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  private onWheel(ev: WheelEvent): void {
    const p = this.point(ev);
    if (p.x < this.gutter) return; // over the row names the wheel scrolls the rows, natively
    ev.preventDefault();
    const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? this.height : 1;
    const dx = ev.deltaX * unit;
    const dy = ev.deltaY * unit;
    if (Math.abs(dx) > Math.abs(dy)) this.panPx(dx);
    else if (ev.shiftKey) this.panPx(dy);
    else this.zoomBy(Math.exp(dy * 0.002), this.tOf(p.x));
  }

  private panPx(px: number): void {
    const shift = px * this.msPerPx();
    this.setView({ from: this.view.from + shift, to: this.view.to + shift });
  }

  private onKey(ev: KeyboardEvent): void {
    const handled = ((): boolean => {
      switch (ev.key) {
        case 'ArrowLeft':
          this.panPx(-this.plotWidth() / 8);
          return true;
        case 'ArrowRight':
          this.panPx(this.plotWidth() / 8);
          return true;
        case 'ArrowUp':
          this.scroller.scrollTop -= ROW_HEIGHT * 3;
          return true;
        case 'ArrowDown':
          this.scroller.scrollTop += ROW_HEIGHT * 3;
          return true;
        case '+':
        case '=':
          this.zoomBy(0.5);
          return true;
        case '-':
          this.zoomBy(2);
          return true;
        case '0':
          this.reset();
          return true;
        default:
          return false;
      }
    })();
    if (handled) ev.preventDefault();
  }

  private hitAt(p: { x: number; y: number }): { entry: number; hit: Hit | undefined } | null {
    if (p.y < this.top()) return null;
    const entry = entryAt(this.layout, p.y - this.top() + this.scroller.scrollTop);
    if (entry === -1) return null;
    const e = this.layout.entries[entry];
    if (e?.kind !== 'row' || p.x < this.gutter) return { entry, hit: undefined };
    return { entry, hit: this.index.hitTest(e.row, this.tOf(p.x), HIT_PX * this.msPerPx()) };
  }

  private onHover(ev: PointerEvent): void {
    const p = this.point(ev);
    const found = this.hitAt(p);
    const next = found?.hit ? { entry: found.entry, hit: found.hit } : null;
    const e = found ? this.layout.entries[found.entry] : undefined;
    this.canvas.style.cursor = e?.kind === 'group' ? 'pointer' : '';
    const same =
      next?.hit.kind === this.hover?.hit.kind &&
      next?.hit.id === this.hover?.hit.id &&
      next?.entry === this.hover?.entry;
    if (!same) {
      this.hover = next;
      this.requestDraw();
    }
    if (!next) {
      this.tooltip.hidden = true;
      return;
    }
    if (!same || this.tooltip.hidden) this.fillTooltip(next.hit);
    this.placeTooltip(ev.clientX, ev.clientY);
  }

  private onClick(ev: PointerEvent): void {
    const found = this.hitAt(this.point(ev));
    if (!found) return;
    const e = this.layout.entries[found.entry];
    if (e?.kind === 'group') {
      if (this.collapsed.has(e.group)) this.collapsed.delete(e.group);
      else this.collapsed.add(e.group);
      this.applyLayout();
    } else if (e?.kind === 'row' && e.pinned && this.point(ev).x < this.gutter) {
      this.scrollToRow(e.row);
    }
  }

  private fillTooltip(hit: Hit): void {
    const d = this.data;
    const s = (i: number | undefined): string => (i === undefined ? '' : (d.strings[i] ?? ''));
    const item = hit.kind === 'bar' ? d.bars[hit.id] : d.marks[hit.id];
    if (!item) return;
    const row = d.rows[item.row];
    const when =
      'from' in item
        ? `${dateTime(item.from)} → ${clock(item.to)} (${duration(item.to - item.from)})`
        : `${dateTime(item.at)}${item.kind === 'version' ? ' · version change' : item.kind === 'created' ? ' · created' : ''}`;
    this.tooltip.replaceChildren();
    append(this.tooltip, [
      el('div', { class: 'tt-time' }, when),
      el('div', { class: 'tt-loc' }, `${row?.group ?? ''} ${s(item.locator ?? row?.locator)}`),
      el('div', { class: 'tt-msg' }, s(item.text)),
      el('div', { class: 'tt-ref' }, refText(d, item)),
    ]);
    this.tooltip.hidden = false;
  }

  private placeTooltip(x: number, y: number): void {
    const t = this.tooltip;
    const w = t.offsetWidth;
    const h = t.offsetHeight;
    const left = x + 14 + w > window.innerWidth ? Math.max(4, x - 14 - w) : x + 14;
    const top = y + 16 + h > window.innerHeight ? Math.max(4, y - 10 - h) : y + 16;
    t.style.left = `${left}px`;
    t.style.top = `${top}px`;
  }
}

/** `file:line path (source)`, the way the text report prints a source reference. */
function refText(d: ReportData, item: ReportBar | ReportMark): string {
  const line = item.line !== undefined ? `:${item.line}` : '';
  const path = item.path !== undefined ? ` ${d.strings[item.path] ?? ''}` : '';
  return `${d.strings[item.file] ?? ''}${line}${path} (${d.strings[item.source] ?? ''})`;
}

function drawMark(ctx: CanvasRenderingContext2D, m: ReportMark, x: number, mid: number): void {
  if (m.kind === 'instant') {
    ctx.fillStyle = TONE_TICK[m.tone];
    ctx.fillRect(x - 1, mid - BAR_HEIGHT / 2 - 2, 2, BAR_HEIGHT + 4);
    return;
  }
  ctx.fillStyle = MARK_FILL[m.kind];
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 1;
  ctx.beginPath();
  if (m.kind === 'version') {
    ctx.moveTo(x, mid - 6);
    ctx.lineTo(x + 6, mid);
    ctx.lineTo(x, mid + 6);
    ctx.lineTo(x - 6, mid);
  } else {
    ctx.moveTo(x, mid - 6);
    ctx.lineTo(x + 6, mid + 5);
    ctx.lineTo(x - 6, mid + 5);
  }
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
}

/** The span, padded a little so the first and last intervals do not touch the edges. */
function fullRange(span: TimeRange): TimeRange {
  const width = span.to - span.from;
  const pad = width > 0 ? Math.max(width * 0.02, 1000) : 60_000;
  return { from: span.from - pad, to: span.to + pad };
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
