import type { Interval } from '../../model/index.js';
import type { MarkKind, Tone } from './report-data-types.js';

/** Conditions whose True is trouble (a `*Degraded` condition always is). */
const BAD_WHEN_TRUE = new Set([
  'Degraded',
  'Failing',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
  'NetworkUnavailable',
]);
/** Conditions whose False is trouble. */
const BAD_WHEN_FALSE = new Set(['Available', 'Ready', 'ReleaseAccepted']);
/** Conditions that mean "work in progress" when True. */
const BUSY_WHEN_TRUE = new Set(['Progressing', 'Updating']);
/** Conditions whose False is worth noticing but is not a failure by itself. */
const NOTE_WHEN_FALSE = new Set(['Upgradeable', 'Updated']);

/** origin's node-state-analyzer phases (docs/domain.md 7.5): all are work in progress except NotReady. */
const NODE_PHASES_BAD = new Set(['NotReady']);

/**
 * The colour of an interval, by what its condition means (origin's monitor rules, docs/domain.md 7.2,
 * extended to pools and nodes): red for Available=False / Degraded=True / Failing=True, amber for
 * Progressing=True / Updating=True, green for a known condition in its good state. Intervals
 * without a condition fall back to their level.
 */
export function toneOf(interval: Interval): Tone {
  const a = interval.message.annotations;
  const condition = a.condition;
  const status = a.status;
  if (condition !== undefined && status !== undefined) {
    // A Deployment's Progressing=True is its steady state (NewReplicaSetAvailable, kubernetes
    // pkg/controller/deployment/progress.go): its rollout is drawn from its pods instead.
    if (interval.locator.type === 'Deployment' && condition === 'Progressing' && status === 'True')
      return 'ok';
    return conditionTone(condition, status);
  }
  if (a.phase !== undefined) return NODE_PHASES_BAD.has(a.phase) ? 'bad' : 'progress';
  // An operand's rollout: work in progress while it ran; one not finished by the end, worth noticing;
  // every pod Ready after it (a DaemonSet's, which has no conditions to say so), healthy.
  if (a.rollout !== undefined)
    return a.rollout === 'complete' ? 'progress' : a.rollout === 'settled' ? 'ok' : 'warn';
  if (interval.message.reason === 'UpdateHistory' || a.state === 'Partial') return 'progress';
  if (interval.level === 'Error') return 'bad';
  if (interval.level === 'Warning') return 'warn';
  return 'info';
}

export function conditionTone(condition: string, status: string): Tone {
  if (status === 'Unknown') return 'warn';
  const isTrue = status === 'True';
  if (BAD_WHEN_TRUE.has(condition) || condition.endsWith('Degraded')) return isTrue ? 'bad' : 'ok';
  if (BAD_WHEN_FALSE.has(condition)) return isTrue ? 'ok' : 'bad';
  if (BUSY_WHEN_TRUE.has(condition)) return isTrue ? 'progress' : 'ok';
  if (NOTE_WHEN_FALSE.has(condition)) return isTrue ? 'ok' : 'warn';
  return 'info';
}

const VERSION_TEXT = /^(versions?:|cluster reached |cluster converging to |Completed upgrade to )/;

/** What kind of marker an instant is. Version changes are what a triager scans for first. */
export function markKindOf(interval: Interval): MarkKind {
  const m = interval.message;
  if (interval.locator.type === 'MachineConfig' && m.reason === 'Created') return 'created';
  if (m.annotations.versions !== undefined || m.reason === 'OperatorVersionChanged') return 'version';
  if (VERSION_TEXT.test(m.humanMessage)) return 'version';
  return 'instant';
}

/** The few words drawn on a bar: the condition and its status, the phase, or the reason. */
export function barLabel(interval: Interval): string {
  const a = interval.message.annotations;
  if (a.condition !== undefined && a.status !== undefined) return `${a.condition}=${a.status}`;
  if (a.phase !== undefined) return a.phase;
  if (a.rollout === 'settled') return `pods Ready ${a.ready ?? ''}`.trim();
  if (a.rollout !== undefined) return `rollout ${a.updated ?? ''}`.trim();
  if (interval.message.reason === 'UpdateHistory') return interval.message.humanMessage;
  if (interval.message.reason !== '') return interval.message.reason;
  return shorten(interval.message.humanMessage, 48);
}

/** origin's message text: the annotations as sorted `key/value` pairs, then the human message. */
export function messageText(interval: Interval): string {
  const a = interval.message.annotations;
  const human = interval.message.humanMessage;
  const keys = Object.keys(a);
  if (keys.length === 0) return human;
  if (keys.length > 1) keys.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  let text = '';
  for (const k of keys) text += `${text ? ' ' : ''}${k}/${a[k] ?? ''}`;
  return human ? `${text} ${human}` : text;
}

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
