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

/**
 * Whole-process wall and CPU time with millisecond resolution (bash's `time`; /usr/bin/time counts
 * in hundredths, too coarse for a process that lives 50 ms). Output is discarded.
 */
export function timedMs(args: string[]): Omit<Sample, 'maxRssMb'> {
  const r = spawnSync(
    'bash',
    ['-c', `TIMEFORMAT='%3R %3U %3S'; time "$@" >/dev/null 2>&1`, 'bash', ...args],
    { encoding: 'utf8' },
  );
  const [secs, user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  if (secs === undefined || user === undefined || sys === undefined || Number.isNaN(secs + user + sys))
    throw new Error(`could not time ${args.join(' ')}: ${r.stderr}`);
  return { seconds: secs, cpu: user + sys };
}

/**
 * Whether bin/atlevel.js compiles the bundled CLI with the build's code cache (bin/load-bundle.js): a
 * bench's figures hold for that state, which another node or other V8 flags change.
 */
export function codeCacheState(root: string): string {
  const loader = new URL('bin/load-bundle.js', `file://${root.endsWith('/') ? root : `${root}/`}`).href;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { loadBundle } = await import(${JSON.stringify(loader)});
       const { cacheRejected } = loadBundle();
       process.stdout.write(cacheRejected === undefined ? 'none (compiled from the source)' : cacheRejected ? 'refused by V8 (compiled from the source)' : 'taken');`,
    ],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? r.stdout : `unknown (${r.stderr.trim().split('\n')[0] ?? ''})`;
}
