/**
 * The CLI run in-process, as the command tests use it: stderr captured, colour off, the report
 * written with `--out` to a temporary file and read back (so a failed run is seen to write nothing).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect, vi } from 'vitest';
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

/**
 * The CLI run in-process with its stdout and stderr captured, for a test of what a command answers
 * that is not about the process: a child process of the built CLI costs about 0.3 s of CPU to start,
 * and the tests of a process's exit, pipes and standard input spawn one (test/helpers/spawn-cli.ts).
 */
export async function atlevelInProcess(
  ...args: string[]
): Promise<{ status: number; stdout: string; stderr: string }> {
  const text = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      text[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }) as typeof process.stdout.write;
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture('stdout'));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture('stderr'));
  const noColor = process.env.NO_COLOR;
  process.env.NO_COLOR = '1';
  try {
    const status = await main(args);
    return { status, ...text };
  } finally {
    out.mockRestore();
    err.mockRestore();
    if (noColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = noColor;
  }
}

/** As expectUsageError (test/helpers/spawn-cli.ts), in-process: exit 2, no stdout, one `atlevel: ` line. */
export async function expectUsageErrorInProcess(args: string[], message: RegExp): Promise<void> {
  const r = await atlevelInProcess(...args);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toEqual([expect.stringMatching(/^atlevel: /)]);
  expect(lines[0]).toMatch(message);
}
