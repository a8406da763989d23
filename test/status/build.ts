/** Small builders of validated objects for the status unit tests. */
import type { Observed } from '../../src/model/history.js';
import { KINDS } from '../../src/model/kinds/index.js';
import { type MachineConfigPool, MCO, type Node } from '../../src/model/objects.js';

export const ref = { file: 'test' };

export function pool(
  name: string,
  opts: { paused?: boolean; target?: string; selector?: Record<string, string> } = {},
): Observed<MachineConfigPool> {
  return {
    object: KINDS.MachineConfigPool.schema.parse({
      kind: 'MachineConfigPool',
      metadata: { name },
      spec: {
        paused: opts.paused ?? false,
        nodeSelector: { matchLabels: opts.selector ?? { [`node-role.kubernetes.io/${name}`]: '' } },
        configuration: { name: opts.target ?? `rendered-${name}-new` },
      },
    }),
    ref,
  };
}

export interface NodeSpec {
  name?: string;
  labels?: Record<string, string>;
  current?: string;
  desired?: string;
  state?: string;
  reason?: string;
  desiredDrain?: string;
  lastAppliedDrain?: string;
  unschedulable?: boolean;
  conditions?: {
    type: string;
    status: string;
    lastTransitionTime?: string;
    reason?: string;
    message?: string;
  }[];
}

export function node(spec: NodeSpec = {}): Observed<Node> {
  const annotations: Record<string, string> = {};
  if (spec.current !== undefined) annotations[MCO.currentConfig] = spec.current;
  if (spec.desired !== undefined) annotations[MCO.desiredConfig] = spec.desired;
  if (spec.state !== undefined) annotations[MCO.state] = spec.state;
  if (spec.reason !== undefined) annotations[MCO.reason] = spec.reason;
  if (spec.desiredDrain !== undefined)
    annotations['machineconfiguration.openshift.io/desiredDrain'] = spec.desiredDrain;
  if (spec.lastAppliedDrain !== undefined) {
    annotations['machineconfiguration.openshift.io/lastAppliedDrain'] = spec.lastAppliedDrain;
  }
  return {
    object: KINDS.Node.schema.parse({
      kind: 'Node',
      metadata: {
        name: spec.name ?? 'node-a',
        labels: spec.labels ?? { 'node-role.kubernetes.io/worker': '' },
        annotations,
      },
      spec: { unschedulable: spec.unschedulable ?? false },
      status: {
        conditions: spec.conditions ?? [
          { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
        ],
      },
    }),
    ref,
  };
}
