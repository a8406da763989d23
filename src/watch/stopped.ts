/**
 * The verdict of a watch stopped before it could judge an update to its end (Ctrl-C, or any stop of
 * `--forever`). What was seen is analysed all the same, but an update not seen to completion was not
 * judged: unless a rule already failed, the watch's verdict is inconclusive (exit 4), and its words
 * say so. A PASS or NO UPDATE headline over an exit code of 4 would contradict itself.
 */
import type { AnalysisResult } from '../analyze/index.js';
import { plural } from '../model/index.js';
import type { WatchSummary } from './watcher.js';

/** Why a stopped watch judged nothing to its end, in words. */
function stoppedReason(summary: Pick<WatchSummary, 'activeAtStop' | 'completions'>): string {
  if (summary.activeAtStop !== undefined)
    return `the watch stopped before the update to ${summary.activeAtStop} completed, so it was not judged to its end; no invariant was seen violated until then`;
  const judged =
    summary.completions > 0
      ? `; ${plural(summary.completions, 'update')} seen to completion ${summary.completions === 1 ? 'was' : 'were'} judged when ${summary.completions === 1 ? 'it' : 'each'} completed`
      : '';
  return `the watch stopped with no update in progress, so it judged no update to its end${judged}`;
}

/**
 * The result a stopped watch reports: the analysis of what was seen, with a failure kept as it is
 * (a violated rule is a fact however the watch ended), any other verdict made inconclusive with the
 * reason. The updates are left out: the text reporter then states the reason as the headline instead
 * of naming an update it did not see to its end.
 */
export function stoppedResult(
  result: AnalysisResult,
  summary: Pick<WatchSummary, 'activeAtStop' | 'completions'>,
): AnalysisResult {
  if (result.verdict === 'fail') return result;
  return { ...result, verdict: 'inconclusive', verdictReason: stoppedReason(summary), updates: [] };
}
