/**
 * The JSON documents the CLI prints with `-o json` (docs/analyze-json.md, docs/status.md), for a
 * script that called a use case and wants the same document, with its schema version, rather than
 * the result's inner types.
 */
import { ANALYZE_FORMATS, HOSTED_STATUS_FORMATS, render, STATUS_FORMATS } from '../report/index.js';
import type { AnalyzeOutcome } from './analyze.js';
import type { StatusOutcome } from './status.js';

/** Structured formats take no text settings; the reporter records want them all the same. */
const PLAIN = { colour: false, width: 80 } as const;

/** `atlevel analyze -o json`'s document of an analysis, as JSON text. */
export function analysisJson(outcome: AnalyzeOutcome): Promise<string> {
  return render(ANALYZE_FORMATS, 'json', outcome, { ...PLAIN, brief: false });
}

/** `atlevel status -o json`'s document of a status (a standalone or a hosted cluster's), as JSON text. */
export function statusJson(outcome: StatusOutcome): Promise<string> {
  const settings = { ...PLAIN, details: 'none' } as const;
  return outcome.kind === 'hosted'
    ? render(HOSTED_STATUS_FORMATS, 'json', outcome.status, settings)
    : render(STATUS_FORMATS, 'json', outcome.status, settings);
}
