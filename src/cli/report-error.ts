/**
 * What an error thrown out of a command prints and which exit code it ends in. Loaded only when a
 * command fails, so that `atlevel --help` does not load the model (and zod) to print its page.
 */
import { CommanderError } from '@commander-js/extra-typings';
import { InputError, terminalSafe, UsageError } from '../model/index.js';
import { commanderDone, EXIT, type ExitCode } from './exit.js';
import { isClosedPipe } from './pipe.js';

/** The code an error thrown out of a command ends the process with. */
export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof CommanderError) {
    // Help and version are "errors" to commander; they already printed what they had to.
    return commanderDone(err) ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof InputError || err instanceof UsageError) return EXIT.usage;
  return EXIT.internal;
}

/**
 * Print what the user needs to know of `err` (one line; a bug says so) and return the exit code.
 * `asInvoked` writes a hint in the message (`run atlevel status --help`) as the command was run
 * (program.ts; passed in by main, so that the command table stays in the start-up module alone).
 */
export function reportError(err: unknown, asInvoked: (text: string) => string = (t) => t): ExitCode {
  // A reader that stopped reading (`| head`) is not an error of ours: end quietly, as coreutils do.
  if (isClosedPipe(err)) return EXIT.ok;
  const code = exitCodeOf(err);
  if (err instanceof InputError || err instanceof UsageError) {
    process.stderr.write(`atlevel: ${oneLine(asInvoked(err.message))}\n`);
  }
  // CommanderErrors were printed by commander itself.
  if (code === EXIT.internal) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `atlevel: internal error: ${oneLine(message)}\n` +
        'This is a bug in atlevel; please report it with the command you ran. (ATLEVEL_DEBUG=1 shows the stack.)\n',
    );
    if (process.env.ATLEVEL_DEBUG) process.stderr.write(`${(err as Error).stack ?? ''}\n`);
  }
  return code;
}

/** Every error line passes the one sanitiser (model/terminal.ts): messages quote input names. */
function oneLine(s: string): string {
  return terminalSafe(s.replace(/\s*\n\s*/g, ' ')).slice(0, 1000);
}

/**
 * Commander's own error messages (they quote the command line: unknown options, bad arguments), made
 * safe for a terminal and given atlevel's prefix.
 */
export function commanderMessage(text: string): string {
  return terminalSafe(text.replace(/^error: /, 'atlevel: '));
}
