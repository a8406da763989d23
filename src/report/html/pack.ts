import {
  MARK_KINDS,
  type PackedReportData,
  type ReportBar,
  type ReportData,
  type ReportMark,
  TONES,
} from './report-data-types.js';

/**
 * Report data ↔ its embedded form. Pure and loss-free (`unpack(pack(d))` equals `d`); the page
 * unpacks once at load. Used by the renderer in Node and by the page script in the browser.
 */
export function packReportData(data: ReportData): PackedReportData {
  const base = data.span?.from ?? 0;
  const { bars, marks, ...rest } = data;
  // Sparse: a claim is on a handful of marks among up to hundreds of thousands.
  const claim: [number, number][] = [];
  marks.forEach((m, i) => {
    if (m.claim !== undefined) claim.push([i, m.claim]);
  });
  return {
    ...rest,
    base,
    bars: {
      row: bars.map((b) => b.row),
      from: bars.map((b) => b.from - base),
      length: bars.map((b) => b.to - b.from),
      tone: bars.map((b) => TONES.indexOf(b.tone)),
      label: bars.map((b) => b.label),
      text: bars.map((b) => b.text),
      file: bars.map((b) => b.file),
      line: bars.map((b) => b.line ?? -1),
      path: bars.map((b) => b.path ?? -1),
      source: bars.map((b) => b.source),
      locator: bars.map((b) => b.locator ?? -1),
    },
    marks: {
      row: marks.map((m) => m.row),
      at: marks.map((m) => m.at - base),
      kind: marks.map((m) => MARK_KINDS.indexOf(m.kind)),
      tone: marks.map((m) => TONES.indexOf(m.tone)),
      text: marks.map((m) => m.text),
      file: marks.map((m) => m.file),
      line: marks.map((m) => m.line ?? -1),
      path: marks.map((m) => m.path ?? -1),
      source: marks.map((m) => m.source),
      locator: marks.map((m) => m.locator ?? -1),
      ...(claim.length > 0 ? { claim } : {}),
    },
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Set the optional fields that are present (-1 stands for absent in the columns). */
function optional(
  item: { line?: number; path?: number; locator?: number },
  line: number | undefined,
  path: number | undefined,
  locator: number | undefined,
): void {
  if (line !== undefined && line !== -1) item.line = line;
  if (path !== undefined && path !== -1) item.path = path;
  if (locator !== undefined && locator !== -1) item.locator = locator;
}

export function unpackReportData(packed: PackedReportData): ReportData {
  const { base, bars: b, marks: m, ...rest } = packed;
  const bars: ReportBar[] = new Array(b.row.length);
  for (let i = 0; i < bars.length; i++) {
    const from = (b.from[i] ?? 0) + base;
    const bar: Mutable<ReportBar> = {
      row: b.row[i] ?? 0,
      from,
      to: from + (b.length[i] ?? 0),
      tone: TONES[b.tone[i] ?? 0] ?? 'info',
      label: b.label[i] ?? 0,
      text: b.text[i] ?? 0,
      file: b.file[i] ?? 0,
      source: b.source[i] ?? 0,
    };
    optional(bar, b.line[i], b.path[i], b.locator[i]);
    bars[i] = bar;
  }
  const marks: ReportMark[] = new Array(m.row.length);
  for (let i = 0; i < marks.length; i++) {
    const mark: Mutable<ReportMark> = {
      row: m.row[i] ?? 0,
      at: (m.at[i] ?? 0) + base,
      kind: MARK_KINDS[m.kind[i] ?? 0] ?? 'instant',
      tone: TONES[m.tone[i] ?? 0] ?? 'info',
      text: m.text[i] ?? 0,
      file: m.file[i] ?? 0,
      source: m.source[i] ?? 0,
    };
    optional(mark, m.line[i], m.path[i], m.locator[i]);
    marks[i] = mark;
  }
  for (const [i, text] of m.claim ?? []) {
    const mark = marks[i] as Mutable<ReportMark> | undefined;
    if (mark) mark.claim = text;
  }
  return { ...rest, bars, marks };
}
