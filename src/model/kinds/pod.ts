/**
 * Pod (v1): the status assessment names drain blockers with them, and their conditions show on the
 * timeline (when each pod became Ready, ...). Rewound as last seen: the inputs do not record their changes.
 */
import * as z from 'zod';
import { conditions, containers, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { AGE, arr, col, get, NAME, str } from './printing.js';

type Loose = Record<string, unknown>;

const PodSchema = () =>
  z.looseObject({
    kind: z.literal('Pod'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        nodeName: z.string().optional(),
        containers: containers(),
        initContainers: containers(),
      })
      .optional(),
    status: z
      .looseObject({
        phase: z.string().optional(),
        conditions: conditions(),
        containerStatuses: z
          .array(
            z.looseObject({
              name: z.string(),
              ready: z.boolean().optional(),
              restartCount: z.number().optional(),
              image: z.string().optional(),
            }),
          )
          .nullable()
          .optional(),
      })
      .optional(),
  });
export type Pod = z.infer<ReturnType<typeof PodSchema>>;

function podReady(o: Loose): string {
  const statuses = arr(get(o, 'status', 'containerStatuses'));
  const total = arr(get(o, 'spec', 'containers')).length || statuses.length;
  return `${statuses.filter((s) => s.ready === true).length}/${total}`;
}

function podStatus(o: Loose): string {
  if (get(o, 'metadata', 'deletionTimestamp')) return 'Terminating';
  let reason = str(get(o, 'status', 'reason')) || str(get(o, 'status', 'phase')) || 'Unknown';
  for (const s of arr(get(o, 'status', 'containerStatuses'))) {
    const waiting = str(get(s, 'state', 'waiting', 'reason'));
    const terminated = str(get(s, 'state', 'terminated', 'reason'));
    if (waiting) reason = waiting;
    else if (terminated && reason !== 'Running') reason = terminated;
  }
  return reason;
}

function podRestarts(o: Loose): number {
  let n = 0;
  for (const s of arr(get(o, 'status', 'containerStatuses'))) {
    const r = s.restartCount;
    if (typeof r === 'number') n += r;
  }
  return n;
}

/** A pod not Ready is a warning (it may be starting); not scheduled is one too: origin reads neither as an error. */
function podConditionLevel(type: string, status: string): 'Info' | 'Warning' | undefined {
  if (status === 'True') return 'Info';
  return type === 'Ready' || type === 'ContainersReady' || type === 'PodScheduled' ? 'Warning' : 'Info';
}

export const PodKind = kind({
  schema: PodSchema,
  field: 'pods',
  label: 'Pods',
  api: {
    group: '',
    version: 'v1',
    plural: 'pods',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
  },
  // kubectl's pod printer.
  columns: [
    NAME,
    col('Ready', podReady),
    col('Status', podStatus),
    col('Restarts', podRestarts, { type: 'integer' }),
    AGE,
    col('IP', (o) => str(get(o, 'status', 'podIP')) || '<none>', { priority: 1 }),
    col('Node', (o) => str(get(o, 'spec', 'nodeName')) || '<none>', { priority: 1 }),
    col('Nominated Node', (o) => str(get(o, 'status', 'nominatedNodeName')) || '<none>', { priority: 1 }),
    col('Readiness Gates', (o) => (arr(get(o, 'spec', 'readinessGates')).length === 0 ? '<none>' : ''), {
      priority: 1,
    }),
  ],
  gatherExtra: 'pods.json',
  // namespaces/<ns>/core/pods.yaml
  mustGather: 'pods',
  // A pod created after the moment did not exist then, and its conditions carry their transitions (when
  // it was scheduled, became Ready: an operand's rollout pod by pod); the rest of its status is as last
  // seen. A pod deleted before the end is not in the inputs at all, so an old revision's pods are missing.
  changes: {
    by: 'conditions',
    lastSeen: ['spec', 'status.phase', 'status.containerStatuses'],
  },
  // Only in the namespaces a PodDisruptionBudget protects: the status assessment needs them to name
  // drain blockers, and every pod of a cluster is far more than that (live/snapshot.ts).
  live: { scope: 'namespaces', after: ['PodDisruptionBudget'] },
  // When each pod was scheduled, initialized, and became ready: the operands' rollout, pod by pod.
  timeline: { conditions: true, conditionLevel: podConditionLevel },
});
