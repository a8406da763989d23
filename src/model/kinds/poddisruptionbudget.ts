/** PodDisruptionBudget (policy/v1): what a drain waits for. The inputs do not record its changes: as last seen. */
import * as z from 'zod';
import { intOrString, labelSelector, ObjectMetaSchema } from './common.js';
import { kind } from './descriptor.js';
import { AGE, col, countOr0, get, NAME, str } from './printing.js';

const PodDisruptionBudgetSchema = () =>
  z.looseObject({
    kind: z.literal('PodDisruptionBudget'),
    metadata: ObjectMetaSchema(),
    spec: z
      .looseObject({
        selector: labelSelector().nullable().optional(),
        minAvailable: intOrString().optional(),
        maxUnavailable: intOrString().optional(),
      })
      .optional(),
    status: z
      .looseObject({
        disruptionsAllowed: z.number().optional(),
        currentHealthy: z.number().optional(),
        desiredHealthy: z.number().optional(),
        expectedPods: z.number().optional(),
      })
      .optional(),
  });
export type PodDisruptionBudget = z.infer<ReturnType<typeof PodDisruptionBudgetSchema>>;

const orNA = (field: string) => (o: Record<string, unknown>) => {
  const v = get(o, 'spec', field);
  return v === undefined || v === null ? 'N/A' : str(v);
};

export const PodDisruptionBudgetKind = kind({
  schema: PodDisruptionBudgetSchema,
  field: 'podDisruptionBudgets',
  label: 'Pod disruption budgets',
  api: {
    group: 'policy',
    version: 'v1',
    plural: 'poddisruptionbudgets',
    namespaced: true,
    shortNames: ['pdb'],
  },
  // kubectl's PodDisruptionBudget printer.
  columns: [
    NAME,
    col('Min Available', orNA('minAvailable')),
    col('Max Unavailable', orNA('maxUnavailable')),
    col('Allowed Disruptions', countOr0('disruptionsAllowed'), { type: 'integer' }),
    AGE,
  ],
  gatherExtra: 'poddisruptionbudgets.json',
  mustGather: 'poddisruptionbudgets',
  changes: {
    by: 'last-seen',
    why: () => 'as last seen: the inputs do not record their changes',
    notRewound: ['status'],
  },
  live: { scope: 'all' },
});
