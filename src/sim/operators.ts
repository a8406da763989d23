/**
 * The ClusterOperators of the simulated payload and their run levels (docs/domain.md 5.4): a
 * representative 4.10 set, each with how long its own update usually takes. machine-config, at
 * level 80, is modelled in full by controllers/mco.ts; the others are generic.
 */
import { type Dist, lognormal } from './rng.js';

export interface OperatorSpec {
  readonly name: string;
  readonly level: number;
  /** From its new pod running until it reports the new `operator` version. */
  readonly update: Dist;
  /** Sets Progressing=True while it updates (most library-go operators do). */
  readonly progressing: boolean;
  /** Progressing message once done. */
  readonly settled: string;
}

const min = 60_000;
const op = (
  name: string,
  level: number,
  medianMin: number,
  progressing = true,
  settled = 'All is well',
): OperatorSpec => ({
  name,
  level,
  update: lognormal(medianMin * min, 0.35, 10_000),
  progressing,
  settled,
});

export const OPERATORS: readonly OperatorSpec[] = [
  op('config-operator', 10, 0.6, false),
  op('etcd', 12, 3.5, true, 'NodeInstallerProgressing: 3 nodes are at the latest revision'),
  op('kube-apiserver', 20, 7, true, 'NodeInstallerProgressing: 3 nodes are at the latest revision'),
  op('kube-controller-manager', 25, 3, true, 'NodeInstallerProgressing: 3 nodes are at the latest revision'),
  op('kube-scheduler', 25, 2, true, 'NodeInstallerProgressing: 3 nodes are at the latest revision'),
  op('machine-api', 30, 1),
  op('openshift-apiserver', 30, 2.5),
  op('authentication', 50, 3.5),
  op('baremetal', 50, 0.5, false),
  op('cluster-autoscaler', 50, 0.5, false),
  op('console', 50, 1.5),
  op('csi-snapshot-controller', 50, 1),
  op('image-registry', 50, 1.5, true, 'Ready'),
  op('ingress', 50, 2.5, true, 'desired and current number of IngressControllers are equal'),
  op('insights', 50, 0.7, false, 'Monitoring the cluster'),
  op('kube-storage-version-migrator', 50, 1),
  op('marketplace', 50, 0.8, false, 'Successfully progressed to release version'),
  op('monitoring', 50, 4, true, 'Rolled out the stack.'),
  op('node-tuning', 50, 1.5, true, 'Cluster version is the latest'),
  op('openshift-controller-manager', 50, 1.5),
  op('openshift-samples', 50, 0.8, false, 'Samples installation successful'),
  op('operator-lifecycle-manager', 50, 0.7, true, 'Deployed 0.19.0'),
  op('operator-lifecycle-manager-catalog', 50, 0.7, true, 'Deployed 0.19.0'),
  op('operator-lifecycle-manager-packageserver', 50, 0.8, true, 'Deployed version 0.19.0'),
  op('service-ca', 50, 1, true, 'Progressing: All service-ca-operator deployments updated'),
  op('storage', 50, 1.5),
  op('dns', 70, 2.5, true, 'Desired and current number of DNSes are equal'),
  op('network', 70, 4.5, true, ''),
];

/** Manifests per run level, for the CVO's "N of M done" progress (about 735 in all, as in 4.10). */
export const LEVEL_MANIFESTS: ReadonlyMap<number, number> = new Map([
  [10, 45],
  [12, 30],
  [20, 60],
  [25, 50],
  [30, 70],
  [50, 380],
  [70, 40],
  [80, 45],
  [90, 15],
]);

export const MCO_LEVEL = 80;
