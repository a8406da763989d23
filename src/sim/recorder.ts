/**
 * Records what CI would have captured of a run, only when artifacts are written: origin's monitor
 * (ClusterOperator, ClusterVersion and node changes in the text of docs/domain.md 7.2, seen at write
 * time), the upgrade test's log lines, and Kubernetes Events. It observes the store and never
 * draws from the run's random stream, so recording cannot change a run.
 */
import type { AnyObj, ClusterOperatorObj, ClusterVersionObj, Cond, NodeObj } from './objects.js';
import { findCond } from './objects.js';

export type Level = 'Info' | 'Warning' | 'Error';

export interface MonitorRecord {
  readonly from: number;
  readonly to: number;
  readonly level: Level;
  readonly locator: string;
  readonly message: string;
}

export interface TestLine {
  readonly at: number;
  readonly text: string;
}

export interface InvolvedObject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiVersion: string;
}

export interface RecordedEvent {
  readonly involved: InvolvedObject;
  readonly namespace: string;
  readonly reason: string;
  readonly message: string;
  readonly type: 'Normal' | 'Warning';
  readonly component: string;
  readonly host: string | undefined;
  readonly first: number;
  last: number;
  count: number;
}

interface Transition {
  readonly at: number;
  readonly status: string;
  readonly message: string;
}

/** Derived intervals (docs/domain.md 7.2): the "bad" status of each condition, and the level it is shown at. */
const DERIVED: ReadonlyArray<readonly [string, string, Level]> = [
  ['Available', 'False', 'Error'],
  ['Degraded', 'True', 'Error'],
  ['Progressing', 'True', 'Warning'],
];

export class Recorder {
  readonly monitor: MonitorRecord[] = [];
  readonly testLog: TestLine[] = [];
  readonly events: RecordedEvent[] = [];
  private readonly eventIndex = new Map<string, RecordedEvent>();
  /** ClusterOperator → condition type → status transitions (for derived intervals). */
  private readonly transitions = new Map<string, Map<string, Transition[]>>();
  private readonly initial = new Map<string, readonly Cond[]>();

  /**
   * Every stored revision of every object, oldest first (what `atlevel-revisions.jsonl` is written
   * from). An object's seeded state comes first, at time 0, when its first write replaces it.
   */
  readonly revisions: { readonly at: number; readonly obj: AnyObj; readonly added: boolean }[] = [];
  private readonly revised = new Set<string>();

  onWrite(prev: AnyObj | undefined, next: AnyObj, at: number): void {
    const id = `${next.kind}/${next.meta.name}`;
    if (!this.revised.has(id)) {
      this.revised.add(id);
      if (prev) this.revisions.push({ at: 0, obj: prev, added: true });
    }
    this.revisions.push({ at, obj: next, added: !prev });
    if (!prev) return;
    switch (next.kind) {
      case 'ClusterOperator':
        this.clusterOperator(prev as ClusterOperatorObj, next, at);
        break;
      case 'ClusterVersion':
        this.clusterVersion(prev as ClusterVersionObj, next, at);
        break;
      case 'Node':
        this.node(prev as NodeObj, next, at);
        break;
      default:
        break;
    }
  }

  /** The conditions every ClusterOperator had when the monitor started. */
  startOperator(co: ClusterOperatorObj): void {
    this.initial.set(co.meta.name, co.conditions);
  }

  log(at: number, text: string): void {
    this.testLog.push({ at, text });
  }

  event(
    at: number,
    involved: InvolvedObject,
    reason: string,
    message: string,
    type: 'Normal' | 'Warning',
    component: string,
    host?: string,
  ): void {
    const namespace = involved.namespace ?? 'default';
    const key = `${namespace}|${involved.kind}|${involved.name}|${reason}|${message}|${component}`;
    const seen = this.eventIndex.get(key);
    if (seen) {
      seen.count++;
      seen.last = at;
      return;
    }
    const ev: RecordedEvent = {
      involved,
      namespace,
      reason,
      message,
      type,
      component,
      host,
      first: at,
      last: at,
      count: 1,
    };
    this.eventIndex.set(key, ev);
    this.events.push(ev);
  }

  private add(at: number, level: Level, locator: string, message: string): void {
    this.monitor.push({ from: at, to: at, level, locator, message });
  }

  private clusterOperator(prev: ClusterOperatorObj, next: ClusterOperatorObj, at: number): void {
    const locator = `clusteroperator/${next.meta.name}`;
    for (const c of next.conditions) {
      const p = findCond(prev.conditions, c.type);
      if (p && p.status === c.status) continue;
      let msg: string;
      if (c.reason !== '' && c.message !== '')
        msg = `condition/${c.type} status/${c.status} reason/${c.reason} changed: ${c.message}`;
      else if (c.message !== '') msg = `condition/${c.type} status/${c.status} changed: ${c.message}`;
      else msg = `condition/${c.type} status/${c.status} changed: `;
      const bad =
        (c.type === 'Degraded' && c.status === 'True') ||
        (c.type === 'Available' && c.status === 'False') ||
        (c.type === 'Failing' && c.status === 'True');
      this.add(at, bad ? 'Error' : 'Warning', locator, msg);
      this.transition(next.meta.name, c.type, { at, status: c.status, message: c.message });
    }
    const changes: string[] = [];
    for (const v of next.versions) {
      const p = prev.versions.find((x) => x.name === v.name);
      if (p && p.version !== v.version) changes.push(`${v.name} ${p.version} -> ${v.version}`);
    }
    if (changes.length > 0) this.add(at, 'Info', locator, `versions: ${changes.join(', ')}`);
  }

  private transition(co: string, type: string, t: Transition): void {
    let byType = this.transitions.get(co);
    if (!byType) {
      byType = new Map();
      this.transitions.set(co, byType);
    }
    let list = byType.get(type);
    if (!list) {
      list = [];
      byType.set(type, list);
    }
    list.push(t);
  }

  private clusterVersion(prev: ClusterVersionObj, next: ClusterVersionObj, at: number): void {
    const locator = `clusterversion/${next.meta.name}`;
    const h = next.history[0];
    const ph = prev.history[0];
    if (h && ph) {
      const label = h.version !== '' ? h.version : h.image;
      if (h.state === 'Completed' && ph.state !== h.state)
        this.add(at, 'Warning', locator, `cluster reached ${label}`);
      else if (h.state === 'Partial' && ph.state === 'Partial' && ph.image !== h.image) {
        this.add(
          at,
          'Warning',
          locator,
          `cluster upgrading to ${label} without completing ${ph.version !== '' ? ph.version : ph.image}`,
        );
      }
    }
    for (const c of next.conditions) {
      const p = findCond(prev.conditions, c.type);
      if (!p || p.status === c.status) continue;
      let msg: string;
      if (c.reason !== '' && c.message !== '')
        msg = `changed ${c.type} to ${c.status}: ${c.reason}: ${c.message}`;
      else if (c.message !== '') msg = `changed ${c.type} to ${c.status}: ${c.message}`;
      else msg = `changed ${c.type} to ${c.status}`;
      const bad = (c.type === 'Degraded' || c.type === 'Failing') && c.status === 'True';
      this.add(at, bad ? 'Error' : 'Warning', locator, msg);
    }
  }

  private node(prev: NodeObj, next: NodeObj, at: number): void {
    const locator = `node/${next.meta.name}`;
    if (next.desiredConfig !== prev.desiredConfig) {
      this.add(
        at,
        'Info',
        locator,
        `reason/MachineConfigChange config/${next.desiredConfig} config change requested`,
      );
    }
    if (prev.currentConfig !== next.currentConfig && next.desiredConfig === next.currentConfig) {
      this.add(
        at,
        'Info',
        locator,
        `reason/MachineConfigReached config/${next.desiredConfig} reached desired config`,
      );
    }
  }

  /**
   * origin's derived operator intervals: from each move to the bad status until the move back (or
   * the end of the run), labelled `condition/<T> status/<bad> reason/<message of the bad condition>`.
   */
  derivedIntervals(end: number): MonitorRecord[] {
    const out: MonitorRecord[] = [];
    for (const [co, startConds] of this.initial) {
      const byType = this.transitions.get(co);
      for (const [type, badStatus, level] of DERIVED) {
        const start = findCond(startConds, type);
        let open: Transition | undefined =
          start && start.status === badStatus
            ? { at: 0, status: badStatus, message: start.message }
            : undefined;
        for (const t of byType?.get(type) ?? []) {
          if (t.status === badStatus) {
            if (!open) open = t;
          } else if (open) {
            out.push(derived(co, type, badStatus, level, open, t.at));
            open = undefined;
          }
        }
        if (open) out.push(derived(co, type, badStatus, level, open, end));
      }
    }
    return out;
  }
}

function derived(
  co: string,
  type: string,
  bad: string,
  level: Level,
  from: Transition,
  to: number,
): MonitorRecord {
  return {
    from: from.at,
    to,
    level,
    locator: `clusteroperator/${co}`,
    message: `condition/${type} status/${bad} reason/${from.message}`,
  };
}
