/**
 * Deployment (apps/v1): how an operator rolls out its operand. Its rollout is read from its status
 * (observedGeneration against metadata.generation; updated, ready and available replicas against
 * spec.replicas) and its Progressing and Available conditions (kubernetes
 * pkg/controller/deployment/sync.go; docs/domain.md). Served, listed live, recorded by watch, and on
 * the timeline: its conditions from their lastTransitionTime, and its rollout as last seen.
 */
import * as z from 'zod';
import { conditions, labelSelector, ObjectMetaSchema, podTemplate } from './common.js';
import { kind } from './descriptor.js';
import { AGE, col, countOr0, formatSelector, get, NAME, templateContainers } from './printing.js';
import { rollingStrategy, rolloutAsLastSeen } from './workload.js';

const DeploymentSchema = () =>
  z.looseObject({
    kind: z.literal('Deployment'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        replicas: z.number().optional(),
        selector: labelSelector().nullable().optional(),
        template: podTemplate().optional(),
        strategy: rollingStrategy().optional(),
        paused: z.boolean().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        observedGeneration: z.number().optional(),
        replicas: z.number().optional(),
        updatedReplicas: z.number().optional(),
        readyReplicas: z.number().optional(),
        availableReplicas: z.number().optional(),
        unavailableReplicas: z.number().optional(),
        conditions: conditions(),
      })
      .optional(),
  });
type Deployment = z.infer<ReturnType<typeof DeploymentSchema>>;

/** spec.replicas defaults to 1 (apps/v1 SetDefaults_Deployment). */
function desired(d: Deployment): number {
  return d.spec?.replicas ?? 1;
}

/** The rollout as the status says it: done when every replica is updated and available at the latest generation. */
function rollout(d: Deployment): { level: 'Info' | 'Warning'; message: string } {
  const want = desired(d);
  const s = d.status ?? {};
  const updated = s.updatedReplicas ?? 0;
  const available = s.availableReplicas ?? 0;
  const ready = s.readyReplicas ?? 0;
  return rolloutAsLastSeen(
    d.metadata.generation,
    s.observedGeneration,
    [`${updated}/${want} updated`, `${available}/${want} available`, `${ready}/${want} ready`],
    updated >= want && available >= want && (s.replicas ?? 0) <= want,
  );
}

export const DeploymentKind = kind({
  schema: DeploymentSchema,
  field: 'deployments',
  label: 'Deployments',
  api: {
    group: 'apps',
    version: 'v1',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
  },
  // kubectl's deployment printer (kubernetes pkg/printers/internalversion printDeployment).
  columns: [
    NAME,
    col(
      'Ready',
      (o) =>
        `${countOr0('readyReplicas')(o)}/${typeof get(o, 'spec', 'replicas') === 'number' ? get(o, 'spec', 'replicas') : 1}`,
    ),
    col('Up-to-date', countOr0('updatedReplicas'), { type: 'integer' }),
    col('Available', countOr0('availableReplicas'), { type: 'integer' }),
    AGE,
    col('Containers', (o) => templateContainers(o, 'name'), { priority: 1 }),
    col('Images', (o) => templateContainers(o, 'image'), { priority: 1 }),
    col('Selector', formatSelector, { priority: 1 }),
  ],
  gatherExtra: 'deployments.json',
  // namespaces/<ns>/apps/deployments.yaml
  mustGather: 'deployments',
  changes: {
    by: 'conditions',
    lastSeen: ['spec', 'metadata.generation', 'status.observedGeneration', 'status.*Replicas'],
  },
  live: { scope: 'all' },
  timeline: {
    conditions: true,
    // Progressing=True is a Deployment's steady state (NewReplicaSetAvailable); False is a deadline missed.
    conditionLevel: (type, status) =>
      type === 'Progressing'
        ? status === 'False'
          ? 'Error'
          : 'Info'
        : type === 'ReplicaFailure' && status === 'True'
          ? 'Error'
          : undefined,
    rollout,
  },
});
