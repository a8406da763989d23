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
 * Rows padded into columns, two spaces apart. Columns in `right` (figures) are right-aligned; the
 * last column, when left-aligned, is not padded.
 */
export function table(
  rows: readonly (readonly string[])[],
  indent = 0,
  right: ReadonlySet<number> = new Set(),
): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell));
    });
  }
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
