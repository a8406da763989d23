/**
 * NodePool (hypershift.openshift.io/v1beta1), beside its HostedCluster in the management cluster:
 * the release and config it wants, `status.version`, `status.nodesInfo`, the UpdatingVersion /
 * UpdatingConfig / ValidGeneratedPayload conditions, and the current-config annotations the
 * nodepool-level-before-rollout rule compares with the Cluster API objects (openshift/hypershift
 * api/hypershift/v1beta1/nodepool_types.go, nodepool_conditions.go; docs/hosted.md).
 */
import * as z from 'zod';
import { conditions, intOrString, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { HOSTED_KIND } from './hosted.js';
import { AGE, col, condition, condStatus, get, NAME, str } from './printing.js';

const NodePoolSchema = () =>
  z.looseObject({
    kind: z.literal('NodePool'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        clusterName: z.string().optional(),
        release: z.looseObject({ image: z.string().optional() }).nullable().optional(),
        replicas: z.number().nullable().optional(),
        autoScaling: z
          .looseObject({ min: z.number().nullable().optional(), max: z.number().optional() })
          .nullable()
          .optional(),
        management: z
          .looseObject({
            upgradeType: z.string().optional(),
            replace: z
              .looseObject({
                strategy: z.string().optional(),
                rollingUpdate: z
                  .looseObject({
                    maxSurge: intOrString().nullable().optional(),
                    maxUnavailable: intOrString().nullable().optional(),
                  })
                  .nullable()
                  .optional(),
              })
              .nullable()
              .optional(),
            inPlace: z
              .looseObject({ maxUnavailable: intOrString().nullable().optional() })
              .nullable()
              .optional(),
          })
          .optional(),
        config: z
          .array(z.looseObject({ name: z.string().optional() }))
          .nullable()
          .optional(),
        pausedUntil: z.string().nullable().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        replicas: z.number().optional(),
        version: z.string().optional(),
        nodesInfo: z
          .looseObject({
            nodeVersions: z
              .array(
                z.looseObject({
                  ocpVersion: z.string().optional(),
                  kubeletVersion: z.string().optional(),
                  readyNodeCount: z.number().nullable().optional(),
                  unreadyNodeCount: z.number().nullable().optional(),
                }),
              )
              .nullable()
              .optional(),
          })
          .nullable()
          .optional(),
        conditions: conditions(),
      })
      .optional(),
  });
export const NodePoolKind = kind({
  schema: NodePoolSchema,
  field: 'nodePools',
  label: 'Node pools',
  api: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    plural: 'nodepools',
    namespaced: true,
    shortNames: ['np', 'nps'],
  },
  // The nodepools CRD's additionalPrinterColumns (nodepool_types.go).
  columns: [
    NAME,
    col('Cluster', (o) => str(get(o, 'spec', 'clusterName'))),
    col('Desired Nodes', (o) => get(o, 'spec', 'replicas') ?? '', { type: 'integer' }),
    col('Current Nodes', (o) => get(o, 'status', 'replicas') ?? '', { type: 'integer' }),
    col('Autoscaling', condStatus('AutoscalingEnabled')),
    col('Autorepair', condStatus('AutorepairEnabled')),
    col('Version', (o) => str(get(o, 'status', 'version'))),
    col('UpdatingVersion', condStatus('UpdatingVersion')),
    col('UpdatingConfig', condStatus('UpdatingConfig')),
    col('Message', (o) => str(condition(o, 'Ready')?.message)),
    AGE,
  ],
  // namespaces/<ns>/hypershift.openshift.io/nodepools/<name>.yaml (hypershift dump cluster)
  mustGather: 'nodepools',
  // Listed and watched across namespaces (docs/live.md): a management cluster keeps them in many;
  // only a management cluster has them.
  live: { scope: 'all', optional: HOSTED_KIND },
  changes: {
    by: 'conditions',
    lastSeen: ['spec', 'metadata.annotations', 'status.version', 'status.replicas', 'status.nodesInfo'],
  },
  timeline: {
    conditions: true,
    // UpdatingVersion/UpdatingConfig True is an update under way, not a failure.
    conditionLevel: (type, status) =>
      type === 'UpdatingVersion' || type === 'UpdatingConfig' || type === 'UpdatingPlatformMachineTemplate'
        ? status === 'True'
          ? 'Warning'
          : 'Info'
        : type === 'Ready' ||
            type === 'AllMachinesReady' ||
            type === 'AllNodesHealthy' ||
            type === 'ValidGeneratedPayload'
          ? status === 'True'
            ? 'Info'
            : 'Warning'
          : undefined,
    rollout: (o) => {
      const updating = (o.status?.conditions ?? []).filter(
        (c) => (c.type === 'UpdatingVersion' || c.type === 'UpdatingConfig') && c.status === 'True',
      );
      const versions = (o.status?.nodesInfo?.nodeVersions ?? [])
        .map((v) => `${v.ocpVersion ?? '?'}: ${(v.readyNodeCount ?? 0) + (v.unreadyNodeCount ?? 0)}`)
        .join(', ');
      return {
        level: updating.length > 0 ? 'Warning' : 'Info',
        message: `as last seen: version ${o.status?.version || 'none'}, ${updating.length > 0 ? `${updating.map((c) => c.type).join(' and ')} True` : 'not updating'}${versions === '' ? '' : `, nodes by version ${versions}`}`,
      };
    },
  },
});
