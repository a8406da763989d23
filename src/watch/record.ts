/**
 * `watch --record DIR`: what a watch saw, written in the CI layout `analyze` reads (docs/domain.md
 * 7), through the one artifact writer (src/writer/): the last version of every
 * object as gather-extra Lists, and every transition as the monitor's build-log lines and an
 * e2e-events interval file. Written to a hidden sibling folder and renamed into place, so DIR is
 * either complete or absent, whenever the watch stops (Ctrl-C included).
 */
import { readdir } from 'node:fs/promises';
import type { MonitorRecord } from '../artifacts/index.js';
import type { LiveState, RawObject } from '../live/index.js';
import { RESOURCES } from '../live/index.js';
import { InputError, type KnownKind } from '../model/index.js';
import { buildLogText, ciRunFiles, writeRunFolder } from '../writer/index.js';

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
  // Every kind live reads, each as its gather-extra List (model/kinds/ `gatherExtra`).
  const lists: [KnownKind, RawObject[]][] = [];
  for (const { kind } of RESOURCES)
    if (ALWAYS.has(kind) || state.count(kind) > 0) lists.push([kind, byName([...state.all(kind)])]);
  return ciRunFiles({
    target: TARGET,
    start: startedAt,
    lists,
    monitor: { events: records },
    buildLog: buildLogText({ header: [header], monitor: records }),
  });
}

/** Write `files` as DIR, atomically (writer/): DIR is either complete or absent. */
export async function writeRecord(dir: string, files: Map<string, string>): Promise<void> {
  await writeRunFolder(dir, files, { what: 'the record', flag: '--record' });
}
