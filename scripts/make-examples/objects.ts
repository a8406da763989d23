/**
 * gather-extra's `oc get <resource> -o json` dumps at the moment of the gather: Kubernetes Lists
 * whose objects reflect the end state of the scenario, with transition times taken from it.
 */

import { listJson } from '../../src/artifacts/index.js';
import { POOL_UIDS } from './events.js';
import {
  FROM,
  FROM_IMAGE,
  INSTALL_COMPLETED,
  INSTALL_STARTED,
  KUBERNETES_VERSION,
  MCO_COMMIT,
  NODES,
  type NodeDef,
  RENDERED,
  RENDERED_NEW_AT,
  RENDERED_OLD_AT,
  RHCOS_VERSION,
  type Role,
  TARGET_IMAGE,
  TO,
  UPDATE_STARTED,
} from './facts.js';
import { ignitionJson, mergeConfigs, templateConfigs } from './ignition.js';
import type { CondSpec } from './operators.js';
import { image, type Side } from './release.js';
import type { OperatorRun, Scenario } from './types.js';
import { at, commitId, k8sTime, microTime, rng, uuid } from './util.js';

const MC_API = 'machineconfiguration.openshift.io/v1';
const ANNOTATION = {
  controllerVersion: 'machineconfiguration.openshift.io/generated-by-controller-version',
  releaseVersion: 'machineconfiguration.openshift.io/release-image-version',
} as const;

/** A resourceVersion that grows with the time of the object's last write. */
function resourceVersion(t: number, salt = 0): string {
  return String(Math.floor(9_000 + ((t - INSTALL_STARTED) / 1000) * 37) + salt);
}

// ---- ClusterVersion ----

export function clusterVersionJson(s: Scenario): string {
  const cv = {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: {
      creationTimestamp: k8sTime(INSTALL_STARTED - 8_000),
      generation: 2,
      name: 'version',
      resourceVersion: resourceVersion(s.cv.completedAt),
      uid: uuid('cv'),
    },
    spec: {
      channel: 'stable-4.10',
      clusterID: uuid('cluster-id'),
      desiredUpdate: { force: true, image: TARGET_IMAGE, version: '' },
    },
    status: {
      availableUpdates: null,
      conditions: [
        {
          lastTransitionTime: k8sTime(INSTALL_COMPLETED),
          message: `Done applying ${TO}`,
          status: 'True',
          type: 'Available',
        },
        { lastTransitionTime: k8sTime(at('02:44:02')), status: 'False', type: 'Failing' },
        {
          lastTransitionTime: k8sTime(s.cv.completedAt),
          message: `Cluster version is ${TO}`,
          status: 'False',
          type: 'Progressing',
        },
        {
          lastTransitionTime: k8sTime(INSTALL_STARTED + 17_000),
          message: `Unable to retrieve available updates: currently reconciling cluster version ${TO} not found in the "stable-4.10" channel`,
          reason: 'VersionNotFound',
          status: 'False',
          type: 'RetrievedUpdates',
        },
        {
          lastTransitionTime: k8sTime(INSTALL_STARTED + 9_000),
          message: `Payload loaded version="${TO}" image="${TARGET_IMAGE}"`,
          reason: 'PayloadLoaded',
          status: 'True',
          type: 'ReleaseAccepted',
        },
      ],
      desired: { image: TARGET_IMAGE, version: TO },
      history: [
        {
          completionTime: k8sTime(s.cv.completedAt),
          image: TARGET_IMAGE,
          startedTime: k8sTime(UPDATE_STARTED),
          state: 'Completed',
          verified: false,
          version: TO,
        },
        {
          completionTime: k8sTime(INSTALL_COMPLETED),
          image: FROM_IMAGE,
          startedTime: k8sTime(INSTALL_STARTED),
          state: 'Completed',
          verified: false,
          version: FROM,
        },
      ],
      observedGeneration: 2,
      versionHash: 'h4MgWdpVZzI=',
    },
  };
  return listJson([cv]);
}

// ---- ClusterOperators ----

const CO_CREATED = INSTALL_STARTED + 27_000;

function finalConditions(op: OperatorRun): Record<string, unknown>[] {
  return op.steady.map((c: CondSpec) => {
    const last = [...op.changes].reverse().find((x) => x.type === c.type);
    const fallback: Record<string, number> = {
      Available: op.installedAt,
      Progressing: op.installedAt + 12_000,
      Degraded: op.installedAt - 95_000,
    };
    // Conditions set during install never predate the object the CVO created for them.
    const ltt = last?.at ?? Math.max(fallback[c.type] ?? op.installedAt - 120_000, CO_CREATED + 6_000);
    return {
      lastTransitionTime: k8sTime(ltt),
      ...(c.message !== undefined ? { message: c.message } : {}),
      ...(c.reason !== undefined ? { reason: c.reason } : {}),
      status: c.status,
      type: c.type,
    };
  });
}

export function clusterOperatorsJson(s: Scenario): string {
  const items = [...s.operators]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((op) => {
      const lastWrite = Math.max(op.versionsAt, ...op.changes.map((c) => c.at));
      return {
        apiVersion: 'config.openshift.io/v1',
        kind: 'ClusterOperator',
        metadata: {
          annotations: {
            'include.release.openshift.io/self-managed-high-availability': 'true',
            'include.release.openshift.io/single-node-developer': 'true',
          },
          creationTimestamp: k8sTime(CO_CREATED),
          generation: 1,
          name: op.name,
          resourceVersion: resourceVersion(lastWrite, op.name.length),
          uid: uuid(`co:${op.name}`),
        },
        spec: {},
        status: {
          conditions: finalConditions(op),
          extension: op.extension,
          relatedObjects: op.related.map(([group, resource, name, namespace]) => ({
            group,
            name,
            ...(namespace ? { namespace } : {}),
            resource,
          })),
          versions: op.versionsTo.map(([name, version]) => ({ name, version })),
        },
      };
    });
  return listJson(items);
}

// ---- MachineConfigPools ----

const SOURCE = (role: Role) =>
  templateConfigs(role, 'to').map((t) => ({ apiVersion: MC_API, kind: 'MachineConfig', name: t.name }));

export function machineConfigPoolsJson(s: Scenario): string {
  const items = s.pools.map((p) => {
    const configuration = { name: p.newConfig, source: SOURCE(p.name) };
    const labels: Record<string, string> = {
      'machineconfiguration.openshift.io/mco-built-in': '',
      ...(p.name === 'master'
        ? { 'operator.machineconfiguration.openshift.io/required-for-upgrade': '' }
        : {}),
      [`pools.operator.machineconfiguration.openshift.io/${p.name}`]: '',
    };
    const settled = k8sTime(at(p.name === 'master' ? '02:31:19' : '02:40:44'));
    return {
      apiVersion: MC_API,
      kind: 'MachineConfigPool',
      metadata: {
        creationTimestamp: k8sTime(at('02:30:45')),
        generation: 3,
        labels,
        name: p.name,
        resourceVersion: resourceVersion(p.updatedAt, 3),
        uid: POOL_UIDS[p.name],
      },
      spec: {
        configuration,
        machineConfigSelector: { matchLabels: { 'machineconfiguration.openshift.io/role': p.name } },
        nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${p.name}`]: '' } },
        paused: false,
      },
      status: {
        conditions: [
          {
            lastTransitionTime: k8sTime(at('02:30:53')),
            message: '',
            reason: '',
            status: 'False',
            type: 'RenderDegraded',
          },
          {
            lastTransitionTime: k8sTime(p.updatedAt),
            message: `All nodes are updated with ${p.newConfig}`,
            reason: '',
            status: 'True',
            type: 'Updated',
          },
          {
            lastTransitionTime: k8sTime(p.updatedAt),
            message: '',
            reason: '',
            status: 'False',
            type: 'Updating',
          },
          { lastTransitionTime: settled, message: '', reason: '', status: 'False', type: 'NodeDegraded' },
          { lastTransitionTime: settled, message: '', reason: '', status: 'False', type: 'Degraded' },
        ],
        configuration,
        degradedMachineCount: 0,
        machineCount: 3,
        observedGeneration: 3,
        readyMachineCount: 3,
        unavailableMachineCount: 0,
        updatedMachineCount: 3,
      },
    };
  });
  return listJson(items);
}

// ---- MachineConfigs ----

const OWNER = {
  ControllerConfig: {
    apiVersion: MC_API,
    blockOwnerDeletion: true,
    controller: true,
    kind: 'ControllerConfig',
    name: 'machine-config-controller',
    uid: uuid('controllerconfig'),
  },
  Image: { apiVersion: 'config.openshift.io/v1', kind: 'Image', name: 'cluster', uid: uuid('image-config') },
} as const;

function renderedConfig(
  role: Role,
  side: Side,
  name: string,
  createdAt: number,
  variant: Scenario['variant'],
) {
  const merged = mergeConfigs(templateConfigs(role, side).map((t) => t.config));
  const annotations: Record<string, string> = { [ANNOTATION.controllerVersion]: MCO_COMMIT };
  // The pre-fix MCO did not stamp the release version (docs/domain.md 1.2); the fixed one does.
  if (variant === 'fixed') annotations[ANNOTATION.releaseVersion] = side === 'from' ? FROM : TO;
  return {
    apiVersion: MC_API,
    kind: 'MachineConfig',
    metadata: {
      annotations,
      creationTimestamp: k8sTime(createdAt),
      generation: 1,
      name,
      ownerReferences: [
        {
          apiVersion: MC_API,
          blockOwnerDeletion: true,
          controller: true,
          kind: 'MachineConfigPool',
          name: role,
          uid: POOL_UIDS[role],
        },
      ],
      resourceVersion: resourceVersion(createdAt, role === 'master' ? 1 : 2),
      uid: uuid(`mc:${name}`),
    },
    spec: {
      config: ignitionJson(merged),
      extensions: [],
      fips: false,
      kernelArguments: [],
      kernelType: 'default',
      osImageURL: image('machine-os-content', side),
    },
  };
}

function templateItems(role: Role) {
  return templateConfigs(role, 'to').map((t) => {
    const createdAt = t.owner === 'installer' ? at('02:25:19') : at('02:30:47');
    const updatedAt = t.podDependent ? at('03:23:06.540') : createdAt;
    return {
      apiVersion: MC_API,
      kind: 'MachineConfig',
      metadata: {
        ...(t.owner !== 'installer' ? { annotations: { [ANNOTATION.controllerVersion]: MCO_COMMIT } } : {}),
        creationTimestamp: k8sTime(createdAt),
        generation: t.podDependent ? 2 : 1,
        labels: { 'machineconfiguration.openshift.io/role': role },
        name: t.name,
        ...(t.owner !== 'installer' ? { ownerReferences: [OWNER[t.owner]] } : {}),
        resourceVersion: resourceVersion(updatedAt, t.name.length),
        uid: uuid(`mc:${t.name}`),
      },
      spec: {
        config: ignitionJson(t.config),
        extensions: null,
        fips: false,
        kernelArguments: null,
        kernelType: '',
        osImageURL: t.owner === 'ControllerConfig' ? image('machine-os-content', 'to') : '',
      },
    };
  });
}

export function machineConfigsJson(s: Scenario): string {
  const items = [
    ...templateItems('master'),
    ...templateItems('worker'),
    renderedConfig('master', 'from', RENDERED.masterOld, RENDERED_OLD_AT, s.variant),
    renderedConfig('worker', 'from', RENDERED.workerOld, RENDERED_OLD_AT, s.variant),
    renderedConfig('master', 'to', RENDERED.masterNew, RENDERED_NEW_AT, s.variant),
    renderedConfig('worker', 'to', RENDERED.workerNew, RENDERED_NEW_AT, s.variant),
  ].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  return listJson(items);
}

// ---- Nodes ----

function nodeItem(n: NodeDef, s: Scenario) {
  const r = s.rollouts.find((x) => x.node.name === n.name);
  if (!r) throw new Error(`no rollout for ${n.name}`);
  const j = rng(`node:${s.variant}:${n.name}`);
  const heartbeat = Math.max(r.readyAt, s.gatherAt - j.int(8, 55) * 1000);
  const kubeletStart = r.readyAt - 12_000;
  const cond = (type: string, status: string, reason: string, message: string, ltt: number) => ({
    lastHeartbeatTime: k8sTime(heartbeat),
    lastTransitionTime: k8sTime(ltt),
    message,
    reason,
    status,
    type,
  });
  const hostname = n.name.split('.')[0] ?? n.name;
  const master = n.role === 'master';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      annotations: {
        'machine.openshift.io/machine': `openshift-machine-api/${n.machine}`,
        'machineconfiguration.openshift.io/controlPlaneTopology': 'HighlyAvailable',
        'machineconfiguration.openshift.io/currentConfig': r.to,
        'machineconfiguration.openshift.io/desiredConfig': r.to,
        'machineconfiguration.openshift.io/reason': '',
        'machineconfiguration.openshift.io/state': 'Done',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      creationTimestamp: k8sTime(n.createdAt),
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/instance-type': n.instanceType,
        'beta.kubernetes.io/os': 'linux',
        'failure-domain.beta.kubernetes.io/region': 'us-east-2',
        'failure-domain.beta.kubernetes.io/zone': n.zone,
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': hostname,
        'kubernetes.io/os': 'linux',
        [`node-role.kubernetes.io/${n.role}`]: '',
        'node.kubernetes.io/instance-type': n.instanceType,
        'node.openshift.io/os_id': 'rhcos',
        'topology.ebs.csi.aws.com/zone': n.zone,
        'topology.kubernetes.io/region': 'us-east-2',
        'topology.kubernetes.io/zone': n.zone,
      },
      name: n.name,
      resourceVersion: resourceVersion(heartbeat, n.ip.length),
      uid: uuid(`node:${n.name}`),
    },
    spec: {
      providerID: `aws:///${n.zone}/${n.instanceId}`,
      ...(master ? { taints: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/master' }] } : {}),
    },
    status: {
      addresses: [
        { address: n.ip, type: 'InternalIP' },
        { address: n.name, type: 'Hostname' },
        { address: n.name, type: 'InternalDNS' },
      ],
      allocatable: master
        ? {
            cpu: '3500m',
            'ephemeral-storage': '114396791822',
            'hugepages-1Gi': '0',
            'hugepages-2Mi': '0',
            memory: '15233556Ki',
            pods: '250',
          }
        : {
            cpu: '1500m',
            'ephemeral-storage': '114396791822',
            'hugepages-1Gi': '0',
            'hugepages-2Mi': '0',
            memory: '6919700Ki',
            pods: '250',
          },
      capacity: master
        ? {
            cpu: '4',
            'ephemeral-storage': '125293548Ki',
            'hugepages-1Gi': '0',
            'hugepages-2Mi': '0',
            memory: '16384532Ki',
            pods: '250',
          }
        : {
            cpu: '2',
            'ephemeral-storage': '125293548Ki',
            'hugepages-1Gi': '0',
            'hugepages-2Mi': '0',
            memory: '8022676Ki',
            pods: '250',
          },
      conditions: [
        cond(
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
          kubeletStart,
        ),
        cond(
          'DiskPressure',
          'False',
          'KubeletHasNoDiskPressure',
          'kubelet has no disk pressure',
          kubeletStart,
        ),
        cond(
          'PIDPressure',
          'False',
          'KubeletHasSufficientPID',
          'kubelet has sufficient PID available',
          kubeletStart,
        ),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', r.readyAt),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: r.bootId,
        containerRuntimeVersion: 'cri-o://1.23.0-79.rhaos4.10.gitb2ad8b4.el8',
        kernelVersion: '4.18.0-305.25.1.el8_4.x86_64',
        kubeProxyVersion: `v${KUBERNETES_VERSION}+${commitId('openshift/kubernetes@rhcos').slice(0, 7)}`,
        kubeletVersion: `v${KUBERNETES_VERSION}+${commitId('openshift/kubernetes@rhcos').slice(0, 7)}`,
        machineID: uuid(`machine-id:${n.name}`).replace(/-/g, ''),
        operatingSystem: 'linux',
        osImage: `Red Hat Enterprise Linux CoreOS ${RHCOS_VERSION} (Ootpa)`,
        systemUUID: `ec2${uuid(`system:${n.name}`).slice(3)}`,
      },
    },
  };
}

export function nodesJson(s: Scenario): string {
  return listJson([...NODES].sort((a, b) => (a.name < b.name ? -1 : 1)).map((n) => nodeItem(n, s)));
}

// ---- Events ----

function eventName(involvedName: string, first: number, index: number): string {
  const nanos = BigInt(first) * 1_000_000n + BigInt((index * 7919) % 1_000_000);
  return `${involvedName}.${nanos.toString(16)}`;
}

export function eventsJson(s: Scenario): string {
  const items = s.events.map((e, i) => {
    const metadata = {
      creationTimestamp: k8sTime(e.first),
      name: eventName(e.involved.name, e.first, i),
      namespace: e.namespace,
      resourceVersion: resourceVersion(e.last, i % 29),
      uid: uuid(`event:${s.variant}:${i}`),
    };
    if (e.reporting) {
      return {
        action: e.reporting.action,
        apiVersion: 'v1',
        eventTime: microTime(e.first, (i * 331) % 1000),
        firstTimestamp: null,
        involvedObject: e.involved,
        kind: 'Event',
        lastTimestamp: null,
        message: e.message,
        metadata,
        reason: e.reason,
        reportingComponent: e.reporting.controller,
        reportingInstance: e.reporting.instance,
        source: {},
        type: e.type,
      };
    }
    return {
      apiVersion: 'v1',
      count: e.count,
      eventTime: null,
      firstTimestamp: k8sTime(e.first),
      involvedObject: e.involved,
      kind: 'Event',
      lastTimestamp: k8sTime(e.last),
      message: e.message,
      metadata,
      reason: e.reason,
      reportingComponent: '',
      reportingInstance: '',
      source: e.source ?? {},
      type: e.type,
    };
  });
  items.sort((a, b) => {
    const ka = `${a.metadata.namespace}/${a.metadata.name}`;
    const kb = `${b.metadata.namespace}/${b.metadata.name}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return listJson(items);
}
