/** The chart's tooltip: what one bar or mark is, when, where it was read from; placed beside the pointer. */
import { formatRef } from '../../refs.js';
import type { ReportBar, ReportData, ReportMark } from '../report-data-types.js';
import { append, el } from './dom.js';
import { clock, dateTime, duration } from './time-format.js';
import type { Hit } from './timeline-index.js';

export class Tooltip {
  readonly element: HTMLDivElement;
  private readonly data: ReportData;

  constructor(data: ReportData) {
    this.data = data;
    this.element = el('div', { class: 'tooltip' });
    this.element.hidden = true;
    this.element.setAttribute('role', 'tooltip');
  }

  get hidden(): boolean {
    return this.element.hidden !== false;
  }

  hide(): void {
    this.element.hidden = true;
  }

  /** Fills the tooltip with the bar or mark `hit` and shows it. */
  show(hit: Hit): void {
    const d = this.data;
    const s = (i: number | undefined): string => (i === undefined ? '' : (d.strings[i] ?? ''));
    const item = hit.kind === 'bar' ? d.bars[hit.id] : d.marks[hit.id];
    if (!item) return;
    const row = d.rows[item.row];
    const when =
      'from' in item
        ? `${dateTime(item.from)} → ${clock(item.to)} (${duration(item.to - item.from)})`
        : `${dateTime(item.at)}${item.kind === 'version' ? ' · version change' : item.kind === 'created' ? ' · created' : ''}`;
    this.element.replaceChildren();
    append(this.element, [
      el('div', { class: 'tt-time' }, when),
      el('div', { class: 'tt-loc' }, `${row?.group ?? ''} ${s(item.locator ?? row?.locator)}`),
      el('div', { class: 'tt-msg' }, s(item.text)),
      ...('claim' in item && item.claim !== undefined
        ? [el('div', { class: 'tt-claim' }, s(item.claim))]
        : []),
      el('div', { class: 'tt-ref' }, refText(d, item)),
    ]);
    this.element.hidden = false;
  }

  /** Beside the pointer at viewport point (x, y), flipped to stay inside the window. */
  place(x: number, y: number): void {
    const t = this.element;
    const w = t.offsetWidth;
    const h = t.offsetHeight;
    const left = x + 14 + w > window.innerWidth ? Math.max(4, x - 14 - w) : x + 14;
    const top = y + 16 + h > window.innerHeight ? Math.max(4, y - 10 - h) : y + 16;
    t.style.left = `${left}px`;
    t.style.top = `${top}px`;
  }
}

/** The reference as the text report prints it (report/refs.ts), and the source that recorded it. */
function refText(d: ReportData, item: ReportBar | ReportMark): string {
  const path = item.path !== undefined ? d.strings[item.path] : undefined;
  const ref = {
    file: d.strings[item.file] ?? '',
    ...(item.line !== undefined ? { line: item.line } : {}),
    ...(path !== undefined ? { path } : {}),
  };
  return `${formatRef(ref)} (${d.strings[item.source] ?? ''})`;
}
