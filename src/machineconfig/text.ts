/**
 * Line diffs of text contents with jsdiff, bounded in edit length and time so that two unrelated
 * megabyte files cannot stall the command; past the bounds the change is reported without hunks.
 */
import { structuredPatch } from 'diff';
import type { Budget } from '../model/index.js';

export interface TextDiffOptions {
  /** Lines of context around each hunk, like `diff -U`. */
  readonly context: number;
  /** jsdiff's maxEditLength: give up when more than this many lines would be edited. */
  readonly maxEditLength: number;
  /** jsdiff's timeout in ms. */
  readonly timeoutMs: number;
}

export const DEFAULT_TEXT_DIFF: TextDiffOptions = { context: 3, maxEditLength: 20_000, timeoutMs: 2_000 };

export interface TextDiff {
  /** Unified diff hunks (from the first `@@`), without file headers; undefined when the diff gave up. */
  readonly hunks?: string;
  /** Removed/added line pairs, in order. */
  readonly changedLines: { readonly before?: string; readonly after?: string }[];
}

const NO_NEWLINE = '\\ No newline at end of file';

/** The run's text-diff time: each diff gets at most what is left, and is charged what it took. */
export interface DiffClock {
  readonly budget: Budget;
  /** The file to name when the run's text-diff time is spent. */
  readonly file: string;
}

export function diffText(
  before: string,
  after: string,
  opts: TextDiffOptions = DEFAULT_TEXT_DIFF,
  clock?: DiffClock,
): TextDiff {
  let timeout = opts.timeoutMs;
  if (clock) {
    const left = clock.budget.diffMillisLeft();
    if (left <= 0) clock.budget.over('textDiffMillis', clock.file);
    timeout = Math.min(timeout, left);
  }
  const started = performance.now();
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, {
    context: opts.context,
    maxEditLength: opts.maxEditLength,
    timeout,
  });
  if (clock) {
    clock.budget.chargeDiffMillis(performance.now() - started);
    // A diff cut short by the run's budget (not by its own per-file cap) ends the run: the report
    // would otherwise silently lack the hunks of every later file.
    if (patch === undefined && clock.budget.diffMillisLeft() <= 0)
      clock.budget.over('textDiffMillis', clock.file);
  }
  if (patch === undefined) return { changedLines: [] };
  const out: string[] = [];
  const changedLines: { before?: string; after?: string }[] = [];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`);
    out.push(...hunk.lines);
    pairChangedLines(hunk.lines, changedLines);
  }
  return { hunks: out.join('\n'), changedLines };
}

/** `diff -u` prints `start,count`, omitting `,1`, and `start-1,0` for an empty side. */
function range(start: number, count: number): string {
  if (count === 1) return String(start);
  return `${count === 0 ? Math.max(0, start - 1) : start},${count}`;
}

/** Within a hunk, each run of `-` lines followed by `+` lines pairs up line by line. */
function pairChangedLines(lines: readonly string[], out: { before?: string; after?: string }[]): void {
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    const n = Math.max(removed.length, added.length);
    for (let i = 0; i < n; i++) {
      const b = removed[i];
      const a = added[i];
      out.push({ ...(b !== undefined ? { before: b } : {}), ...(a !== undefined ? { after: a } : {}) });
    }
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line === NO_NEWLINE) continue;
    if (line.startsWith('-')) {
      if (added.length > 0) flush();
      removed.push(line.slice(1));
    } else if (line.startsWith('+')) added.push(line.slice(1));
    else flush();
  }
  flush();
}

/** Every line of a text as added (or removed) lines, for images in a file that appeared or went away. */
export function allLines(text: string, side: 'before' | 'after'): { before?: string; after?: string }[] {
  return text.split('\n').map((line) => (side === 'before' ? { before: line } : { after: line }));
}
