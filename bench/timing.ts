/** Whole-process timing for the benches: wall, CPU (children included) and peak memory. */
import { spawnSync } from 'node:child_process';

export interface Sample {
  seconds: number;
  /** User + system CPU seconds, children included: steadier than wall time on a busy machine. */
  cpu: number;
  maxRssMb: number;
}

export function timed(args: string[]): Sample {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const [secs, user, sys, kb] = last.split(' ').map(Number);
  if (
    secs === undefined ||
    user === undefined ||
    sys === undefined ||
    kb === undefined ||
    Number.isNaN(secs)
  ) {
    throw new Error(`could not time ${args.join(' ')}: ${r.stderr}`);
  }
  return { seconds: secs, cpu: user + sys, maxRssMb: kb / 1024 };
}

export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
