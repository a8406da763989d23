/**
 * The CLI run in-process (`main([...])`) with both streams read, as the simulate tests use it: the
 * report on stdout, notes and one-line errors on stderr. Call at the top level of a test file (or of a
 * describe block): it registers the hook that restores the streams after each test.
 */
import { afterEach, vi } from 'vitest';

export interface Stdio {
  /** Start capturing both streams afresh; they stay captured until `vi.restoreAllMocks()` or the test ends. */
  capture(): void;
  /** What was written to stdout since the last `capture()`. */
  readonly out: string;
  /** What was written to stderr since the last `capture()`. */
  readonly err: string;
}

export function capturedStdio(): Stdio {
  let out = '';
  let err = '';
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return {
    capture() {
      out = '';
      err = '';
      vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, cb?: unknown) => {
        out += String(chunk);
        if (typeof cb === 'function') (cb as () => void)();
        return true;
      }) as typeof process.stdout.write);
      vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array) => {
        err += String(chunk);
        return true;
      }) as typeof process.stderr.write);
    },
    get out() {
      return out;
    },
    get err() {
      return err;
    },
  };
}
