import type { Condition } from './kinds/common.js';

interface WithConditions {
  status?: { conditions?: Condition[] | null | undefined } | undefined;
}

export function findCondition(obj: WithConditions, type: string): Condition | undefined {
  return obj.status?.conditions?.find((c) => c.type === type);
}
