/**
 * HostedCluster (hypershift.openshift.io/v1beta1), in the HyperShift management cluster: the hosted
 * cluster's desired release, `status.version` (the guest ClusterVersion's desired and history),
 * `status.controlPlaneVersion` (the management-side components' rollout) and the conditions copied
 * from the guest's CVO (ClusterVersionProgressing, ...). openshift/hypershift
 * api/hypershift/v1beta1/hostedcluster_types.go; docs/hosted.md.
 */
import * as z from 'zod';
import { conditions, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { completedVersion, HOSTED_KIND, newestEntry, versionStatus } from './hosted.js';
import { AGE, col, condition, condStatus, get, NAME, str } from './printing.js';

const HostedClusterSchema = () =>
  z.looseObject({
    kind: z.literal('HostedCluster'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        release: z.looseObject({ image: z.string().optional() }).nullable().optional(),
        controlPlaneRelease: z.looseObject({ image: z.string().optional() }).nullable().optional(),
        pausedUntil: z.string().nullable().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        version: versionStatus().nullable().optional(),
        controlPlaneVersion: versionStatus().nullable().optional(),
        conditions: conditions(),
      })
      .optional(),
  });
export const HostedClusterKind = kind({
  schema: HostedClusterSchema,
  field: 'hostedClusters',
  label: 'Hosted clusters',
  api: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    plural: 'hostedclusters',
    namespaced: true,
    shortNames: ['hc', 'hcs'],
  },
  // The hostedclusters CRD's additionalPrinterColumns (hostedcluster_types.go).
  columns: [
    NAME,
    col('Version', (o) => completedVersion(o, 'status', 'version')),
    col('KubeConfig', (o) => str(get(o, 'status', 'kubeconfig', 'name'))),
    col('Progress', (o) => str(newestEntry(o, 'status', 'version')?.state)),
    col('Available', condStatus('Available')),
    col('Progressing', condStatus('Progressing')),
    col('Message', (o) => str(condition(o, 'Available')?.message)),
    AGE,
  ],
  // namespaces/<ns>/hypershift.openshift.io/hostedclusters/<name>.yaml (hypershift dump cluster)
  mustGather: 'hostedclusters',
  // Listed and watched across namespaces (docs/live.md): a management cluster keeps them in many;
  // only a management cluster has them.
  live: { scope: 'all', optional: HOSTED_KIND },
  changes: {
    by: 'conditions',
    lastSeen: ['spec', 'status.version', 'status.controlPlaneVersion'],
  },
  timeline: {
    conditions: true,
    rollout: (o) => {
      const cp = o.status?.controlPlaneVersion?.history?.[0];
      const guest = o.status?.version?.history?.[0];
      if (cp === undefined && guest === undefined) return undefined;
      const say = (what: string, h: typeof cp) =>
        h === undefined ? `${what}: no history` : `${what} ${h.version ?? '?'} ${h.state ?? '?'}`;
      const done = (cp === undefined || cp.state === 'Completed') && guest?.state === 'Completed';
      return {
        level: done ? 'Info' : 'Warning',
        message: `as last seen: ${say('control plane', cp)}, ${say('guest version', guest)}`,
      };
    },
  },
});
