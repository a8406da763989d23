/**
 * DaemonSet (apps/v1): how an operator rolls out a pod per node (the MCO's daemons, networking, DNS).
 * Its rollout is read from its status (observedGeneration against metadata.generation;
 * updatedNumberScheduled and numberAvailable against desiredNumberScheduled, kubernetes
 * pkg/controller/daemon/update.go). It usually carries no conditions, so the timeline shows its
 * rollout as last seen; served, listed live, recorded by watch.
 */
import * as z from 'zod';
import { conditions, labelSelector, ObjectMetaSchema, podTemplate } from './common.js';
import { kind } from './descriptor.js';
import { AGE, col, countOr0, formatSelector, get, NAME, str, templateContainers } from './printing.js';
import { rollingStrategy, rolloutAsLastSeen } from './workload.js';

const DaemonSetSchema = () =>
  z.looseObject({
    kind: z.literal('DaemonSet'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        selector: labelSelector().nullable().optional(),
        template: podTemplate().optional(),
        updateStrategy: rollingStrategy().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        observedGeneration: z.number().optional(),
        desiredNumberScheduled: z.number().optional(),
        currentNumberScheduled: z.number().optional(),
        updatedNumberScheduled: z.number().optional(),
        numberReady: z.number().optional(),
        numberAvailable: z.number().optional(),
        numberUnavailable: z.number().optional(),
        numberMisscheduled: z.number().optional(),
        conditions: conditions(),
      })
      .optional(),
  });
type DaemonSet = z.infer<ReturnType<typeof DaemonSetSchema>>;

/** The rollout as the status says it: done when every scheduled pod is updated and available at the latest generation. */
function rollout(d: DaemonSet): { level: 'Info' | 'Warning'; message: string } {
  const s = d.status ?? {};
  const want = s.desiredNumberScheduled ?? 0;
  const updated = s.updatedNumberScheduled ?? 0;
  const available = s.numberAvailable ?? 0;
  return rolloutAsLastSeen(
    d.metadata.generation,
    s.observedGeneration,
    [`${updated}/${want} updated`, `${available}/${want} available`],
    updated >= want && available >= want,
  );
}

/** kubectl's NODE SELECTOR: the template's nodeSelector as `k=v,…`, or <none>. */
function nodeSelector(o: Record<string, unknown>): string {
  const sel = get(o, 'spec', 'template', 'spec', 'nodeSelector');
  if (sel === null || typeof sel !== 'object') return '<none>';
  const parts = Object.entries(sel as Record<string, unknown>).map(([k, v]) => `${k}=${str(v)}`);
  return parts.length === 0 ? '<none>' : parts.join(',');
}

export const DaemonSetKind = kind({
  schema: DaemonSetSchema,
  field: 'daemonSets',
  label: 'Daemon sets',
  api: {
    group: 'apps',
    version: 'v1',
    plural: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
  },
  // kubectl's daemonset printer (kubernetes pkg/printers/internalversion printDaemonSet).
  columns: [
    NAME,
    col('Desired', countOr0('desiredNumberScheduled'), { type: 'integer' }),
    col('Current', countOr0('currentNumberScheduled'), { type: 'integer' }),
    col('Ready', countOr0('numberReady'), { type: 'integer' }),
    col('Up-to-date', countOr0('updatedNumberScheduled'), { type: 'integer' }),
    col('Available', countOr0('numberAvailable'), { type: 'integer' }),
    col('Node Selector', nodeSelector),
    AGE,
    col('Containers', (o) => templateContainers(o, 'name'), { priority: 1 }),
    col('Images', (o) => templateContainers(o, 'image'), { priority: 1 }),
    col('Selector', formatSelector, { priority: 1 }),
  ],
  gatherExtra: 'daemonsets.json',
  // namespaces/<ns>/apps/daemonsets.yaml
  mustGather: 'daemonsets',
  changes: {
    by: 'conditions',
    lastSeen: [
      'spec',
      'metadata.generation',
      'status.observedGeneration',
      'status.*NumberScheduled',
      'status.number*',
    ],
  },
  live: { scope: 'all' },
  timeline: { conditions: true, rollout },
});
