/**
 * MachineDeployment (cluster.x-k8s.io/v1beta1), one per NodePool of a Replace upgrade type, in the
 * control-plane namespace: its template (`spec.template.spec.version` and the bootstrap
 * `user-data-<np>-<hash>` secret) and both its v1beta1 counts and `status.v1beta2` counts
 * (kubernetes-sigs/cluster-api api/v1beta1/machinedeployment_types.go; OCPBUGS-77922).
 */
import * as z from 'zod';
import { ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { HOSTED_KIND, machineRollout, replicaSpec, replicaStatus, rollingUpdate } from './hosted.js';
import { AGE, col, countOr0, get, NAME, str } from './printing.js';

const MachineDeploymentSchema = () =>
  z.looseObject({
    kind: z.literal('MachineDeployment'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        ...replicaSpec(),
        strategy: z
          .looseObject({ type: z.string().optional(), rollingUpdate: rollingUpdate() })
          .nullable()
          .optional(),
        paused: z.boolean().optional(),
      })
      .optional(),
    status: z.looseObject(replicaStatus()).optional(),
  });
export const MachineDeploymentKind = kind({
  schema: MachineDeploymentSchema,
  field: 'machineDeployments',
  label: 'Machine deployments',
  api: {
    group: 'cluster.x-k8s.io',
    version: 'v1beta1',
    plural: 'machinedeployments',
    namespaced: true,
    shortNames: ['md'],
    categories: ['cluster-api'],
  },
  // After Cluster API v1beta1's machinedeployments CRD printer columns.
  columns: [
    NAME,
    col('Cluster', (o) => str(get(o, 'spec', 'clusterName'))),
    col('Replicas', countOr0('replicas'), { type: 'integer' }),
    col('Ready', countOr0('readyReplicas'), { type: 'integer' }),
    col('Updated', countOr0('updatedReplicas'), { type: 'integer' }),
    col('Unavailable', countOr0('unavailableReplicas'), { type: 'integer' }),
    col('Phase', (o) => str(get(o, 'status', 'phase'))),
    AGE,
    col('Version', (o) => str(get(o, 'spec', 'template', 'spec', 'version'))),
  ],
  // namespaces/<ns>-<name>/cluster.x-k8s.io/machinedeployments.yaml
  mustGather: 'machinedeployments',
  // Listed and watched across namespaces (docs/live.md): a management cluster keeps them in many;
  // only a management cluster has them.
  live: { scope: 'all', optional: HOSTED_KIND },
  changes: {
    by: 'conditions',
    lastSeen: [
      'spec',
      'metadata.generation',
      'status.observedGeneration',
      'status.*Replicas',
      'status.v1beta2',
    ],
  },
  timeline: { conditions: true, rollout: machineRollout },
});
