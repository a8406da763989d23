/**
 * `atlevel inputs -o json` and `-o yaml`: the plans of the arguments, in argument order, as
 * docs/inputs.md describes them. Keys are stable; new optional keys may be added without a version bump.
 */
import type { InputPlan } from '../model/index.js';
import type { Documenter } from './reporter.js';

const INPUTS_SCHEMA_VERSION = 1;

export const inputsDocument: Documenter<readonly InputPlan[]> = (plans) => ({
  schemaVersion: INPUTS_SCHEMA_VERSION,
  kind: 'InputPlans',
  inputs: plans,
});
