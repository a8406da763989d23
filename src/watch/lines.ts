/**
 * How watch prints what it sees: one compact line per transition, finding and notice (colour on a
 * terminal), or one NDJSON object per line (`-o json`, docs/live.md "Output"). Formatting only: the
 * watcher decided everything printed here.
 */
import pc from 'picocolors';
import { type AnalysisResult, coverageDocument, heldOnTooLittle } from '../analyze/index.js';
import { formatClock, formatTime, plural, printable } from '../model/index.js';
import type { WatchOutput } from './watcher.js';

type Paint = (s: string) => string;
const plain: Paint = (s) => s;

export function textLine(o: WatchOutput, colour: boolean): string | undefined {
  const c = (p: Paint): Paint => (colour ? p : plain);
  const clock = c(pc.dim)(formatClock(o.at).padEnd(12));
  switch (o.type) {
    case 'start':
      return `${clock} watching ${o.server} (context ${o.context}): ${plural(o.objects, 'object')} listed, ${o.clock}${o.updating ? `; update to ${o.updating} in progress` : ''}`;
    case 'transition': {
      const r = o.record;
      const level =
        r.level === 'Error' ? c(pc.red)('E') : r.level === 'Warning' ? c(pc.yellow)('W') : c(pc.cyan)('I');
      return `${clock} ${level} ${c(pc.bold)(printable(r.locator, 120))} ${printable(r.message, 300)}`;
    }
    case 'finding': {
      const f = o.finding;
      const mark = f.severity === 'failure' ? c(pc.red)('✗') : c(pc.yellow)('!');
      return `${clock} ${mark} ${c(pc.bold)(f.rule)} ${printable(f.summary, 600)}`;
    }
    case 'notice':
      return `${clock} ${c(pc.dim)(`note: ${printable(o.text, 400)}`)}`;
    case 'complete':
      return `${clock} ${c(pc.bold)(`update complete: verdict ${o.result.verdict}`)}${partWords(o.result.outcomes)}`;
  }
}

/**
 * The rules that held or broke on part of what they judge, in analyze's words (report/analyze-text.ts:
 * `holds for 1 of 29 operators`), the ones that held on too little named so: a `complete` line never
 * reads as if every member had been checked.
 */
function partWords(outcomes: readonly AnalysisResult['outcomes'][number][]): string {
  const part = outcomes.flatMap((r) => {
    const cov = coverageDocument(r);
    if (!cov) return [];
    const little = heldOnTooLittle(r) ? ', too little to count' : '';
    return [
      `${r.rule.id} ${r.state === 'holds' ? 'holds' : 'violated'} for ${cov.checked} of ${cov.total} ${printable(cov.of, 40)}${little}`,
    ];
  });
  if (part.length === 0) return '';
  return `; ${plural(part.length, 'rule')} on part of what ${part.length === 1 ? 'it applies' : 'they apply'} to: ${part.join('; ')}`;
}

/** One NDJSON object (times as RFC 3339). */
export function jsonLine(o: WatchOutput): string {
  const at = formatTime(o.at);
  switch (o.type) {
    case 'start':
      return JSON.stringify({
        type: 'start',
        at,
        server: o.server,
        context: o.context,
        clock: o.clock,
        objects: o.objects,
        ...(o.updating ? { updating: o.updating } : {}),
      });
    case 'transition':
      return JSON.stringify({
        type: 'transition',
        at,
        level: o.record.level,
        locator: o.record.locator,
        message: o.record.message,
      });
    case 'finding':
      return JSON.stringify({
        type: 'finding',
        at,
        reportedAt: formatTime(o.reportedAt),
        rule: o.finding.rule,
        severity: o.finding.severity,
        summary: o.finding.summary,
        ...(o.finding.at !== undefined ? { findingAt: formatTime(o.finding.at) } : {}),
        ...(o.finding.subject ? { subject: o.finding.subject } : {}),
      });
    case 'notice':
      return JSON.stringify({ type: 'notice', at, text: o.text });
    case 'complete':
      return JSON.stringify({
        type: 'complete',
        at,
        verdict: o.result.verdict,
        // coverage as analyze -o json has it: null when the rule checked every member (or was not checked).
        rules: o.result.outcomes.map((r) => ({
          id: r.rule.id,
          state: r.state,
          coverage: coverageDocument(r),
        })),
        findings: o.result.findings.map((f) => ({
          rule: f.rule,
          severity: f.severity,
          summary: f.summary,
          ...(f.at !== undefined ? { at: formatTime(f.at) } : {}),
        })),
      });
  }
}
