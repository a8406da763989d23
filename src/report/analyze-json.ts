import { type AnalysisResult, coverageDocument } from '../analyze/index.js';
import type { Evidence, Finding } from '../model/index.js';
import { formatTime, type Millis, safeJson } from '../model/index.js';
import type { Documenter } from './reporter.js';
import type { AnalyzeReport } from './results.js';

/**
 * `atlevel analyze -o json`. The shape is documented in docs/analyze-json.md; bump SCHEMA_VERSION on
 * any change that could break a consumer (removing or renaming a field, changing a type).
 */
export const SCHEMA_VERSION = 2;

export function renderAnalysisJson(result: AnalysisResult): string {
  return safeJson(analysisDocument(result));
}

/** The document `-o json` and `-o yaml` print. */
export function analysisDocument(result: AnalysisResult) {
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: 'atlevel',
    verdict: result.verdict,
    verdictReason: result.verdictReason,
    inputs: result.inputs.map((i) => ({
      path: i.path,
      reader: i.reader,
      bytes: i.bytes,
      contributed: i.contributed,
    })),
    span: result.span ? { from: iso(result.span.from), to: iso(result.span.to) } : null,
    updates: result.updates.map((u) => ({
      target: u.target,
      previous: u.previous ?? null,
      image: u.image ?? null,
      previousImage: u.previousImage ?? null,
      // Added: true for the move to the same version's multi-architecture payload (--to-multi-arch).
      toMultiArch: u.toMultiArch === true,
      state: u.state,
      startedAt: iso(u.startedAt),
      completedAt: iso(u.completedAt),
    })),
    rules: result.outcomes.map((o) => ({
      id: o.rule.id,
      statement: o.rule.statement,
      doc: o.rule.doc,
      applicable: o.applicable,
      state: o.state,
      missing: o.missing,
      reason: o.reason ?? null,
      // Added: null when the rule checked every member of the set it judges (or was not checked).
      coverage: coverageDocument(o),
      failures: o.findings.filter((f) => f.severity === 'failure').length,
      warnings: o.findings.filter((f) => f.severity === 'warning').length,
    })),
    findings: result.findings.map(findingJson),
    notes: result.notes,
  };
}

function findingJson(f: Finding) {
  return {
    rule: f.rule,
    severity: f.severity,
    summary: f.summary,
    at: iso(f.at),
    evidence: f.evidence.map(evidenceJson),
    explanation: f.explanation
      ? {
          steps: f.explanation.steps.map((s) => ({
            title: s.title,
            at: iso(s.at),
            evidence: s.evidence.map(evidenceJson),
          })),
          signature: f.explanation.signature ?? null,
          configDiff: f.explanation.configDiff ?? null,
        }
      : null,
    moments: (f.moments ?? []).map((m) => ({ label: m.label, at: iso(m.at), objects: m.objects })),
    subject: f.subject
      ? {
          ...f.subject,
          cvoCompletedAt: iso(f.subject.cvoCompletedAt),
          operatorLevelAt: iso(f.subject.operatorLevelAt),
        }
      : null,
  };
}

function evidenceJson(e: Evidence) {
  return {
    statement: e.statement,
    at: iso(e.at),
    object: e.object ?? null,
    field: e.field ?? null,
    value: e.value ?? null,
    file: e.ref?.file ?? null,
    line: e.ref?.line ?? null,
    path: e.ref?.path ?? null,
  };
}

function iso(ms: Millis | undefined): string | null {
  return ms === undefined ? null : formatTime(ms);
}

/** The JSON reporter of `atlevel analyze` (report/formats.ts). */
/** The document of `atlevel analyze -o json` and `-o yaml` (report/formats.ts). */
export const analyzeDocument: Documenter<AnalyzeReport> = (r) => analysisDocument(r.result);
