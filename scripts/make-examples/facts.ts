/**
 * The facts of the run. The first block is quoted from the bug report
 * (https://bugzilla.redhat.com/show_bug.cgi?id=2019850) and must never change; everything after it is invented for the
 * reconstruction, chosen to be consistent with the seed and with docs/domain.md.
 */
import { at, commitId, digest } from './util.js';

// ---- from the seed (verbatim) ----
export const JOB = 'periodic-ci-openshift-release-master-nightly-4.10-e2e-aws-upgrade';
export const BUILD_ID = '1455719487931158528';
export const FROM = '4.10.0-0.nightly-2021-11-02-191632';
export const TO = '4.10.0-0.nightly-2021-11-03-020416';
export const CI_NAMESPACE = 'ci-op-wi0wdxci';
export const TARGET_IMAGE =
  'registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f';
export const ART_REPO = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev';
export const POD_FROM = `${ART_REPO}@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639`;
export const POD_TO = `${ART_REPO}@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb`;
export const RENDERED = {
  masterOld: 'rendered-master-78d48a9fbc8ba6a746040c11f8335d1a',
  workerOld: 'rendered-worker-f4fb9dc4bce02415a779f436ccbd258f',
  masterNew: 'rendered-master-ebc4fc8c7b6a155d86684204394e4930',
  workerNew: 'rendered-worker-80216c83e551170f7d4be028d2c2414b',
} as const;
export const RENDERED_OLD_AT = at('02:30:53');
export const RENDERED_NEW_AT = at('03:23:11');
export const TEST_NAME =
  '[sig-arch][Feature:ClusterUpgrade] Cluster should remain functional during upgrade [Disruptive] [Serial]';
export const MASTER_INVARIANT =
  'the "master" pool should be updated before the CVO reports available at the new version';
/** Duration of the failing test as the report prints it. */
export const TEST_DURATION = '43m33s';

// ---- invented, consistent with the seed ----
/** The initial release as imported into the CI namespace (digest invented). */
export const FROM_IMAGE = `registry.build01.ci.openshift.org/${CI_NAMESPACE}/release@sha256:${digest(`release:${FROM}`)}`;
export const CLUSTER_NAME = `${CI_NAMESPACE}-cb3b5`;
const INFRA_ID = `${CLUSTER_NAME}-7x2kq`;
export const BASE_DOMAIN = 'origin-ci-int-aws.dev.rhcloud.com';
export const REGION = 'us-east-2';
/** The machine-config-operator commit of both releases (the seed: the MCO did not change). */
export const MCO_COMMIT = commitId('openshift/machine-config-operator@base');
/** Run start of openshift-tests, used as the e2e-intervals file suffix. */
export const MONITOR_START = at('02:50:21.384');
export const INTERVALS_FILE = 'e2e-intervals_20211103-025021.json';
export const KUBERNETES_VERSION = '1.22.1';
export const RHCOS_VERSION = '410.84.202111022003-0';

export type Role = 'master' | 'worker';

export interface NodeDef {
  readonly name: string;
  readonly role: Role;
  readonly zone: string;
  readonly ip: string;
  readonly machine: string;
  readonly instanceId: string;
  readonly createdAt: number;
  readonly instanceType: string;
}

function node(
  ip: string,
  role: Role,
  zone: string,
  machineSuffix: string,
  instanceId: string,
  created: string,
): NodeDef {
  return {
    name: `ip-${ip.replace(/\./g, '-')}.${REGION}.compute.internal`,
    role,
    zone,
    ip,
    machine: `${INFRA_ID}-${role === 'master' ? machineSuffix : `worker-${zone}-${machineSuffix}`}`,
    instanceId,
    createdAt: at(created),
    instanceType: role === 'master' ? 'm5.xlarge' : 'm5.large',
  };
}

/** Three masters and three workers, one per zone; masters roll in this order, workers too. */
export const NODES: readonly NodeDef[] = [
  node('10.0.139.12', 'master', 'us-east-2a', 'master-0', 'i-0a3f1c7e92d4b6580', '02:26:14'),
  node('10.0.151.87', 'master', 'us-east-2b', 'master-1', 'i-07c2e5d1f8a9b3416', '02:26:19'),
  node('10.0.171.203', 'master', 'us-east-2c', 'master-2', 'i-0e9b4a6c2f1d85737', '02:26:11'),
  node('10.0.130.44', 'worker', 'us-east-2a', 'q8r2n', 'i-0b5d8e2a4c7f19603', '02:35:52'),
  node('10.0.158.221', 'worker', 'us-east-2b', '4hv7c', 'i-06f1a9c3e5b2d7841', '02:36:07'),
  node('10.0.166.9', 'worker', 'us-east-2c', 'xk9dz', 'i-0d2c7b5e9a3f16482', '02:35:49'),
];

/** Install: ClusterVersion created, history entry for FROM completed. */
export const INSTALL_STARTED = at('02:24:41');
export const INSTALL_COMPLETED = at('02:47:36');
/** The upgrade test sets spec.desiredUpdate; the CVO loads the payload and opens the history entry. */
export const TEST_STARTED = at('02:53:05.104');
export const UPGRADE_REQUESTED = at('02:53:05.618');
export const UPDATE_STARTED = at('02:53:21.407');
