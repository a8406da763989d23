/**
 * The operands the model can run under their operators (docs/simulate.md, "Operands"), as in a 4.10
 * cluster: dns's `dns-default` DaemonSet (coredns, every node), node-tuning's `tuned` DaemonSet, and
 * the console and service-ca Deployments. A scenario names the ones it models (scenario.ts); every
 * other operator stays generic.
 */
/**
 * An operator the model runs with its operand: a workload the operator applies with the release's
 * image for `component`, which then rolls out (a Deployment by ReplicaSets within maxSurge and
 * maxUnavailable, a DaemonSet one pod per node within maxUnavailable). Whether the operator waits
 * for that rollout before it reports level is the policy's (policy.ts; docs/simulate.md, "Operands").
 */
export interface OperandSpec {
  /** The ClusterOperator's name: one of the generic operators of operators.ts (dns, console, ...). */
  readonly operator: string;
  readonly kind: 'Deployment' | 'DaemonSet';
  readonly namespace: string;
  readonly name: string;
  /** The container that runs the component's image. */
  readonly container: string;
  /** The release component (payload tag) whose image the operand runs: it rolls when that image changes. */
  readonly component: string;
  /** A Deployment's spec.replicas; a DaemonSet runs one pod on every node. */
  readonly replicas: number;
  /** An integer or a percentage (a Deployment's rounds down, a DaemonSet's up; 0 becomes 1). */
  readonly maxUnavailable: number | string;
  /** A Deployment's maxSurge (rounds up); a DaemonSet does not surge. */
  readonly maxSurge: number | string;
}

export const BUILTIN_OPERANDS: Readonly<Record<string, OperandSpec>> = {
  // openshift/cluster-dns-operator: the DaemonSet runs on every node, maxUnavailable 10%.
  dns: {
    operator: 'dns',
    kind: 'DaemonSet',
    namespace: 'openshift-dns',
    name: 'dns-default',
    container: 'dns',
    component: 'coredns',
    replicas: 0,
    maxUnavailable: '10%',
    maxSurge: 0,
  },
  // openshift/cluster-node-tuning-operator: tuned runs the operator's own image.
  'node-tuning': {
    operator: 'node-tuning',
    kind: 'DaemonSet',
    namespace: 'openshift-cluster-node-tuning-operator',
    name: 'tuned',
    container: 'tuned',
    component: 'cluster-node-tuning-operator',
    replicas: 0,
    maxUnavailable: '10%',
    maxSurge: 0,
  },
  // openshift/console-operator: two console replicas.
  console: {
    operator: 'console',
    kind: 'Deployment',
    namespace: 'openshift-console',
    name: 'console',
    container: 'console',
    component: 'console',
    replicas: 2,
    maxUnavailable: '25%',
    maxSurge: '25%',
  },
  // openshift/service-ca-operator: the controller runs the operator's image.
  'service-ca': {
    operator: 'service-ca',
    kind: 'Deployment',
    namespace: 'openshift-service-ca',
    name: 'service-ca',
    container: 'service-ca-controller',
    component: 'service-ca-operator',
    replicas: 1,
    maxUnavailable: '25%',
    maxSurge: '25%',
  },
};

/** Own keys only, as for scenarios. */
export function builtinOperand(name: string): OperandSpec | undefined {
  return Object.hasOwn(BUILTIN_OPERANDS, name) ? BUILTIN_OPERANDS[name] : undefined;
}

/**
 * Each generic operator's own Deployment: its namespace, name and the release component it runs.
 * The CVO rolls it when that image changes; the operator's relatedObjects name the namespace.
 * Operators that share a namespace with another operator in a 4.10 cluster (cluster-autoscaler and
 * machine-api, csi-snapshot-controller and storage, the three OLM operators) keep only one
 * Deployment there, so a namespace never holds another operator's workload; baremetal and
 * marketplace, whose images the model's payload does not carry, have none.
 */
export const OPERATOR_DEPLOYMENTS: ReadonlyMap<
  string,
  { readonly namespace: string; readonly name: string; readonly component: string }
> = new Map(
  (
    [
      [
        'config-operator',
        'openshift-config-operator',
        'openshift-config-operator',
        'cluster-config-operator',
      ],
      ['etcd', 'openshift-etcd-operator', 'etcd-operator', 'cluster-etcd-operator'],
      [
        'kube-apiserver',
        'openshift-kube-apiserver-operator',
        'kube-apiserver-operator',
        'cluster-kube-apiserver-operator',
      ],
      [
        'kube-controller-manager',
        'openshift-kube-controller-manager-operator',
        'kube-controller-manager-operator',
        'cluster-kube-controller-manager-operator',
      ],
      [
        'kube-scheduler',
        'openshift-kube-scheduler-operator',
        'openshift-kube-scheduler-operator',
        'cluster-kube-scheduler-operator',
      ],
      ['machine-api', 'openshift-machine-api', 'machine-api-operator', 'machine-api-operator'],
      [
        'openshift-apiserver',
        'openshift-apiserver-operator',
        'openshift-apiserver-operator',
        'cluster-openshift-apiserver-operator',
      ],
      [
        'authentication',
        'openshift-authentication-operator',
        'authentication-operator',
        'cluster-authentication-operator',
      ],
      ['console', 'openshift-console-operator', 'console-operator', 'console-operator'],
      [
        'image-registry',
        'openshift-image-registry',
        'cluster-image-registry-operator',
        'cluster-image-registry-operator',
      ],
      ['ingress', 'openshift-ingress-operator', 'ingress-operator', 'cluster-ingress-operator'],
      ['insights', 'openshift-insights', 'insights-operator', 'insights-operator'],
      [
        'kube-storage-version-migrator',
        'openshift-kube-storage-version-migrator-operator',
        'kube-storage-version-migrator-operator',
        'cluster-kube-storage-version-migrator-operator',
      ],
      ['monitoring', 'openshift-monitoring', 'cluster-monitoring-operator', 'cluster-monitoring-operator'],
      [
        'node-tuning',
        'openshift-cluster-node-tuning-operator',
        'cluster-node-tuning-operator',
        'cluster-node-tuning-operator',
      ],
      [
        'openshift-controller-manager',
        'openshift-controller-manager-operator',
        'openshift-controller-manager-operator',
        'cluster-openshift-controller-manager-operator',
      ],
      [
        'openshift-samples',
        'openshift-cluster-samples-operator',
        'cluster-samples-operator',
        'cluster-samples-operator',
      ],
      [
        'operator-lifecycle-manager',
        'openshift-operator-lifecycle-manager',
        'olm-operator',
        'operator-lifecycle-manager',
      ],
      ['service-ca', 'openshift-service-ca-operator', 'service-ca-operator', 'service-ca-operator'],
      [
        'storage',
        'openshift-cluster-storage-operator',
        'cluster-storage-operator',
        'cluster-storage-operator',
      ],
      ['dns', 'openshift-dns-operator', 'dns-operator', 'cluster-dns-operator'],
      ['network', 'openshift-network-operator', 'network-operator', 'cluster-network-operator'],
    ] as const
  ).map(([op, namespace, name, component]) => [op, { namespace, name, component }]),
);
