/**
 * KINDS: every fact atlevel keeps about one Kubernetes kind, in one record, so that reading a new kind
 * is one entry here (see docs/recipes-inputs.md):
 * - `schema` validates an object of the kind at the edge (objects.ts);
 * - `field` is where the kind's objects sit in an ObjectSnapshot;
 * - `gatherExtra` is the file CI's gather-extra step writes with `oc get <resource> -o json`
 *   (docs/domain.md 7.4), when it writes one;
 * - `mustGather` is the resource name of its must-gather files (`<resource>.yaml` or a
 *   `<resource>/` folder);
 * - `ocExample` is the suffix of its file in an oc examples case (`CASE-<suffix>.yaml`, oc
 *   pkg/cli/admin/upgrade/status/examples/README.md), when oc's examples hold one;
 * - `normalize` brings the kind's variants to the one shape analyses read;
 * - `deferred` names the members (dotted paths in an object) that a streamed List keeps as bytes
 *   when they are large, parsed only when read (deferred-json.ts).
 */
import type * as z from 'zod';
import { normalizeEvent } from './event-normalize.js';
import {
  ClusterOperatorSchema,
  ClusterVersionSchema,
  ControllerConfigSchema,
  EventSchema,
  MachineConfigPoolSchema,
  MachineConfigSchema,
  NodeSchema,
  PodDisruptionBudgetSchema,
  PodSchema,
} from './objects.js';

export interface KindFacts<S extends z.ZodType = z.ZodType, F extends string = string> {
  readonly schema: S;
  readonly field: F;
  readonly gatherExtra?: string;
  readonly mustGather?: string;
  readonly ocExample?: string;
  readonly normalize?: (object: z.infer<S>) => z.infer<S>;
  readonly deferred?: readonly string[];
}

/** Ties `normalize` to the schema's type while keeping the literal field name. */
function kind<S extends z.ZodType, F extends string>(facts: KindFacts<S, F>): KindFacts<S, F> {
  return facts;
}

export const KINDS = {
  ClusterVersion: kind({
    schema: ClusterVersionSchema,
    field: 'clusterVersions',
    gatherExtra: 'clusterversion.json',
    mustGather: 'clusterversions',
    ocExample: 'cv',
  }),
  ClusterOperator: kind({
    schema: ClusterOperatorSchema,
    field: 'clusterOperators',
    gatherExtra: 'clusteroperators.json',
    mustGather: 'clusteroperators',
    ocExample: 'co',
  }),
  MachineConfigPool: kind({
    schema: MachineConfigPoolSchema,
    field: 'machineConfigPools',
    gatherExtra: 'machineconfigpools.json',
    mustGather: 'machineconfigpools',
    ocExample: 'mcp',
  }),
  MachineConfig: kind({
    schema: MachineConfigSchema,
    field: 'machineConfigs',
    gatherExtra: 'machineconfigs.json',
    mustGather: 'machineconfigs',
    ocExample: 'mc',
    // Only the configs a diff or an explanation compares are ever parsed.
    deferred: ['spec.config'],
  }),
  Node: kind({
    schema: NodeSchema,
    field: 'nodes',
    gatherExtra: 'nodes.json',
    mustGather: 'nodes',
    ocExample: 'node',
  }),
  Event: kind({
    schema: EventSchema,
    field: 'events',
    gatherExtra: 'events.json',
    mustGather: 'events',
    normalize: normalizeEvent,
  }),
  Pod: kind({ schema: PodSchema, field: 'pods', gatherExtra: 'pods.json', mustGather: 'pods' }),
  PodDisruptionBudget: kind({
    schema: PodDisruptionBudgetSchema,
    field: 'podDisruptionBudgets',
    gatherExtra: 'poddisruptionbudgets.json',
    mustGather: 'poddisruptionbudgets',
  }),
  ControllerConfig: kind({
    schema: ControllerConfigSchema,
    field: 'controllerConfigs',
    gatherExtra: 'controllerconfigs.json',
    mustGather: 'controllerconfigs',
  }),
} as const;

export type KnownKind = keyof typeof KINDS;
/** The validated object type of a kind. */
export type KindObject<K extends KnownKind> = z.infer<(typeof KINDS)[K]['schema']>;
/** The ObjectSnapshot field of a kind. */
export type KindField<K extends KnownKind> = (typeof KINDS)[K]['field'];

/** Every kind, in KINDS order (the ObjectSnapshot's field order). */
export const KNOWN_KINDS = Object.keys(KINDS) as KnownKind[];

export function isKnownKind(kind: unknown): kind is KnownKind {
  return typeof kind === 'string' && Object.hasOwn(KINDS, kind);
}

/** The kind whose gather-extra file is `name` (without `.gz`), if any. */
export function kindOfGatherExtraFile(name: string): KnownKind | undefined {
  return GATHER_EXTRA.get(name);
}

/** Whether `resource` names a must-gather resource atlevel reads. */
export function isMustGatherResource(resource: string): boolean {
  return MUST_GATHER.has(resource);
}

const GATHER_EXTRA = new Map<string, KnownKind>();
const MUST_GATHER = new Set<string>();
for (const k of KNOWN_KINDS) {
  const facts: KindFacts = KINDS[k];
  if (facts.gatherExtra !== undefined) GATHER_EXTRA.set(facts.gatherExtra, k);
  if (facts.mustGather !== undefined) MUST_GATHER.add(facts.mustGather);
}
