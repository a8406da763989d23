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
