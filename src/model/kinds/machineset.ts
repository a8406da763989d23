/**
 * MachineSet (cluster.x-k8s.io/v1beta1): one per template of a MachineDeployment (Replace), or the
 * NodePool's own (InPlace, with its `hypershift.openshift.io/nodePoolTargetConfigVersion` and
 * `nodePoolCurrentConfigVersion` annotations); owned by its MachineDeployment through
 * ownerReferences (kubernetes-sigs/cluster-api api/v1beta1/machineset_types.go).
 */
import * as z from 'zod';
import { ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { HOSTED_KIND, machineRollout, replicaSpec, replicaStatus } from './hosted.js';
import { AGE, col, countOr0, get, NAME, str } from './printing.js';

const MachineSetSchema = () =>
  z.looseObject({
    kind: z.literal('MachineSet'),
    metadata: ObjectMetaSchema(),
    spec: z.looseObject({ ...replicaSpec(), deletePolicy: z.string().optional() }).optional(),
    status: z.looseObject(replicaStatus()).optional(),
  });
export const MachineSetKind = kind({
  schema: MachineSetSchema,
  field: 'machineSets',
  label: 'Machine sets',
  api: {
    group: 'cluster.x-k8s.io',
    version: 'v1beta1',
    plural: 'machinesets',
    namespaced: true,
    shortNames: ['ms'],
    categories: ['cluster-api'],
  },
  // After Cluster API v1beta1's machinesets CRD printer columns.
  columns: [
    NAME,
    col('Cluster', (o) => str(get(o, 'spec', 'clusterName'))),
    col('Replicas', countOr0('replicas'), { type: 'integer' }),
    col('Ready', countOr0('readyReplicas'), { type: 'integer' }),
    col('Available', countOr0('availableReplicas'), { type: 'integer' }),
    AGE,
    col('Version', (o) => str(get(o, 'spec', 'template', 'spec', 'version'))),
  ],
  // namespaces/<ns>-<name>/cluster.x-k8s.io/machinesets.yaml
  mustGather: 'machinesets',
  // Listed and watched across namespaces (docs/live.md): a management cluster keeps them in many;
  // only a management cluster has them.
  live: { scope: 'all', optional: HOSTED_KIND },
  changes: {
    by: 'conditions',
    lastSeen: [
      'spec',
      'metadata.annotations',
      'metadata.generation',
      'status.observedGeneration',
      'status.*Replicas',
      'status.v1beta2',
    ],
  },
  timeline: { conditions: true, rollout: machineRollout },
});
