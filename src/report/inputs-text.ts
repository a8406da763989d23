/**
 * `atlevel inputs` for a terminal: per argument, what it is and the layouts found, the runs it holds,
 * then each file claimed (with its reader and kind), served as it is, and ignored (with the reason),
 * and the notes analyze would print. Long lists are shown in full: the command exists to list them.
 */
import { type InputPlan, terminalSafe } from '../model/index.js';
import type { Reporter, TextSettings } from './reporter.js';
import { colours, plural } from './text.js';

/** An input's string on one line: terminal controls made harmless, and a newline or tab in a file name too. */
function oneLine(s: string): string {
  return terminalSafe(s).replace(/[\n\t]/g, '?');
}

/** Rows of columns, each but the last padded to its longest cell (capped, so one long path does not push the rest off). */
function rows(lines: readonly (readonly string[])[], indent: string): string[] {
  const cells = lines.map((l) => l.map(oneLine));
  const widths: number[] = [];
  for (const row of cells)
    for (const [i, cell] of row.entries()) widths[i] = Math.min(80, Math.max(widths[i] ?? 0, cell.length));
  return cells.map((row) =>
    `${indent}${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd(),
  );
}

function onePlan(p: InputPlan, settings: TextSettings): string[] {
  const c = colours(settings.colour);
  const what = p.from === 'stdin' ? `${p.is} on standard input` : p.is;
  const layouts = p.layouts.length > 0 ? `, read as ${p.layouts.join(' + ')}` : '';
  const out = [c.bold(`${oneLine(p.input)}: ${what}${layouts}`)];
  if (p.live) {
    out.push(
      `  server ${oneLine(p.live.server)} (context ${oneLine(p.live.context)}); sends only ${p.live.verbs.join(', ')}`,
    );
    out.push(`  lists (analyze, status): ${plural(p.live.lists.length, 'resource')}`);
    out.push(
      ...rows(
        p.live.lists.map((r) => [r.kind, r.path, r.namespaces ? `in ${r.namespaces}` : r.scope]),
        '    ',
      ),
    );
    const same =
      p.live.watches.length === p.live.lists.length &&
      p.live.watches.every((r, i) => r.path === p.live?.lists[i]?.path);
    if (same)
      out.push(
        `  watches (watch): the same ${plural(p.live.watches.length, 'resource')}, after listing them`,
      );
    else {
      out.push(`  watches (watch): ${plural(p.live.watches.length, 'resource')}`);
      out.push(
        ...rows(
          p.live.watches.map((r) => [r.kind, r.path, r.namespaces ? `in ${r.namespaces}` : r.scope]),
          '    ',
        ),
      );
    }
  }
  if (p.is !== 'live cluster') {
    out.push(`  runs: ${p.runs.length}`);
    out.push(
      ...rows(
        p.runs.map((r) => [r.source, r.kind, ...(r.real ? [`→ ${r.real}`] : [])]),
        '    ',
      ),
    );
    out.push(`  claimed: ${plural(p.claimed.length, 'file')}`);
    out.push(
      ...rows(
        p.claimed.map((f) => [
          f.path,
          f.layout,
          f.reader,
          ...(f.kind ? [f.kind] : []),
          ...(f.guest ? [`guest ${f.guest}`] : []),
        ]),
        '    ',
      ),
    );
    out.push(`  served as-is by serve: ${plural(p.served.length, 'file')}`);
    out.push(
      ...rows(
        p.served.map((f) => [f.path, f.as, ...(f.guest ? [`guest ${f.guest}`] : [])]),
        '    ',
      ),
    );
    out.push(`  ignored: ${plural(p.ignored.length, 'file')}`);
    out.push(
      ...rows(
        p.ignored.map((f) => [f.path, f.why]),
        '    ',
      ),
    );
  }
  if (p.notes.length > 0) {
    out.push('  notes:');
    out.push(...p.notes.map((n) => `    ${oneLine(n)}`));
  }
  return out;
}

export const inputsText: Reporter<readonly InputPlan[]> = (plans, settings) =>
  `${plans.map((p) => onePlan(p, settings).join('\n')).join('\n\n')}\n`;
