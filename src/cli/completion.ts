/**
 * `atlevel completion bash|zsh|fish`: shell completion generated from the command definitions
 * themselves, so a new command, flag or `-o` format completes without touching this file.
 */
import { Argument, type Command, type Option } from '@commander-js/extra-typings';
import { UsageError } from '../model/index.js';
import { completeWith, hintOf, type ValueHint } from './complete-hints.js';
import { EXIT, type ExitBox } from './exit.js';
import { emit } from './output.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** What a flag's value or a command's operands complete to. */
interface Values {
  readonly words: readonly string[];
  readonly files: boolean;
  /** Command names, level by level (`atlevel help release diff`). */
  readonly commands: boolean;
}

/** One command or subcommand as completion sees it. */
interface Spec {
  /** `''` for atlevel itself, `release info` for a subcommand. */
  readonly path: string;
  readonly subcommands: readonly { name: string; summary: string }[];
  readonly options: readonly {
    readonly flags: readonly string[];
    /** undefined for a flag that takes no value. */
    readonly value: Values | undefined;
    readonly summary: string;
  }[];
  /** The positional arguments, all of them together. */
  readonly operands: Values;
}

export function defineCompletion(cmd: Command, exit: ExitBox, everything: () => Promise<Command>): void {
  cmd
    .addArgument(completeWith(new Argument('<shell>', `the shell: ${SHELLS.join(', ')}`), { words: SHELLS }))
    .addHelpText(
      'after',
      '\nInstall:\n' +
        '  bash: atlevel completion bash > ~/.local/share/bash-completion/completions/atlevel\n' +
        '  zsh:  atlevel completion zsh > ~/.zfunc/_atlevel   (with ~/.zfunc in fpath)\n' +
        '  fish: atlevel completion fish > ~/.config/fish/completions/atlevel.fish',
    )
    .action(async (shell) => {
      const specs = specsOf(await everything());
      const script = completionScript(shell, specs);
      await emit(script, undefined);
      exit.code = EXIT.ok;
    });
}

export function completionScript(shell: string, specs: readonly Spec[]): string {
  switch (shell) {
    case 'bash':
      return bashScript(specs);
    case 'zsh':
      return zshScript(specs);
    case 'fish':
      return fishScript(specs);
    default:
      throw new UsageError(`completion: unknown shell ${JSON.stringify(shell)} (${SHELLS.join(', ')})`);
  }
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

export function specsOf(program: Command): Spec[] {
  const specs: Spec[] = [];
  const walk = (cmd: Command, path: string) => {
    const subs = cmd.commands;
    const args = cmd.registeredArguments.map((a) => argumentValues(a as Argument));
    specs.push({
      path,
      subcommands: subs.map((c) => ({ name: c.name(), summary: c.summary() || c.description() })),
      options: [
        ...cmd.options
          .filter((o) => !o.hidden)
          .map((o) => ({
            flags: [o.short, o.long].filter((f): f is string => f !== undefined),
            value: o.required || o.optional ? optionValues(o as Option) : undefined,
            summary: o.description,
          })),
        { flags: ['-h', '--help'], value: undefined, summary: 'display help' },
      ],
      operands: {
        words: [...new Set(args.flatMap((a) => a.words))],
        files: args.some((a) => a.files),
        commands: args.some((a) => a.commands),
      },
    });
    for (const sub of subs) walk(sub as unknown as Command, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  return specs;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
const firstLine = (s: string) => (s.split('\n')[0] ?? '').replace(/\s+/g, ' ').slice(0, 100);

/** The bash words that set COMPREPLY to what `v` completes (nothing at all for a number, a URL, ...). */
function bashReply(v: Values): string {
  const parts: string[] = [];
  if (v.words.length > 0) parts.push(`$(compgen -W ${quote(v.words.join(' '))} -- "$cur")`);
  if (v.files) parts.push('$(compgen -f -- "$cur")');
  return `COMPREPLY=(${parts.join(' ')})`;
}

function bashScript(specs: readonly Spec[]): string {
  const byPath = new Map(specs.map((s) => [s.path, s]));
  // A command whose operands are command names (help) completes the names from its parent on.
  const descend = specs
    .flatMap((s) =>
      s.subcommands.map((c) => {
        const to = s.path ? `${s.path} ${c.name}` : c.name;
        const step = byPath.get(to)?.operands.commands
          ? `path=${quote(s.path)}; helpmode=1`
          : `path=${quote(to)}`;
        return `      ${quote(`${s.path}:${c.name}`)}) ${step} ;;`;
      }),
    )
    .join('\n');
  const values = specs
    .flatMap((s) =>
      s.options.flatMap((o) => {
        const v = o.value;
        return v ? o.flags.map((f) => `    ${quote(`${s.path}|${f}`)}) ${bashReply(v)}; return ;;`) : [];
      }),
    )
    .join('\n');
  const words = specs
    .map((s) => {
      const names = s.subcommands.map((c) => c.name);
      const all = [...names, ...s.options.flatMap((o) => o.flags)];
      return `    ${quote(s.path)}) words=${quote(all.join(' '))}; names=${quote(names.join(' '))}; subs=${names.length > 0 ? 1 : 0}; operands=${quote(s.operands.words.join(' '))}; files=${s.operands.files ? 1 : 0} ;;`;
    })
    .join('\n');
  return `# bash completion for atlevel (generated by \`atlevel completion bash\`)
_atlevel() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path='' words='' names='' operands='' files=0 subs=0 helpmode=0 i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "$path:\${COMP_WORDS[i]}" in
${descend}
    esac
  done
  if ((helpmode == 0)); then
    case "$path|$prev" in
${values}
    esac
  fi
  case "$path" in
${words}
  esac
  if ((helpmode)); then
    COMPREPLY=($(compgen -W "$names" -- "$cur"))
  elif [[ $cur == -* || $subs == 1 ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$operands" -- "$cur"))
    if ((files)); then COMPREPLY+=($(compgen -f -- "$cur")); fi
  fi
}
complete -o filenames -F _atlevel atlevel
`;
}

function zshScript(specs: readonly Spec[]): string {
  // zsh runs the bash function through its bash-completion layer: one generator, same behaviour.
  return `#compdef atlevel
# zsh completion for atlevel (generated by \`atlevel completion zsh\`)
autoload -U +X bashcompinit && bashcompinit
${bashScript(specs).replace(/^# bash completion.*\n/, '')}`;
}

function fishScript(specs: readonly Spec[]): string {
  const lines = [
    '# fish completion for atlevel (generated by `atlevel completion fish`)',
    'complete -c atlevel -f',
  ];
  const topNames = specs.find((s) => s.path === '')?.subcommands.map((c) => c.name) ?? [];
  const condition = (path: string): string => {
    if (path === '') return '__fish_use_subcommand';
    const parts = path.split(' ');
    const own = parts.map((p) => `__fish_seen_subcommand_from ${p}`);
    // `diff` is both a command and `release diff`: a top-level command excludes the others.
    if (parts.length === 1) {
      const others = topNames.filter((n) => n !== parts[0]);
      if (others.length) own.push(`not __fish_seen_subcommand_from ${others.join(' ')}`);
    }
    return own.join('; and ');
  };
  for (const s of specs) {
    for (const c of s.subcommands) {
      const extra =
        s.path !== ''
          ? `; and not __fish_seen_subcommand_from ${s.subcommands.map((x) => x.name).join(' ')}`
          : '';
      lines.push(
        `complete -c atlevel -n ${quote(condition(s.path) + extra)} -a ${c.name} -d ${quote(firstLine(c.summary))}`,
      );
    }
    if (s.path === '') continue;
    for (const o of s.options) {
      const short = o.flags.find((f) => /^-[^-]/.test(f));
      const long = o.flags.find((f) => f.startsWith('--'));
      const parts = [`complete -c atlevel -n ${quote(condition(s.path))}`];
      if (short) parts.push(`-s ${short.slice(1)}`);
      if (long) parts.push(`-l ${long.slice(2)}`);
      if (o.value) parts.push(fishValues(o.value));
      parts.push(`-d ${quote(firstLine(o.summary))}`);
      lines.push(parts.join(' '));
    }
    if (s.subcommands.length > 0) continue;
    if (s.operands.commands) {
      // help: the commands, then each group's subcommands once the group is named.
      lines.push(`complete -c atlevel -n ${quote(condition(s.path))} -a ${quote(topNames.join(' '))}`);
      for (const group of specs.filter((g) => g.path !== '' && g.subcommands.length > 0)) {
        const seen = [s.path, ...group.path.split(' ')].map((p) => `__fish_seen_subcommand_from ${p}`);
        lines.push(
          `complete -c atlevel -n ${quote(seen.join('; and '))} -a ${quote(group.subcommands.map((c) => c.name).join(' '))}`,
        );
      }
    } else if (s.operands.words.length > 0 || s.operands.files) {
      const words = s.operands.words.length > 0 ? ` -a ${quote(s.operands.words.join(' '))}` : '';
      lines.push(
        `complete -c atlevel -n ${quote(condition(s.path))}${s.operands.files ? ' -F' : ''}${words}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** fish's flags for an option's value: `-x` takes a value but completes no file names. */
function fishValues(v: Values): string {
  const words = v.words.length > 0 ? ` -a ${quote(v.words.join(' '))}` : '';
  return `${v.files ? '-r -F' : '-x'}${words}`;
}
