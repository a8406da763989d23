/**
 * A reader that closes the pipe early (`atlevel release diff A B | head -30`) makes stdout fail with
 * EPIPE. coreutils end quietly then; so does atlevel: no stack trace, no message. A terminal that was
 * closed (`watch` stopping on SIGHUP) fails writes to it with EIO: nobody is left to read either.
 */

export function isClosedPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

/**
 * EIO on a write to stdout or stderr: the terminal hung up. Only for errors of those two streams; an
 * EIO reading an input is a failed read, never a quiet end.
 */
function isHungUpTerminal(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EIO';
}

let installed = false;

/** Without a listener, the stream's 'error' event would crash the process with a trace. */
export function quietOnClosedPipe(): void {
  if (installed) return;
  installed = true;
  // Reports are written in one piece, last: nothing is left to do but end with the command's code.
  const quiet = (err: unknown) => {
    if (!isClosedPipe(err) && !isHungUpTerminal(err)) throw err;
  };
  process.stdout.on('error', quiet);
  process.stderr.on('error', quiet);
}
