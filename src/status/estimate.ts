/**
 * Time-left estimate for the control plane, the same arithmetic as `oc adm upgrade status`
 * (docs/domain.md 9.4) so that the numbers agree on the same snapshot. What atlevel changes is when the
 * number is shown at all (see controlplane.ts: none while the update is blocked).
 */
import type { UpdateHistoryEntry } from '../model/index.js';
import { type Millis, parseTime } from '../model/index.js';
import type { EstimateBasis } from './types.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's Duration.Round: to the nearest multiple, halves away from zero. */
export function roundTo(ms: Millis, unit: Millis): Millis {
  const q = Math.abs(ms) / unit;
  const r = Math.floor(q + 0.5) * unit;
  return ms < 0 && r !== 0 ? -r : r;
}

/** Go's Duration.Truncate: towards zero. */
export function truncateTo(ms: Millis, unit: Millis): Millis {
  return Math.trunc(ms / unit) * unit || 0;
}

/**
 * Map the fraction of operators updated to the fraction of the update's time spent. oc fitted three
 * polynomials on one build cluster: 97% of operators are done about 67% of the way through, because
 * the machine-config operator, last, waits for the control-plane nodes to reboot.
 */
export function timewiseComplete(operatorFraction: number): number {
  const x = operatorFraction;
  if (x < 0.25) return -0.03078788 + 2.62886 * x - 3.823954 * x ** 2;
  if (x < 0.9) return 0.1851215 + 1.64994 * x - 4.676898 * x ** 2 + 5.451824 * x ** 3 - 2.125286 * x ** 4;
  return 25053.32 - 107394.3 * x + 172527.2 * x ** 2 - 123107 * x ** 3 + 32921.81 * x ** 4;
}

/**
 * How long an update takes on this cluster: the most recent completed update before the current
 * one, skipping the oldest entry (the install). One hour when there is none.
 */
export function baselineDuration(history: readonly UpdateHistoryEntry[]): {
  readonly duration: Millis;
  readonly basis: EstimateBasis;
} {
  for (const item of history.slice(1, -1)) {
    if (item.state !== 'Completed') continue;
    const started = parseTime(item.startedTime);
    const completed = parseTime(item.completionTime);
    if (started !== undefined && completed !== undefined) {
      return { duration: completed - started, basis: 'previous-update' };
    }
  }
  return { duration: HOUR, basis: 'default-hour' };
}

export interface TimeLeftInput {
  readonly baseline: Millis;
  readonly baselineBasis: EstimateBasis;
  /** From the start of the update to the last observed progress. */
  readonly toLastProgress: Millis;
  /** From the start of the update to now. */
  readonly elapsed: Millis;
  /** Operators updated / total, 0..1. */
  readonly operatorFraction: number;
}

/**
 * Time left: once some operators are done and more than 5 minutes of progress were seen, project the
 * total from the progress so far; else use the baseline. The remainder is padded by 20% (or, when
 * already overdue, shrunk by it), then rounded to minutes above 10 minutes and seconds below.
 * Negative means overdue.
 */
export function estimateTimeLeft(input: TimeLeftInput): {
  readonly timeLeft: Millis;
  readonly basis: EstimateBasis;
} {
  if (input.operatorFraction >= 1) return { timeLeft: 0, basis: 'complete' };
  const timewise = timewiseComplete(input.operatorFraction);
  let totalSeconds: number;
  let basis: EstimateBasis;
  if (input.operatorFraction > 0 && timewise > 0 && input.toLastProgress > 5 * MINUTE) {
    totalSeconds = input.toLastProgress / SECOND / timewise;
    basis = 'projection';
  } else {
    totalSeconds = input.baseline / SECOND;
    basis = input.baselineBasis;
  }
  const remainingSeconds = totalSeconds - input.elapsed / SECOND;
  const pad = remainingSeconds < 0 ? 1 / 1.2 : 1.2;
  const timeLeft = Math.trunc(remainingSeconds * pad) * SECOND || 0;
  return { timeLeft: timeLeft > 10 * MINUTE ? roundTo(timeLeft, MINUTE) : roundTo(timeLeft, SECOND), basis };
}

export const TIME = { SECOND, MINUTE, HOUR } as const;
