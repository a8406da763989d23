/**
 * cli/ owns the command line: one module per command, each parsing its flags into its use case's
 * request (src/app), calling it and handing the result to one of its reporters (report/). Exit codes
 * are decided in one place: exit.ts (a result's conclusion) and report-error.ts (an error); the
 * commands, loaded lazily, are listed in commands.ts.
 */
import { Argument, Command, CommanderError, Help } from '@commander-js/extra-typings';
import { COMMANDS, type CommandName, commandEntry } from './commands.js';
import { completeWith } from './complete-hints.js';
import { commanderDone, EXIT, type ExitBox } from './exit.js';
import { quietOnClosedPipe } from './pipe.js';
import { asInvoked } from './program.js';
import { VERSION } from './version.js';

const DESCRIPTION =
  'Did every OpenShift component really reach level when it said it did? Reads CI artifacts and ' +
  'snapshots, rebuilds the update timeline, checks invariants and explains violations.';

/**
 * What commander writes to stderr, held until main ends. Its error messages quote the command line,
 * so they pass the terminal sanitiser, which comes with the model (report-error.ts); loading that
 * only when commander has something to say keeps `atlevel --help` from loading zod.
 */
const commanderStderr: { readonly text: string; readonly message: boolean }[] = [];

/**
 * The program with every command named; `load` says which commands get their full definition (the
 * others are enough for `atlevel --help` and cost nothing to import).
 */
export async function buildProgram(exit: ExitBox, load: 'all' | readonly string[]): Promise<Command> {
  const program = new Command('atlevel')
    .description(DESCRIPTION)
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({
      // Help and hints name the command as it was run: `kubectl atlevel` as a plugin (program.ts).
      writeOut: (text) => process.stdout.write(asInvoked(text)),
      writeErr: (text) => commanderStderr.push({ text: asInvoked(text), message: false }),
      // Commander's own messages get the same prefix as atlevel's (report-error.ts).
      outputError: (text) => commanderStderr.push({ text: asInvoked(text), message: true }),
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
  defineHelp(program, exit);
  usageHints(program, 'atlevel');
  return program;
}

/**
 * `atlevel help [command...]`, in place of commander's, which takes one word only (`help release
 * diff` showed the release help) and prints the program's help, exit 0, for a command that does not
 * exist. Completion completes its argument with the command names (completion.ts).
 */
function defineHelp(program: Command, exit: ExitBox): void {
  program
    .command('help')
    .description('display help for a command')
    .addArgument(
      completeWith(new Argument('[command...]', 'the command, e.g. status or release diff'), {
        commands: true,
      }),
    )
    .action(async (words) => {
      let cmd: Command = program;
      for (const [i, word] of words.entries()) {
        const sub = cmd.commands.find((c) => c.name() === word);
        if (!sub) {
          const { UsageError } = await import('../model/index.js');
          throw new UsageError(
            `unknown command ${words.slice(0, i + 1).join(' ')} (run ${['atlevel', ...words.slice(0, i)].join(' ')} --help for usage)`,
          );
        }
        cmd = sub as unknown as Command;
      }
      cmd.outputHelp();
      exit.code = EXIT.ok;
    });
}

/**
 * The hint commander prints after its own errors names the help of the command that failed
 * (`atlevel release nosuch` points to `atlevel release --help`); flushCommanderStderr folds it into
 * the error's line, so that a usage error is one line.
 */
function usageHints(cmd: Command, path: string): void {
  cmd.showHelpAfterError(`(run ${path} --help for usage)`);
  for (const sub of cmd.commands) usageHints(sub as unknown as Command, `${path} ${sub.name()}`);
}

const HINT = /^\(run (?:kubectl |oc )?atlevel[^\n]* --help for usage\)\n$/;

/** The command argv runs (`atlevel help status` counts as status), if it names one. */
export function commandOf(argv: readonly string[]): CommandName | undefined {
  const words = argv.filter((a) => !a.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return name !== undefined && commandEntry(name) ? (name as CommandName) : undefined;
}

/**
 * The arguments after the command's own words (`analyze`, `release diff`): those name no input, and
 * counted as inputs they made `--out analyze/x` refused in a folder that holds an `analyze/` folder.
 * Only leading words are dropped, so `atlevel analyze analyze` still counts its input `analyze`.
 */
function withoutCommandPath(argv: readonly string[], name: CommandName): readonly string[] {
  if (argv[0] !== name) return argv;
  const group = commandEntry(name)?.usage === '<command>';
  const sub = argv[1];
  return group && sub !== undefined && !sub.startsWith('-') ? argv.slice(2) : argv.slice(1);
}

/** Run the CLI; returns the exit code instead of exiting, so tests can call it in-process. */
export async function main(argv: readonly string[]): Promise<number> {
  quietOnClosedPipe();
  const exit: ExitBox = { code: EXIT.ok };
  try {
    // Inside the try, as every command: a failure here is an internal error, reported as one.
    if (argv[0] === COMPLETE) return await complete(argv.slice(1));
    const name = commandOf(argv);
    // --out's safety checks need the command line; `--help` and `--version` need neither them nor
    // the cost of loading them.
    if (name) (await import('./output.js')).noteCommandLine(withoutCommandPath(argv, name));
    const program = await buildProgram(exit, name ? [name] : []);
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (err) {
    if (err instanceof CommanderError && commanderDone(err)) return EXIT.ok;
    return (await import('./report-error.js')).reportError(err, asInvoked);
  } finally {
    await flushCommanderStderr();
  }
}

/**
 * The hidden command that bin/kubectl_complete-atlevel runs for `kubectl atlevel ... <TAB>`, as cobra
 * programs have one: `atlevel __complete <words> <word being completed>` prints the candidates and
 * cobra's directive (completion-words.ts). It is no commander command, so no help or doc lists it.
 */
const COMPLETE = '__complete';

/**
 * Loads the definition of the one command the words name, if any, as `atlevel <command> --help`
 * would: a TAB after `kubectl atlevel` loads no command's modules. Writes nothing to stderr, which
 * kubectl shows in the middle of the line being typed; a failure is cobra's error directive.
 */
async function complete(words: readonly string[]): Promise<number> {
  let answer: string;
  try {
    const name = commandOf(words.slice(0, -1));
    const program = await buildProgram({ code: EXIT.ok }, name ? [name] : []);
    const [{ cobraLines, completeWords }, { specsOf }] = await Promise.all([
      import('./completion-words.js'),
      import('./completion-spec.js'),
    ]);
    answer = cobraLines(completeWords(specsOf(program), words));
  } catch {
    answer = ':1\n';
  }
  process.stdout.write(answer);
  return EXIT.ok;
}

async function flushCommanderStderr(): Promise<void> {
  if (commanderStderr.length === 0) return;
  const held = commanderStderr.splice(0);
  const safe = held.some((h) => h.message) ? (await import('./report-error.js')).commanderMessage : undefined;
  let folded = '';
  for (const [i, { text, message }] of held.entries()) {
    const next = held[i + 1];
    const printable = message && safe ? safe(text) : text;
    // An error and the hint commander writes after it, as one line.
    if (message && next && !next.message && HINT.test(next.text)) folded = `${printable.trimEnd()} `;
    else {
      process.stderr.write(folded + printable);
      folded = '';
    }
  }
  if (folded) process.stderr.write(`${folded.trimEnd()}\n`);
}
