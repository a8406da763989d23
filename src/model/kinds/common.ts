/** The schema pieces every kind's descriptor shares: object metadata, conditions, label selectors. */
import * as z from 'zod';

const stringMap = z.record(
  z.string(),
  z
    .string()
    .nullable()
    .transform((v) => v ?? ''),
);

export const ObjectMetaSchema = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  generation: z.number().optional(),
  resourceVersion: z.string().optional(),
  creationTimestamp: z.string().nullable().optional(),
  deletionTimestamp: z.string().nullable().optional(),
  labels: stringMap.nullable().optional(),
  annotations: stringMap.nullable().optional(),
  ownerReferences: z
    .array(z.looseObject({ kind: z.string(), name: z.string() }))
    .nullable()
    .optional(),
});
const ConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  lastTransitionTime: z.string().nullable().optional(),
  reason: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});
export type Condition = z.infer<typeof ConditionSchema>;

export const conditions = z.array(ConditionSchema).nullable().optional();

export const labelSelector = z.looseObject({
  matchLabels: stringMap.nullable().optional(),
  matchExpressions: z
    .array(
      z.looseObject({
        key: z.string(),
        operator: z.string(),
        values: z.array(z.string()).nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
});
export type LabelSelector = z.infer<typeof labelSelector>;

/** A pod spec's containers: their names and images (a Pod's, or a pod template's). */
export const containers = z
  .array(z.looseObject({ name: z.string(), image: z.string().optional() }))
  .nullable()
  .optional();

/**
 * A pod template's containers and init containers, as the rollout of a Deployment or DaemonSet is
 * read from them: a change of either is a new template (docs/rules/operator-level-before-operands.md).
 */
export const podTemplate = z.looseObject({
  metadata: z.looseObject({ labels: stringMap.nullable().optional() }).nullable().optional(),
  spec: z.looseObject({ containers, initContainers: containers }).optional(),
});

/** An int or a percentage (`maxUnavailable: 25%`), as intstr.IntOrString. */
export const intOrString = z.union([z.number(), z.string()]);
