/**
 * Small constructors for hand-made histories, so analysis tests state their facts in a few lines
 * instead of going through files.
 */
import type { HistoryParts, Interval, IntervalLevel, TestLogEntry } from '../../src/model/history.js';
import { emptySnapshot } from '../../src/model/history.js';
import type {
  ClusterOperator,
  ClusterVersion,
  Condition,
  MachineConfig,
  MachineConfigPool,
} from '../../src/model/objects.js';

export const T = (clock: string, day = '2021-11-03'): number => Date.parse(`${day}T${clock}Z`);

export function parts(): HistoryParts {
  return { objects: emptySnapshot(), monitorIntervals: [], testLog: [], releases: {}, inputs: [], notes: [] };
}

export const ref = (file = 'test', line?: number) => (line === undefined ? { file } : { file, line });

export function cond(type: string, status: string, at: string, message = '', reason?: string): Condition {
  return { type, status, lastTransitionTime: at, message, ...(reason ? { reason } : {}) };
}

export function clusterVersion(
  history: { state: string; version: string; started: string; completed?: string; image?: string }[],
  conditions: Condition[] = [],
): ClusterVersion {
  return {
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    status: {
      history: history.map((h) => ({
        state: h.state,
        version: h.version,
        image: h.image ?? `registry/release:${h.version}`,
        startedTime: h.started,
        completionTime: h.completed ?? null,
        verified: false,
      })),
      conditions,
    },
  };
}

export function pool(
  name: string,
  config: string,
  conditions: Condition[],
  required = name === 'master',
): MachineConfigPool {
  return {
    kind: 'MachineConfigPool',
    metadata: {
      name,
      labels: required ? { 'operator.machineconfiguration.openshift.io/required-for-upgrade': '' } : {},
    },
    spec: { configuration: { name: config } },
    status: { configuration: { name: config }, machineCount: 3, updatedMachineCount: 3, conditions },
  };
}

export function rendered(
  name: string,
  created: string,
  opts: { controller?: string; os?: string; release?: string; kubeletImage?: string } = {},
): MachineConfig {
  const annotations: Record<string, string> = {
    'machineconfiguration.openshift.io/generated-by-controller-version': opts.controller ?? 'abc123',
  };
  if (opts.release) annotations['machineconfiguration.openshift.io/release-image-version'] = opts.release;
  const pool = name.split('-')[1] ?? 'master';
  return {
    kind: 'MachineConfig',
    metadata: {
      name,
      creationTimestamp: created,
      annotations,
      ownerReferences: [{ kind: 'MachineConfigPool', name: pool }],
    },
    spec: {
      osImageURL:
        opts.os ?? 'quay.io/os@sha256:1111111111111111111111111111111111111111111111111111111111111111',
      config: {
        ignition: { version: '3.2.0' },
        systemd: {
          units: [
            {
              name: 'kubelet.service',
              enabled: true,
              contents: `[Service]\nExecStart=/usr/bin/kubelet \\\n      --pod-infra-container-image=${opts.kubeletImage ?? 'quay.io/pod@sha256:aaaa'} \\\n      --v=2\n`,
            },
          ],
        },
      },
    },
  };
}

export function operator(name: string, version: string, conditions: Condition[]): ClusterOperator {
  return {
    kind: 'ClusterOperator',
    metadata: { name },
    status: { conditions, versions: [{ name: 'operator', version }] },
  };
}

export function monitor(
  at: number,
  type: string,
  keys: Record<string, string>,
  humanMessage: string,
  annotations: Record<string, string> = {},
  level: IntervalLevel = 'Info',
  line?: number,
): Interval {
  return {
    from: at,
    to: at,
    level,
    locator: { type, keys },
    message: { reason: annotations.reason ?? '', humanMessage, annotations },
    source: 'build-log',
    ref: ref('build-log.txt', line),
  };
}

export function poolLog(at: number, pool: string, updated: boolean, updating: boolean): TestLogEntry {
  return {
    kind: 'pool-status',
    at,
    pool,
    updated,
    updating,
    degraded: false,
    paused: false,
    ref: ref('build-log.txt'),
  };
}
