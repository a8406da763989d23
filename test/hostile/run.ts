/**
 * Run bin/atlevel.js as a child process and measure what a hostile input costs it: exit code or
 * signal, wall time, and peak resident memory (VmHWM from /proc/<pid>/status, polled while it runs
 * and read once more when it exits). A child that runs past its time limit is killed, so a hang shows
 * as a failed bound rather than a stuck suite.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/atlevel.js', import.meta.url));

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak resident set size in MiB (0 when /proc is not available). */
  readonly peakMiB: number;
  readonly ms: number;
  readonly timedOut: boolean;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Send this signal once stderr or stdout has printed this text (for the SIGINT cases). */
  readonly signalOn?: { readonly text: string; readonly signal: NodeJS.Signals };
  /** Send this signal this long after the start (a long-running command: watch). */
  readonly signalAfter?: { readonly ms: number; readonly signal: NodeJS.Signals };
  readonly input?: string;
}

function vmHwmKiB(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const CAP = 64 * 1024;

export function runCli(args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? process.cwd(),
    env: { ...process.env, NO_COLOR: '1', ATLEVEL_DEBUG: '', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let peak = 0;
  let timedOut = false;
  const poll = setInterval(() => {
    if (child.pid !== undefined) peak = Math.max(peak, vmHwmKiB(child.pid));
  }, 25);
  const killer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, opts.timeoutMs ?? 60_000);
  const signaller = opts.signalAfter
    ? setTimeout(() => child.kill(opts.signalAfter?.signal), opts.signalAfter.ms)
    : undefined;
  const watch = (chunk: Buffer, into: 'out' | 'err') => {
    const s = chunk.toString('utf8');
    if (into === 'out' && stdout.length < CAP) stdout += s;
    if (into === 'err' && stderr.length < CAP) stderr += s;
    if (opts.signalOn && (stdout + stderr).includes(opts.signalOn.text)) child.kill(opts.signalOn.signal);
  };
  child.stdout.on('data', (c: Buffer) => watch(c, 'out'));
  child.stderr.on('data', (c: Buffer) => watch(c, 'err'));
  child.stdin.end(opts.input ?? '');
  return new Promise((resolve) => {
    // 'exit' comes while /proc/<pid> still exists (until reaped), so read VmHWM once more there.
    child.on('exit', () => {
      if (child.pid !== undefined) peak = Math.max(peak, vmHwmKiB(child.pid));
    });
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(killer);
      clearTimeout(signaller);
      resolve({
        code,
        signal,
        stdout,
        stderr,
        peakMiB: Math.round(peak / 1024),
        ms: Math.round(performance.now() - started),
        timedOut,
      });
    });
  });
}

/** What every hostile run must satisfy, whatever its exit code. */
export function problems(r: RunResult, allowed: readonly number[] = [0, 1, 2, 4]): string[] {
  const out: string[] = [];
  if (r.timedOut) out.push(`timed out after ${r.ms} ms`);
  if (r.signal) out.push(`killed by ${r.signal}`);
  if (r.code === null || !allowed.includes(r.code))
    out.push(`exit ${r.code}, wanted one of ${allowed.join('/')}`);
  if (/\n\s+at .+:\d+:\d+\)?\n/.test(r.stderr) || /^\s+at /m.test(r.stderr))
    out.push('stack trace on stderr');
  if (r.stderr.includes('internal error')) out.push('internal error on stderr');
  // Any ESC/CSI/OSC byte on stderr means an input string reached the terminal raw.
  if (/[\u001b\u009b\u009d\u0007]/.test(r.stderr)) out.push('control bytes on stderr');
  if (r.peakMiB > 1024) out.push(`peak RSS ${r.peakMiB} MiB, over 1 GiB`);
  return out;
}
