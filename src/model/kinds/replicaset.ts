/**
 * ReplicaSet (apps/v1): one revision of a Deployment's pod template. A Deployment's rollout creates a
 * ReplicaSet for the new template (named after the Deployment and its `pod-template-hash`), scales it
 * up and scales the old ones down to zero, and keeps the old ones (`revisionHistoryLimit`) with their
 * template (kubernetes pkg/controller/deployment/sync.go). So a ReplicaSet's creationTimestamp says
 * when its template first existed, and its template's images say which release it ran; that is how
 * the rule operator-level-before-operands places a Deployment's rollout in time. At a past moment it
 * exists from its creationTimestamp; its scale and status are as last seen (the inputs do not record
 * their changes). Read from gather-extra and must-gather, served, listed live.
 */
import * as z from 'zod';
import { labelSelector, ObjectMetaSchema, podTemplate } from './common.js';
import { kind } from './descriptor.js';
import { AGE, col, countOr0, formatSelector, get, NAME, templateContainers } from './printing.js';

const ReplicaSetSchema = () =>
  z.looseObject({
    kind: z.literal('ReplicaSet'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        replicas: z.number().optional(),
        selector: labelSelector().nullable().optional(),
        template: podTemplate().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        observedGeneration: z.number().optional(),
        replicas: z.number().optional(),
        fullyLabeledReplicas: z.number().optional(),
        readyReplicas: z.number().optional(),
        availableReplicas: z.number().optional(),
      })
      .optional(),
  });

export const ReplicaSetKind = kind({
  schema: ReplicaSetSchema,
  field: 'replicaSets',
  label: 'Replica sets',
  api: {
    group: 'apps',
    version: 'v1',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
  },
  // kubectl's replicaset printer (kubernetes pkg/printers/internalversion printReplicaSet).
  columns: [
    NAME,
    col('Desired', (o) => (typeof get(o, 'spec', 'replicas') === 'number' ? get(o, 'spec', 'replicas') : 1), {
      type: 'integer',
    }),
    col('Current', countOr0('replicas'), { type: 'integer' }),
    col('Ready', countOr0('readyReplicas'), { type: 'integer' }),
    AGE,
    col('Containers', (o) => templateContainers(o, 'name'), { priority: 1 }),
    col('Images', (o) => templateContainers(o, 'image'), { priority: 1 }),
    col('Selector', formatSelector, { priority: 1 }),
  ],
  gatherExtra: 'replicasets.json',
  // namespaces/<ns>/apps/replicasets.yaml
  mustGather: 'replicasets',
  // One created after the moment did not exist then (serve --at, status --at); its scale and status are
  // as last seen, and said so.
  changes: { by: 'conditions', lastSeen: ['spec.replicas', 'status'] },
  live: { scope: 'all' },
});
