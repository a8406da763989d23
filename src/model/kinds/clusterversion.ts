/** ClusterVersion (config.openshift.io/v1): the CVO's one object, rewound by timeline/rewind/clusterversion.ts. */
import * as z from 'zod';
import { conditions, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { age, arr, col, condition, condStatus, get, NAME, str } from './printing.js';

const ClusterVersionSchema = () =>
  z.looseObject({
    kind: z.literal('ClusterVersion'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        desiredUpdate: z
          .looseObject({
            version: z.string().optional(),
            image: z.string().optional(),
            force: z.boolean().optional(),
          })
          .nullable()
          .optional(),
        channel: z.string().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        desired: z.looseObject({ version: z.string().optional(), image: z.string().optional() }).optional(),
        history: z
          .array(
            z.looseObject({
              state: z.string(),
              startedTime: z.string().nullable().optional(),
              completionTime: z.string().nullable().optional(),
              version: z.string().optional(),
              image: z.string().optional(),
              verified: z.boolean().optional(),
            }),
          )
          .nullable()
          .optional(),
        conditions: conditions(),
        observedGeneration: z.number().optional(),
      })
      .optional(),
  });
export type ClusterVersion = z.infer<ReturnType<typeof ClusterVersionSchema>>;
export type UpdateHistoryEntry = NonNullable<NonNullable<ClusterVersion['status']>['history']>[number];

export const ClusterVersionKind = kind({
  schema: ClusterVersionSchema,
  field: 'clusterVersions',
  label: 'Cluster version',
  api: { group: 'config.openshift.io', version: 'v1', plural: 'clusterversions', namespaced: false },
  // openshift/api config/v1 ClusterVersion's printer columns.
  columns: [
    NAME,
    col('Version', (o) =>
      str(arr(get(o, 'status', 'history')).find((h) => h.state === 'Completed')?.version),
    ),
    col('Available', condStatus('Available')),
    col('Progressing', condStatus('Progressing')),
    col('Since', (o, now) => age(condition(o, 'Progressing')?.lastTransitionTime, now), { type: 'date' }),
    col('Status', (o) => str(condition(o, 'Progressing')?.message)),
  ],
  gatherExtra: 'clusterversion.json',
  mustGather: 'clusterversions',
  ocExample: 'cv',
  changes: { by: 'rewinder' },
  live: { scope: 'cluster' },
  timeline: { conditions: true },
});
