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

/** On the snapshot as it is: the operands not done as last seen. */
export function operandsAsLastSeen(byOperator: ReadonlyMap<string, readonly OperandRollout[]>): OperandsAt {
  return {
    of: (operator) =>
      (byOperator.get(operator) ?? [])
        .filter((r) => !r.done)
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
  const notes: string[] = [];
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
          notes.push(
            `${r.kind} ${r.namespace}/${r.name} (${operator}): the inputs do not place its rollout in time, so whether it held the operator back at ${formatTime(at)} is unknown.`,
          );
        }
      }
      return out;
    },
    get notes() {
      return notes;
    },
  };
}
