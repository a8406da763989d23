/**
 * Skips that say why. A test that cannot run here (a tool, a server or the build missing) is skipped
 * with `(skipped: REASON)` in its name, which the run's last lines count by reason
 * (test/helpers/skip-summary.ts): a run that checked less than it could says so, and why.
 */
import { describe } from 'vitest';

/** ` (skipped: REASON)` when `missing` names what is missing, else nothing: for a test's name. */
export function skipNote(missing: string | undefined): string {
  return missing === undefined ? '' : ` (skipped: ${missing})`;
}

/** `describe`, or, when `missing` names what is missing, `describe.skip` with the reason in its name. */
export function describeUnless(missing: string | undefined, name: string, body: () => void): void {
  if (missing === undefined) describe(name, body);
  else describe.skip(`${name}${skipNote(missing)}`, body);
}
