/**
 * simulate's verdict on one run: the run's CI artifacts read back exactly as `atlevel analyze DIR`
 * reads them (same sources, same rules), so the two commands cannot disagree about a run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeHistory } from '../analyze/index.js';
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
    return {
      verdict: {
        verdict: result.verdict,
        violated: result.outcomes.filter((o) => o.state === 'violated').map((o) => o.rule.id),
        notChecked: result.outcomes
          .filter((o) => o.state === 'not-checked' && o.missing.length > 0)
          .map((o) => o.rule.id),
      },
      files: files.size,
    };
  } finally {
    if (dir === undefined) await rm(target, { recursive: true, force: true });
  }
}
