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
