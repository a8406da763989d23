/**
 * Painting the chart on its canvas from the view state: row backgrounds, the grid, bars and marks of
 * the rows on screen only, the hovered item, the selected finding's moments and the time axis. Reads
 * the view; changes nothing but the canvas and its label cache.
 */
import { type ReportData, type ReportMark, TONES, type Tone } from '../report-data-types.js';
import { FOCUS_GROUP, GROUP_HEIGHT, ROW_HEIGHT } from './layout.js';
import { CHART, MARK_FILL, TONE_FILL, TONE_TEXT, TONE_TICK } from './palette.js';
import { clock, day, duration, tickLabel, ticks } from './time-format.js';
import type { TimelineIndex } from './timeline-index.js';
import { AXIS_HEIGHT, type ChartView, MOMENT_LEVELS, MOMENT_LINE, RIGHT_PAD } from './view.js';

const BAR_HEIGHT = 12;
/** How near, in px, the pointer must be to a bar or mark to hit it. */
export const HIT_PX = 4;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const SMALL_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const BOLD_FONT = `600 ${FONT}`;
/** How far an operand's label sits right of its operator's. */
const OPERAND_INDENT = 12;

export class Painter {
  private readonly ctx: CanvasRenderingContext2D;
  private readonly data: ReportData;
  private readonly index: TimelineIndex;
  private readonly view: ChartView;
  private readonly labelCache = new Map<string, string>();

  constructor(ctx: CanvasRenderingContext2D, data: ReportData, index: TimelineIndex, view: ChartView) {
    this.ctx = ctx;
    this.data = data;
    this.index = index;
    this.view = view;
  }

  /** Forget fitted labels (their widths depend on the canvas size). */
  resized(): void {
    this.labelCache.clear();
  }

  /** Draws one whole frame. */
  paint(): void {
    const v = this.view;
    const ctx = this.ctx;
    ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
    ctx.fillStyle = CHART.background;
    ctx.fillRect(0, 0, v.width, v.height);
    ctx.textBaseline = 'middle';
    const axis = ticks(v.range.from, v.range.to, v.plotWidth(), 90);

    // Backgrounds first, then grid lines, then content, so the grid never crosses a bar.
    v.forVisible((i, y) => this.drawBackground(i, y));
    ctx.fillStyle = CHART.grid;
    for (const t of axis.at) ctx.fillRect(Math.round(v.xOf(t)), v.top(), 1, v.height - v.top());
    v.forVisible((i, y) => this.drawEntry(i, y));
    this.drawHover();
    this.drawMoments();
    this.drawAxis(axis);
    ctx.fillStyle = CHART.border;
    ctx.fillRect(v.gutter - 1, 0, 1, v.height);
  }

  private drawBackground(i: number, y: number): void {
    const ctx = this.ctx;
    const v = this.view;
    const e = v.layout.entries[i];
    if (!e) return;
    if (e.kind === 'group') {
      ctx.fillStyle = e.group === FOCUS_GROUP ? '#d7e5fb' : CHART.groupBg;
      ctx.fillRect(0, y, v.width, GROUP_HEIGHT);
      return;
    }
    let bg: string = i % 2 === 0 ? CHART.background : CHART.stripe;
    if (v.focus?.highlighted.has(e.row)) bg = CHART.highlight;
    if (e.row === v.flashRow) bg = CHART.flash;
    ctx.fillStyle = bg;
    ctx.fillRect(0, y, v.width, ROW_HEIGHT);
  }

  private drawEntry(i: number, y: number): void {
    const ctx = this.ctx;
    const v = this.view;
    const e = v.layout.entries[i];
    if (!e) return;
    if (e.kind === 'group') {
      ctx.font = BOLD_FONT;
      ctx.fillStyle = CHART.groupText;
      const text = `${e.collapsed ? '▸' : '▾'} ${e.label} (${e.count})`;
      ctx.fillText(this.fit(text, v.width - 16, BOLD_FONT), 6, y + GROUP_HEIGHT / 2);
      return;
    }
    const info = this.data.rows[e.row];
    if (!info) return;
    ctx.font = FONT;
    ctx.fillStyle = CHART.label;
    const label = e.pinned ? info.key : info.label;
    // An operand's row sits under its operator's, indented (pinned rows show their full key instead).
    const indent = info.parent !== undefined && !e.pinned ? OPERAND_INDENT : 0;
    const shown = indent > 0 ? `↳ ${label}` : label;
    ctx.fillText(this.fit(shown, v.gutter - 22 - indent, FONT), 16 + indent, y + ROW_HEIGHT / 2);

    ctx.save();
    ctx.beginPath();
    ctx.rect(v.gutter, y, v.width - v.gutter, ROW_HEIGHT);
    ctx.clip();
    this.drawBars(e.row, y + (ROW_HEIGHT - BAR_HEIGHT) / 2);
    this.drawMarks(e.row, y + ROW_HEIGHT / 2);
    // A row a finding names but that no dated fact is about: say so, rather than look like missing drawing.
    if (!this.index.hasData(e.row)) {
      ctx.font = SMALL_FONT;
      ctx.fillStyle = CHART.labelMuted;
      ctx.fillText('no dated data', v.gutter + 8, y + ROW_HEIGHT / 2);
    }
    const crossing = v.focus?.momentsByRow.get(e.row);
    if (crossing && v.focus) {
      ctx.strokeStyle = CHART.moment;
      ctx.lineWidth = 2;
      for (const m of crossing) {
        const at = v.focus.moments[m]?.at;
        if (at === undefined) continue;
        ctx.beginPath();
        ctx.arc(v.xOf(at), y + ROW_HEIGHT / 2, 6, 0, Math.PI * 2);
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
    const v = this.view;
    const x0 = v.gutter;
    const x1 = v.width - RIGHT_PAD;
    const scale = v.plotWidth() / (v.range.to - v.range.from);
    const from = v.range.from;
    TONES.forEach((tone, toneIndex) => {
      // Calm bars (a condition in its good state) are many and alike; only states worth reading get words.
      const labelled = tone !== 'ok' && tone !== 'info';
      ctx.fillStyle = TONE_FILL[tone];
      let runStart = -1;
      let runEnd = -1;
      const wide: { a: number; b: number; id: number }[] = [];
      this.index.barsIn(row, toneIndex, v.range.from, v.range.to, (id, f, t) => {
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
    const v = this.view;
    const pad = HIT_PX * v.msPerPx();
    const last: Record<string, number> = { version: -9, created: -9, instant: -9 };
    this.index.marksIn(row, v.range.from - pad, v.range.to + pad, (id) => {
      const m = this.data.marks[id];
      if (!m) return;
      const x = Math.round(v.xOf(m.at));
      if (Math.abs(x - (last[m.kind] ?? -9)) < (m.kind === 'instant' ? 1 : 3)) return;
      last[m.kind] = x;
      drawMark(ctx, m, x, mid);
    });
  }

  private drawHover(): void {
    const v = this.view;
    const h = v.hover;
    if (!h) return;
    let y = -1;
    v.forVisible((i, top) => {
      if (i === h.entry) y = top;
    });
    if (y < 0) return;
    const ctx = this.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(v.gutter, v.top(), v.width - v.gutter, v.height - v.top());
    ctx.clip();
    ctx.strokeStyle = CHART.hover;
    ctx.lineWidth = 1.5;
    if (h.hit.kind === 'bar') {
      const b = this.data.bars[h.hit.id];
      if (b) {
        const a = Math.max(v.gutter - 2, v.xOf(b.from));
        const z = Math.min(v.width + 2, v.xOf(b.to));
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
        ctx.arc(v.xOf(m.at), y + ROW_HEIGHT / 2, 7, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
    ctx.restore();
  }

  /**
   * The selected finding's moments: a dashed line down every row, labelled in the band under the axis.
   * Labels that would overlap go on the next line of the band.
   */
  private drawMoments(): void {
    const v = this.view;
    const band = v.momentBand();
    if (!v.focus || band === 0) return;
    const ctx = this.ctx;
    ctx.fillStyle = CHART.axisBg;
    ctx.fillRect(0, AXIS_HEIGHT, v.width, band);
    ctx.fillStyle = CHART.border;
    ctx.fillRect(0, AXIS_HEIGHT + band - 1, v.width, 1);
    ctx.font = SMALL_FONT;
    ctx.fillStyle = CHART.labelMuted;
    ctx.fillText(
      this.fit('moments of the selected finding', v.gutter - 12, SMALL_FONT),
      8,
      AXIS_HEIGHT + band / 2,
    );
    ctx.save();
    ctx.beginPath();
    ctx.rect(v.gutter, AXIS_HEIGHT, v.width - v.gutter, v.height - AXIS_HEIGHT);
    ctx.clip();
    ctx.strokeStyle = CHART.moment;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 3]);
    const placed = v.focus.moments
      .map((m) => ({ m, x: v.xOf(m.at) }))
      .filter((p) => p.x >= v.gutter - 1 && p.x <= v.width)
      .sort((a, b) => a.x - b.x);
    for (const p of placed) {
      ctx.beginPath();
      ctx.moveTo(Math.round(p.x) + 0.5, AXIS_HEIGHT);
      ctx.lineTo(Math.round(p.x) + 0.5, v.height);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    const levelEnds: number[] = [];
    for (const p of placed) {
      const text = `${clock(p.m.at)} ${p.m.label}`;
      const w = Math.min(ctx.measureText(text).width + 10, v.width - v.gutter - 4);
      let left = p.x + 3;
      if (left + w > v.width) left = Math.max(v.gutter + 1, p.x - 3 - w);
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
    const v = this.view;
    ctx.fillStyle = CHART.axisBg;
    ctx.fillRect(0, 0, v.width, AXIS_HEIGHT);
    ctx.fillStyle = CHART.border;
    ctx.fillRect(0, AXIS_HEIGHT - 1, v.width, 1);
    ctx.font = FONT;
    ctx.fillStyle = CHART.axisText;
    ctx.fillText(
      this.fit(`${day(v.range.from)} UTC · ${duration(v.range.to - v.range.from)}`, v.gutter - 12, FONT),
      8,
      AXIS_HEIGHT / 2,
    );
    ctx.save();
    ctx.beginPath();
    ctx.rect(v.gutter, 0, v.width - v.gutter, AXIS_HEIGHT);
    ctx.clip();
    ctx.textAlign = 'center';
    let lastDay = day(v.range.from);
    for (const t of axis.at) {
      const x = Math.round(v.xOf(t));
      ctx.fillRect(x, AXIS_HEIGHT - 6, 1, 5);
      const d = day(t);
      const label =
        d !== lastDay && axis.step < 86_400_000
          ? `${d.slice(5)} ${tickLabel(t, axis.step)}`
          : tickLabel(t, axis.step);
      lastDay = d;
      // A label cut by the gutter or the edge reads as a different time; leave it out.
      const half = ctx.measureText(label).width / 2;
      if (x - half >= v.gutter + 2 && x + half <= v.width - 2) ctx.fillText(label, x, AXIS_HEIGHT / 2 - 2);
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
