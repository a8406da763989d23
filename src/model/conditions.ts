import type { Condition } from './kinds/common.js';
import { type Millis, parseTime } from './time.js';

interface WithConditions {
  status?: { conditions?: Condition[] | null | undefined } | undefined;
}

export function findCondition(obj: WithConditions, type: string): Condition | undefined {
  return obj.status?.conditions?.find((c) => c.type === type);
}

/** True only when the condition exists and its status is exactly `True`. */
function isConditionTrue(obj: WithConditions, type: string): boolean {
  return findCondition(obj, type)?.status === 'True';
}

export function conditionSince(condition: Condition | undefined): Millis | undefined {
  return parseTime(condition?.lastTransitionTime);
}
