/**
 * The text reporters' shared toolkit, in one place: colours, plurals, word wrapping to a width and
 * aligned tables. Reporters format only; these helpers measure what they print, nothing more.
 */
import pc from 'picocolors';

/** The colour functions of one report: real escapes on a terminal, the identity otherwise. */
export type Colours = ReturnType<typeof pc.createColors>;

export function colours(on: boolean): Colours {
  return pc.createColors(on);
}

export { plural } from '../model/index.js';

const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a string takes on a terminal: its length without colour escapes. */
export function visibleLength(s: string): number {
  return s.replace(ANSI, '').length;
}

/**
 * Word-wrap to `width` visible columns; later lines are indented by `indent` spaces. A word longer
 * than a line (a pull spec, a path, a URL) stays whole on a line of its own: a cut name can be
 * neither copied nor clicked. Leading spaces stay on the first line; colour escapes are kept.
 */
export function wrap(text: string, width: number, indent = 0): string[] {
  if (visibleLength(text) <= width) return [text];
  const lead = /^ */.exec(text)?.[0] ?? '';
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  let line = lead;
  let words = 0;
  // Words and the runs of spaces between them: a run is kept inside a line, dropped at a break.
  const tokens = text.slice(lead.length).split(/( +)/);
  for (let i = 0; i < tokens.length; i += 2) {
    const word = tokens[i] ?? '';
    const gap = i > 0 ? (tokens[i - 1] ?? ' ') : '';
    if (word === '') continue;
    if (words > 0 && visibleLength(line) + gap.length + visibleLength(word) > width) {
      lines.push(line);
      line = pad + word;
      words = 1;
      continue;
    }
    line += words > 0 ? gap : '';
    line += word;
    words++;
  }
  if (words > 0) lines.push(line);
  return lines;
}

/**
 * `table`, fitted to `width` columns: when the rows are wider, the left-aligned (text) columns narrow,
 * the widest first and none below MIN_COLUMN, and their cells wrap inside their column, so a row
 * becomes several lines but keeps its columns and every word. A right-aligned column (figures) keeps
 * its figures whole; its heading (`rows[0]`) may wrap at its spaces. A table that cannot fit even so
 * is printed as narrow as it goes.
 */
export function fittedTable(
  rows: readonly (readonly string[])[],
  width: number,
  indent = 0,
  right: ReadonlySet<number> = new Set(),
): string[] {
  const widths = columnWidths(rows);
  const total = () => indent + widths.reduce((a, b) => a + b, 0) + 2 * Math.max(0, widths.length - 1);
  if (total() <= width) return table(rows, indent, right);
  // Figures first: a right-aligned column needs its widest figure and its heading's longest word.
  for (const i of right) {
    const words = (rows[0]?.[i] ?? '').split(' ').map(visibleLength);
    const figures = rows.slice(1).map((r) => visibleLength(r[i] ?? ''));
    widths[i] = Math.max(0, ...words, ...figures);
  }
  while (total() > width) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (!right.has(i) && w > MIN_COLUMN && (widest === -1 || w > (widths[widest] ?? 0))) widest = i;
    });
    if (widest === -1) break;
    widths[widest] = Math.max(MIN_COLUMN, (widths[widest] ?? 0) - (total() - width));
  }
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  for (const [r, row] of rows.entries()) {
    const cells = row.map((cell, i) =>
      right.has(i) && r > 0 ? [cell] : cellLines(cell, widths[i] ?? MIN_COLUMN),
    );
    const height = Math.max(1, ...cells.map((c) => c.length));
    for (let k = 0; k < height; k++) {
      // A wrapped heading sits on its last lines, as kubectl's do not but a figure's column reads best.
      const line = cells
        .map((c, i) => {
          const cell = r === 0 ? (c[k - (height - c.length)] ?? '') : (c[k] ?? '');
          const fill = ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleLength(cell)));
          return right.has(i) ? fill + cell : cell + fill;
        })
        .join('  ');
      out.push((pad + line).trimEnd());
    }
  }
  return out;
}

/** Each column's width: its widest cell, in visible columns. */
function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell));
    });
  }
  return widths;
}

/** The narrowest a text column of a fitted table gets. */
const MIN_COLUMN = 6;

/** A cell's lines within `width` columns: wrapped at spaces, a word longer than the column cut (after a hyphen if it has one). */
function cellLines(cell: string, width: number): string[] {
  return wrap(cell, width).flatMap((line) => {
    const parts: string[] = [];
    let rest = line.trim();
    while (visibleLength(rest) > width) {
      // After a hyphen where there is one (rule ids, job names), else at the column's edge.
      const hyphen = rest.lastIndexOf('-', width - 1);
      const at = hyphen > 0 ? hyphen + 1 : width;
      parts.push(rest.slice(0, at));
      rest = rest.slice(at);
    }
    return [...parts, rest];
  });
}

/**
 * Rows padded into columns, two spaces apart. Columns in `right` (figures) are right-aligned; the
 * last column, when left-aligned, is not padded.
 */
export function table(
  rows: readonly (readonly string[])[],
  indent = 0,
  right: ReadonlySet<number> = new Set(),
): string[] {
  const widths = columnWidths(rows);
  const pad = ' '.repeat(indent);
  return rows.map(
    (row) =>
      pad +
      row
        .map((cell, i) => {
          const fill = ' '.repeat((widths[i] ?? 0) - visibleLength(cell));
          if (right.has(i)) return fill + cell;
          return i === row.length - 1 ? cell : cell + fill;
        })
        .join('  '),
  );
}
