/**
 * The pieces both status documents (`status -o json` of a cluster and of a hosted cluster) write alike:
 * times as RFC 3339 UTC, durations as whole seconds, an insight, and an operand still rolling out
 * (docs/status.md).
 */
import { formatTime, type Millis } from '../model/index.js';
import type { Insight, RollingOperand } from '../status/index.js';
import { formatRef } from './refs.js';

export function time(ms: Millis | undefined): string | null {
  return ms === undefined ? null : formatTime(Math.floor(ms));
}

export function seconds(ms: Millis | undefined): number | null {
  return ms === undefined ? null : Math.round(ms / 1000);
}

export function insightJson(i: Insight) {
  return {
    kind: i.kind,
    level: i.level,
    impact: i.impact,
    scope: i.scope,
    since: time(i.since),
    message: i.message,
    description: i.description,
    reference: i.reference ?? null,
    objects: i.objects.map((o) => ({ kind: o.kind, name: o.name, namespace: o.namespace ?? null })),
    sources: i.refs.map(formatRef),
  };
}

export function rollingOperandJson(o: RollingOperand) {
  return {
    operator: o.operator,
    kind: o.kind,
    namespace: o.namespace,
    name: o.name,
    updated: o.updated,
    desired: o.desired,
    available: o.available ?? null,
    since: time(o.since),
  };
}
