/**
 * Errors a user can act on. Anything thrown that is not one of these is a bug in atlevel and is
 * reported as such by the CLI.
 */
import { escapeInQuotes, needsEscapeInQuotes, safeJson, terminalSafe } from './terminal.js';

// The one terminal sanitiser, exported with the errors whose messages it guards (model/index.ts).
export { escapeInQuotes, needsEscapeInQuotes, safeJson, terminalSafe };

/** The input (a file, a folder, an object in a file) is wrong. Exit code 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    /** The file (or folder, or `archive.tar.gz!inner/path`) the problem is in. */
    readonly file: string,
    /** What is wrong, in one line, without the file name. */
    readonly problem: string,
    /** What the user can do about it, if anything useful can be said. */
    readonly hint?: string,
  ) {
    super(`${file}: ${problem}${hint ? ` (${hint})` : ''}`);
  }
}

/** The command line is wrong (unknown flag value, missing argument). Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Strip control characters (terminal.ts) and cap length so that a hostile string in an input cannot garble the terminal. */
export function printable(value: string, max = 200): string {
  const clean = terminalSafe(value).replace(/\n/g, '\\n');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
