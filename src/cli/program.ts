/**
 * The name atlevel was run by. kubectl and oc run a plugin as `kubectl-atlevel` / `oc-atlevel` (bin/)
 * with the words after `atlevel`, and the user typed `kubectl atlevel ...`: help and error hints then
 * name the command as typed, so that what they suggest can be pasted back.
 */
import { basename } from 'node:path';
import { COMMANDS } from './commands.js';

const PLUGINS: Readonly<Record<string, string>> = {
  'kubectl-atlevel': 'kubectl atlevel',
  'oc-atlevel': 'oc atlevel',
};

/** `kubectl atlevel`, `oc atlevel` or `atlevel`, from the file the process was started as. */
export function programName(script: string | undefined = process.argv[1]): string {
  const name = script === undefined ? '' : basename(script);
  return Object.hasOwn(PLUGINS, name) ? (PLUGINS[name] as string) : 'atlevel';
}

/**
 * Where a text names the command line (`atlevel status ...`, `Usage: atlevel [options]`, `run atlevel
 * --help`): `atlevel` followed by a command, an option or `[`. Prose about atlevel ("atlevel never
 * overwrites its inputs") and names like `atlevel-report.html` are left alone.
 */
const INVOCATION = new RegExp(
  `(?<![\\w./-]|kubectl |oc )atlevel(?= (?:(?:${[...Object.keys(COMMANDS), 'help'].join('|')})(?![\\w-])|\\[|-))`,
  'g',
);

/** `text` with each command line it shows written as the user runs atlevel (a no-op as plain atlevel). */
export function asInvoked(text: string, name = programName()): string {
  return name === 'atlevel' ? text : text.replace(INVOCATION, name);
}
