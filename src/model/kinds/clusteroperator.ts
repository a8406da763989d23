/** ClusterOperator (config.openshift.io/v1): each operator's level, rewound by timeline/rewind/clusteroperator.ts. */
import * as z from 'zod';
import { conditions, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { age, arr, col, condition, condStatus, get, NAME, str } from './printing.js';

const ClusterOperatorSchema = () =>
  z.looseObject({
    kind: z.literal('ClusterOperator'),
    metadata: ObjectMetaSchema(),
    status: z
      .looseObject({
        conditions: conditions(),
        versions: z
          .array(z.looseObject({ name: z.string(), version: z.string() }))
          .nullable()
          .optional(),
        relatedObjects: z
          .array(
            z.looseObject({
              group: z.string().optional(),
              resource: z.string(),
              namespace: z.string().optional(),
              name: z.string(),
            }),
          )
          .nullable()
          .optional(),
        extension: z.unknown().optional(),
      })
      .optional(),
  });
export type ClusterOperator = z.infer<ReturnType<typeof ClusterOperatorSchema>>;

export const ClusterOperatorKind = kind({
  schema: ClusterOperatorSchema,
  field: 'clusterOperators',
  label: 'Cluster operators',
  api: {
    group: 'config.openshift.io',
    version: 'v1',
    plural: 'clusteroperators',
    namespaced: false,
    shortNames: ['co'],
  },
  // openshift/api config/v1 ClusterOperator's printer columns.
  columns: [
    NAME,
    col('Version', (o) => str(arr(get(o, 'status', 'versions')).find((v) => v.name === 'operator')?.version)),
    col('Available', condStatus('Available')),
    col('Progressing', condStatus('Progressing')),
    col('Degraded', condStatus('Degraded')),
    col('Since', (o, now) => age(condition(o, 'Available')?.lastTransitionTime, now), { type: 'date' }),
  ],
  gatherExtra: 'clusteroperators.json',
  mustGather: 'clusteroperators',
  ocExample: 'co',
  changes: { by: 'rewinder' },
  live: { scope: 'cluster' },
  timeline: { conditions: true },
});
