/**
 * One recorded run as cluster content for the artifact writer (writer/): build-log.txt with the upgrade
 * test's log and the monitor timeline, gather-extra Lists taken at the end of the run, origin's
 * e2e-events/e2e-intervals JSON (4.10 schema), the two releases' info, and the run's ground truth.
 * Every byte follows from the run, so the same seed writes the same files.
 */
import { ciPaths, DEFAULT_EPOCH, type MonitorRecord, rfc3339 } from '../../artifacts/index.js';
import { buildLogText, ciRunFiles } from '../../writer/index.js';
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

/** The CI test a run's artifacts are laid out under, unless its scenario names one (`ci.target`). */
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
  // Every operator's Deployment and the scenario's operands, as gather-extra lists them at the end.
  const workloads = workloadLists(clock, run.workloads.all);
  // The recorder's times are virtual (ms since the run's start); the artifacts carry wall-clock times.
  const wall = (m: SimMonitorRecord): MonitorRecord => ({ ...m, from: epoch + m.from, to: epoch + m.to });
  const instants = rec.monitor.map(wall);
  const intervals = rec.derivedIntervals(run.endAt).map(wall);
  return ciRunFiles({
    target: run.scenario.ciTarget ?? TARGET,
    start: epoch,
    lists: [
      ['ClusterVersion', [...store.list('ClusterVersion')].map((o) => clusterVersionJson(clock, o))],
      [
        'ClusterOperator',
        byName([...store.list('ClusterOperator')]).map((o) => clusterOperatorJson(clock, o)),
      ],
      ['MachineConfigPool', byName([...store.list('MachineConfigPool')]).map((o) => poolJson(clock, o))],
      ['MachineConfig', byName([...store.list('MachineConfig')]).map((o) => machineConfigJson(clock, o))],
      ['Node', byName([...store.list('Node')]).map((o, i) => nodeJson(clock, o, i))],
      ['Event', rec.events.map((e, i) => eventJson(clock, e, i)).sort(compareEvents)],
      ['Deployment', workloads.deployments],
      ['DaemonSet', workloads.daemonSets],
      ['Pod', workloads.pods],
      ['ReplicaSet', workloads.replicaSets],
    ],
    monitor: {
      events: [...instants, ...intervals],
      intervals: intervals.filter((m) => m.to !== m.from),
    },
    buildLog: buildLog(run, epoch, [...instants, ...intervals]),
    releases: {
      from: releaseInfo(run.from, epoch - 30 * 3600_000),
      to: releaseInfo(run.to, epoch - 3 * 3600_000),
    },
    extra: [
      [REVISIONS_FILE, revisionsJsonl(run, epoch)],
      [
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
      ],
    ],
  });
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
 * The test step's part of a CI build log (writer/build-log.ts lays it out): the simulator's header, the
 * upgrade test's log lines and result (docs/domain.md 6), then the monitor timeline (7.1, 7.2).
 */
function buildLog(run: RunResult, epoch: number, monitor: readonly MonitorRecord[]): string {
  const rec = run.rec as NonNullable<RunResult['rec']>;
  const failure = run.facts.testFailure;
  const target = run.scenario.ciTarget ?? TARGET;
  return buildLogText({
    header: [
      `INFO[${rfc3339(epoch)}] atlevel simulate: simulated CI run (not a real cluster): scenario ${run.scenario.name}, policy ${run.policy}, seed ${run.seed}`,
      `INFO[${rfc3339(epoch)}] Running step ${target}-openshift-e2e-test.`,
    ],
    test: {
      name: '[sig-arch][Feature:ClusterUpgrade] Cluster should remain functional during upgrade [Disruptive] [Serial]',
      lines: rec.testLog.map((t) => ({ at: epoch + t.at, text: t.text })),
      minutes: Math.round(run.endAt / 60_000),
      ...(failure !== undefined
        ? {
            failure: {
              location: 'github.com/openshift/origin/test/e2e/upgrade/upgrade.go:160',
              context: `during upgrade to ${run.to.image}`,
              error: failure,
            },
          }
        : {}),
    },
    monitor,
    footer: [
      `INFO[${rfc3339(epoch + run.endAt)}] Step ${target}-openshift-e2e-test ${failure !== undefined ? 'failed' : 'succeeded'}.`,
    ],
  });
}
