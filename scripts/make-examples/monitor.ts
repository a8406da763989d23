/**
 * origin's monitor records for the scenario (docs/domain.md 7.1, 7.2): ClusterOperator condition and
 * version changes, the derived "bad state" intervals, and the Kubernetes events it printed.
 */
import type { CondChange, EventSpec, Level, MonitorRecord, OperatorRun } from './types.js';

function conditionMessage(c: CondChange): string {
  return `condition/${c.type} status/${c.status}${c.reason ? ` reason/${c.reason}` : ''} changed: ${c.message ?? ''}`;
}

function conditionLevel(c: CondChange): Level {
  if ((c.type === 'Degraded' && c.status === 'True') || (c.type === 'Available' && c.status === 'False'))
    return 'Error';
  return 'Warning';
}

const BAD_STATES: readonly { type: string; bad: string; level: Level }[] = [
  { type: 'Available', bad: 'False', level: 'Error' },
  { type: 'Progressing', bad: 'True', level: 'Warning' },
  { type: 'Degraded', bad: 'True', level: 'Error' },
];

export function operatorRecords(op: OperatorRun, monitorEnd: number): MonitorRecord[] {
  const locator = `clusteroperator/${op.name}`;
  const out: MonitorRecord[] = op.changes.map((c) => ({
    from: c.at,
    to: c.at,
    level: conditionLevel(c),
    locator,
    message: conditionMessage(c),
  }));
  const changed = op.versionsTo
    .map(([name, v], i) => [name, op.versionsFrom[i]?.[1] ?? '', v] as const)
    .filter(([, a, b]) => a !== b);
  if (changed.length > 0) {
    out.push({
      from: op.versionsAt,
      to: op.versionsAt,
      level: 'Info',
      locator,
      message: `versions: ${changed.map(([n, a, b]) => `${n} ${a} -> ${b}`).join(', ')}`,
    });
  }
  // Derived "bad state" intervals; the reason/ slot carries the condition's message.
  for (const state of BAD_STATES) {
    let open: CondChange | undefined;
    for (const c of op.changes.filter((x) => x.type === state.type)) {
      if (c.status === state.bad && !open) open = c;
      else if (c.status !== state.bad && open) {
        out.push({
          from: open.at,
          to: c.at,
          level: state.level,
          locator,
          message: `condition/${state.type} status/${state.bad} reason/${open.message ?? ''}`,
        });
        open = undefined;
      }
    }
    if (open) {
      out.push({
        from: open.at,
        to: monitorEnd,
        level: state.level,
        locator,
        message: `condition/${state.type} status/${state.bad} reason/${open.message ?? ''}`,
      });
    }
  }
  return out;
}

function eventLocator(e: EventSpec): string {
  const kind = e.involved.kind.toLowerCase();
  if (e.involved.namespace) {
    const host = e.source?.host && e.involved.kind !== 'Node' ? ` node/${e.source.host}` : '';
    return `ns/${e.involved.namespace} ${kind}/${e.involved.name}${host}`;
  }
  return `${kind}/${e.involved.name}`;
}

export function eventRecords(events: readonly EventSpec[]): MonitorRecord[] {
  return events
    .filter((e) => e.inTimeline)
    .map((e) => ({
      from: e.last,
      to: e.last,
      level: e.type === 'Warning' ? 'Warning' : 'Info',
      locator: eventLocator(e),
      message: `reason/${e.reason} ${e.message}${e.count > 1 ? ` (${e.count} times)` : ''}`,
    }));
}
