/**
 * The chart's view state and geometry: which time range is shown, which rows (filter, collapsed groups,
 * the selected finding pinned on top), the canvas size, and the mapping between time and pixels. No
 * DOM and no drawing here, so painting and input handling read one consistent state.
 */
import type { ReportData } from '../report-data-types.js';
import { entryAt, type Layout, layoutEntries } from './layout.js';
import type { Hit } from './timeline-index.js';

export const AXIS_HEIGHT = 30;
/** Height of one line of moment labels in the band under the axis (shown while a finding is selected). */
export const MOMENT_LINE = 17;
export const MOMENT_LEVELS = 3;
export const RIGHT_PAD = 10;
const MIN_SPAN_MS = 20;

export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

/** What the chart shows for the selected finding. */
export interface Focus {
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

export class ChartView {
  readonly full: TimeRange;
  range: TimeRange;
  layout: Layout;
  filter = '';
  readonly collapsed = new Set<string>();
  focus: Focus | null = null;
  flashRow = -1;
  hover: { entry: number; hit: Hit } | null = null;
  width = 0;
  height = 0;
  dpr = 1;
  gutter = 300;

  private readonly data: ReportData;
  private readonly search: readonly string[];
  /** The rows area's scroll offset (the scrolling box belongs to the chart's DOM). */
  private readonly scrollTop: () => number;

  constructor(data: ReportData, search: readonly string[], scrollTop: () => number) {
    this.data = data;
    this.search = search;
    this.scrollTop = scrollTop;
    this.full = fullRange(data.span ?? { from: 0, to: 1 });
    this.range = this.full;
    this.layout = this.relayout();
  }

  /** Recomputes the lines shown from the filter, the collapsed groups and the focus. */
  relayout(): Layout {
    const f = this.focus ? this.data.findings[this.focus.finding] : undefined;
    this.layout = layoutEntries(this.data, this.search, {
      filter: this.filter,
      collapsed: this.collapsed,
      focus: this.focus ? this.focus.rows : null,
      ...(f ? { focusLabel: `Selected finding: ${f.rule}` } : {}),
    });
    return this.layout;
  }

  /** Whether row `row` passes the current filter. */
  matchesFilter(row: number): boolean {
    return !this.filter || (this.search[row] ?? '').includes(this.filter.trim().toLowerCase());
  }

  /** Records the canvas size; true when it changed (the caller then resizes the canvas). */
  setSize(width: number, height: number, dpr: number, canvasWidth: number): boolean {
    this.dpr = dpr;
    if (width === this.width && height === this.height && canvasWidth === Math.round(width * dpr))
      return false;
    this.width = width;
    this.height = height;
    this.gutter = Math.round(Math.min(340, Math.max(160, width * 0.26)));
    return true;
  }

  clamp(range: TimeRange): TimeRange {
    const fullSpan = this.full.to - this.full.from;
    let span = Math.min(Math.max(range.to - range.from, MIN_SPAN_MS), fullSpan);
    if (!Number.isFinite(span) || span <= 0) span = fullSpan;
    let from = Number.isFinite(range.from) ? range.from : this.full.from;
    if (from < this.full.from) from = this.full.from;
    if (from + span > this.full.to) from = this.full.to - span;
    return { from, to: from + span };
  }

  /** The range after zooming by `factor` around time `at` (the middle by default). */
  zoomed(factor: number, at?: number): TimeRange {
    const view = this.range;
    const center = at ?? (view.from + view.to) / 2;
    const span = view.to - view.from;
    const next = Math.min(Math.max(span * factor, MIN_SPAN_MS), this.full.to - this.full.from);
    const from = center - ((center - view.from) / span) * next;
    return { from, to: from + next };
  }

  /** The range after panning by `px` pixels. */
  panned(px: number): TimeRange {
    const shift = px * this.msPerPx();
    return { from: this.range.from + shift, to: this.range.to + shift };
  }

  plotWidth(): number {
    return Math.max(1, this.width - this.gutter - RIGHT_PAD);
  }

  xOf(t: number): number {
    return this.gutter + ((t - this.range.from) / (this.range.to - this.range.from)) * this.plotWidth();
  }

  tOf(x: number): number {
    return this.range.from + ((x - this.gutter) / this.plotWidth()) * (this.range.to - this.range.from);
  }

  msPerPx(): number {
    return (this.range.to - this.range.from) / this.plotWidth();
  }

  /** Top of the rows area: the axis, plus the band of moment labels while a finding is selected. */
  top(): number {
    return AXIS_HEIGHT + this.momentBand();
  }

  momentBand(): number {
    const n = this.focus?.moments.length ?? 0;
    return n === 0 ? 0 : Math.min(n, MOMENT_LEVELS) * MOMENT_LINE + 4;
  }

  /** Height of the rows area's content: every line of the layout. */
  contentHeight(): number {
    return this.top() + this.layout.offsets[this.layout.entries.length]!;
  }

  /** Calls `fn(entryIndex, yOnCanvas)` for each entry that is at least partly on screen. */
  forVisible(fn: (i: number, y: number) => void): void {
    const top = this.scrollTop();
    const first = Math.max(0, entryAt(this.layout, top));
    for (let i = first; i < this.layout.entries.length; i++) {
      const y = this.top() + this.layout.offsets[i]! - top;
      if (y >= this.height) break;
      fn(i, y);
    }
  }

  /** The layout entry under canvas point `y`, or -1. */
  entryAtY(y: number): number {
    if (y < this.top()) return -1;
    return entryAt(this.layout, y - this.top() + this.scrollTop());
  }
}

/** The span, padded a little so the first and last intervals do not touch the edges. */
function fullRange(span: TimeRange): TimeRange {
  const width = span.to - span.from;
  const pad = width > 0 ? Math.max(width * 0.02, 1000) : 60_000;
  return { from: span.from - pad, to: span.to + pad };
}
