/**
 * ControlPlaneComponent (hypershift.openshift.io/v1beta1), one per management-side component in the
 * control-plane namespace: `status.version` and the `RolloutComplete` and `Available` conditions a
 * `controlPlaneVersion` history entry waits for (openshift/hypershift
 * api/hypershift/v1beta1/controlplanecomponent_types.go).
 */
import * as z from 'zod';
import { conditions, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { HOSTED_KIND } from './hosted.js';
import { col, condition, condStatus, get, NAME, str } from './printing.js';

const ControlPlaneComponentSchema = () =>
  z.looseObject({
    kind: z.literal('ControlPlaneComponent'),
    metadata: ObjectMetaSchema(),
    status: z
      .looseObject({
        version: z.string().optional(),
        conditions: conditions(),
        resources: z
          .array(z.looseObject({ kind: z.string(), group: z.string().optional(), name: z.string() }))
          .nullable()
          .optional(),
      })
      .optional(),
  });
export const ControlPlaneComponentKind = kind({
  schema: ControlPlaneComponentSchema,
  field: 'controlPlaneComponents',
  label: 'Control plane components',
  api: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    plural: 'controlplanecomponents',
    namespaced: true,
    shortNames: ['cpc', 'cpcs'],
  },
  // The controlplanecomponents CRD's additionalPrinterColumns.
  columns: [
    NAME,
    col('Version', (o) => str(get(o, 'status', 'version'))),
    col('Available', condStatus('Available')),
    col('Progressing', condStatus('Progressing')),
    col('Message', (o) => str(condition(o, 'Available')?.message)),
    col('ProgressingMessage', (o) => str(condition(o, 'Progressing')?.message), { priority: 1 }),
  ],
  // namespaces/<ns>-<name>/hypershift.openshift.io/controlplanecomponents.yaml
  mustGather: 'controlplanecomponents',
  // Listed and watched across namespaces (docs/live.md): a management cluster keeps them in many;
  // only a management cluster has them.
  live: { scope: 'all', optional: HOSTED_KIND },
  changes: { by: 'conditions', lastSeen: ['status.version', 'status.resources'] },
  timeline: {
    conditions: true,
    rollout: (o) => {
      const done = o.status?.conditions?.find((c) => c.type === 'RolloutComplete')?.status === 'True';
      return {
        level: done ? 'Info' : 'Warning',
        message: `as last seen: version ${o.status?.version || 'none'}, RolloutComplete ${done ? 'True' : 'not True'}`,
      };
    },
  },
});
