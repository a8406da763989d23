/**
 * `atlevel status -o json`: the UpdateStatus in a stable, versioned shape (docs/status.md). Every key
 * is always present (null when unknown) so scripts need no existence checks; times are RFC 3339 UTC,
 * durations whole seconds. Add fields freely; rename or remove only with a schemaVersion bump.
 */
import type { SourceRef } from '../model/index.js';
import { safeJson } from '../model/index.js';
import type { NodeStatus, PoolStatus, UpdateStatus } from '../status/index.js';
import { formatRef } from './refs.js';
import type { Documenter } from './reporter.js';
import { insightJson, rollingOperandJson, seconds, time } from './status-json-parts.js';

export const STATUS_SCHEMA_VERSION = 1;

function source(ref: SourceRef): string {
  return formatRef(ref);
}

function nodeJson(n: NodeStatus) {
  return {
    name: n.name,
    pool: n.pool,
    assessment: n.assessment,
    phase: n.phase,
    version: n.version ?? null,
    versionSource: n.versionSource ?? null,
    timeLeftSeconds: seconds(n.timeLeft),
    message: n.message,
    currentConfig: n.currentConfig ?? null,
    desiredConfig: n.desiredConfig ?? null,
    daemonState: n.daemonState ?? null,
    updated: n.updated,
    updating: n.updating,
    unavailable: n.unavailable,
    degraded: n.degraded,
    source: source(n.ref),
  };
}

function poolJson(p: PoolStatus) {
  return {
    name: p.name,
    controlPlane: p.controlPlane,
    paused: p.paused,
    assessment: p.assessment,
    updated: p.updated,
    total: p.total,
    completionPercent: p.completionPercent,
    counts: { ...p.counts },
    targetConfig: p.targetConfig ?? null,
    nodesOffTargetConfig: p.nodesOffTargetConfig,
    nodes: p.nodes.map(nodeJson),
    source: source(p.ref),
  };
}

/** The JSON document, as a plain object (tests read it without parsing text). */
export function statusToJson(status: UpdateStatus) {
  const cp = status.controlPlane;
  const req = status.request;
  return {
    schemaVersion: STATUS_SCHEMA_VERSION,
    kind: 'AtlevelUpdateStatus',
    evaluatedAt: time(status.evaluatedAt),
    evaluatedAtSource: status.evaluatedAtSource,
    state: status.state,
    updating: status.updating,
    currentVersion: status.currentVersion ?? null,
    request: req
      ? {
          version: req.version ?? null,
          image: req.image ?? null,
          accepted: req.accepted ?? null,
          reason: req.reason ?? null,
          message: req.message ?? null,
          since: time(req.since),
        }
      : null,
    controlPlane: {
      assessment: cp.assessment,
      targetVersion: cp.targetVersion,
      targetImage: cp.targetImage ?? null,
      previousVersion: cp.previousVersion ?? null,
      previousPartial: cp.previousPartial,
      newInstall: cp.newInstall,
      multiArchMigration: cp.multiArchMigration,
      startedAt: time(cp.startedAt),
      completedAt: time(cp.completedAt),
      durationSeconds: seconds(cp.duration),
      completionPercent: cp.completionPercent,
      operators: {
        total: cp.operators.total,
        updated: cp.operators.updated,
        updating: cp.operators.updating,
        waiting: cp.operators.waiting,
        unknown: cp.operators.unknown,
        healthUnknown: cp.operators.healthUnknown,
        healthy: cp.operators.healthy,
        unavailable: cp.operators.unavailable,
        degraded: cp.operators.degraded,
        updatingOperators: cp.operators.updatingOperators.map((o) => ({
          name: o.name,
          since: time(o.since),
          reason: o.reason,
          message: o.message,
        })),
        rollingOperands: cp.operators.rollingOperands.map(rollingOperandJson),
      },
      estimate: {
        timeLeftSeconds: seconds(cp.estimate.timeLeft),
        totalDurationSeconds: seconds(cp.estimate.totalDuration),
        basis: cp.estimate.basis,
        withheldBecause: cp.estimate.withheldBecause ?? null,
      },
      blockers: [...cp.blockers],
    },
    pools: status.pools.map(poolJson),
    insights: status.insights.map(insightJson),
    notes: [...status.notes],
    unrewound: status.unrewound.map((u) => ({ object: u.object, field: u.field, why: u.why })),
  };
}

export type StatusJson = ReturnType<typeof statusToJson>;

export function renderStatusJson(status: UpdateStatus): string {
  return safeJson(statusToJson(status));
}

/** The document of `atlevel status -o json` and `-o yaml` (report/formats.ts). */
export const statusDocument: Documenter<UpdateStatus> = (status) => statusToJson(status);
