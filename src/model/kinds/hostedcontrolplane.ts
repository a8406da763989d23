/**
 * HostedControlPlane (hypershift.openshift.io/v1beta1), in the control-plane namespace
 * `<ns>-<name>` of the management cluster: the control plane operator's view of the hosted
 * cluster, with `status.controlPlaneVersion` (openshift/hypershift
 * api/hypershift/v1beta1/hosted_controlplane.go, controlplaneversion_types.go).
 */
import * as z from 'zod';
import { conditions, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { HOSTED_KIND, versionStatus } from './hosted.js';
import { AGE, col, condition, condStatus, get, NAME, str } from './printing.js';

const HostedControlPlaneSchema = () =>
  z.looseObject({
    kind: z.literal('HostedControlPlane'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        releaseImage: z.string().optional(),
        controlPlaneReleaseImage: z.string().nullable().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        version: z.string().optional(),
        versionStatus: versionStatus().nullable().optional(),
        controlPlaneVersion: versionStatus().nullable().optional(),
        conditions: conditions(),
      })
      .optional(),
  });
export const HostedControlPlaneKind = kind({
  schema: HostedControlPlaneSchema,
  field: 'hostedControlPlanes',
  label: 'Hosted control planes',
  api: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    plural: 'hostedcontrolplanes',
    namespaced: true,
    shortNames: ['hcp', 'hcps'],
  },
  columns: [
    NAME,
    col('Version', (o) => str(get(o, 'status', 'version'))),
    col('Available', condStatus('Available')),
    col('Message', (o) => str(condition(o, 'Available')?.message)),
    AGE,
  ],
  // namespaces/<ns>-<name>/hypershift.openshift.io/hostedcontrolplanes.yaml
  mustGather: 'hostedcontrolplanes',
  // Listed and watched across namespaces (docs/live.md): a management cluster keeps them in many;
  // only a management cluster has them.
  live: { scope: 'all', optional: HOSTED_KIND },
  changes: {
    by: 'conditions',
    lastSeen: ['spec', 'status.version', 'status.versionStatus', 'status.controlPlaneVersion'],
  },
  timeline: {
    conditions: true,
    rollout: (o) => {
      const h = o.status?.controlPlaneVersion?.history?.[0];
      if (h === undefined) return undefined;
      return {
        level: h.state === 'Completed' ? 'Info' : 'Warning',
        message: `as last seen: control plane ${h.version ?? '?'} ${h.state ?? '?'}`,
      };
    },
  },
});
