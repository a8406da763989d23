/**
 * The registry of kinds: one line per kind, each kind's descriptor in its own file of this folder
 * (descriptor.ts says what a descriptor holds; CONTRIBUTING.md "A new kind" is the recipe). The order
 * here is the ObjectSnapshot's field order, the order a rewind goes through the kinds (a rewinder's
 * `needs` go first), and the order serve loads them.
 */
import type * as z from 'zod';
import { ClusterOperatorKind } from './clusteroperator.js';
import { ClusterVersionKind } from './clusterversion.js';
import { ControllerConfigKind } from './controllerconfig.js';
import { DaemonSetKind } from './daemonset.js';
import { DeploymentKind } from './deployment.js';
import type { KindFacts } from './descriptor.js';
import { EventKind } from './event.js';
import { MachineConfigKind } from './machineconfig.js';
import { MachineConfigPoolKind } from './machineconfigpool.js';
import { NodeKind } from './node.js';
import { PodKind } from './pod.js';
import { PodDisruptionBudgetKind } from './poddisruptionbudget.js';
import { ReplicaSetKind } from './replicaset.js';

export const KINDS = {
  ClusterVersion: ClusterVersionKind,
  ClusterOperator: ClusterOperatorKind,
  MachineConfigPool: MachineConfigPoolKind,
  MachineConfig: MachineConfigKind,
  Node: NodeKind,
  Event: EventKind,
  Pod: PodKind,
  PodDisruptionBudget: PodDisruptionBudgetKind,
  ControllerConfig: ControllerConfigKind,
  Deployment: DeploymentKind,
  DaemonSet: DaemonSetKind,
  ReplicaSet: ReplicaSetKind,
} as const;

export type KnownKind = keyof typeof KINDS;
/** The validated object type of a kind. */
export type KindObject<K extends KnownKind> = z.infer<(typeof KINDS)[K]['schema']>;
/** The ObjectSnapshot field of a kind. */
export type KindField<K extends KnownKind> = (typeof KINDS)[K]['field'];
/** The kinds rewound field by field by a rewinder of their own (timeline/rewind/). */
export type RewoundKind = {
  [K in KnownKind]: (typeof KINDS)[K]['changes'] extends { by: 'rewinder' } ? K : never;
}[KnownKind];

/** Every kind, in KINDS order (the ObjectSnapshot's field order). */
export const KNOWN_KINDS = Object.keys(KINDS) as KnownKind[];

export function isKnownKind(kind: unknown): kind is KnownKind {
  return typeof kind === 'string' && Object.hasOwn(KINDS, kind);
}

/** A kind's descriptor, as the shape every descriptor shares. */
export function kindFacts(kind: KnownKind): KindFacts {
  return KINDS[kind] as KindFacts;
}

/** The kind whose gather-extra file is `name` (without `.gz`), if any. */
export function kindOfGatherExtraFile(name: string): KnownKind | undefined {
  return GATHER_EXTRA.get(name);
}

/** Whether `resource` names a must-gather resource atlevel reads. */
export function isMustGatherResource(resource: string): boolean {
  return MUST_GATHER.has(resource);
}

/** The namespaced kind whose locator key (its lower-case name: `deployment`) is `key`. */
export function namespacedKindOf(key: string): KnownKind | undefined {
  return NAMESPACED_KEYS.get(key);
}

/**
 * The order to go through `kinds` when some must come after others (`after` of each): KINDS order,
 * each kind held back until the kinds it names are through.
 */
export function orderedAfter<K extends KnownKind>(
  kinds: readonly K[],
  after: (k: K) => readonly string[] | undefined,
): K[] {
  const out: K[] = [];
  const done = new Set<string>();
  const pending = [...kinds];
  while (pending.length > 0) {
    const i = pending.findIndex((k) =>
      (after(k) ?? []).every((a) => done.has(a) || !pending.some((p) => p === a)),
    );
    const [k] = pending.splice(i === -1 ? 0 : i, 1);
    if (k === undefined) break;
    out.push(k);
    done.add(k);
  }
  return out;
}

const GATHER_EXTRA = new Map<string, KnownKind>();
const MUST_GATHER = new Set<string>();
const NAMESPACED_KEYS = new Map<string, KnownKind>();
for (const k of KNOWN_KINDS) {
  const facts = kindFacts(k);
  if (facts.gatherExtra !== undefined) GATHER_EXTRA.set(facts.gatherExtra, k);
  if (facts.mustGather !== undefined) MUST_GATHER.add(facts.mustGather);
  if (facts.api.namespaced) NAMESPACED_KEYS.set(k.toLowerCase(), k);
}

export type { ApiFacts, KindFacts } from './descriptor.js';
export { DEFAULT_COLUMNS, type PrinterColumn } from './printing.js';
