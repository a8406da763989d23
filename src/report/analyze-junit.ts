import type { AnalysisResult } from '../analyze/index.js';
import type { Finding } from '../model/index.js';
import { formatTime } from '../model/index.js';
import { formatRef } from './refs.js';
import type { Reporter } from './reporter.js';
import type { AnalyzeReport } from './results.js';

/** `atlevel analyze -o junit`: one testcase per invariant, so CI dashboards show each rule's verdict. */
export function renderAnalysisJunit(result: AnalysisResult): string {
  const cases = result.outcomes.map((o) => {
    const name = `atlevel invariant ${o.rule.id}`;
    const failures = o.findings.filter((f) => f.severity === 'failure');
    const others = o.findings.filter((f) => f.severity !== 'failure');
    let body = '';
    // Not checked is skipped, never passed, and says why and what data it needed.
    if (o.state === 'not-checked') {
      const needs = o.missing.length > 0 ? `; needs ${o.missing.join('; ')}` : '';
      body += `<skipped message="${xml(`not checked: ${o.reason ?? 'the inputs do not let it be checked'}${needs}`)}"/>`;
    }
    // Checked on part of the set only: said in the case's output, so a green case does not read as all.
    const cov = o.state !== 'not-checked' ? o.coverage : undefined;
    const part = cov
      ? `checked ${cov.checked} of ${cov.total} ${cov.of}; ${cov.unchecked.length} not checked (${cov.unchecked.join(', ')}): ${cov.why}${cov.needs.length > 0 ? `; needs ${cov.needs.join('; ')}` : ''}\n`
      : '';
    // Held on too little to count (analyze's verdict is inconclusive for it): skipped, as not checked.
    const thin = cov !== undefined && o.state === 'holds' && !cov.enough;
    if (thin) body += `<skipped message="${xml(`held on too little to count: ${part.trimEnd()}`)}"/>`;
    const out = thin ? '' : part;
    for (const f of failures)
      body += `<failure message="${xml(f.summary)}" type="${xml(f.rule)}">${xml(details(f))}</failure>`;
    if (others.length > 0 || out)
      body += `<system-out>${xml(out + others.map((f) => `${f.severity}: ${f.summary}\n${details(f)}`).join('\n'))}</system-out>`;
    return `    <testcase classname="atlevel" name="${xml(name)}">${body}</testcase>`;
  });
  const failed = result.outcomes.filter((o) => o.state === 'violated').length;
  const skipped = result.outcomes.filter(
    (o) => o.state === 'not-checked' || (o.state === 'holds' && o.coverage?.enough === false),
  ).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${result.outcomes.length}" failures="${failed}" skipped="${skipped}">`,
    `  <testsuite name="atlevel" tests="${result.outcomes.length}" failures="${failed}" skipped="${skipped}" errors="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function details(f: Finding): string {
  const lines = [f.summary];
  for (const e of f.evidence) {
    lines.push(
      `  ${e.at !== undefined ? `${formatTime(e.at)} ` : ''}${e.statement}${e.ref ? ` [${formatRef(e.ref)}]` : ''}`,
    );
  }
  for (const s of f.explanation?.steps ?? []) lines.push(`  cause: ${s.title}`);
  if (f.explanation?.signature)
    lines.push(`  signature: ${f.explanation.signature.id} ${f.explanation.signature.title}`);
  return lines.join('\n');
}

/**
 * Escape for XML text and attributes; drop characters XML 1.0 cannot carry at all. CR, DEL, the C1
 * controls and the bidirectional controls become character references: the same text to an XML
 * reader, and nothing a terminal acts on when the file is printed.
 */
function xml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\r\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`);
}

/** The JUnit reporter of `atlevel analyze` (report/formats.ts). */
export const analyzeJunit: Reporter<AnalyzeReport, unknown> = (r) => renderAnalysisJunit(r.result);
