/**
 * The schema pieces every kind's descriptor shares: object metadata, conditions, label selectors.
 * Each is built on first use (`once`), as the kinds' schemas are (descriptor.ts kind()).
 */
import * as z from 'zod';

/**
 * A schema piece built by `build` on the first call and shared by every later one: the pieces and
 * the kinds' schemas are zod objects, and building them all at import cost a command that reads one
 * kind most of its start-up (docs/performance.md, "diff's start-up").
 */
export function once<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

const stringMap = once(() =>
  z.record(
    z.string(),
    z
      .string()
      .nullable()
      .transform((v) => v ?? ''),
  ),
);

export const ObjectMetaSchema = once(() =>
  z.looseObject({
    name: z.string().min(1),
    namespace: z.string().optional(),
    uid: z.string().optional(),
    generation: z.number().optional(),
    resourceVersion: z.string().optional(),
    creationTimestamp: z.string().nullable().optional(),
    deletionTimestamp: z.string().nullable().optional(),
    labels: stringMap().nullable().optional(),
    annotations: stringMap().nullable().optional(),
    ownerReferences: z
      .array(z.looseObject({ kind: z.string(), name: z.string() }))
      .nullable()
      .optional(),
  }),
);
const ConditionSchema = once(() =>
  z.looseObject({
    type: z.string(),
    status: z.string(),
    lastTransitionTime: z.string().nullable().optional(),
    reason: z.string().nullable().optional(),
    message: z.string().nullable().optional(),
  }),
);
export type Condition = z.infer<ReturnType<typeof ConditionSchema>>;

export const conditions = once(() => z.array(ConditionSchema()).nullable().optional());

export const labelSelector = once(() =>
  z.looseObject({
    matchLabels: stringMap().nullable().optional(),
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
  }),
);
export type LabelSelector = z.infer<ReturnType<typeof labelSelector>>;

/** A pod spec's containers: their names and images (a Pod's, or a pod template's). */
export const containers = once(() =>
  z
    .array(z.looseObject({ name: z.string(), image: z.string().optional() }))
    .nullable()
    .optional(),
);

/**
 * A pod template's containers and init containers, as the rollout of a Deployment or DaemonSet is
 * read from them: a change of either is a new template (docs/rules/operator-level-before-operands.md).
 */
export const podTemplate = once(() =>
  z.looseObject({
    metadata: z.looseObject({ labels: stringMap().nullable().optional() }).nullable().optional(),
    spec: z.looseObject({ containers: containers(), initContainers: containers() }).optional(),
  }),
);

/** An int or a percentage (`maxUnavailable: 25%`), as intstr.IntOrString. */
export const intOrString = once(() => z.union([z.number(), z.string()]));
