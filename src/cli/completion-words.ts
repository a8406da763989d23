/**
 * The completer kubectl runs for the plugin. kubectl (1.26 and later, kubernetes PR 105867) completes
 * `kubectl atlevel <words> <TAB>` by running `kubectl_complete-atlevel` from PATH with the words after
 * `atlevel` and the word being completed last ("" when a new word starts), and reads its answer as
 * cobra's `__complete` prints one: a candidate per line (`value<TAB>description`), then
 * `:<directive>`, the ShellCompDirective that says whether the shell may complete file names when no
 * candidate fits. bin/kubectl_complete-atlevel runs `atlevel __complete <words>`, which main hands to
 * this module, as it does nothing else: the hidden command is no commander command, so neither the
 * help nor the docs show it.
 *
 * What completes comes from the same specs as `atlevel completion bash` (completion-spec.ts). Nothing
 * is ever written to stderr: kubectl passes it to the terminal, in the middle of the line being typed.
 */
import { firstLine, type Spec, type Values } from './completion-spec.js';

/** cobra's ShellCompDirective bits (spf13/cobra completions.go), as many as atlevel uses. */
export const DIRECTIVE = {
  /** The shell may complete file names when no candidate matches. */
  default: 0,
  /** Something went wrong: the shell completes nothing. */
  error: 1,
  /** No file names: only the candidates, if any. */
  noFiles: 4,
} as const;

type Directive = (typeof DIRECTIVE)[keyof typeof DIRECTIVE];

interface Candidate {
  readonly value: string;
  readonly description: string;
}

export interface Completion {
  readonly candidates: readonly Candidate[];
  readonly directive: Directive;
}

type Flag = Spec['options'][number];

const NONE: Completion = { candidates: [], directive: DIRECTIVE.noFiles };

/** `-` alone is an operand (stdin), as commander reads it. */
const isFlag = (word: string) => word.startsWith('-') && word !== '-';

function flagOf(spec: Spec, word: string): Flag | undefined {
  return spec.options.find((o) => o.flags.includes(word));
}

/** `values` that start with `prefix`, each written `before + value`. */
function matching(values: readonly string[], prefix: string, before = '', description = ''): Candidate[] {
  return values.filter((v) => v.startsWith(prefix)).map((v) => ({ value: before + v, description }));
}

/**
 * A value's candidates. A path leaves them to the shell (directive 0: its own file names); words
 * only, or a value that is neither (a number, a URL), forbid file names, which would be wrong there.
 */
function valuesOf(v: Values, prefix: string, before = ''): Completion {
  return {
    candidates: matching(v.words, prefix, before),
    directive: v.files ? DIRECTIVE.default : DIRECTIVE.noFiles,
  };
}

/**
 * What `words` complete to: the words after `atlevel`, the last being the one completed (`''` when a
 * new word starts). `specs` are those of specsOf, parents first. Never throws for any words.
 */
export function completeWords(specs: readonly Spec[], words: readonly string[]): Completion {
  const byPath = new Map(specs.map((s) => [s.path, s]));
  let spec = byPath.get('');
  if (!spec) return NONE;
  const before = words.slice(0, -1);
  const current = words.at(-1) ?? '';
  /** Under `help`, the command whose subcommand names come next. */
  let named: Spec | undefined;
  /** The flag whose value comes next (a variadic one's: may come next). */
  let pending: Flag | undefined;
  let operands = 0;
  let flagsEnded = false;

  for (const word of before) {
    if (pending && !(pending.variadic && isFlag(word))) {
      // A variadic flag's values run up to the next flag, as commander reads them.
      if (!pending.variadic) pending = undefined;
      continue;
    }
    pending = undefined;
    if (!flagsEnded && word === '--') {
      flagsEnded = true;
      continue;
    }
    if (!flagsEnded && isFlag(word)) {
      // `--flag=value` and `-ovalue` carry their value; `--flag value` and `-o value` take the next word.
      if (word.startsWith('--') && word.includes('=')) continue;
      const flag = flagOf(spec, word.startsWith('--') ? word : word.slice(0, 2));
      if (flag?.value && (word.startsWith('--') || word.length === 2)) pending = flag;
      continue;
    }
    if (named) {
      const sub = named.subcommands.find((c) => c.name === word);
      named = sub ? byPath.get(named.path ? `${named.path} ${word}` : word) : undefined;
      if (!named) return NONE;
      continue;
    }
    if (spec.subcommands.length > 0 && !flagsEnded) {
      if (!spec.subcommands.some((c) => c.name === word)) return NONE;
      const parent: Spec = spec;
      spec = byPath.get(parent.path ? `${parent.path} ${word}` : word);
      if (!spec) return NONE;
      // A command whose operands are command names (help) names them from its parent on.
      if (spec.operands.commands) named = parent;
      continue;
    }
    operands++;
  }

  if (pending?.value && !(pending.variadic && isFlag(current))) return valuesOf(pending.value, current);
  if (!flagsEnded && current.startsWith('-')) return flagsOf(spec, current);
  if (named) return subcommandsOf(named, current);
  if (spec.subcommands.length > 0 && !flagsEnded) return subcommandsOf(spec, current);
  if (operands >= spec.maxOperands) return NONE;
  return valuesOf(spec.operands, current);
}

/** A command's subcommands, each with its summary. */
function subcommandsOf(spec: Spec, prefix: string): Completion {
  return {
    candidates: spec.subcommands
      .filter((c) => c.name.startsWith(prefix))
      .map((c) => ({ value: c.name, description: firstLine(c.summary) })),
    directive: DIRECTIVE.noFiles,
  };
}

/** The word being completed starts with `-`: a flag, or a flag's value after `=` or a short flag. */
function flagsOf(spec: Spec, current: string): Completion {
  const eq = current.indexOf('=');
  if (current.startsWith('--') && eq > 0) {
    const flag = flagOf(spec, current.slice(0, eq));
    if (!flag?.value) return NONE;
    return valuesOf(flag.value, current.slice(eq + 1), current.slice(0, eq + 1));
  }
  const candidates = spec.options.flatMap((o) => matching(o.flags, current, '', firstLine(o.summary)));
  // `-ojs`: a short flag with its value attached, when no flag is spelled so.
  if (candidates.length === 0 && /^-[^-]/.test(current) && current.length > 2) {
    const flag = flagOf(spec, current.slice(0, 2));
    if (flag?.value) return valuesOf(flag.value, current.slice(2), current.slice(0, 2));
  }
  return { candidates, directive: DIRECTIVE.noFiles };
}

/** The completion as cobra's `__complete` prints it: a line per candidate, then `:<directive>`. */
export function cobraLines(completion: Completion): string {
  const lines = completion.candidates.map((c) => (c.description ? `${c.value}\t${c.description}` : c.value));
  return `${[...lines, `:${completion.directive}`].join('\n')}\n`;
}
