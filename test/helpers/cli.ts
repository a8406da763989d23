/**
 * The CLI run in-process, as the command tests use it: stderr captured, colour off, the report
 * written with `--out` to a temporary file and read back (so a failed run is seen to write nothing).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export interface InProcessCli {
  /** A temporary folder for the test file's own inputs; removed after the file's tests. */
  readonly dir: string;
  run(...args: string[]): Promise<{ code: number; out: string }>;
  /** What the current test wrote to stderr. */
  stderr(): string;
  /** Forget what was written to stderr so far (several runs in one test). */
  clearStderr(): void;
}

/**
 * Call at the top level of a test file: it registers the hooks that capture stderr. `command` is put
 * before every run's arguments (e.g. `['status']`).
 */
export function inProcessCli(name: string, command: readonly string[] = []): InProcessCli {
  const dir = mkdtempSync(join(tmpdir(), `atlevel-${name}-`));
  let n = 0;
  let stderr = '';
  beforeEach(() => {
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    process.env.NO_COLOR = '1';
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    stderr: () => stderr,
    clearStderr: () => {
      stderr = '';
    },
    async run(...args) {
      const out = join(dir, `out-${n++}`);
      const code = await main([...command, ...args, '--out', out]);
      let text = '';
      try {
        text = readFileSync(out, 'utf8');
      } catch {
        // Nothing written: the run failed before its report.
      }
      return { code, out: text };
    },
  };
}
