/**
 * The `report` use case: analyze's, with the result made into the self-contained HTML page (the
 * timeline, the findings and their evidence), ready to be written wherever the caller wants it.
 */
import { ANALYZE_FORMATS, render } from '../report/index.js';
import { type AnalyzeOutcome, type AnalyzeRequest, analyze } from './analyze.js';
import type { ReadOptions } from './read.js';

export interface ReportOutcome extends AnalyzeOutcome {
  /** The HTML page, as `atlevel report` and `analyze -o html` write it. */
  readonly html: string;
}

export async function report(request: AnalyzeRequest, read: ReadOptions = {}): Promise<ReportOutcome> {
  const outcome = await analyze(request, read);
  // The page has no text settings (no terminal width, no colour); the reporter record wants them.
  const html = await render(ANALYZE_FORMATS, 'html', outcome, { colour: false, width: 80, brief: false });
  return { ...outcome, html };
}
