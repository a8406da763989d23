/**
 * The ClusterOperators of a 4.10 AWS cluster and how each took the update, in run-level order
 * (docs/domain.md 5.4). Operators whose images changed between the two nightlies (release.ts) roll their
 * operands and go Progressing; the rest only bump their versions. machine-config is not here: its
 * story differs between the two examples and lives in scenario.ts.
 */
import { FROM, KUBERNETES_VERSION, TO } from './facts.js';
import { image, type Side } from './release.js';
import { at } from './util.js';

export interface CondSpec {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

export type Related = readonly [group: string, resource: string, name: string, namespace?: string];

export interface OperatorDef {
  readonly name: string;
  /** `status.versions` for a release; version changes are the entries that differ. */
  readonly versions: (side: Side) => readonly (readonly [string, string])[];
  /** Steady-state conditions for a release version, in the order the operator writes them. */
  readonly conditions: (version: string) => readonly CondSpec[];
  readonly related: readonly Related[];
  /** When the operator first became Available during install. */
  readonly installedAt: number;
  /** When it reported the new versions; if it rolled operands first, when it went Progressing and why. */
  readonly update: {
    readonly versionsAt: number;
    readonly progressing?: { readonly at: number; readonly reason?: string; readonly message: string };
  };
  readonly annotations?: Readonly<Record<string, string>>;
}

const version = (side: Side) => (side === 'from' ? FROM : TO);
const operatorOnly = (side: Side) => [['operator', version(side)]] as const;

function allIsWell(progressing = 'All is well'): (v: string) => CondSpec[] {
  return () => [
    { type: 'Degraded', status: 'False', reason: 'AsExpected', message: 'All is well' },
    { type: 'Progressing', status: 'False', reason: 'AsExpected', message: progressing },
    { type: 'Available', status: 'True', reason: 'AsExpected', message: 'All is well' },
    { type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: 'All is well' },
  ];
}

function staticPod(revision: number, extraDegraded = '', extraAvailable = ''): (v: string) => CondSpec[] {
  return () => [
    {
      type: 'Degraded',
      status: 'False',
      reason: 'AsExpected',
      message: `NodeControllerDegraded: All master nodes are ready${extraDegraded}`,
    },
    {
      type: 'Progressing',
      status: 'False',
      reason: 'AsExpected',
      message: `NodeInstallerProgressing: 3 nodes are at revision ${revision}`,
    },
    {
      type: 'Available',
      status: 'True',
      reason: 'AsExpected',
      message: `StaticPodsAvailable: 3 nodes are active; 3 nodes are at revision ${revision}${extraAvailable}`,
    },
    { type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: 'All is well' },
  ];
}

const plain =
  (availableMessage = '', availableReason = 'AsExpected') =>
  (): CondSpec[] => [
    {
      type: 'Available',
      status: 'True',
      reason: availableReason,
      ...(availableMessage ? { message: availableMessage } : {}),
    },
    { type: 'Progressing', status: 'False' },
    { type: 'Degraded', status: 'False' },
    { type: 'Upgradeable', status: 'True' },
  ];

const ns = (name: string): Related => ['', 'namespaces', name];

export const OPERATORS: readonly OperatorDef[] = [
  {
    name: 'config-operator',
    versions: operatorOnly,
    conditions: allIsWell(),
    related: [
      ['operator.openshift.io', 'configs', 'cluster'],
      ns('openshift-config'),
      ns('openshift-config-operator'),
    ],
    installedAt: at('02:27:02'),
    update: { versionsAt: at('02:53:41.207') },
  },
  {
    name: 'etcd',
    versions: (s) => [
      ['raw-internal', version(s)],
      ['etcd', version(s)],
      ['operator', version(s)],
    ],
    conditions: staticPod(
      3,
      '\nEtcdMembersDegraded: No unhealthy members found',
      '\nEtcdMembersAvailable: 3 members are available',
    ),
    related: [
      ['operator.openshift.io', 'etcds', 'cluster'],
      ns('openshift-config'),
      ns('openshift-etcd-operator'),
      ns('openshift-etcd'),
    ],
    installedAt: at('02:30:17'),
    update: { versionsAt: at('02:54:09.771') },
  },
  {
    name: 'kube-apiserver',
    versions: (s) => [
      ['raw-internal', version(s)],
      ['kube-apiserver', KUBERNETES_VERSION],
      ['operator', version(s)],
    ],
    conditions: staticPod(10),
    related: [
      ['operator.openshift.io', 'kubeapiservers', 'cluster'],
      ['apiextensions.k8s.io', 'customresourcedefinitions', ''],
      ns('openshift-config'),
      ns('openshift-kube-apiserver-operator'),
      ns('openshift-kube-apiserver'),
    ],
    installedAt: at('02:33:48'),
    update: {
      versionsAt: at('03:04:52.118'),
      progressing: {
        at: at('02:54:31.402'),
        reason: 'NodeInstaller',
        message: 'NodeInstallerProgressing: 3 nodes are at revision 9; 0 nodes have achieved new revision 10',
      },
    },
  },
  {
    name: 'kube-controller-manager',
    versions: (s) => [
      ['raw-internal', version(s)],
      ['kube-controller-manager', KUBERNETES_VERSION],
      ['operator', version(s)],
    ],
    conditions: staticPod(8),
    related: [
      ['operator.openshift.io', 'kubecontrollermanagers', 'cluster'],
      ns('openshift-config'),
      ns('openshift-kube-controller-manager'),
      ns('openshift-kube-controller-manager-operator'),
    ],
    installedAt: at('02:32:55'),
    update: {
      versionsAt: at('03:08:21.655'),
      progressing: {
        at: at('03:05:12.914'),
        reason: 'NodeInstaller',
        message: 'NodeInstallerProgressing: 3 nodes are at revision 7; 0 nodes have achieved new revision 8',
      },
    },
  },
  {
    name: 'kube-scheduler',
    versions: (s) => [
      ['raw-internal', version(s)],
      ['kube-scheduler', KUBERNETES_VERSION],
      ['operator', version(s)],
    ],
    conditions: staticPod(7),
    related: [
      ['operator.openshift.io', 'kubeschedulers', 'cluster'],
      ns('openshift-config'),
      ns('openshift-kube-scheduler'),
      ns('openshift-kube-scheduler-operator'),
    ],
    installedAt: at('02:32:41'),
    update: {
      versionsAt: at('03:07:48.302'),
      progressing: {
        at: at('03:05:14.337'),
        reason: 'NodeInstaller',
        message: 'NodeInstallerProgressing: 3 nodes are at revision 6; 0 nodes have achieved new revision 7',
      },
    },
  },
  {
    name: 'cloud-controller-manager',
    versions: operatorOnly,
    conditions: (v) => [
      {
        type: 'Available',
        status: 'True',
        reason: 'AsExpected',
        message: `Cluster Cloud Controller Manager Operator is available at ${v}`,
      },
      { type: 'Progressing', status: 'False', reason: 'AsExpected' },
      { type: 'Degraded', status: 'False', reason: 'AsExpected' },
      { type: 'Upgradeable', status: 'True', reason: 'AsExpected' },
    ],
    related: [ns('openshift-cloud-controller-manager-operator'), ns('openshift-cloud-controller-manager')],
    installedAt: at('02:28:12'),
    update: { versionsAt: at('03:08:32.480') },
  },
  {
    name: 'openshift-apiserver',
    versions: (s) => [
      ['operator', version(s)],
      ['openshift-apiserver', version(s)],
    ],
    conditions: allIsWell(),
    related: [
      ['operator.openshift.io', 'openshiftapiservers', 'cluster'],
      ns('openshift-config'),
      ns('openshift-apiserver-operator'),
      ns('openshift-apiserver'),
    ],
    installedAt: at('02:37:26'),
    update: { versionsAt: at('03:08:39.126') },
  },
  {
    name: 'machine-api',
    versions: operatorOnly,
    conditions: (v) => [
      { type: 'Progressing', status: 'False', reason: 'AsExpected' },
      { type: 'Degraded', status: 'False', reason: 'AsExpected' },
      {
        type: 'Available',
        status: 'True',
        reason: 'AsExpected',
        message: `Cluster Machine API Operator is available at operator: ${v}`,
      },
      { type: 'Upgradeable', status: 'True', reason: 'AsExpected' },
    ],
    related: [ns('openshift-machine-api'), ['machine.openshift.io', 'machines', '', 'openshift-machine-api']],
    installedAt: at('02:31:48'),
    update: { versionsAt: at('03:08:44.590') },
  },
  {
    name: 'cloud-credential',
    versions: operatorOnly,
    conditions: plain(),
    related: [
      ['cloudcredential.openshift.io', 'credentialsrequests', ''],
      ns('openshift-cloud-credential-operator'),
    ],
    installedAt: at('02:26:55'),
    update: { versionsAt: at('03:09:03.217') },
  },
  {
    name: 'kube-storage-version-migrator',
    versions: operatorOnly,
    conditions: allIsWell(),
    related: [
      ['operator.openshift.io', 'kubestorageversionmigrators', 'cluster'],
      ns('openshift-kube-storage-version-migrator'),
    ],
    installedAt: at('02:30:02'),
    update: { versionsAt: at('03:09:05.843') },
  },
  {
    name: 'authentication',
    versions: (s) => [
      ['operator', version(s)],
      ['oauth-apiserver', version(s)],
      ['oauth-openshift', `${version(s)}_openshift`],
    ],
    conditions: allIsWell('AuthenticatorCertKeyProgressing: All is well'),
    related: [
      ['operator.openshift.io', 'authentications', 'cluster'],
      ['config.openshift.io', 'oauths', 'cluster'],
      ns('openshift-authentication'),
      ns('openshift-oauth-apiserver'),
    ],
    installedAt: at('02:44:51'),
    update: { versionsAt: at('03:09:31.009') },
  },
  {
    name: 'baremetal',
    versions: operatorOnly,
    conditions: () => [
      { type: 'Progressing', status: 'False' },
      { type: 'Degraded', status: 'False' },
      { type: 'Available', status: 'True', reason: 'AsExpected', message: 'Operational' },
      { type: 'Upgradeable', status: 'True' },
      {
        type: 'Disabled',
        status: 'True',
        reason: 'UnsupportedPlatform',
        message: 'Nothing to do on this Platform',
      },
    ],
    related: [ns('openshift-machine-api'), ['metal3.io', 'provisioning', '']],
    installedAt: at('02:31:50'),
    update: { versionsAt: at('03:09:33.551') },
  },
  {
    name: 'cluster-autoscaler',
    versions: operatorOnly,
    conditions: (v) => [
      { type: 'Available', status: 'True', reason: 'AsExpected', message: `at version ${v}` },
      { type: 'Progressing', status: 'False' },
      { type: 'Degraded', status: 'False' },
      { type: 'Upgradeable', status: 'True' },
    ],
    related: [
      ['autoscaling.openshift.io', 'machineautoscalers', '', 'openshift-machine-api'],
      ns('openshift-machine-api'),
    ],
    installedAt: at('02:31:55'),
    update: { versionsAt: at('03:09:36.774') },
  },
  {
    name: 'csi-snapshot-controller',
    versions: (s) => [
      ['operator', version(s)],
      ['csi-snapshot-controller', version(s)],
    ],
    conditions: allIsWell(),
    related: [
      ['operator.openshift.io', 'csisnapshotcontrollers', 'cluster'],
      ns('openshift-cluster-storage-operator'),
    ],
    installedAt: at('02:30:44'),
    update: { versionsAt: at('03:09:40.128') },
  },
  {
    name: 'image-registry',
    versions: operatorOnly,
    conditions: () => [
      {
        type: 'Available',
        status: 'True',
        reason: 'Ready',
        message:
          'Available: The registry is ready\nNodeCADaemonAvailable: The daemon set node-ca has available replicas',
      },
      {
        type: 'Progressing',
        status: 'False',
        reason: 'Ready',
        message: 'Progressing: The registry is ready',
      },
      { type: 'Degraded', status: 'False', reason: 'AsExpected' },
    ],
    related: [['imageregistry.operator.openshift.io', 'configs', 'cluster'], ns('openshift-image-registry')],
    installedAt: at('02:38:10'),
    update: { versionsAt: at('03:09:52.661') },
  },
  {
    name: 'insights',
    versions: operatorOnly,
    conditions: () => [
      { type: 'Degraded', status: 'False', reason: 'AsExpected' },
      { type: 'Available', status: 'True', reason: 'AsExpected' },
      { type: 'Progressing', status: 'False', reason: 'AsExpected', message: 'Monitoring the cluster' },
      { type: 'Disabled', status: 'False', reason: 'AsExpected' },
    ],
    related: [ns('openshift-insights'), ['', 'secrets', 'support', 'openshift-config']],
    installedAt: at('02:31:13'),
    update: { versionsAt: at('03:09:55.392') },
  },
  {
    name: 'machine-approver',
    versions: operatorOnly,
    conditions: (v) => [
      {
        type: 'Available',
        status: 'True',
        reason: 'AsExpected',
        message: `Cluster Machine Approver is available at ${v}`,
      },
      { type: 'Degraded', status: 'False', reason: 'AsExpected' },
      { type: 'Progressing', status: 'False', reason: 'AsExpected' },
      { type: 'Upgradeable', status: 'True', reason: 'AsExpected' },
    ],
    related: [ns('openshift-cluster-machine-approver')],
    installedAt: at('02:28:30'),
    update: { versionsAt: at('03:09:58.017') },
  },
  {
    name: 'marketplace',
    versions: operatorOnly,
    conditions: (v) => [
      {
        type: 'Progressing',
        status: 'False',
        reason: 'OperatorAvailable',
        message: `Successfully progressed to release version: ${v}`,
      },
      {
        type: 'Available',
        status: 'True',
        reason: 'OperatorAvailable',
        message: `Available release version: ${v}`,
      },
      {
        type: 'Upgradeable',
        status: 'True',
        reason: 'OperatorAvailable',
        message: 'Marketplace is upgradeable',
      },
      {
        type: 'Degraded',
        status: 'False',
        reason: 'OperatorAvailable',
        message: `Available release version: ${v}`,
      },
    ],
    related: [
      ns('openshift-marketplace'),
      ['operators.coreos.com', 'catalogsources', '', 'openshift-marketplace'],
    ],
    installedAt: at('02:31:21'),
    update: { versionsAt: at('03:10:03.448') },
  },
  {
    name: 'node-tuning',
    versions: operatorOnly,
    conditions: (v) => [
      { type: 'Available', status: 'True', reason: 'AsExpected', message: `Cluster has deployed "${v}"` },
      { type: 'Progressing', status: 'False', reason: 'AsExpected', message: `Cluster version is "${v}"` },
      { type: 'Degraded', status: 'False', reason: 'AsExpected', message: 'DaemonSet "tuned" available' },
    ],
    related: [
      ns('openshift-cluster-node-tuning-operator'),
      ['tuned.openshift.io', 'tuneds', '', 'openshift-cluster-node-tuning-operator'],
    ],
    installedAt: at('02:30:58'),
    update: { versionsAt: at('03:10:05.926') },
  },
  {
    name: 'openshift-controller-manager',
    versions: operatorOnly,
    conditions: allIsWell(),
    related: [
      ['operator.openshift.io', 'openshiftcontrollermanagers', 'cluster'],
      ns('openshift-config'),
      ns('openshift-controller-manager-operator'),
      ns('openshift-controller-manager'),
    ],
    installedAt: at('02:33:16'),
    update: { versionsAt: at('03:10:09.310') },
  },
  {
    name: 'operator-lifecycle-manager',
    versions: (s) => [
      ['operator', version(s)],
      ['operator-lifecycle-manager', '0.19.0'],
    ],
    conditions: () => [
      { type: 'Degraded', status: 'False' },
      { type: 'Available', status: 'True' },
      { type: 'Progressing', status: 'False', message: 'Deployed 0.19.0' },
      { type: 'Upgradeable', status: 'True' },
    ],
    related: [
      ns('openshift-operator-lifecycle-manager'),
      ['operators.coreos.com', 'operatorgroups', '', 'openshift-operator-lifecycle-manager'],
    ],
    installedAt: at('02:30:31'),
    update: { versionsAt: at('03:10:14.582') },
  },
  {
    name: 'operator-lifecycle-manager-catalog',
    versions: (s) => [
      ['operator', version(s)],
      ['operator-lifecycle-manager', '0.19.0'],
    ],
    conditions: () => [
      { type: 'Degraded', status: 'False' },
      { type: 'Progressing', status: 'False', message: 'Deployed 0.19.0' },
      { type: 'Available', status: 'True' },
      { type: 'Upgradeable', status: 'True' },
    ],
    related: [ns('openshift-operator-lifecycle-manager')],
    installedAt: at('02:30:33'),
    update: { versionsAt: at('03:10:15.104') },
  },
  {
    name: 'service-ca',
    versions: operatorOnly,
    conditions: allIsWell('Progressing: All service-ca-operator deployments updated'),
    related: [
      ['operator.openshift.io', 'servicecas', 'cluster'],
      ns('openshift-service-ca-operator'),
      ns('openshift-service-ca'),
    ],
    installedAt: at('02:28:49'),
    update: { versionsAt: at('03:10:19.877') },
  },
  {
    name: 'openshift-samples',
    versions: operatorOnly,
    conditions: (v) => [
      { type: 'Degraded', status: 'False' },
      { type: 'Available', status: 'True', message: `Samples installation successful at ${v}` },
      { type: 'Progressing', status: 'False', message: `Samples installation successful at ${v}` },
    ],
    related: [
      ['samples.operator.openshift.io', 'configs', 'cluster'],
      ns('openshift-cluster-samples-operator'),
    ],
    installedAt: at('02:39:40'),
    update: { versionsAt: at('03:10:24.233') },
  },
  {
    name: 'storage',
    versions: (s) => [
      ['operator', version(s)],
      ['AWSEBSCSIDriverOperator', version(s)],
    ],
    conditions: () => [
      {
        type: 'Degraded',
        status: 'False',
        reason: 'AsExpected',
        message: 'AWSEBSCSIDriverOperatorCRDegraded: All is well',
      },
      {
        type: 'Progressing',
        status: 'False',
        reason: 'AsExpected',
        message: 'AWSEBSCSIDriverOperatorCRProgressing: All is well',
      },
      {
        type: 'Available',
        status: 'True',
        reason: 'AsExpected',
        message: 'AWSEBSCSIDriverOperatorCRAvailable: All is well',
      },
      { type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: 'All is well' },
    ],
    related: [
      ['operator.openshift.io', 'storages', 'cluster'],
      ns('openshift-cluster-storage-operator'),
      ns('openshift-cluster-csi-drivers'),
    ],
    installedAt: at('02:30:50'),
    update: { versionsAt: at('03:10:30.719') },
  },
  {
    name: 'operator-lifecycle-manager-packageserver',
    versions: (s) => [
      ['operator', version(s)],
      ['packageserver', '0.19.0'],
    ],
    conditions: () => [
      { type: 'Degraded', status: 'False' },
      {
        type: 'Available',
        status: 'True',
        reason: 'ClusterServiceVersionSucceeded',
        message:
          'ClusterServiceVersion openshift-operator-lifecycle-manager/packageserver observed in phase Succeeded',
      },
      { type: 'Progressing', status: 'False', message: 'Deployed version 0.19.0' },
      { type: 'Upgradeable', status: 'True', message: 'Safe to upgrade' },
    ],
    related: [
      ns('openshift-operator-lifecycle-manager'),
      [
        'operators.coreos.com',
        'clusterserviceversions',
        'packageserver',
        'openshift-operator-lifecycle-manager',
      ],
    ],
    installedAt: at('02:31:36'),
    update: { versionsAt: at('03:10:47.365') },
  },
  {
    name: 'console',
    versions: operatorOnly,
    conditions: allIsWell(),
    related: [
      ['operator.openshift.io', 'consoles', 'cluster'],
      ns('openshift-console'),
      ns('openshift-console-operator'),
    ],
    installedAt: at('02:43:05'),
    update: {
      versionsAt: at('03:11:49.052'),
      progressing: {
        at: at('03:10:02.681'),
        reason: 'SyncLoopRefresh_InProgress',
        message: `SyncLoopRefreshProgressing: Working toward version ${TO}`,
      },
    },
  },
  {
    name: 'ingress',
    versions: (s) => [
      ['operator', version(s)],
      ['ingress-controller', image('haproxy-router', s)],
      ['canary-server', image('cluster-ingress-operator', s)],
    ],
    conditions: () => [
      {
        type: 'Available',
        status: 'True',
        reason: 'IngressAvailable',
        message: 'The "default" ingress controller reports Available=True.',
      },
      {
        type: 'Progressing',
        status: 'False',
        reason: 'AsExpected',
        message: 'desired and current number of IngressControllers are equal',
      },
      {
        type: 'Degraded',
        status: 'False',
        reason: 'IngressNotDegraded',
        message: 'The "default" ingress controller reports Degraded=False.',
      },
    ],
    related: [
      ['operator.openshift.io', 'ingresscontrollers', '', 'openshift-ingress-operator'],
      ns('openshift-ingress-operator'),
      ns('openshift-ingress'),
    ],
    installedAt: at('02:41:27'),
    update: {
      versionsAt: at('03:12:58.496'),
      progressing: {
        at: at('03:10:07.220'),
        reason: 'Reconciling',
        message: 'Not all ingress controllers are available.',
      },
    },
  },
  {
    name: 'monitoring',
    versions: operatorOnly,
    conditions: () => [
      {
        type: 'Upgradeable',
        status: 'True',
        reason: 'RollOutDone',
        message: 'Successfully rolled out the stack.',
      },
      {
        type: 'Available',
        status: 'True',
        reason: 'RollOutDone',
        message: 'Successfully rolled out the stack.',
      },
      {
        type: 'Progressing',
        status: 'False',
        reason: 'RollOutDone',
        message: 'Successfully rolled out the stack.',
      },
      { type: 'Degraded', status: 'False' },
    ],
    related: [
      ns('openshift-monitoring'),
      ns('openshift-user-workload-monitoring'),
      ['monitoring.coreos.com', 'prometheusrules', ''],
    ],
    installedAt: at('02:45:38'),
    update: {
      versionsAt: at('03:14:33.847'),
      progressing: { at: at('03:10:11.935'), reason: 'RollOutInProgress', message: 'Rolling out the stack.' },
    },
  },
  {
    name: 'dns',
    versions: (s) => [
      ['operator', version(s)],
      ['coredns', image('coredns', s)],
      ['openshift-cli', image('cli', s)],
      ['kube-rbac-proxy', image('kube-rbac-proxy', s)],
    ],
    conditions: () => [
      { type: 'Available', status: 'True', reason: 'AsExpected', message: 'DNS "default" is available.' },
      {
        type: 'Progressing',
        status: 'False',
        reason: 'AsExpected',
        message: 'Desired and current number of DNSes are equal',
      },
      { type: 'Degraded', status: 'False', reason: 'DNSNotDegraded' },
      {
        type: 'Upgradeable',
        status: 'True',
        reason: 'DNSUpgradeable',
        message: 'DNS Operator can be upgraded',
      },
    ],
    related: [
      ns('openshift-dns-operator'),
      ['operator.openshift.io', 'dnses', 'default'],
      ns('openshift-dns'),
    ],
    installedAt: at('02:29:41'),
    update: { versionsAt: at('03:15:02.371') },
  },
  {
    name: 'network',
    versions: operatorOnly,
    conditions: () => [
      { type: 'ManagementStateDegraded', status: 'False' },
      { type: 'Degraded', status: 'False' },
      { type: 'Upgradeable', status: 'True' },
      { type: 'Progressing', status: 'False' },
      { type: 'Available', status: 'True' },
    ],
    related: [
      ['', 'configmaps', 'applied-cluster', 'openshift-network-operator'],
      ['operator.openshift.io', 'networks', 'cluster'],
      ns('openshift-multus'),
      ns('openshift-sdn'),
      ns('openshift-network-diagnostics'),
    ],
    installedAt: at('02:29:12'),
    update: {
      versionsAt: at('03:21:30.664'),
      progressing: {
        at: at('03:14:56.108'),
        reason: 'Deploying',
        message: 'DaemonSet "openshift-multus/multus" update is rolling out (2 out of 6 updated)',
      },
    },
  },
];

/** The node-reboot Progressing messages of the daemonset-owning operators (see scenario.ts). */
export const REBOOT_PROGRESSING: Readonly<
  Record<string, { reason: string; message: string; lead: number; tail: number }>
> = {
  network: {
    reason: 'Deploying',
    message: 'DaemonSet "openshift-multus/network-metrics-daemon" is not available (awaiting 1 nodes)',
    lead: 4_000,
    tail: 23_000,
  },
  dns: { reason: 'Reconciling', message: 'Have 5 available DNS pods, want 6.', lead: 7_000, tail: 12_000 },
};
