/**
 * A reader that closes the pipe early (`atlevel release diff A B | head -30`) makes stdout fail with
 * EPIPE. coreutils end quietly then; so does atlevel: no stack trace, no message.
 */

export function isClosedPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

let installed = false;

/** Without a listener, the stream's 'error' event would crash the process with a trace. */
export function quietOnClosedPipe(): void {
  if (installed) return;
  installed = true;
  process.stdout.on('error', (err) => {
    // Reports are written in one piece, last: nothing is left to do but end with the command's code.
    if (!isClosedPipe(err)) throw err;
  });
}
