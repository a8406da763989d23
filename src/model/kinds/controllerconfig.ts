/** ControllerConfig (machineconfiguration.openshift.io/v1): the MCO's images. The inputs do not record its changes. */
import * as z from 'zod';
import { ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';

const ControllerConfigSchema = () =>
  z.looseObject({
    kind: z.literal('ControllerConfig'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        osImageURL: z.string().optional(),
        images: z.record(z.string(), z.string()).optional(),
        releaseImage: z.string().optional(),
      })
      .optional(),
  });
export const ControllerConfigKind = kind({
  schema: ControllerConfigSchema,
  field: 'controllerConfigs',
  label: 'Controller configs',
  api: {
    group: 'machineconfiguration.openshift.io',
    version: 'v1',
    plural: 'controllerconfigs',
    namespaced: false,
  },
  gatherExtra: 'controllerconfigs.json',
  mustGather: 'controllerconfigs',
  changes: {
    by: 'last-seen',
    why: () => 'as last seen: the inputs do not record their changes',
    notRewound: ['spec', 'status'],
  },
  live: { scope: 'cluster' },
});
