/**
 * The exit codes of every atlevel command, in one place. Scripts and CI jobs branch on these;
 * README.md documents them. A use case's result says what it concluded (app/conclusion.ts), which
 * exitOf turns into a code here; which error ends in which code is report-error.ts. This module is
 * loaded by every start, and must not load the model (and zod) with it.
 */
import type { Conclusion } from '../app/conclusion.js';

export const EXIT = {
  /** Nothing wrong found: the check passed, the two things are the same, or there was no update. */
  ok: 0,
  /** A failure was found: an invariant violated, a difference, a serious insight. */
  failure: 1,
  /** The input or the command line is wrong; nothing was analysed. */
  usage: 2,
  /** A bug in atlevel. */
  internal: 3,
  /** The evidence could not decide: the check could not be made either way. */
  inconclusive: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code of what a use case concluded: ok 0, failure 1, inconclusive 4. `exitZero` is the
 * `--exit-zero` flag of analyze, report and ingest: 0 whatever was concluded (errors keep their codes).
 */
export function exitOf(conclusion: Conclusion, exitZero = false): ExitCode {
  return exitZero ? EXIT.ok : EXIT[conclusion];
}

/** A command's action stores its exit code here; commander's actions cannot return one. */
export interface ExitBox {
  code: ExitCode;
}

/**
 * Commander's errors that mean it printed help or the version, as asked: success. Help commander
 * prints on its own (a command group given no subcommand, `atlevel` alone) goes to stderr with exit
 * code 1: that is a usage error, not success.
 */
export function commanderDone(err: { readonly code: string; readonly exitCode: number }): boolean {
  return (
    err.code === 'commander.helpDisplayed' ||
    err.code === 'commander.version' ||
    (err.code === 'commander.help' && err.exitCode === 0)
  );
}
