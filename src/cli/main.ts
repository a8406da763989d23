/**
 * cli/ owns the command line: one module per command, each parsing its flags, calling the library
 * and choosing a reporter. Exit codes: 0 no failure, 1 a failure found, 2 bad input or usage.
 */
import { Command, CommanderError } from '@commander-js/extra-typings';
import { InputError, UsageError } from '../model/errors.js';
import { registerAnalyze } from './analyze.js';
import { registerDiff } from './diff.js';
import { registerRelease } from './release.js';
import { registerSimulate } from './simulate.js';
import { registerStatus } from './status.js';

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A command's action stores its exit code here; commander's actions cannot return one. */
export interface ExitBox {
  code: number;
}

export function buildProgram(exit: ExitBox): Command {
  const program = new Command('atlevel')
    .description(
      'Did every OpenShift component really reach level when it said it did? Reads CI artifacts and ' +
        'snapshots, rebuilds the update timeline, checks invariants and explains violations.',
    )
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run atlevel --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerAnalyze(program, exit);
  registerStatus(program, exit);
  registerDiff(program, exit);
  registerRelease(program, exit);
  registerSimulate(program, exit);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}

const VERSION = '0.1.0';

/** Run the CLI; returns the exit code instead of exiting, so tests can call it in-process. */
export async function main(argv: readonly string[]): Promise<number> {
  const exit: ExitBox = { code: EXIT.ok };
  const program = buildProgram(exit);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and version are "errors" to commander; they already printed what they had to.
    if (
      err.code === 'commander.helpDisplayed' ||
      err.code === 'commander.version' ||
      err.code === 'commander.help'
    ) {
      return EXIT.ok;
    }
    return EXIT.usage;
  }
  if (err instanceof InputError || err instanceof UsageError) {
    process.stderr.write(`atlevel: ${oneLine(err.message)}\n`);
    return EXIT.usage;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(
    `atlevel: internal error: ${oneLine(message)}\n` +
      'This is a bug in atlevel; please report it with the command you ran. (ATLEVEL_DEBUG=1 shows the stack.)\n',
  );
  if (process.env.ATLEVEL_DEBUG) process.stderr.write(`${(err as Error).stack ?? ''}\n`);
  return 3;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').slice(0, 1000);
}
