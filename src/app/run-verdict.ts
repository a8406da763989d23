/**
 * simulate's verdict on one run: the run's CI artifacts read back exactly as `atlevel analyze DIR`
 * reads them (same sources, same rules), so the two commands cannot disagree about a run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnalysisResult, analyzeHistory, coverageDocument, heldOnTooLittle } from '../analyze/index.js';
import { type RunResult, type RunVerdict, renderArtifacts } from '../sim/index.js';
import { writeRunFolder } from '../writer/index.js';
import { readHistory } from './read.js';

/** Analyze's verdict on the artifacts of `run`, written to `dir` (kept) or to a temporary folder (removed). */
export function verdictOfRun(
  run: RunResult,
  dir?: string,
): Promise<{ readonly verdict: RunVerdict; readonly files: number }> {
  return verdictOfFiles(renderArtifacts(run), dir);
}

/** Analyze's verdict on a run's rendered files (the CI layout, or a hosted run's dump). */
export async function verdictOfFiles(
  files: Map<string, string>,
  dir?: string,
): Promise<{ readonly verdict: RunVerdict; readonly files: number }> {
  const target = dir ?? (await mkdtemp(join(tmpdir(), 'atlevel-sim-')));
  try {
    await writeRunFolder(target, files);
    const result = analyzeHistory(await readHistory([target], {}));
    return { verdict: runVerdictOf(result), files: files.size };
  } finally {
    if (dir === undefined) await rm(target, { recursive: true, force: true });
  }
}

/**
 * The verdict simulate reports, from analyze's result: the verdict itself, and the rules behind it
 * named by analyze's own tests (a rule not checked for lack of data, a holds on too little, as
 * analyze/ decides them), so that simulate's words cannot drift from the verdict. No built-in
 * scenario's run is thin (every operator's level report is in its monitor lines), but a scenario
 * file's could be, and its INCONCLUSIVE must then name the rule (test/sim/run-verdict.test.ts).
 */
export function runVerdictOf(result: AnalysisResult): RunVerdict {
  return {
    verdict: result.verdict,
    violated: result.outcomes.filter((o) => o.state === 'violated').map((o) => o.rule.id),
    notChecked: result.outcomes
      .filter((o) => o.state === 'not-checked' && o.missing.length > 0)
      .map((o) => o.rule.id),
    thin: result.outcomes.filter(heldOnTooLittle).flatMap((o) => {
      const c = coverageDocument(o);
      return c ? [{ rule: o.rule.id, of: c.of, checked: c.checked, total: c.total }] : [];
    }),
  };
}
