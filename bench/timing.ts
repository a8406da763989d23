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
 * bench's figures hold for that state, which another node or other V8 flags change. `workers`: also
 * whether a worker thread started then (ingest's pool) takes it, loading dist/bundle/ingest-worker.js.
 */
export function codeCacheState(root: string, { workers = false } = {}): string {
  const base = `file://${root.endsWith('/') ? root : `${root}/`}`;
  const loader = new URL('bin/load-bundle.js', base).href;
  const stub = new URL('dist/bundle/ingest-worker.js', base).href;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { loadUnderCacheFlags } = await import(${JSON.stringify(loader)});
       const state = (rejected) => rejected === undefined || rejected === null ? 'none (compiled from the source)' : rejected ? 'refused by V8 (compiled from the source)' : 'taken';
       let out = state(loadUnderCacheFlags(undefined, { shortRun: true }).cacheRejected);
       if (${workers}) {
         const { Worker } = await import('node:worker_threads');
         const w = new Worker('const m = await import(' + ${JSON.stringify(JSON.stringify(stub))} + '); (await import("node:worker_threads")).parentPort.postMessage(m.cacheRejected ?? null);', { eval: true });
         const rejected = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
         await w.terminate();
         out += '; in a worker thread: ' + state(rejected);
       }
       process.stdout.write(out);`,
    ],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? r.stdout : `unknown (${r.stderr.trim().split('\n')[0] ?? ''})`;
}
