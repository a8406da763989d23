/** MachineConfigPool (machineconfiguration.openshift.io/v1), rewound by timeline/rewind/machineconfigpool.ts. */
import * as z from 'zod';
import { conditions, labelSelector, ObjectMetaSchema, once } from './common.js';
import { kind } from './descriptor.js';
import { AGE, col, condStatus, count, get, NAME, str } from './printing.js';

const configurationRef = once(() =>
  z.looseObject({
    name: z.string().optional(),
    source: z
      .array(z.looseObject({ name: z.string(), kind: z.string().optional() }))
      .nullable()
      .optional(),
  }),
);

const MachineConfigPoolSchema = () =>
  z.looseObject({
    kind: z.literal('MachineConfigPool'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        paused: z.boolean().optional(),
        maxUnavailable: z.union([z.number(), z.string()]).nullable().optional(),
        nodeSelector: labelSelector().nullable().optional(),
        machineConfigSelector: labelSelector().nullable().optional(),
        configuration: configurationRef().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        observedGeneration: z.number().optional(),
        configuration: configurationRef().optional(),
        machineCount: z.number().optional(),
        updatedMachineCount: z.number().optional(),
        readyMachineCount: z.number().optional(),
        unavailableMachineCount: z.number().optional(),
        degradedMachineCount: z.number().optional(),
        conditions: conditions(),
      })
      .optional(),
  });
export type MachineConfigPool = z.infer<ReturnType<typeof MachineConfigPoolSchema>>;

export const MachineConfigPoolKind = kind({
  schema: MachineConfigPoolSchema,
  field: 'machineConfigPools',
  label: 'Machine config pools',
  api: {
    group: 'machineconfiguration.openshift.io',
    version: 'v1',
    plural: 'machineconfigpools',
    namespaced: false,
    shortNames: ['mcp'],
  },
  // The MCO's machineconfigpool CRD printer columns.
  columns: [
    NAME,
    col('Config', (o) => str(get(o, 'status', 'configuration', 'name'))),
    col('Updated', condStatus('Updated')),
    col('Updating', condStatus('Updating')),
    col('Degraded', condStatus('Degraded')),
    col('MachineCount', count('machineCount'), { type: 'number' }),
    col('ReadyMachineCount', count('readyMachineCount'), { type: 'number' }),
    col('UpdatedMachineCount', count('updatedMachineCount'), { type: 'number' }),
    col('DegradedMachineCount', count('degradedMachineCount'), { type: 'number' }),
    AGE,
  ],
  gatherExtra: 'machineconfigpools.json',
  mustGather: 'machineconfigpools',
  ocExample: 'mcp',
  changes: { by: 'rewinder' },
  live: { scope: 'cluster' },
  timeline: { conditions: true },
});
