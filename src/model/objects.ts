/**
 * Typed, validated views of the Kubernetes/OpenShift objects atlevel reads. The schemas are loose:
 * unknown fields are kept, optional fields may be missing, and only what atlevel relies on is checked.
 * Sources validate every object with these at the edge; analyses trust the inferred types. Each
 * schema lives with its kind's descriptor (kinds/<kind>.ts).
 */
export type { ClusterOperator } from './kinds/clusteroperator.js';
export type { ClusterVersion, UpdateHistoryEntry } from './kinds/clusterversion.js';
export type { Condition, LabelSelector } from './kinds/common.js';
export type { KubeEvent } from './kinds/event.js';
export type { MachineConfig } from './kinds/machineconfig.js';
export type { MachineConfigPool } from './kinds/machineconfigpool.js';
export type { Node } from './kinds/node.js';
export type { Pod } from './kinds/pod.js';
export type { PodDisruptionBudget } from './kinds/poddisruptionbudget.js';

/** The annotation and label keys atlevel reads (docs/domain.md 1.2, 1.3, 4.1). */
export const MCO = {
  currentConfig: 'machineconfiguration.openshift.io/currentConfig',
  desiredConfig: 'machineconfiguration.openshift.io/desiredConfig',
  state: 'machineconfiguration.openshift.io/state',
  /** `drain-<config>` or `uncordon-<config>`: what the daemon asks of the drain controller… */
  desiredDrain: 'machineconfiguration.openshift.io/desiredDrain',
  /** …and what the controller last did: a node drains while the two differ on a `drain-` request. */
  lastAppliedDrain: 'machineconfiguration.openshift.io/lastAppliedDrain',
  reason: 'machineconfiguration.openshift.io/reason',
  releaseImageVersion: 'machineconfiguration.openshift.io/release-image-version',
  generatedByControllerVersion: 'machineconfiguration.openshift.io/generated-by-controller-version',
  requiredForUpgrade: 'operator.machineconfiguration.openshift.io/required-for-upgrade',
  role: 'machineconfiguration.openshift.io/role',
} as const;
