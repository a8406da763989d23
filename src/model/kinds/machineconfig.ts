/** MachineConfig (machineconfiguration.openshift.io/v1): configs only appear; rendered ones mark a pool's rollouts. */
import * as z from 'zod';
import { ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { AGE, col, get, NAME, str } from './printing.js';

const MachineConfigSchema = () =>
  z.looseObject({
    kind: z.literal('MachineConfig'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        osImageURL: z.string().optional(),
        // Raw Ignition: decoded and validated by src/machineconfig, not here.
        config: z.unknown().optional(),
        kernelArguments: z.array(z.string()).nullable().optional(),
        extensions: z.array(z.string()).nullable().optional(),
        fips: z.boolean().optional(),
        kernelType: z.string().optional(),
      })
      .optional(),
  });
export type MachineConfig = z.infer<ReturnType<typeof MachineConfigSchema>>;

export const MachineConfigKind = kind({
  schema: MachineConfigSchema,
  field: 'machineConfigs',
  label: 'Machine configs',
  api: {
    group: 'machineconfiguration.openshift.io',
    version: 'v1',
    plural: 'machineconfigs',
    namespaced: false,
    shortNames: ['mc'],
  },
  // The MCO's machineconfig CRD printer columns.
  columns: [
    NAME,
    col('GeneratedByController', (o) =>
      str(
        get(
          o,
          'metadata',
          'annotations',
          'machineconfiguration.openshift.io/generated-by-controller-version',
        ),
      ),
    ),
    col('IgnitionVersion', (o) => str(get(o, 'spec', 'config', 'ignition', 'version'))),
    AGE,
  ],
  gatherExtra: 'machineconfigs.json',
  mustGather: 'machineconfigs',
  ocExample: 'mc',
  // Only the configs a diff or an explanation compares are ever parsed.
  deferred: ['spec.config'],
  changes: {
    by: 'appearing',
    untimed: 'no creation time: kept, though it may not have existed yet',
    notRewound: [],
  },
  // Watch keeps the contents of the configs pools and nodes name, so it lists nodes first.
  live: { scope: 'cluster', after: ['Node'] },
});
