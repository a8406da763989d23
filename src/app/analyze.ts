/**
 * The `analyze` use case (and `report`'s, which prints the same analysis as HTML): read the inputs,
 * or a live cluster, check the rules, explain the violations, and say what the verdict means for the
 * exit code; a --release-from/--release-to file that is not the update's release is returned as a
 * mismatch for the caller to warn of.
 */
import { type AnalysisResult, analyzeHistory } from '../analyze/index.js';
import { type ClusterHistory, printable } from '../model/index.js';
import { buildHistory } from '../timeline/index.js';
import { type Conclusion, verdictConclusion } from './conclusion.js';
import type { ReleaseMismatch } from './diff.js';
import { type GivenReleases, type LiveTarget, type ReadOptions, readLiveHistory, readParts } from './read.js';

export interface AnalyzeRequest extends GivenReleases {
  /** CI run folders, must-gathers, folders of oc get output, tarballs, CI URLs, `-`; none with `live`. */
  readonly inputs: readonly string[];
  /** Read this live cluster instead of files. */
  readonly live?: LiveTarget;
  /** Only these rules (ids of the rule record); every rule when absent. */
  readonly rules?: readonly string[];
}

export interface AnalyzeOutcome {
  readonly result: AnalysisResult;
  /** The history the rules read (the HTML report draws its timeline from it). */
  readonly history: ClusterHistory;
  /** The inputs as the request gave them, for the reports' headers. */
  readonly inputs: readonly string[];
  /** Release files given that are not the update's release (the caller warns of them). */
  readonly releaseMismatches: readonly ReleaseMismatch[];
  /** The verdict's exit meaning: fail is a failure, inconclusive inconclusive, pass and no-update ok. */
  readonly conclusion: Conclusion;
}

export async function analyze(request: AnalyzeRequest, read: ReadOptions = {}): Promise<AnalyzeOutcome> {
  const releases: GivenReleases = {
    ...(request.releaseFrom !== undefined ? { releaseFrom: request.releaseFrom } : {}),
    ...(request.releaseTo !== undefined ? { releaseTo: request.releaseTo } : {}),
  };
  const history = request.live
    ? await readLiveHistory(request.live, releases, read)
    : buildHistory(await readParts(request.inputs, read, releases));
  // The cause-chain diffs honour the request's budget limits (data: URL bytes, diff time).
  const result = analyzeHistory(history, {
    ...(read.budget ? { diffLimits: read.budget.limits } : {}),
    ...(request.rules ? { rules: request.rules } : {}),
  });
  return {
    result,
    history,
    inputs: request.inputs,
    releaseMismatches: releaseMismatches(result, history, releases),
    conclusion: verdictConclusion(result.verdict),
  };
}

/**
 * A --release-from/--release-to file whose version is not the update's: the cause chain would name
 * components of the wrong release. The analysis goes on, with the file, or without it when a release
 * among the inputs has the update's version (sources/ assignReleases sets the file aside).
 */
function releaseMismatches(
  result: AnalysisResult,
  history: ClusterHistory,
  given: GivenReleases,
): ReleaseMismatch[] {
  const update = result.updates[result.updates.length - 1];
  if (!update) return [];
  const out: ReleaseMismatch[] = [];
  const check = (slot: 'from' | 'to', file: string | undefined, wanted: string | undefined) => {
    const aside = history.releases.setAside?.[slot];
    const release = aside ?? history.releases[slot];
    if (file === undefined || release === undefined || wanted === undefined || release.version === wanted)
      return;
    // A file without a version (an operator's own image-references) may or may not be the update's.
    const problem =
      release.version === undefined
        ? `carries no version; cannot check it against ${printable(wanted)}, ${slot === 'to' ? "the update's target" : 'the release the update is from'}`
        : `is release ${printable(release.version)}, but the update in the inputs is ${slot} ${printable(wanted)}`;
    out.push({ slot, file, problem, usedInstead: aside ? history.releases[slot] : undefined });
  };
  check('from', given.releaseFrom, update.previous);
  check('to', given.releaseTo, update.target);
  return out;
}
