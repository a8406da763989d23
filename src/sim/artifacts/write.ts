/**
 * Writes one recorded run in the CI layout atlevel's sources read, through the one CI layout writer
 * (ci-layout.ts): build-log.txt with the upgrade test's log and the monitor timeline, gather-extra Lists
 * taken at the end of the run, origin's e2e-events/e2e-intervals JSON (4.10 schema), the two releases'
 * info, and the run's ground truth. Every byte follows from the run, so the same seed writes the same
 * files.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  CiRun,
  ciPaths,
  DEFAULT_EPOCH,
  intervalFileNames,
  listJson,
  type MonitorRecord,
  monitorLine,
  rfc3339,
  sortedRecords,
  testLogLine,
} from '../../artifacts/index.js';
import { InputError, onInterrupt } from '../../model/index.js';
import type { MonitorRecord as SimMonitorRecord } from '../recorder.js';
import type { RunResult } from '../run.js';
import { summarize } from '../summary.js';
import {
  type Clock,
  clusterOperatorJson,
  clusterVersionJson,
  eventJson,
  machineConfigJson,
  nodeJson,
  poolJson,
} from './k8s.js';
import { releaseInfo } from './release-info.js';
import { REVISIONS_FILE, revisionsJsonl } from './revisions.js';
import { workloadLists } from './workloads-json.js';

const TARGET = 'e2e-upgrade';
const PATHS = ciPaths(TARGET);
export const GATHER_DIR = PATHS.gather;
export const JUNIT_DIR = PATHS.junit;
export const GROUND_TRUTH = 'atlevel-simulation.json';

/** Every file of a run, path (relative to the run folder) → content. */
export function renderArtifacts(run: RunResult, epoch = DEFAULT_EPOCH): Map<string, string> {
  const rec = run.rec;
  if (!rec) throw new Error('renderArtifacts needs a run made with { record: true }');
  const clock: Clock = { epoch, end: run.endAt };
  const store = run.store;
  const out = new CiRun(TARGET)
    .gatherList(
      'ClusterVersion',
      [...store.list('ClusterVersion')].map((o) => clusterVersionJson(clock, o)),
    )
    .gatherList(
      'ClusterOperator',
      byName([...store.list('ClusterOperator')]).map((o) => clusterOperatorJson(clock, o)),
    )
    .gatherList(
      'MachineConfigPool',
      byName([...store.list('MachineConfigPool')]).map((o) => poolJson(clock, o)),
    )
    .gatherList(
      'MachineConfig',
      byName([...store.list('MachineConfig')]).map((o) => machineConfigJson(clock, o)),
    )
    .gatherList(
      'Node',
      byName([...store.list('Node')]).map((o, i) => nodeJson(clock, o, i)),
    )
    .gatherList('Event', rec.events.map((e, i) => eventJson(clock, e, i)).sort(compareEvents));
  // Every operator's Deployment and the scenario's operands, as gather-extra lists them at the end.
  const workloads = workloadLists(clock, run.workloads.all);
  out
    .gatherList('Deployment', workloads.deployments)
    .gatherList('DaemonSet', workloads.daemonSets)
    .gatherList('Pod', workloads.pods)
    .add(`${GATHER_DIR}/replicasets.json`, listJson(workloads.replicaSets));

  // The recorder's times are virtual (ms since the run's start); the artifacts carry wall-clock times.
  const wall = (m: SimMonitorRecord): MonitorRecord => ({ ...m, from: epoch + m.from, to: epoch + m.to });
  const instants = rec.monitor.map(wall);
  const intervals = rec.derivedIntervals(run.endAt).map(wall);
  const names = intervalFileNames(epoch);
  out.intervals(names.events, [...instants, ...intervals]);
  out.intervals(
    names.intervals,
    intervals.filter((m) => m.to !== m.from),
  );
  out.buildLog(buildLog(run, epoch, [...instants, ...intervals]));
  out.release('from', releaseInfo(run.from, epoch - 30 * 3600_000));
  out.release('to', releaseInfo(run.to, epoch - 3 * 3600_000));
  out.add(REVISIONS_FILE, revisionsJsonl(run, epoch));
  out.add(
    GROUND_TRUTH,
    `${JSON.stringify(
      {
        kind: 'AtlevelSimulation',
        note: 'A simulated CI run written by `atlevel simulate`; not from a real cluster.',
        scenario: run.scenario.name,
        policy: run.policy,
        seed: run.seed,
        epoch: new Date(epoch).toISOString(),
        summary: summarize(run, epoch),
      },
      null,
      4,
    )}\n`,
  );
  return out.files;
}

function byName<T extends { meta: { name: string } }>(items: T[]): T[] {
  return items.sort((a, b) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0));
}

function compareEvents(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ma = a.metadata as { namespace: string; name: string };
  const mb = b.metadata as { namespace: string; name: string };
  if (ma.namespace !== mb.namespace) return ma.namespace < mb.namespace ? -1 : 1;
  return ma.name < mb.name ? -1 : ma.name > mb.name ? 1 : 0;
}

/**
 * The test step's part of a CI build log, laid out as openshift-tests prints it: the upgrade test's
 * log lines (docs/domain.md 6), its result, then the monitor timeline (docs/domain.md 7.1, 7.2).
 */
function buildLog(run: RunResult, epoch: number, monitor: readonly MonitorRecord[]): string {
  const rec = run.rec as NonNullable<RunResult['rec']>;
  const test =
    '[sig-arch][Feature:ClusterUpgrade] Cluster should remain functional during upgrade [Disruptive] [Serial]';
  const minutes = Math.round(run.endAt / 60_000);
  const failure = run.facts.testFailure;
  const lines = [
    `INFO[${rfc3339(epoch)}] atlevel simulate: simulated CI run (not a real cluster): scenario ${run.scenario.name}, policy ${run.policy}, seed ${run.seed}`,
    `INFO[${rfc3339(epoch)}] Running step ${TARGET}-openshift-e2e-test.`,
    `started: (0/1/1) "${test}"`,
    '',
    ...rec.testLog.map((t) => testLogLine(epoch + t.at, t.text)),
  ];
  if (failure !== undefined) {
    lines.push(
      `fail [github.com/openshift/origin/test/e2e/upgrade/upgrade.go:160]: during upgrade to ${run.to.image}`,
      'Unexpected error:',
      '    <*errors.errorString | 0xc0027f5d80>: {',
      `        s: ${JSON.stringify(failure)},`,
      '    }',
      `    ${failure}`,
      'occurred',
      '',
      `failed: (${minutes}m) "${test}"`,
    );
  } else {
    lines.push('', `passed: (${minutes}m) "${test}"`);
  }
  lines.push('', 'Timeline:', '', ...sortedRecords(monitor).map(monitorLine), '');
  lines.push(
    `INFO[${rfc3339(epoch + run.endAt)}] Step ${TARGET}-openshift-e2e-test ${failure !== undefined ? 'failed' : 'succeeded'}.`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Write `files` as the folder `dir`. The folder is built beside it under a temporary name and renamed
 * into place once complete, so a failure (or an interrupt) never leaves half a run where a reader
 * would take it for a whole one. `dir` may be absent or an empty folder; anything else is refused
 * rather than merged into or replaced; its parent folder must exist.
 */
export async function writeArtifacts(dir: string, files: Map<string, string>): Promise<string[]> {
  const target = resolve(dir);
  await checkArtifactsTarget(dir, target);
  const parent = dirname(target);
  const tmp = join(parent, `.${basename(target)}.${randomBytes(6).toString('hex')}.atlevel.tmp`);
  const stop = onInterrupt(() => rmSync(tmp, { recursive: true, force: true }));
  const written: string[] = [];
  try {
    try {
      // The parent must exist, as --out's folder must: a typo in the path is refused, not made into folders.
      await mkdir(tmp);
    } catch (err) {
      throw cannotWrite(dir, err);
    }
    for (const [rel, content] of files) {
      const path = join(tmp, rel);
      try {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, content, { flag: 'wx' });
      } catch (err) {
        throw cannotWrite(join(dir, rel), err);
      }
      written.push(join(dir, rel));
    }
    try {
      // rename(2) replaces an empty folder and refuses a non-empty one (ENOTEMPTY/EEXIST).
      await rename(tmp, target);
    } catch (err) {
      throw cannotWrite(dir, err);
    }
    return written;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  } finally {
    stop();
  }
}

function cannotWrite(path: string, err: unknown): InputError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  const full = code === 'ENOTEMPTY' || code === 'EEXIST';
  if (code === 'ENOENT') {
    return new InputError(
      path,
      'cannot write the simulated run: the folder it goes in does not exist',
      'create that folder first (--artifacts makes only the run folder itself)',
    );
  }
  return new InputError(
    path,
    full ? 'the artifacts folder is not empty' : `cannot write the simulated run (${code})`,
    full ? 'name a new or empty folder' : 'check that --artifacts names a writable folder',
  );
}

/** The target of a run's folder: absent, or an empty folder (never a file, link or device). */
async function checkArtifactsTarget(dir: string, target: string): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(target);
  } catch {
    return;
  }
  if (!info.isDirectory()) {
    throw new InputError(dir, 'is not a folder', 'name a new or empty folder for the simulated run');
  }
  if ((await readdir(target)).length > 0) {
    throw new InputError(dir, 'the artifacts folder is not empty', 'name a new or empty folder');
  }
}
