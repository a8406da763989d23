import type { Condition } from './kinds/common.js';
import { type Millis, parseTime } from './time.js';

interface WithConditions {
  status?: { conditions?: Condition[] | null | undefined } | undefined;
}

export function findCondition(obj: WithConditions, type: string): Condition | undefined {
  return obj.status?.conditions?.find((c) => c.type === type);
}

export function conditionSince(condition: Condition | undefined): Millis | undefined {
  return parseTime(condition?.lastTransitionTime);
}
