/**
 * The hosted model's objects: the management cluster's NodePool and Cluster API MachineDeployment,
 * MachineSets and Machines, and the guest cluster's Nodes, with only the fields the controllers read
 * or write. Immutable once written: a writer builds a new object, the store stamps its
 * resourceVersion. dump.ts turns them into full Kubernetes objects.
 */
import type { Cond } from '../objects.js';

export interface HMeta {
  readonly name: string;
  readonly namespace: string;
  rv: number;
  /** Virtual ms (negative: before the run). */
  readonly createdAt: number;
  readonly generation: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Virtual ms of the delete request (a finalizer keeps the object until its controller lets go). */
  readonly deletedAt?: number;
  /** The controlling owner's name (MachineSet of a Machine, MachineDeployment of a MachineSet). */
  readonly owner?: string;
}

export interface NodePoolObj {
  readonly kind: 'NodePool';
  readonly meta: HMeta;
  readonly spec: {
    readonly replicas: number;
    readonly releaseImage: string;
    readonly upgradeType: 'Replace' | 'InPlace';
  };
  readonly status: {
    readonly version: string;
    readonly replicas: number;
    readonly conditions: readonly Cond[];
    readonly observedGeneration: number;
  };
}

/** Cluster API replica counters, as the v1beta1 fields and the `status.v1beta2` group define them. */
export interface ReplicaStatus {
  /** v1beta1: non-terminated machines (a machine being deleted is no longer counted). */
  readonly replicas: number;
  /** v1beta1 (MachineDeployment only): non-terminated machines of the newest MachineSet, whatever their state. */
  readonly updatedReplicas: number;
  readonly readyReplicas: number;
  /** v1beta1: non-terminated machines whose node is Ready. */
  readonly availableReplicas: number;
  readonly v1beta2: {
    /** Every machine, including those still provisioning and those being deleted. */
    readonly replicas: number;
    /** Machines whose UpToDate condition is True. */
    readonly upToDateReplicas: number;
    readonly readyReplicas: number;
    /** Machines whose Available condition is True (a machine being drained stays available). */
    readonly availableReplicas: number;
  };
  readonly observedGeneration: number;
}

export interface MachineTemplate {
  /** The release the machines boot (annotation `hypershift.openshift.io/release-version`). */
  readonly release: string;
  readonly kubeletVersion: string;
  /** `user-data-<nodepool>-<hash>`. */
  readonly dataSecretName: string;
}

export interface MachineDeploymentObj {
  readonly kind: 'MachineDeployment';
  readonly meta: HMeta;
  readonly spec: { readonly replicas: number; readonly template: MachineTemplate };
  readonly status: ReplicaStatus;
  /** status.v1beta2.conditions: RollingOut, MachinesUpToDate (Cluster API's v1beta2 conditions). */
  readonly conditions: readonly Cond[];
}

export interface MachineSetObj {
  readonly kind: 'MachineSet';
  readonly meta: HMeta;
  readonly spec: { readonly replicas: number; readonly template: MachineTemplate };
  readonly status: ReplicaStatus;
}

export interface MachineObj {
  readonly kind: 'Machine';
  readonly meta: HMeta;
  readonly spec: MachineTemplate;
  readonly status: {
    readonly phase: 'Provisioning' | 'Provisioned' | 'Running' | 'Deleting';
    readonly nodeName: string | undefined;
    readonly conditions: readonly Cond[];
  };
}

/** A guest cluster Node (the machine it runs on is `machine`). */
export interface GuestNodeObj {
  readonly kind: 'Node';
  readonly meta: HMeta;
  readonly machine: string;
  readonly ready: boolean;
  readonly unschedulable: boolean;
  readonly kubeletVersion: string;
  /** The release whose configuration the node runs (the in-place upgrader moves it). */
  readonly release: string;
  readonly readySince: number;
}

export type HObj = NodePoolObj | MachineDeploymentObj | MachineSetObj | MachineObj | GuestNodeObj;
export type HKind = HObj['kind'];

export function hmeta(
  name: string,
  namespace: string,
  createdAt: number,
  extra: Partial<Pick<HMeta, 'generation' | 'labels' | 'annotations' | 'owner'>> = {},
): HMeta {
  return {
    name,
    namespace,
    rv: 0,
    createdAt,
    generation: extra.generation ?? 1,
    labels: extra.labels ?? {},
    annotations: extra.annotations ?? {},
    ...(extra.owner !== undefined ? { owner: extra.owner } : {}),
  };
}

export const ZERO_STATUS: ReplicaStatus = {
  replicas: 0,
  updatedReplicas: 0,
  readyReplicas: 0,
  availableReplicas: 0,
  v1beta2: { replicas: 0, upToDateReplicas: 0, readyReplicas: 0, availableReplicas: 0 },
  observedGeneration: 0,
};
