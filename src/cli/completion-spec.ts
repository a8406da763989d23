/**
 * The commands as shell completion sees them, read from the command definitions themselves: each
 * command's subcommands, flags and what their values and operands complete to. Both the completion
 * scripts (`atlevel completion`, completion.ts) and the completer kubectl runs for the plugin
 * (`kubectl_complete-atlevel`, completion-words.ts) are made from these, so a new command, flag or
 * `-o` format completes without touching either. Imports no analysis: the completer loads it on
 * every TAB.
 */
import type { Argument, Command, Option } from '@commander-js/extra-typings';
import { hintOf, type ValueHint } from './complete-hints.js';

/** What a flag's value or a command's operands complete to. */
export interface Values {
  readonly words: readonly string[];
  readonly files: boolean;
  /** Command names, level by level (`atlevel help release diff`). */
  readonly commands: boolean;
}

/** One command or subcommand as completion sees it. */
export interface Spec {
  /** `''` for atlevel itself, `release info` for a subcommand. */
  readonly path: string;
  readonly subcommands: readonly { name: string; summary: string }[];
  readonly options: readonly {
    readonly flags: readonly string[];
    /** undefined for a flag that takes no value. */
    readonly value: Values | undefined;
    /** `--rule <id...>`: the words after the flag are its values, up to the next flag. */
    readonly variadic: boolean;
    readonly summary: string;
  }[];
  /** The positional arguments, all of them together. */
  readonly operands: Values;
  /** How many positional arguments the command takes at most (Infinity when the last is variadic). */
  readonly maxOperands: number;
}

const NOTHING: Values = { words: [], files: false, commands: false };

function fromHint(hint: ValueHint): Values {
  return { words: hint.words ?? [], files: hint.files === true, commands: hint.commands === true };
}

/**
 * A placeholder that names a path (`<file>`, `<dir>`, `<source>`, `<path|url>`, `<name|file>`): its
 * value completes file names. Any other (`<columns>`, `<n>`, `<size>`, `<url>`, `<name>`) completes
 * nothing, rather than file names that would be wrong there.
 */
const PATH_PLACEHOLDER = /^(file|dir|path|source)$/;

function optionValues(o: Option): Values {
  const hint = hintOf(o);
  if (hint) return fromHint(hint);
  if (o.argChoices) return { ...NOTHING, words: o.argChoices };
  const placeholder = /[<[]([^>\]]*)[>\]]/.exec(o.flags)?.[1] ?? '';
  const parts = placeholder.replace(/\.\.\.$/, '').split('|');
  return { ...NOTHING, files: parts.some((p) => PATH_PLACEHOLDER.test(p)) };
}

/** A positional argument is an input (a path, a file or a name in one) unless its definition says more. */
function argumentValues(a: Argument): Values {
  const hint = hintOf(a);
  if (hint) return fromHint(hint);
  if (a.argChoices) return { ...NOTHING, words: a.argChoices };
  return { ...NOTHING, files: true };
}

/**
 * The specs of `program` and of each command under it, parents first. A command that main did not
 * load (buildProgram's `load`) has its name and summary only: no flags, operands or subcommands.
 */
export function specsOf(program: Command): Spec[] {
  const specs: Spec[] = [];
  const walk = (cmd: Command, path: string) => {
    const subs = cmd.commands;
    const registered = cmd.registeredArguments as readonly Argument[];
    const args = registered.map((a) => argumentValues(a));
    specs.push({
      path,
      subcommands: subs.map((c) => ({ name: c.name(), summary: c.summary() || c.description() })),
      options: [
        ...cmd.options
          .filter((o) => !o.hidden)
          .map((o) => ({
            flags: [o.short, o.long].filter((f): f is string => f !== undefined),
            value: o.required || o.optional ? optionValues(o as Option) : undefined,
            variadic: o.variadic,
            summary: o.description,
          })),
        { flags: ['-h', '--help'], value: undefined, variadic: false, summary: 'display help' },
      ],
      operands: {
        words: [...new Set(args.flatMap((a) => a.words))],
        files: args.some((a) => a.files),
        commands: args.some((a) => a.commands),
      },
      maxOperands: registered.some((a) => a.variadic) ? Number.POSITIVE_INFINITY : registered.length,
    });
    for (const sub of subs) walk(sub as unknown as Command, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  return specs;
}

/** A summary as one short line, for a completion's description. */
export const firstLine = (s: string) => (s.split('\n')[0] ?? '').replace(/\s+/g, ' ').slice(0, 100);
