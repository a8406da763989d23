/**
 * The transitions watch reports, in origin's monitor forms (docs/domain.md 7.1, 7.2): a
 * ClusterOperator's condition and version changes, the ClusterVersion's conditions and completion,
 * a pool's conditions and target config, a node's desired and current config, and a rendered config's
 * appearance. Each is one MonitorRecord (the CI layout writer's type, so --record writes them as the
 * build log does) and one Interval for the live history, parsed by the same text forms as files.
 */

import type { MonitorRecord } from '../artifacts/index.js';
import type { RawObject } from '../live/index.js';
import type { Interval, Millis } from '../model/index.js';
import { isKnownKind, KINDS, kindFacts, MCO } from '../model/index.js';
import { parseLocatorText, parseMessageText } from '../sources/index.js';

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** How far before its observation an object's own timestamp may be and still date the change. */
const EVIDENCE_WINDOW_MS = 120_000;

/**
 * When a change happened: the time the object itself gives for it (a condition's lastTransitionTime,
 * a history entry's completionTime, a creationTimestamp) when that agrees with when it was seen, else
 * the moment it was seen, as origin's monitor stamps its observations. A stamp in whole seconds (as
 * the API server writes metav1.Time) only says the change was in that second: seen within it, the
 * moment it was seen is the more precise of the two, and is kept to the millisecond.
 */
export function dated(stamp: unknown, seen: Millis): Millis {
  const t = typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
  if (Number.isNaN(t) || t > seen + 1000 || t <= seen - EVIDENCE_WINDOW_MS) return seen;
  const wholeSecond = !/\.\d/.test(stamp as string);
  if (wholeSecond && seen >= t && seen < t + 1000) return seen;
  return Math.min(t, seen);
}

function conditions(o: RawObject | undefined): Condition[] {
  const c = (o?.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(c) ? (c.filter((x) => x && typeof x === 'object') as Condition[]) : [];
}

function versions(o: RawObject | undefined): Map<string, string> {
  const v = (o?.status as { versions?: unknown } | undefined)?.versions;
  const out = new Map<string, string>();
  if (Array.isArray(v))
    for (const x of v as { name?: unknown; version?: unknown }[])
      if (typeof x?.name === 'string' && typeof x.version === 'string') out.set(x.name, x.version);
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').slice(0, 400);
}

function name(o: RawObject | undefined): string {
  return o?.metadata?.name ?? '';
}

/** What one change of one object means, as monitor records (none when nothing meaningful changed). */
export function transitions(
  kind: string,
  before: RawObject | undefined,
  after: RawObject | undefined,
  at: Millis,
): MonitorRecord[] {
  const out: MonitorRecord[] = [];
  const add = (level: MonitorRecord['level'], locator: string, message: string, when: Millis = at) =>
    out.push({ from: when, to: when, level, locator, message });
  if (!after) return out;
  if (kind === 'ClusterOperator') {
    const locator = `clusteroperator/${name(after)}`;
    if (!before) return out;
    for (const c of conditions(after)) {
      const p = conditions(before).find((x) => x.type === c.type);
      if (!c.type || !c.status || (p && p.status === c.status)) continue;
      const reason = c.reason ? ` reason/${c.reason}` : '';
      const bad =
        (c.type === 'Degraded' && c.status === 'True') ||
        (c.type === 'Available' && c.status === 'False') ||
        (c.type === 'Failing' && c.status === 'True');
      add(
        bad ? 'Error' : 'Warning',
        locator,
        `condition/${c.type} status/${c.status}${reason} changed: ${oneLine(c.message ?? '')}`,
        dated(c.lastTransitionTime, at),
      );
    }
    const old = versions(before);
    const changes: string[] = [];
    for (const [n, v] of versions(after)) {
      const p = old.get(n);
      if (p !== undefined && p !== v) changes.push(`${n} ${p} -> ${v}`);
    }
    if (changes.length > 0) add('Info', locator, `versions: ${changes.join(', ')}`);
  } else if (kind === 'ClusterVersion') {
    const locator = `clusterversion/${name(after)}`;
    if (!before) return out;
    const h = historyHead(after);
    const ph = historyHead(before);
    if (h && h.state === 'Completed' && (ph?.state !== 'Completed' || ph.version !== h.version))
      add('Warning', locator, `cluster reached ${h.version ?? h.image ?? ''}`, dated(h.completionTime, at));
    for (const c of conditions(after)) {
      const p = conditions(before).find((x) => x.type === c.type);
      if (!c.type || !c.status || !p || p.status === c.status) continue;
      const bad = (c.type === 'Degraded' || c.type === 'Failing') && c.status === 'True';
      // origin's three forms: the reason only before a message, no dangling `: ` without one.
      const message = oneLine(c.message ?? '');
      const said = message === '' ? '' : c.reason ? `: ${c.reason}: ${message}` : `: ${message}`;
      add(
        bad ? 'Error' : 'Warning',
        locator,
        `changed ${c.type} to ${c.status}${said}`,
        dated(c.lastTransitionTime, at),
      );
    }
  } else if (kind === 'MachineConfigPool') {
    const locator = `machineconfigpool/${name(after)}`;
    if (!before) return out;
    const target = poolTarget(after);
    if (target && target !== poolTarget(before))
      add('Info', locator, `reason/SetDesiredConfig targets config ${target}`);
    for (const c of conditions(after)) {
      if (c.type !== 'Updated' && c.type !== 'Updating' && c.type !== 'Degraded') continue;
      const p = conditions(before).find((x) => x.type === c.type);
      if (!c.status || (p && p.status === c.status)) continue;
      // atlevel's own form (origin's monitor does not watch pools): no empty `changed: ` when the
      // pool gives no message (Updating=False); the sources read both forms alike.
      const message = oneLine(c.message ?? '');
      add(
        c.type === 'Degraded' && c.status === 'True' ? 'Error' : 'Warning',
        locator,
        `condition/${c.type} status/${c.status}${message ? ` changed: ${message}` : ''}`,
        dated(c.lastTransitionTime, at),
      );
    }
  } else if (kind === 'Node') {
    const locator = `node/${name(after)}`;
    const a = annotations(after);
    const b = annotations(before);
    const desired = a[MCO.desiredConfig];
    const current = a[MCO.currentConfig];
    if (before && desired && desired !== b[MCO.desiredConfig])
      add('Info', locator, `reason/MachineConfigChange config/${desired} config change requested`);
    if (before && current && current !== b[MCO.currentConfig] && current === desired)
      add('Info', locator, `reason/MachineConfigReached config/${desired} reached desired config`);
  } else if (isKnownKind(kind) && kindFacts(kind).timeline?.conditions && before) {
    // Any other kind on the timeline by its conditions (model/kinds/ `timeline`): each change of a
    // condition's status, in origin's condition form, about `ns/NS kind/NAME`.
    const ns = after.metadata?.namespace;
    const own = `${kind.toLowerCase()}/${name(after)}`;
    const locator = KINDS[kind].api.namespaced && ns ? `ns/${ns} ${own}` : own;
    const level = kindFacts(kind).timeline?.conditionLevel;
    for (const c of conditions(after)) {
      const p = conditions(before).find((x) => x.type === c.type);
      if (!c.type || !c.status || (p && p.status === c.status)) continue;
      const reason = c.reason ? ` reason/${c.reason}` : '';
      add(
        level?.(c.type, c.status) ?? (c.type === 'Available' && c.status === 'False' ? 'Error' : 'Info'),
        locator,
        `condition/${c.type} status/${c.status}${reason} changed: ${oneLine(c.message ?? '')}`,
        dated(c.lastTransitionTime, at),
      );
    }
  } else if (kind === 'MachineConfig' && !before && name(after).startsWith('rendered-')) {
    const pool = ownerPool(after);
    if (pool)
      add(
        'Info',
        `machineconfigpool/${pool}`,
        `reason/RenderedConfigGenerated ${name(after)} successfully generated`,
        dated(after.metadata?.creationTimestamp, at),
      );
  }
  return out;
}

export function annotations(o: RawObject | undefined): Record<string, string | undefined> {
  const a = o?.metadata?.annotations;
  return a && typeof a === 'object' ? (a as Record<string, string>) : {};
}

export function historyHead(
  cv: RawObject | undefined,
): { state?: string; version?: string; image?: string; completionTime?: string } | undefined {
  const h = (cv?.status as { history?: unknown } | undefined)?.history;
  return Array.isArray(h) ? (h[0] as { state?: string; version?: string; image?: string }) : undefined;
}

export function poolTarget(p: RawObject | undefined): string | undefined {
  const n = (p?.spec as { configuration?: { name?: unknown } } | undefined)?.configuration?.name;
  return typeof n === 'string' ? n : undefined;
}

function ownerPool(mc: RawObject): string | undefined {
  const refs = mc.metadata?.ownerReferences;
  if (Array.isArray(refs)) {
    const owner = (refs as { kind?: unknown; name?: unknown }[]).find((r) => r.kind === 'MachineConfigPool');
    if (typeof owner?.name === 'string') return owner.name;
  }
  const m = /^rendered-(.+)-[0-9a-f]{32}$/.exec(name(mc));
  return m?.[1];
}

/**
 * The source of watch's intervals: `live-watch` for a change seen as a watch event, stamped to the
 * millisecond when it happened (or was seen, as origin's monitor stamps); `live-relist` for one seen
 * only through a relist after 410 Gone, stamped when the relist saw it, later than it happened.
 */
const LIVE_WATCH = 'live-watch';
const LIVE_RELIST = 'live-relist';

/** The record as the live history's interval, through the same text forms as a build-log line. */
export function toInterval(r: MonitorRecord, file: string, relisted = false): Interval {
  return {
    from: r.from,
    to: r.to,
    level: r.level,
    // A condition change (`condition/…` in the message) belongs to the object's own kind, not an event.
    locator: parseLocatorText(r.locator, r.message.trimStart().startsWith('condition/')),
    message: parseMessageText(r.message, r.to !== r.from),
    source: relisted ? LIVE_RELIST : LIVE_WATCH,
    ref: { file },
  };
}
