/**
 * timeline/ owns time: building a ClusterHistory's interval list (monitor intervals merged with
 * intervals derived from objects) and answering "what was the state of X at time t" — conditions,
 * operator versions, updates and their completion, pool rollouts.
 */

// Kept here for the callers that reach them through timeline; they live in model (locator.ts).
export { objectKey } from '../model/index.js';
export { buildHistory } from './build.js';
export {
  type ManagedWorkloads,
  type OperandRollout,
  operandAt,
  operandOwnership,
  operandRolloutIntervals,
  operandsByOperator,
} from './operand-rollouts.js';
export * from './pools.js';
export * from './query.js';
export {
  conditionStatusKnown,
  conditionTextKnown,
  historyAt,
  nodeConfigUnknown,
  OutsideSpanError,
  objectsAt,
  operatorVersionUnknown,
  REWIND_ORDER,
  type Unrewound,
} from './rewind/index.js';
export * from './update-configs.js';
export * from './updates.js';
export { updateWindow, windowNote } from './window.js';
export * from './workload-rollouts.js';
