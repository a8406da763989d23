/**
 * Machine (cluster.x-k8s.io/v1beta1): one worker of a NodePool, owned by a MachineSet, with
 * `spec.version`, its bootstrap secret, its Node (`status.nodeRef`), its phase, and the
 * `hypershift.openshift.io/release-version` annotation (the release it was provisioned or in-place
 * upgraded with: nodepool_types.go NodePoolReleaseVersionAnnotation).
 */
import * as z from 'zod';
import { conditions, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { HOSTED_KIND, v1beta2Status } from './hosted.js';
import { AGE, col, get, NAME, str } from './printing.js';

const MachineSchema = () =>
  z.looseObject({
    kind: z.literal('Machine'),
    metadata: ObjectMetaSchema().extend({ deletionTimestamp: z.string().nullable().optional() }),
    spec: z
      .looseObject({
        clusterName: z.string().optional(),
        version: z.string().nullable().optional(),
        providerID: z.string().nullable().optional(),
        bootstrap: z.looseObject({ dataSecretName: z.string().nullable().optional() }).nullable().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        phase: z.string().optional(),
        nodeRef: z.looseObject({ name: z.string().optional() }).nullable().optional(),
        nodeInfo: z.looseObject({ kubeletVersion: z.string().optional() }).nullable().optional(),
        conditions: conditions(),
        v1beta2: v1beta2Status(),
      })
      .optional(),
  });
export const MachineKind = kind({
  schema: MachineSchema,
  field: 'machines',
  label: 'Machines',
  api: {
    group: 'cluster.x-k8s.io',
    version: 'v1beta1',
    plural: 'machines',
    namespaced: true,
    shortNames: ['ma'],
    categories: ['cluster-api'],
  },
  // After Cluster API v1beta1's machines CRD printer columns.
  columns: [
    NAME,
    col('Cluster', (o) => str(get(o, 'spec', 'clusterName'))),
    col('NodeName', (o) => str(get(o, 'status', 'nodeRef', 'name'))),
    col('ProviderID', (o) => str(get(o, 'spec', 'providerID'))),
    col('Phase', (o) => str(get(o, 'status', 'phase'))),
    AGE,
    col('Version', (o) => str(get(o, 'spec', 'version'))),
  ],
  // namespaces/<ns>-<name>/cluster.x-k8s.io/machines.yaml
  mustGather: 'machines',
  // Listed and watched across namespaces (docs/live.md): a management cluster keeps them in many;
  // only a management cluster has them.
  live: { scope: 'all', optional: HOSTED_KIND },
  changes: {
    by: 'conditions',
    lastSeen: [
      'spec',
      'metadata.annotations',
      'metadata.deletionTimestamp',
      'status.phase',
      'status.nodeRef',
    ],
  },
  timeline: {
    conditions: true,
    rollout: (o) => ({
      level: o.status?.phase === 'Running' ? 'Info' : 'Warning',
      message: `as last seen: phase ${o.status?.phase ?? 'unknown'}, release ${o.metadata.annotations?.['hypershift.openshift.io/release-version'] ?? 'not annotated'}${o.metadata.deletionTimestamp ? ', being deleted' : ''}`,
    }),
  },
});
