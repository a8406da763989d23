/**
 * Firing Prometheus alerts as health insights (docs/domain.md 9.3, oc `alerts.go`). Sources hand alerts
 * over in whatever shape they were captured: `oc adm inspect-alerts` / Thanos `{data: {alerts}}`,
 * the rules API `{data: {groups: [{rules: [{alerts}]}]}}` (must-gather `monitoring/alerts.json`),
 * `{alerts: [...]}` or a plain array (what src/sources flattens them to); anything else is ignored.
 */
import { type Millis, parseTime } from '../model/index.js';
import type { Insight, InsightLevel } from './types.js';

export interface FiringAlert {
  readonly name: string;
  readonly severity: string;
  readonly state: string;
  readonly activeAt?: Millis;
  readonly namespace?: string;
  readonly summary: string;
  readonly description: string;
  readonly runbook?: string;
}

/** PDB alerts matter however old they are: they are what blocks a drain. */
const ALWAYS_RELEVANT = new Set(['PodDisruptionBudgetAtLimit', 'PodDisruptionBudgetLimit']);

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Every alert that has a name, in a uniform shape. Malformed entries are skipped. The sources have
 * already flattened whatever document held them (inspect-alerts, the rules API) into one list.
 */
export function normalizeAlerts(alerts: readonly unknown[] | undefined): FiringAlert[] {
  const out: FiringAlert[] = [];
  for (const item of alerts ?? []) {
    const alert = record(item);
    const labels = record(alert?.labels);
    const annotations = record(alert?.annotations) ?? {};
    const name = text(labels?.alertname);
    if (!alert || !labels || name === '') continue;
    const activeAt = parseTime(alert.activeAt);
    const namespace = text(labels.namespace);
    const runbook = text(annotations.runbook_url);
    out.push({
      name,
      severity: text(labels.severity),
      state: text(alert.state),
      ...(activeAt !== undefined ? { activeAt } : {}),
      ...(namespace ? { namespace } : {}),
      summary: text(annotations.summary) || text(annotations.message) || name,
      description: text(annotations.description) || text(annotations.message),
      ...(runbook ? { runbook } : {}),
    });
  }
  return out;
}

function levelOf(severity: string): InsightLevel | undefined {
  if (severity === 'critical') return 'Critical';
  if (severity === 'warning') return 'Warning';
  return undefined;
}

/**
 * Firing warning and critical alerts that began after the update started (or PDB alerts, always).
 * oc drops alerts without a runbook link; atlevel keeps them, an alert without a runbook is still firing.
 */
export function alertInsights(
  alerts: readonly FiringAlert[],
  updateStartedAt: Millis | undefined,
): Insight[] {
  const out: Insight[] = [];
  for (const a of alerts) {
    const level = levelOf(a.severity);
    if (a.state !== 'firing' || level === undefined) continue;
    const startedBefore =
      updateStartedAt !== undefined && a.activeAt !== undefined && a.activeAt < updateStartedAt;
    if (startedBefore && !ALWAYS_RELEVANT.has(a.name)) continue;
    out.push({
      kind: 'alert',
      level,
      impact: 'Unknown',
      scope: 'Cluster',
      ...(a.activeAt !== undefined ? { since: a.activeAt } : {}),
      message: `Alert: ${a.summary}`,
      description: a.description || a.summary,
      ...(a.runbook ? { reference: a.runbook } : {}),
      objects: [{ kind: 'Alert', name: a.name, ...(a.namespace ? { namespace: a.namespace } : {}) }],
      refs: [],
    });
  }
  return out;
}
