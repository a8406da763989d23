import type { HostedStatus, NodePoolMachine, NodePoolStatus, RequestCondition } from '../status/index.js';
import { formatRef } from './refs.js';
import type { Documenter } from './reporter.js';
import { insightJson, rollingOperandJson, seconds, time } from './status-json-parts.js';

const HOSTED_STATUS_SCHEMA_VERSION = 1;

function machineJson(m: NodePoolMachine) {
  return {
    name: m.name,
    node: m.node ?? null,
    machineSet: m.machineSet ?? null,
    currentMachineSet: m.currentMachineSet,
    assessment: m.assessment,
    phase: m.phase,
    version: m.version ?? null,
    machinePhase: m.machinePhase ?? null,
    message: m.message,
    updated: m.updated,
    updating: m.updating,
    unavailable: m.unavailable,
    degraded: m.degraded,
    source: formatRef(m.ref),
  };
}

function conditionJson(c: RequestCondition) {
  return {
    type: c.type,
    status: c.status,
    reason: c.reason ?? null,
    message: c.message ?? null,
    since: time(c.since),
  };
}

function nodePoolJson(p: NodePoolStatus) {
  return {
    namespace: p.namespace,
    name: p.name,
    upgradeType: p.upgradeType ?? null,
    paused: p.paused,
    assessment: p.assessment,
    targetVersion: p.targetVersion ?? null,
    targetImage: p.targetImage ?? null,
    reportedVersion: p.reportedVersion ?? null,
    updatingVersion: p.updatingVersion ?? null,
    updatingConfig: p.updatingConfig ?? null,
    // Added in schema version 1: null unless the NodePool asks for a change it has not begun.
    waiting: p.waiting
      ? {
          message: p.waiting.message,
          conditions: p.waiting.conditions.map(conditionJson),
          // Added in schema version 1: InPlace, the MachineSet target the upgrader has not taken up.
          inPlace: p.waiting.inPlace ?? null,
        }
      : null,
    desiredReplicas: p.desiredReplicas ?? null,
    autoscaling: p.autoscaling,
    updated: p.updated,
    total: p.total,
    completionPercent: p.completionPercent,
    counts: { ...p.counts },
    oldMachines: p.oldMachines,
    machines: p.machines.map(machineJson),
    source: formatRef(p.ref),
  };
}

function hostedStatusToJson(s: HostedStatus) {
  const cp = s.controlPlane;
  const g = s.guest;
  return {
    schemaVersion: HOSTED_STATUS_SCHEMA_VERSION,
    kind: 'AtlevelHostedClusterStatus',
    evaluatedAt: time(s.evaluatedAt),
    evaluatedAtSource: s.evaluatedAtSource,
    hostedCluster: {
      namespace: s.hostedCluster.namespace,
      name: s.hostedCluster.name,
      controlPlaneNamespace: s.hostedCluster.controlPlaneNamespace,
      source: formatRef(s.hostedCluster.ref),
    },
    state: s.state,
    updating: s.updating,
    currentVersion: s.currentVersion ?? null,
    // Added in schema version 1 (null when the control plane's release is one the histories hold).
    request: s.request
      ? {
          image: s.request.image,
          // Added in schema version 1: spec.controlPlaneRelease.image when set, else spec.release.image.
          field: s.request.field,
          version: s.request.version ?? null,
          versionSource: s.request.versionSource ?? null,
          fromVersion: s.request.fromVersion ?? null,
          started: s.request.componentsAtRequest.length > 0,
          componentsAtRequest: [...s.request.componentsAtRequest],
          conditions: s.request.conditions.map(conditionJson),
        }
      : null,
    controlPlane: {
      assessment: cp.assessment,
      versionSource: cp.versionSource,
      targetVersion: cp.targetVersion ?? null,
      targetImage: cp.targetImage ?? null,
      previousVersion: cp.previousVersion ?? null,
      // Added in schema version 1: the previous entry is Partial (superseded before it completed).
      previousPartial: cp.previousPartial,
      state: cp.state ?? null,
      startedAt: time(cp.startedAt),
      completedAt: time(cp.completedAt),
      durationSeconds: seconds(cp.duration),
      completionPercent: cp.completionPercent,
      components: {
        total: cp.components.total,
        updated: cp.components.updated,
        updating: cp.components.updating,
        waiting: cp.components.waiting,
        unknown: cp.components.unknown,
        unavailable: cp.components.unavailable,
        updatingComponents: cp.components.updatingComponents.map((u) => ({
          name: u.name,
          version: u.version ?? null,
          since: time(u.since),
          reason: u.reason,
          message: u.message,
        })),
      },
    },
    guest: {
      read: g.read,
      desiredVersion: g.desiredVersion ?? null,
      state: g.state ?? null,
      startedAt: time(g.startedAt),
      completedAt: time(g.completedAt),
      progressing: g.progressing ?? null,
      failing: g.failing ?? null,
      operators: g.operators
        ? {
            total: g.operators.total,
            updated: g.operators.updated,
            updating: g.operators.updating,
            waiting: g.operators.waiting,
            unknown: g.operators.unknown,
            healthy: g.operators.healthy,
            unavailable: g.operators.unavailable,
            degraded: g.operators.degraded,
            rollingOperands: g.operators.rollingOperands.map(rollingOperandJson),
          }
        : null,
    },
    nodePools: s.nodePools.map(nodePoolJson),
    // Added in schema version 1: NodePools named by the Cluster API objects and not in the inputs.
    nodePoolsNotRead: [...s.nodePoolsNotRead],
    insights: s.insights.map(insightJson),
    notes: [...s.notes],
    unrewound: s.unrewound.map((u) => ({ object: u.object, field: u.field, why: u.why })),
  };
}

/** The document of `atlevel status -o json` and `-o yaml` for a hosted cluster (report/formats.ts). */
export const hostedStatusDocument: Documenter<HostedStatus> = (s) => hostedStatusToJson(s);
