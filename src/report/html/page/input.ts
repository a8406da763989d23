/**
 * The chart's pointer, wheel and keyboard handling: drag pans time (and scrolls rows), the wheel zooms
 * around the pointer, hovering shows a tooltip, clicking a group header folds it. It turns events into
 * the chart's operations; the view state and painting live elsewhere.
 */
import { ROW_HEIGHT } from './layout.js';
import { HIT_PX } from './paint.js';
import type { Hit, TimelineIndex } from './timeline-index.js';
import type { Tooltip } from './tooltip.js';
import type { ChartView, TimeRange } from './view.js';

/** What the input handlers may do to the chart. */
export interface ChartControls {
  readonly view: ChartView;
  readonly index: TimelineIndex;
  readonly canvas: HTMLCanvasElement;
  readonly scroller: HTMLDivElement;
  readonly tooltip: Tooltip;
  setView(range: TimeRange): void;
  zoomBy(factor: number, at?: number): void;
  reset(): void;
  requestDraw(): void;
  /** Folds or unfolds a group of rows. */
  toggleGroup(group: string): void;
  scrollToRow(row: number): void;
}

interface Drag {
  readonly x: number;
  readonly y: number;
  readonly view: TimeRange;
  readonly scrollTop: number;
  readonly inGutter: boolean;
  moved: boolean;
}

export function listen(chart: ChartControls): void {
  const c = chart.canvas;
  const v = chart.view;
  let drag: Drag | null = null;

  const point = (ev: MouseEvent): { x: number; y: number } => {
    const r = c.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  };
  const panPx = (px: number): void => chart.setView(v.panned(px));

  const hitAt = (p: { x: number; y: number }): { entry: number; hit: Hit | undefined } | null => {
    const entry = v.entryAtY(p.y);
    if (entry === -1) return null;
    const e = v.layout.entries[entry];
    if (e?.kind !== 'row' || p.x < v.gutter) return { entry, hit: undefined };
    return { entry, hit: chart.index.hitTest(e.row, v.tOf(p.x), HIT_PX * v.msPerPx()) };
  };

  const onHover = (ev: PointerEvent): void => {
    const found = hitAt(point(ev));
    const next = found?.hit ? { entry: found.entry, hit: found.hit } : null;
    const e = found ? v.layout.entries[found.entry] : undefined;
    c.style.cursor = e?.kind === 'group' ? 'pointer' : '';
    const same =
      next?.hit.kind === v.hover?.hit.kind &&
      next?.hit.id === v.hover?.hit.id &&
      next?.entry === v.hover?.entry;
    if (!same) {
      v.hover = next;
      chart.requestDraw();
    }
    if (!next) {
      chart.tooltip.hide();
      return;
    }
    if (!same || chart.tooltip.hidden) chart.tooltip.show(next.hit);
    chart.tooltip.place(ev.clientX, ev.clientY);
  };

  const onClick = (ev: PointerEvent): void => {
    const found = hitAt(point(ev));
    if (!found) return;
    const e = v.layout.entries[found.entry];
    if (e?.kind === 'group') chart.toggleGroup(e.group);
    else if (e?.kind === 'row' && e.pinned && point(ev).x < v.gutter) chart.scrollToRow(e.row);
  };

  const onWheel = (ev: WheelEvent): void => {
    const p = point(ev);
    if (p.x < v.gutter) return; // over the row names the wheel scrolls the rows, natively
    ev.preventDefault();
    const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? v.height : 1;
    const dx = ev.deltaX * unit;
    const dy = ev.deltaY * unit;
    if (Math.abs(dx) > Math.abs(dy)) panPx(dx);
    else if (ev.shiftKey) panPx(dy);
    else chart.zoomBy(Math.exp(dy * 0.002), v.tOf(p.x));
  };

  const onKey = (ev: KeyboardEvent): void => {
    const handled = ((): boolean => {
      switch (ev.key) {
        case 'ArrowLeft':
          panPx(-v.plotWidth() / 8);
          return true;
        case 'ArrowRight':
          panPx(v.plotWidth() / 8);
          return true;
        case 'ArrowUp':
          chart.scroller.scrollTop -= ROW_HEIGHT * 3;
          return true;
        case 'ArrowDown':
          chart.scroller.scrollTop += ROW_HEIGHT * 3;
          return true;
        case '+':
        case '=':
          chart.zoomBy(0.5);
          return true;
        case '-':
          chart.zoomBy(2);
          return true;
        case '0':
          chart.reset();
          return true;
        default:
          return false;
      }
    })();
    if (handled) ev.preventDefault();
  };

  chart.scroller.addEventListener('scroll', () => {
    chart.tooltip.hide();
    chart.requestDraw();
  });
  c.addEventListener('wheel', onWheel, { passive: false });
  c.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    const p = point(ev);
    drag = {
      x: ev.clientX,
      y: ev.clientY,
      view: v.range,
      scrollTop: chart.scroller.scrollTop,
      inGutter: p.x < v.gutter,
      moved: false,
    };
    c.setPointerCapture(ev.pointerId);
  });
  c.addEventListener('pointermove', (ev) => {
    const d = drag;
    if (!d) {
      onHover(ev);
      return;
    }
    const dx = ev.clientX - d.x;
    const dy = ev.clientY - d.y;
    if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!d.moved) {
      d.moved = true;
      c.classList.add('dragging');
      chart.tooltip.hide();
      v.hover = null;
    }
    chart.scroller.scrollTop = d.scrollTop - dy;
    if (!d.inGutter) {
      const shift = (dx * (d.view.to - d.view.from)) / v.plotWidth();
      chart.setView({ from: d.view.from - shift, to: d.view.to - shift });
    }
  });
  const end = (ev: PointerEvent): void => {
    const d = drag;
    drag = null;
    c.classList.remove('dragging');
    if (c.hasPointerCapture(ev.pointerId)) c.releasePointerCapture(ev.pointerId);
    if (d && !d.moved && ev.type === 'pointerup') onClick(ev);
  };
  c.addEventListener('pointerup', end);
  c.addEventListener('pointercancel', end);
  c.addEventListener('pointerleave', () => {
    if (drag) return;
    v.hover = null;
    chart.tooltip.hide();
    chart.requestDraw();
  });
  c.addEventListener('keydown', onKey);
}
