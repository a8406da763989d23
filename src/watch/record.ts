/**
 * `watch --record DIR`: what a watch saw, written in the CI layout `analyze` reads (docs/domain.md
 * 7), through the one CI layout writer (src/artifacts/ci-layout.ts): the last version of every
 * object as gather-extra Lists, and every transition as the monitor's build-log lines and an
 * e2e-events interval file. Written to a hidden sibling folder and renamed into place, so DIR is
 * either complete or absent, whenever the watch stops (Ctrl-C included).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  CiRun,
  intervalFileNames,
  type MonitorRecord,
  monitorLine,
  sortedRecords,
} from '../artifacts/index.js';
import type { LiveState, RawObject } from '../live/index.js';
import { RESOURCES } from '../live/index.js';
import { InputError } from '../model/index.js';

const TARGET = 'atlevel-watch';
/** Written even when empty, as every CI run's gather-extra holds them; other kinds' Lists only when they hold objects. */
const ALWAYS: ReadonlySet<string> = new Set([
  'ClusterVersion',
  'ClusterOperator',
  'MachineConfigPool',
  'MachineConfig',
  'Node',
  'Event',
]);

/** Refuse at the start, not at the end, a DIR that holds something (nothing is ever overwritten). */
export async function checkRecordDir(dir: string): Promise<void> {
  try {
    const entries = await readdir(dir);
    if (entries.length > 0) {
      throw new InputError(
        dir,
        '--record folder exists and is not empty',
        'give a new folder; nothing is overwritten',
      );
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new InputError(
        dir,
        `cannot use as --record folder (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
}

function byName(items: RawObject[]): RawObject[] {
  const key = (o: RawObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  return items.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export function renderRecord(
  state: LiveState,
  records: readonly MonitorRecord[],
  startedAt: number,
  header: string,
): Map<string, string> {
  const run = new CiRun(TARGET);
  // Every kind live reads, each as its gather-extra List (model/kinds/ `gatherExtra`).
  for (const { kind } of RESOURCES)
    if (ALWAYS.has(kind) || state.count(kind) > 0) run.gatherList(kind, byName([...state.all(kind)]));
  const sorted = sortedRecords(records);
  const names = intervalFileNames(startedAt);
  run.intervals(names.events, sorted);
  run.buildLog(`${header}\n\nTimeline:\n\n${sorted.map(monitorLine).join('\n')}\n`);
  return run.files;
}

/** Write `files` as DIR, atomically: a hidden sibling folder first, then one rename. */
export async function writeRecord(dir: string, files: Map<string, string>): Promise<void> {
  const tmp = join(dirname(dir), `.${basename(dir)}.${randomBytes(4).toString('hex')}.partial`);
  try {
    for (const [rel, text] of files) {
      const path = join(tmp, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    }
    // An empty DIR made by the user is replaced; a non-empty one was refused at the start.
    await rmdir(dir).catch(() => undefined);
    await rename(tmp, dir);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    throw new InputError(
      dir,
      `cannot write the record (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      'check that the folder is writable',
    );
  }
}
