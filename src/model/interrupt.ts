/**
 * Clean-up when the user interrupts a write: a half-written file or folder must not outlive the process
 * (docs/limits.md, "--out"). The process then ends by the same signal, so the shell sees the usual
 * 130/143.
 */

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Run `cleanup` if SIGINT, SIGTERM or SIGHUP arrives; returns the function that stops watching. */
export function onInterrupt(cleanup: () => void): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    try {
      cleanup();
    } catch {
      // nothing left to clean, or it could not be: the signal still ends the process
    }
    stop();
    process.kill(process.pid, signal);
  };
  const stop = (): void => {
    for (const s of SIGNALS) process.off(s, handler);
  };
  for (const s of SIGNALS) process.on(s, handler);
  return stop;
}
