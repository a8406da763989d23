/**
 * Prometheus alerts as captured next to a snapshot: `oc adm inspect-alerts` (`{data: {alerts}}`),
 * the rules API that must-gather saves as `monitoring/alerts.json` (`{data: {groups: [{rules:
 * [{alerts}]}]}}`), `{alerts: [...]}` or a bare array. Flattened to the list of alert objects; the
 * status helper interprets them.
 */

import { append } from './append.js';

type Loose = Record<string, unknown>;

function record(v: unknown): Loose | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : undefined;
}

function isAlert(v: unknown): boolean {
  return record(record(v)?.labels) !== undefined;
}

/** The alerts in `doc`, or undefined when `doc` is not an alerts document. */
export function alertsOf(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc.length > 0 && doc.every(isAlert) ? doc : undefined;
  const top = record(doc);
  if (!top || top.kind !== undefined) return undefined;
  if (Array.isArray(top.alerts) && top.alerts.every(isAlert)) return top.alerts;
  const data = record(top.data);
  if (!data) return undefined;
  if (Array.isArray(data.alerts)) return data.alerts;
  if (!Array.isArray(data.groups)) return undefined;
  const out: unknown[] = [];
  for (const group of data.groups) {
    const rules = record(group)?.rules;
    if (!Array.isArray(rules)) continue;
    for (const rule of rules) {
      const alerts = record(rule)?.alerts;
      if (Array.isArray(alerts)) append(out, alerts);
    }
  }
  return out;
}
