/**
 * report/html owns the self-contained HTML report: history + findings → report data (report-data.ts,
 * pure) → one HTML file with the data as inert JSON, the page script (page/, bundled at build time)
 * and a CSP that forbids any network access. The page draws the findings and an interval chart.
 */
import type { Reporter } from '../reporter.js';
import type { AnalyzeReport } from '../results.js';
import { pageBundle } from './bundle.js';
import { renderPage } from './render.js';
import { buildReportData, type HtmlReportInput } from './report-data.js';

// PAGE_CSS and cspHash: for other pages built on the same shell and styles (stats/html.ts).
export { PAGE_CSS } from './page-style.js';
export { cspHash, escapeHtml, renderPage, scriptSafeJson } from './render.js';
export type { HtmlReportInput } from './report-data.js';
export { buildReportData } from './report-data.js';
export type * from './report-data-types.js';

/** `atlevel analyze -o html` / `atlevel report`: the whole report as one HTML document. */
export function renderHtmlReport(input: HtmlReportInput): string {
  return renderPage(buildReportData(input), pageBundle());
}

/** The HTML reporter of `atlevel analyze` (report/formats.ts): the same argument shape as the others. */
export const analyzeHtml: Reporter<AnalyzeReport, unknown> = (r) =>
  renderHtmlReport({
    history: r.history,
    findings: r.result.findings,
    rules: r.result.outcomes.map((o) => o.rule),
    outcomes: new Map(
      r.result.outcomes.map((o) => [
        o.rule.id,
        {
          state: o.state,
          missing: o.missing,
          ...(o.reason !== undefined ? { reason: o.reason } : {}),
          ...(o.coverage && o.state !== 'not-checked'
            ? {
                coverage: {
                  of: o.coverage.of,
                  checked: o.coverage.checked,
                  total: o.coverage.total,
                  notChecked: o.coverage.unchecked,
                  reason: o.coverage.why,
                  enough: o.coverage.enough,
                },
              }
            : {}),
        },
      ]),
    ),
    verdict: r.result.verdict,
    ...(r.result.span ? { window: r.result.span } : {}),
    title: `atlevel: ${r.inputs.join(' ')}`,
    generatedFrom: r.inputs,
  });
