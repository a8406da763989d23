/** Words shared by every layer that writes a sentence for people: notes, errors and reports. */

/** `1 file`, `2 files`; `plural(1, 'entry', 'entries')` for the irregular ones. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * How errors, notes and reports name standard input (`-`): in parentheses, as no file name is, so it
 * is never taken for a file called `stdin`.
 */
export const STDIN_NAME = '(stdin)';

/**
 * A file's name as it goes inside parentheses, `(file)` or `(file, 23 components)`: standard input's
 * name brings its own pair, so it shows as `(stdin)`, never `((stdin))`.
 */
export function withinParentheses(name: string): string {
  return name === STDIN_NAME ? 'stdin' : name;
}
