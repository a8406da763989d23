/**
 * The exit codes of every atlevel command, in one place, and which error ends in which code. Scripts
 * and CI jobs branch on these; README.md documents them.
 */
import { CommanderError } from '@commander-js/extra-typings';
import { InputError, UsageError } from '../model/index.js';

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

/** A command's action stores its exit code here; commander's actions cannot return one. */
export interface ExitBox {
  code: ExitCode;
}

/** The code an error thrown out of a command ends the process with. */
export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof CommanderError) {
    // Help and version are "errors" to commander; they already printed what they had to.
    const done = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    return done.includes(err.code) ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof InputError || err instanceof UsageError) return EXIT.usage;
  return EXIT.internal;
}
