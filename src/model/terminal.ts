/**
 * The one sanitiser for strings from an input on their way to a terminal, stdout and stderr alike.
 * File names inside archives, folder names, MachineConfig names and Ignition paths are chosen by
 * whoever made the input; an ESC (CSI, OSC), a C1 control such as U+009B (a one-byte CSI on some
 * terminals) or a bidirectional override in one of them could retitle the window, hide text, rewrite
 * earlier lines or make a printed path read differently from the real one. Each such character
 * becomes `?`; tabs and newlines are kept (callers that need one line fold newlines themselves).
 */

// C0 controls except tab and newline, DEL, C1 controls, and the bidirectional embedding, override and
// isolate controls (U+202A-202E, U+2066-2069), which reorder what is shown without being seen.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `s` with every terminal control character replaced by `?`. */
export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, '?');
}

/** What JSON.stringify leaves raw that a terminal acts on: DEL, C1 controls, bidirectional controls. */
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` as indented JSON that is safe to print: JSON.stringify escapes C0 controls but leaves DEL,
 * the C1 controls and the bidirectional controls raw, and they only ever sit inside strings, where a
 * `\uXXXX` escape is the same JSON value. Nothing is lost, unlike terminalSafe's `?`.
 */
export function safeJson(value: unknown): string {
  return `${escapeInQuotes(JSON.stringify(value, null, 2))}\n`;
}

/**
 * `s` with each character safeJson escapes (DEL, C1, bidirectional controls) written as `\uXXXX`: for
 * text whose every such character sits inside a quoted string that takes that escape (JSON, YAML's
 * double-quoted scalars: report/yaml.ts).
 */
export function escapeInQuotes(s: string): string {
  return s.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether `s` holds a character escapeInQuotes would escape. */
export function needsEscapeInQuotes(s: string): boolean {
  return escapeInQuotes(s) !== s;
}
