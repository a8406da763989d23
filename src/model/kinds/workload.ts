/**
 * What a Deployment and a DaemonSet share: the rolling update strategy in their spec, and how their
 * rollout is read from their status as last seen (observedGeneration against metadata.generation,
 * then the counts the kind compares; kubernetes pkg/controller/deployment/sync.go and
 * pkg/controller/daemon/update.go).
 */
import * as z from 'zod';
import { intOrString, once } from './common.js';

/** A Deployment's spec.strategy or a DaemonSet's spec.updateStrategy. */
export const rollingStrategy = once(() =>
  z.looseObject({
    type: z.string().optional(),
    rollingUpdate: z
      .looseObject({ maxUnavailable: intOrString().optional(), maxSurge: intOrString().optional() })
      .nullable()
      .optional(),
  }),
);

/**
 * The rollout verdict: complete when the controller has observed the latest generation and the
 * counts say every pod is in place (`settled`); `parts` are the counts as the kind words them.
 */
export function rolloutAsLastSeen(
  generation: number | undefined,
  observed: number | undefined,
  parts: string[],
  settled: boolean,
): { level: 'Info' | 'Warning'; message: string } {
  const stale = generation !== undefined && (observed === undefined || observed < generation);
  const done = !stale && settled;
  const all = stale
    ? [...parts, `generation ${generation} not yet observed (observed ${observed ?? 'none'})`]
    : parts;
  return {
    level: done ? 'Info' : 'Warning',
    message: `rollout ${done ? 'complete' : 'in progress'} as last seen: ${all.join(', ')}`,
  };
}
