/**
 * What a use case concluded, in the words of the exit codes (README.md, "Exit codes"): nothing wrong
 * found, a failure found, or the evidence could not decide. Each outcome carries one; the CLI turns it
 * into the process's exit code (cli/exit.ts), a script reads it as it is.
 */
import type { Verdict } from '../model/index.js';

export type Conclusion = 'ok' | 'failure' | 'inconclusive';

/** analyze's verdict as a conclusion: the same for analyze, report, watch and one simulate run. */
export function verdictConclusion(verdict: Verdict): Conclusion {
  return verdict === 'fail' ? 'failure' : verdict === 'inconclusive' ? 'inconclusive' : 'ok';
}
