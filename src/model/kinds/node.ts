/** Node (v1): its MCO config annotations and Ready condition, rewound by timeline/rewind/node.ts. */
import * as z from 'zod';
import { conditions, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { AGE, arr, col, condition, get, NAME, str } from './printing.js';

type Loose = Record<string, unknown>;

const NodeSchema = () =>
  z.looseObject({
    kind: z.literal('Node'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        unschedulable: z.boolean().optional(),
        taints: z
          .array(z.looseObject({ key: z.string(), effect: z.string().optional() }))
          .nullable()
          .optional(),
      })
      .optional(),
    status: z
      .looseObject({
        conditions: conditions(),
        nodeInfo: z
          .looseObject({ kubeletVersion: z.string().optional(), osImage: z.string().optional() })
          .optional(),
      })
      .optional(),
  });
export type Node = z.infer<ReturnType<typeof NodeSchema>>;

function nodeStatus(o: Loose): string {
  const ready = condition(o, 'Ready')?.status;
  const parts = [ready === 'True' ? 'Ready' : ready === 'False' ? 'NotReady' : 'Unknown'];
  if (get(o, 'spec', 'unschedulable') === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(o: Loose): string {
  const labels = get(o, 'metadata', 'labels');
  const roles: string[] = [];
  if (labels && typeof labels === 'object') {
    for (const key of Object.keys(labels)) {
      if (key.startsWith('node-role.kubernetes.io/'))
        roles.push(key.slice('node-role.kubernetes.io/'.length));
      else if (key === 'kubernetes.io/role') roles.push(str((labels as Loose)[key]));
    }
  }
  return roles.length === 0 ? '<none>' : roles.sort().join(',');
}

function nodeAddress(o: Loose, type: string): string {
  return str(arr(get(o, 'status', 'addresses')).find((a) => a.type === type)?.address) || '<none>';
}

export const NodeKind = kind({
  schema: NodeSchema,
  field: 'nodes',
  label: 'Nodes',
  api: { group: '', version: 'v1', plural: 'nodes', namespaced: false, shortNames: ['no'] },
  // kubectl's node printer (kubernetes pkg/printers/internalversion).
  columns: [
    NAME,
    col('Status', nodeStatus),
    col('Roles', nodeRoles),
    AGE,
    col('Version', (o) => str(get(o, 'status', 'nodeInfo', 'kubeletVersion'))),
    col('Internal-IP', (o) => nodeAddress(o, 'InternalIP'), { priority: 1 }),
    col('External-IP', (o) => nodeAddress(o, 'ExternalIP'), { priority: 1 }),
    col('OS-Image', (o) => str(get(o, 'status', 'nodeInfo', 'osImage')) || '<unknown>', { priority: 1 }),
    col('Kernel-Version', (o) => str(get(o, 'status', 'nodeInfo', 'kernelVersion')) || '<unknown>', {
      priority: 1,
    }),
    col(
      'Container-Runtime',
      (o) => str(get(o, 'status', 'nodeInfo', 'containerRuntimeVersion')) || '<unknown>',
      {
        priority: 1,
      },
    ),
  ],
  gatherExtra: 'nodes.json',
  mustGather: 'nodes',
  ocExample: 'node',
  changes: { by: 'rewinder' },
  live: { scope: 'cluster' },
  timeline: { conditions: true },
});
