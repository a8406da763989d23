/**
 * model/ owns the types every stage shares: validated Kubernetes objects (objects.ts), the
 * ClusterHistory that sources build and analyses read (history.ts), the Finding that analyses
 * return and reporters print (finding.ts), user-facing errors (errors.ts) and time helpers, the
 * one key of an object a locator names (locator.ts) and echo removal, the contract between the
 * sources that make a history's parts and timeline's buildHistory (echoes.ts).
 */

export * from './budget.js';
export * from './conditions.js';
export type * from './config-diff.js';
export * from './deferred-json.js';
export { EchoIndex } from './echo-index.js';
export { dropEchoes } from './echoes.js';
export * from './errors.js';
export * from './finding.js';
export * from './history.js';
export type * from './input-plan.js';
export { detach, Interner, StringTable } from './intern.js';
export * from './interrupt.js';
export * from './kinds/index.js';
export { locatorOf, locators, objectKey } from './locator.js';
export * from './objects.js';
export * from './time.js';
export * from './words.js';
