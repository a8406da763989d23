/**
 * The operands that hold an operator back: its Deployments and DaemonSets (timeline/operand-rollouts.ts
 * finds them by the operator's relatedObjects namespaces) that have not rolled out at the moment
 * assessed. On a snapshot their counts are the objects' status as last seen; at a past moment (status
 * --at) the status is not rewound, so the updated count comes from the rollout as the inputs place it
 * in time, and the available count is left unknown (docs/status.md).
 */
import type { ClusterHistory, Millis } from '../model/index.js';
import { formatTime } from '../model/index.js';
import { type OperandRollout, operandAt } from '../timeline/index.js';
import type { RollingOperand } from './types.js';

/** How many workloads the note of unplaced rollouts names before "and N more". */
const UNPLACED_SHOWN = 5;

export interface OperandsAt {
  /** Operator name → the operands that have not rolled out then. */
  readonly of: (operator: string) => readonly RollingOperand[];
  /** What could not be told at the moment (status --at): rollouts the inputs do not place in time. */
  readonly notes: readonly string[];
}

function shape(operator: string, r: OperandRollout, updated: number, available?: number): RollingOperand {
  return {
    operator,
    kind: r.kind,
    namespace: r.namespace,
    name: r.name,
    updated,
    desired: r.desired,
    ...(available !== undefined ? { available } : {}),
    ...(r.from !== undefined ? { since: r.from } : {}),
    ref: r.ref,
  };
}

/**
 * On the snapshot as it is: the operands not done as last seen, but for one whose rollout the inputs
 * place after `now` (the snapshot's moment is its latest condition change; the workloads may have
 * been gathered later).
 */
export function operandsAsLastSeen(
  byOperator: ReadonlyMap<string, readonly OperandRollout[]>,
  now: Millis,
): OperandsAt {
  return {
    of: (operator) =>
      (byOperator.get(operator) ?? [])
        .filter((r) => !r.done && (r.from === undefined || r.from <= now))
        .map((r) => shape(operator, r, r.updated, r.available)),
    notes: [],
  };
}

/**
 * At a past moment: the operands whose latest rollout was under way then, as `history` (the whole
 * inputs, not the rewound ones) places it; those it cannot place are named in a note when their
 * operator is one status asks about.
 */
export function operandsAt(
  history: ClusterHistory,
  byOperator: ReadonlyMap<string, readonly OperandRollout[]>,
  at: Millis,
): OperandsAt {
  const unplaced: string[] = [];
  const asked = new Set<string>();
  const end = history.span?.to;
  return {
    of: (operator) => {
      const out: RollingOperand[] = [];
      for (const r of byOperator.get(operator) ?? []) {
        if (end !== undefined && at >= end) {
          if (!r.done) out.push(shape(operator, r, r.updated, r.available));
          continue;
        }
        const then = operandAt(r, at);
        if (then.state === 'rolling') out.push(shape(operator, r, then.updated ?? 0));
        else if (then.state === 'unknown' && !asked.has(r.key)) {
          asked.add(r.key);
          unplaced.push(`${r.kind} ${r.namespace}/${r.name} (${operator})`);
        }
      }
      return out;
    },
    // One note, however many: a must-gather at a past moment can hold dozens of such workloads.
    get notes() {
      if (unplaced.length === 0) return [];
      const shown = unplaced.slice(0, UNPLACED_SHOWN).join(', ');
      const more = unplaced.length > UNPLACED_SHOWN ? ` and ${unplaced.length - UNPLACED_SHOWN} more` : '';
      const it = unplaced.length === 1 ? 'its rollout' : 'their rollouts';
      const held = unplaced.length === 1 ? 'it held its operator' : 'they held their operators';
      return [
        `${shown}${more}: the inputs do not place ${it} in time, so whether ${held} back at ${formatTime(at)} is unknown.`,
      ];
    },
  };
}
