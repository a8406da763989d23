/** Words shared by every layer that writes a sentence for people: notes, errors and reports. */

/** `1 file`, `2 files`; `plural(1, 'entry', 'entries')` for the irregular ones. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
