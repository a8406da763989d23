import type { ReportData } from '../report-data-types.js';

export const ROW_HEIGHT = 20;
export const GROUP_HEIGHT = 24;

/** Group id of the rows pinned at the top while a finding is selected. */
export const FOCUS_GROUP = '__finding';

type Entry =
  | {
      readonly kind: 'group';
      readonly group: string;
      readonly label: string;
      readonly count: number;
      readonly collapsed: boolean;
    }
  | { readonly kind: 'row'; readonly row: number; readonly pinned: boolean };

export interface Layout {
  readonly entries: readonly Entry[];
  /** Top of each entry, in px from the top of the rows area; one extra value is the total height. */
  readonly offsets: Float64Array;
}

export interface LayoutOptions {
  /** Case-insensitive substring; rows whose key or label lacks it are hidden. */
  readonly filter: string;
  readonly collapsed: ReadonlySet<string>;
  /** Rows pinned in a group of their own at the top (a selected finding's rows), or null. */
  readonly focus: readonly number[] | null;
  readonly focusLabel?: string;
}

/** Search text of each row, computed once. */
export function rowSearchText(data: ReportData): string[] {
  // An operand's row is found by its operator's name too: filtering on an operator keeps its operands.
  return data.rows.map((r) =>
    `${r.key}\n${r.label}${r.parent !== undefined ? `\n${r.parent}` : ''}`.toLowerCase(),
  );
}

/** The list of lines the chart shows: group headers and rows, after pinning, filtering and collapsing. */
export function layoutEntries(data: ReportData, search: readonly string[], opts: LayoutOptions): Layout {
  const entries: Entry[] = [];
  const needle = opts.filter.trim().toLowerCase();
  const keep = (row: number): boolean => needle === '' || (search[row] ?? '').includes(needle);
  if (opts.focus && opts.focus.length > 0) {
    const collapsed = opts.collapsed.has(FOCUS_GROUP);
    entries.push({
      kind: 'group',
      group: FOCUS_GROUP,
      label: opts.focusLabel ?? 'Selected finding',
      count: opts.focus.length,
      collapsed,
    });
    if (!collapsed) for (const row of opts.focus) entries.push({ kind: 'row', row, pinned: true });
  }
  for (const g of data.groups) {
    const rows = g.rows.filter(keep);
    if (rows.length === 0) continue;
    const collapsed = opts.collapsed.has(g.id);
    entries.push({ kind: 'group', group: g.id, label: g.label, count: rows.length, collapsed });
    if (!collapsed) for (const row of rows) entries.push({ kind: 'row', row, pinned: false });
  }
  const offsets = new Float64Array(entries.length + 1);
  entries.forEach((e, i) => {
    offsets[i + 1] = offsets[i]! + (e.kind === 'group' ? GROUP_HEIGHT : ROW_HEIGHT);
  });
  return { entries, offsets };
}

/** Index of the entry at `y` (px from the top of the rows area), or -1. */
export function entryAt(layout: Layout, y: number): number {
  const n = layout.entries.length;
  if (y < 0 || y >= layout.offsets[n]!) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (layout.offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
