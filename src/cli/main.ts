/**
 * cli/ owns the command line: one module per command, each parsing its flags, calling the library
 * and handing the result to one of its reporters (report/). Exit codes are in exit.ts; the commands,
 * loaded lazily, are listed in commands.ts.
 */
import { Command, Help } from '@commander-js/extra-typings';
import { InputError, terminalSafe, UsageError } from '../model/index.js';
import { COMMANDS, type CommandName, commandEntry } from './commands.js';
import { EXIT, type ExitBox, exitCodeOf } from './exit.js';
import { isClosedPipe, quietOnClosedPipe } from './pipe.js';
import { VERSION } from './version.js';

const DESCRIPTION =
  'Did every OpenShift component really reach level when it said it did? Reads CI artifacts and ' +
  'snapshots, rebuilds the update timeline, checks invariants and explains violations.';

/**
 * The program with every command named; `load` says which commands get their full definition (the
 * others are enough for `atlevel --help` and cost nothing to import).
 */
export async function buildProgram(exit: ExitBox, load: 'all' | readonly string[]): Promise<Command> {
  const program = new Command('atlevel')
    .description(DESCRIPTION)
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run atlevel --help for usage)')
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      // Commander's own messages get the same prefix as atlevel's.
      outputError: (s, write) => write(terminalSafe(s.replace(/^error: /, 'atlevel: '))),
    })
    .configureHelp({
      subcommandTerm(cmd) {
        const entry = cmd.parent?.parent ? undefined : commandEntry(cmd.name());
        return entry ? `${cmd.name()} ${entry.usage}` : Help.prototype.subcommandTerm.call(this, cmd);
      },
    });
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const cmd = program.command(name).description(entry.summary);
    if (load === 'all' || load.includes(name)) {
      (await entry.load())(cmd, exit, () => buildProgram({ code: EXIT.ok }, 'all'));
    }
  }
  return program;
}

/** The command argv runs (`atlevel help status` counts as status), if it names one. */
export function commandOf(argv: readonly string[]): CommandName | undefined {
  const words = argv.filter((a) => !a.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return name !== undefined && commandEntry(name) ? (name as CommandName) : undefined;
}

/** Run the CLI; returns the exit code instead of exiting, so tests can call it in-process. */
export async function main(argv: readonly string[]): Promise<number> {
  quietOnClosedPipe();
  const exit: ExitBox = { code: EXIT.ok };
  try {
    const name = commandOf(argv);
    // --out's safety checks need the command line; `--help` and `--version` need neither them nor
    // the cost of loading them.
    if (name) (await import('./output.js')).noteCommandLine(argv);
    const program = await buildProgram(exit, name ? [name] : []);
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  // A reader that stopped reading (`| head`) is not an error of ours: end quietly, as coreutils do.
  if (isClosedPipe(err)) return EXIT.ok;
  const code = exitCodeOf(err);
  if (err instanceof InputError || err instanceof UsageError) {
    process.stderr.write(`atlevel: ${oneLine(err.message)}\n`);
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
