/**
 * What the HyperShift and Cluster API kinds share: a version status as HostedCluster and
 * HostedControlPlane carry it (openshift/hypershift api/hypershift/v1beta1/controlplaneversion_types.go,
 * the ClusterVersion-like `{desired, history[]}`), the replica counts of a MachineDeployment or
 * MachineSet in both their Cluster API v1beta1 form and the `status.v1beta2` block (the counts
 * OCPBUGS-77922 is about, docs/domain.md "HyperShift"), and the annotations the rules read.
 */
import * as z from 'zod';
import { conditions, intOrString, labelSelector, once } from './common.js';
import { arr, get, str } from './printing.js';

type Loose = Record<string, unknown>;

/** Why live may be refused a HyperShift or Cluster API kind: only a management cluster holds them (docs/live.md). */
export const HOSTED_KIND = 'a hosted-cluster kind, read on a HyperShift management cluster (docs/hosted.md)';

const release = once(() => z.looseObject({ version: z.string().optional(), image: z.string().optional() }));

/** One entry of a version history, newest first: Completed or Partial. */
const historyEntry = once(() =>
  z.looseObject({
    state: z.string().optional(),
    version: z.string().optional(),
    image: z.string().optional(),
    startedTime: z.string().nullable().optional(),
    completionTime: z.string().nullable().optional(),
  }),
);

/** HostedCluster `status.version` (the guest ClusterVersion's) and `status.controlPlaneVersion`. */
export const versionStatus = once(() =>
  z.looseObject({
    desired: release().nullable().optional(),
    history: z.array(historyEntry()).nullable().optional(),
    observedGeneration: z.number().optional(),
  }),
);

/** The `status.v1beta2` block Cluster API v1beta1 objects carry since CAPI 1.9. */
export const v1beta2Status = once(() =>
  z
    .looseObject({
      conditions: conditions(),
      replicas: z.number().nullable().optional(),
      readyReplicas: z.number().nullable().optional(),
      availableReplicas: z.number().nullable().optional(),
      upToDateReplicas: z.number().nullable().optional(),
    })
    .nullable()
    .optional(),
);

/** A Machine template as a MachineDeployment or MachineSet holds it (`spec.template`). */
const machineTemplate = once(() =>
  z.looseObject({
    metadata: z
      .looseObject({
        labels: z.record(z.string(), z.string()).nullable().optional(),
        annotations: z.record(z.string(), z.string()).nullable().optional(),
      })
      .nullable()
      .optional(),
    spec: z
      .looseObject({
        clusterName: z.string().optional(),
        version: z.string().nullable().optional(),
        bootstrap: z.looseObject({ dataSecretName: z.string().nullable().optional() }).nullable().optional(),
        infrastructureRef: z
          .looseObject({ kind: z.string().optional(), name: z.string().optional() })
          .nullable()
          .optional(),
      })
      .optional(),
  }),
);

/** The spec and status of a MachineDeployment or a MachineSet (both count Machines). */
export const replicaSpec = once(() => ({
  clusterName: z.string().optional(),
  replicas: z.number().nullable().optional(),
  selector: labelSelector().nullable().optional(),
  template: machineTemplate().optional(),
}));
export const replicaStatus = once(() => ({
  observedGeneration: z.number().optional(),
  replicas: z.number().optional(),
  updatedReplicas: z.number().optional(),
  readyReplicas: z.number().optional(),
  availableReplicas: z.number().optional(),
  unavailableReplicas: z.number().optional(),
  fullyLabeledReplicas: z.number().optional(),
  phase: z.string().optional(),
  conditions: conditions(),
  v1beta2: v1beta2Status(),
}));
export const rollingUpdate = once(() =>
  z
    .looseObject({
      maxSurge: intOrString().nullable().optional(),
      maxUnavailable: intOrString().nullable().optional(),
    })
    .nullable()
    .optional(),
);

/** The newest history entry of a version status (history is newest first). */
export function newestEntry(o: Loose, ...path: string[]): Loose | undefined {
  return arr(get(o, ...path, 'history'))[0];
}

/** The versions of a version status' history the printer shows: the newest Completed one. */
export function completedVersion(o: Loose, ...path: string[]): string {
  return str(arr(get(o, ...path, 'history')).find((h) => h.state === 'Completed')?.version);
}

/**
 * A MachineDeployment's or MachineSet's rollout as last seen, from both count sets: v1beta1
 * `updatedReplicas` and v1beta2 `upToDateReplicas` side by side, since they disagreed in OCPBUGS-77922.
 */
export function machineRollout(o: Loose): { level: 'Info' | 'Warning'; message: string } {
  const want = typeof get(o, 'spec', 'replicas') === 'number' ? (get(o, 'spec', 'replicas') as number) : 0;
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const updated = n(get(o, 'status', 'updatedReplicas')) ?? 0;
  const upToDate = n(get(o, 'status', 'v1beta2', 'upToDateReplicas'));
  const available =
    n(get(o, 'status', 'v1beta2', 'availableReplicas')) ?? n(get(o, 'status', 'availableReplicas')) ?? 0;
  const replicas = n(get(o, 'status', 'replicas')) ?? 0;
  const gen = n(get(o, 'metadata', 'generation'));
  const observed = n(get(o, 'status', 'observedGeneration'));
  const stale = gen !== undefined && (observed === undefined || observed < gen);
  const parts = [
    `${updated}/${want} updated (v1beta1)`,
    upToDate === undefined ? 'no v1beta2 up-to-date count' : `${upToDate}/${want} up-to-date (v1beta2)`,
    `${available}/${want} available`,
    `${replicas} replicas`,
  ];
  if (stale) parts.push(`generation ${gen} not yet observed (observed ${observed ?? 'none'})`);
  const done = !stale && (upToDate ?? updated) >= want && available >= want && replicas <= want;
  return {
    level: done ? 'Info' : 'Warning',
    message: `rollout ${done ? 'complete' : 'in progress'} as last seen: ${parts.join(', ')}`,
  };
}
