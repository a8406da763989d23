/**
 * Writes one recorded run in the CI layout atlevel's sources read (docs/architecture.md, docs/domain.md 7.3, 7.4,
 * 8.4): build-log.txt with monitor lines and the upgrade test's log, gather-extra Lists taken at the
 * end of the run, origin's e2e-events/e2e-intervals JSON (4.10 schema), the two releases' info, and
 * the run's ground truth. Every byte follows from the run, so the same seed writes the same files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputError } from '../../model/errors.js';
import type { MonitorRecord } from '../recorder.js';
import type { RunResult } from '../run.js';
import { summarize } from '../summary.js';
import {
  type Clock,
  clusterOperatorJson,
  clusterVersionJson,
  eventJson,
  list,
  machineConfigJson,
  nodeJson,
  poolJson,
} from './k8s.js';
import { releaseInfoJson } from './release-info.js';
import { DEFAULT_EPOCH, fileStamp, logfStamp, monitorDuration, monitorStamp, rfc3339 } from './timefmt.js';

export const GATHER_DIR = 'artifacts/e2e-upgrade/gather-extra/artifacts';
export const JUNIT_DIR = 'artifacts/e2e-upgrade/openshift-e2e-test/artifacts/junit';
export const GROUND_TRUTH = 'atlevel-simulation.json';

/** Every file of a run, path (relative to the run folder) → content. */
export function renderArtifacts(run: RunResult, epoch = DEFAULT_EPOCH): Map<string, string> {
  const rec = run.rec;
  if (!rec) throw new Error('renderArtifacts needs a run made with { record: true }');
  const clock: Clock = { epoch, end: run.endAt };
  const files = new Map<string, string>();
  const store = run.store;
  const oc = (value: unknown): string => `${JSON.stringify(value, null, 4)}\n`;

  files.set(
    `${GATHER_DIR}/clusterversion.json`,
    oc(list([...store.list('ClusterVersion')].map((o) => clusterVersionJson(clock, o)))),
  );
  files.set(
    `${GATHER_DIR}/clusteroperators.json`,
    oc(list(byName([...store.list('ClusterOperator')]).map((o) => clusterOperatorJson(clock, o)))),
  );
  files.set(
    `${GATHER_DIR}/machineconfigpools.json`,
    oc(list(byName([...store.list('MachineConfigPool')]).map((o) => poolJson(clock, o)))),
  );
  files.set(
    `${GATHER_DIR}/machineconfigs.json`,
    oc(list(byName([...store.list('MachineConfig')]).map((o) => machineConfigJson(clock, o)))),
  );
  files.set(
    `${GATHER_DIR}/nodes.json`,
    oc(list(byName([...store.list('Node')]).map((o, i) => nodeJson(clock, o, i)))),
  );
  const events = rec.events.map((e, i) => eventJson(clock, e, i));
  events.sort((a, b) => compareEvents(a, b));
  files.set(`${GATHER_DIR}/events.json`, oc(list(events)));

  const instants = rec.monitor;
  const intervals = rec.derivedIntervals(run.endAt);
  const stamp = fileStamp(epoch);
  const e2e = (items: MonitorRecord[]): string => {
    const sorted = [...items].sort(
      (a, b) => a.from - b.from || (a.locator < b.locator ? -1 : a.locator > b.locator ? 1 : 0),
    );
    const json = sorted.map((m) => ({
      level: m.level,
      locator: m.locator,
      message: m.message,
      from: rfc3339(epoch + m.from),
      to: rfc3339(epoch + m.to),
    }));
    return `${JSON.stringify({ items: json }, null, 4)}\n`;
  };
  files.set(`${JUNIT_DIR}/e2e-events_${stamp}.json`, e2e([...instants, ...intervals]));
  files.set(`${JUNIT_DIR}/e2e-intervals_${stamp}.json`, e2e(intervals.filter((m) => m.to !== m.from)));

  files.set('build-log.txt', buildLog(run, epoch, intervals));
  files.set('release/release-from.json', oc(releaseInfoJson(run.from, epoch - 30 * 3600_000)));
  files.set('release/release-to.json', oc(releaseInfoJson(run.to, epoch - 3 * 3600_000)));
  files.set(
    GROUND_TRUTH,
    oc({
      kind: 'AtlevelSimulation',
      note: 'A simulated CI run written by `atlevel simulate`; not from a real cluster.',
      scenario: run.scenario.name,
      policy: run.policy,
      seed: run.seed,
      epoch: new Date(epoch).toISOString(),
      summary: summarize(run, epoch),
    }),
  );
  return files;
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

function levelLetter(level: MonitorRecord['level']): string {
  return level[0] as string;
}

/** The test output part of a CI build log: monitor lines (docs/domain.md 7.1, 7.2) and the test's Logf lines. */
function buildLog(run: RunResult, epoch: number, intervals: MonitorRecord[]): string {
  const rec = run.rec as NonNullable<RunResult['rec']>;
  type Line = { at: number; order: number; seq: number; text: string };
  const lines: Line[] = [];
  let seq = 0;
  const oneLine = (s: string): string => s.replaceAll('\n', '\\n');
  for (const m of rec.monitor) {
    lines.push({
      at: m.from,
      order: 0,
      seq: seq++,
      text: `${monitorStamp(epoch + m.from)} ${levelLetter(m.level)} ${m.locator} ${oneLine(m.message)}`,
    });
  }
  for (const m of intervals) {
    const dur = monitorDuration(m.to - m.from).padEnd(5, ' ');
    lines.push({
      at: m.from,
      order: 1,
      seq: seq++,
      text: `${monitorStamp(epoch + m.from)} - ${dur} ${levelLetter(m.level)} ${m.locator} ${oneLine(m.message)}`,
    });
  }
  for (const t of rec.testLog)
    lines.push({
      at: t.at,
      order: 2,
      seq: seq++,
      text: `${logfStamp(epoch + t.at)}: INFO: ${oneLine(t.text)}`,
    });
  lines.sort((a, b) => a.at - b.at || a.order - b.order || a.seq - b.seq);
  const header = [
    `INFO[${rfc3339(epoch)}] atlevel simulate: simulated CI run (not a real cluster): scenario ${run.scenario.name}, policy ${run.policy}, seed ${run.seed}`,
    `INFO[${rfc3339(epoch)}] Running step e2e-upgrade-openshift-e2e-test.`,
  ];
  const footer: string[] = [];
  const failure = run.facts.testFailure;
  const test =
    '[sig-arch][Feature:ClusterUpgrade] Cluster should remain functional during upgrade [Disruptive] [Serial]';
  if (failure !== undefined) {
    footer.push(
      `fail [github.com/openshift/origin/test/e2e/upgrade/upgrade.go:160]: during upgrade to ${run.to.image}`,
      'Unexpected error:',
      '    <*errors.errorString | 0xc0027f5d80>: {',
      `        s: ${JSON.stringify(failure)},`,
      '    }',
      `    ${failure}`,
      'occurred',
      `failed: (${Math.round(run.endAt / 60_000)}m) "${test}"`,
      `INFO[${rfc3339(epoch + run.endAt)}] Step e2e-upgrade-openshift-e2e-test failed.`,
    );
  } else {
    footer.push(
      `passed: (${Math.round(run.endAt / 60_000)}m) "${test}"`,
      `INFO[${rfc3339(epoch + run.endAt)}] Step e2e-upgrade-openshift-e2e-test succeeded.`,
    );
  }
  return `${[...header, ...lines.map((l) => l.text), ...footer].join('\n')}\n`;
}

/** Write `files` under `dir`, creating folders; a failure names the path and stops. */
export async function writeArtifacts(dir: string, files: Map<string, string>): Promise<string[]> {
  const written: string[] = [];
  for (const [rel, content] of files) {
    const path = join(dir, rel);
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new InputError(
        path,
        `cannot write the simulated run (${code})`,
        'check that --out names a writable folder',
      );
    }
    written.push(path);
  }
  return written;
}
