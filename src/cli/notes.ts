/**
 * Notes and warnings go to stderr, never into the report (issue 42): stdout is the report in every
 * output format, so `atlevel analyze RUN 2>/dev/null` is the report alone and `-o json | jq` never
 * meets a stray line, as kubectl and oc print their warnings. Each line carries atlevel's prefix, as
 * its errors do, and passes the terminal sanitiser: notes quote input names. The JSON reports keep
 * their own `notes` field as well.
 */
import { printable } from '../model/index.js';

/** One `atlevel: note: ...` (or `warning:`) line on stderr per entry, each cut to one line. */
export function writeNotes(lines: readonly string[], kind: 'note' | 'warning' = 'note'): void {
  if (lines.length === 0) return;
  const text = lines
    .map((l) => `atlevel: ${kind}: ${printable(l.replace(/\s*\n\s*/g, ' '), 1000)}\n`)
    .join('');
  process.stderr.write(text);
}
