/**
 * Typed, validated views of the Kubernetes/OpenShift objects atlevel reads. The schemas are loose:
 * unknown fields are kept, optional fields may be missing, and only what atlevel relies on is checked.
 * Sources validate every object with these at the edge; analyses trust the inferred types.
 */
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
  labels: stringMap.nullable().optional(),
  annotations: stringMap.nullable().optional(),
  ownerReferences: z
    .array(z.looseObject({ kind: z.string(), name: z.string() }))
    .nullable()
    .optional(),
});
export type ObjectMeta = z.infer<typeof ObjectMetaSchema>;

export const ConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  lastTransitionTime: z.string().nullable().optional(),
  reason: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});
export type Condition = z.infer<typeof ConditionSchema>;

const conditions = z.array(ConditionSchema).nullable().optional();

export const ClusterVersionSchema = z.looseObject({
  kind: z.literal('ClusterVersion'),
  metadata: ObjectMetaSchema,
  spec: z
    .looseObject({
      desiredUpdate: z
        .looseObject({
          version: z.string().optional(),
          image: z.string().optional(),
          force: z.boolean().optional(),
        })
        .nullable()
        .optional(),
      channel: z.string().optional(),
    })
    .optional(),
  status: z
    .looseObject({
      desired: z.looseObject({ version: z.string().optional(), image: z.string().optional() }).optional(),
      history: z
        .array(
          z.looseObject({
            state: z.string(),
            startedTime: z.string().nullable().optional(),
            completionTime: z.string().nullable().optional(),
            version: z.string().optional(),
            image: z.string().optional(),
            verified: z.boolean().optional(),
          }),
        )
        .nullable()
        .optional(),
      conditions,
      observedGeneration: z.number().optional(),
    })
    .optional(),
});
export type ClusterVersion = z.infer<typeof ClusterVersionSchema>;
export type UpdateHistoryEntry = NonNullable<NonNullable<ClusterVersion['status']>['history']>[number];

export const ClusterOperatorSchema = z.looseObject({
  kind: z.literal('ClusterOperator'),
  metadata: ObjectMetaSchema,
  status: z
    .looseObject({
      conditions,
      versions: z
        .array(z.looseObject({ name: z.string(), version: z.string() }))
        .nullable()
        .optional(),
      relatedObjects: z
        .array(z.looseObject({ resource: z.string(), name: z.string() }))
        .nullable()
        .optional(),
      extension: z.unknown().optional(),
    })
    .optional(),
});
export type ClusterOperator = z.infer<typeof ClusterOperatorSchema>;

const configurationRef = z.looseObject({
  name: z.string().optional(),
  source: z
    .array(z.looseObject({ name: z.string(), kind: z.string().optional() }))
    .nullable()
    .optional(),
});

const labelSelector = z.looseObject({
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

export const MachineConfigPoolSchema = z.looseObject({
  kind: z.literal('MachineConfigPool'),
  metadata: ObjectMetaSchema,
  spec: z
    .looseObject({
      paused: z.boolean().optional(),
      maxUnavailable: z.union([z.number(), z.string()]).nullable().optional(),
      nodeSelector: labelSelector.nullable().optional(),
      machineConfigSelector: labelSelector.nullable().optional(),
      configuration: configurationRef.optional(),
    })
    .optional(),
  status: z
    .looseObject({
      observedGeneration: z.number().optional(),
      configuration: configurationRef.optional(),
      machineCount: z.number().optional(),
      updatedMachineCount: z.number().optional(),
      readyMachineCount: z.number().optional(),
      unavailableMachineCount: z.number().optional(),
      degradedMachineCount: z.number().optional(),
      conditions,
    })
    .optional(),
});
export type MachineConfigPool = z.infer<typeof MachineConfigPoolSchema>;

export const MachineConfigSchema = z.looseObject({
  kind: z.literal('MachineConfig'),
  metadata: ObjectMetaSchema,
  spec: z
    .looseObject({
      osImageURL: z.string().optional(),
      // Raw Ignition: decoded and validated by src/machineconfig, not here.
      config: z.unknown().optional(),
      kernelArguments: z.array(z.string()).nullable().optional(),
      extensions: z.array(z.string()).nullable().optional(),
      fips: z.boolean().optional(),
      kernelType: z.string().optional(),
    })
    .optional(),
});
export type MachineConfig = z.infer<typeof MachineConfigSchema>;

export const NodeSchema = z.looseObject({
  kind: z.literal('Node'),
  metadata: ObjectMetaSchema,
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
      conditions,
      nodeInfo: z
        .looseObject({ kubeletVersion: z.string().optional(), osImage: z.string().optional() })
        .optional(),
    })
    .optional(),
});
export type Node = z.infer<typeof NodeSchema>;

/** core/v1 Event and events.k8s.io/v1 Event (which names the object `regarding` and the text `note`). */
export const EventSchema = z.looseObject({
  kind: z.literal('Event'),
  metadata: ObjectMetaSchema,
  involvedObject: z
    .looseObject({
      kind: z.string().optional(),
      name: z.string().optional(),
      namespace: z.string().optional(),
    })
    .optional(),
  regarding: z
    .looseObject({
      kind: z.string().optional(),
      name: z.string().optional(),
      namespace: z.string().optional(),
    })
    .optional(),
  reason: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  count: z.number().nullable().optional(),
  firstTimestamp: z.string().nullable().optional(),
  lastTimestamp: z.string().nullable().optional(),
  eventTime: z.string().nullable().optional(),
  source: z
    .looseObject({ component: z.string().optional(), host: z.string().optional() })
    .nullable()
    .optional(),
});
export type KubeEvent = z.infer<typeof EventSchema>;

export const PodSchema = z.looseObject({
  kind: z.literal('Pod'),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({ nodeName: z.string().optional() }).optional(),
  status: z.looseObject({ phase: z.string().optional(), conditions }).optional(),
});
export type Pod = z.infer<typeof PodSchema>;

export const PodDisruptionBudgetSchema = z.looseObject({
  kind: z.literal('PodDisruptionBudget'),
  metadata: ObjectMetaSchema,
  spec: z
    .looseObject({
      selector: labelSelector.nullable().optional(),
      minAvailable: z.union([z.number(), z.string()]).optional(),
      maxUnavailable: z.union([z.number(), z.string()]).optional(),
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
export type PodDisruptionBudget = z.infer<typeof PodDisruptionBudgetSchema>;

export const ControllerConfigSchema = z.looseObject({
  kind: z.literal('ControllerConfig'),
  metadata: ObjectMetaSchema,
  spec: z
    .looseObject({
      osImageURL: z.string().optional(),
      images: z.record(z.string(), z.string()).optional(),
      releaseImage: z.string().optional(),
    })
    .optional(),
});
export type ControllerConfig = z.infer<typeof ControllerConfigSchema>;

/** The annotation and label keys atlevel reads (docs/domain.md 1.2, 1.3, 4.1). */
export const MCO = {
  currentConfig: 'machineconfiguration.openshift.io/currentConfig',
  desiredConfig: 'machineconfiguration.openshift.io/desiredConfig',
  state: 'machineconfiguration.openshift.io/state',
  /** `drain-<config>` or `uncordon-<config>`: what the daemon asks of the drain controller… */
  desiredDrain: 'machineconfiguration.openshift.io/desiredDrain',
  /** …and what the controller last did: a node drains while the two differ on a `drain-` request. */
  lastAppliedDrain: 'machineconfiguration.openshift.io/lastAppliedDrain',
  reason: 'machineconfiguration.openshift.io/reason',
  releaseImageVersion: 'machineconfiguration.openshift.io/release-image-version',
  generatedByControllerVersion: 'machineconfiguration.openshift.io/generated-by-controller-version',
  requiredForUpgrade: 'operator.machineconfiguration.openshift.io/required-for-upgrade',
  role: 'machineconfiguration.openshift.io/role',
} as const;
