/**
 * The model's objects as `oc get -o json` would print them at the end of a run: full Kubernetes
 * JSON with metadata (deterministic uids, resourceVersions, creation times), the fields the model
 * tracks, and the usual surrounding fields a real object carries.
 */

import { microTime, rfc3339 } from '../../artifacts/index.js';
import { MCO } from '../../model/index.js';
import { md5Hex, uidFor } from '../hash.js';
import { specJson } from '../ignition.js';
import type {
  ClusterOperatorObj,
  ClusterVersionObj,
  Cond,
  MachineConfigObj,
  Meta,
  NodeObj,
  PoolObj,
} from '../objects.js';
import type { RecordedEvent } from '../recorder.js';

type Json = Record<string, unknown>;

export interface Clock {
  /** Wall ms of virtual time 0. */
  readonly epoch: number;
  /** Virtual time of the gather (end of run). */
  readonly end: number;
}

const at = (clock: Clock, t: number): string => rfc3339(clock.epoch + t);

function uid(kind: string, name: string): string {
  return uidFor(`${kind}/${name}`);
}

function metadata(clock: Clock, kind: string, m: Meta, extra: Json = {}, namespace?: string): Json {
  const out: Json = {};
  if (Object.keys(m.annotations).length > 0) out.annotations = sorted(m.annotations);
  out.creationTimestamp = at(clock, m.createdAt);
  if (m.generation > 0) out.generation = m.generation;
  if (Object.keys(m.labels).length > 0) out.labels = sorted(m.labels);
  out.name = m.name;
  if (namespace !== undefined) out.namespace = namespace;
  Object.assign(out, extra);
  out.resourceVersion = String(m.rv);
  out.uid = uid(kind, m.name);
  return out;
}

function sorted(map: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(map).sort()) out[k] = map[k] as string;
  return out;
}

/** ClusterOperator/ClusterVersion conditions: reason and message are omitted when empty. */
function configConditions(clock: Clock, conds: readonly Cond[]): Json[] {
  return conds.map((c) => ({
    lastTransitionTime: at(clock, c.lastTransitionTime),
    ...(c.message !== '' ? { message: c.message } : {}),
    ...(c.reason !== '' ? { reason: c.reason } : {}),
    status: c.status,
    type: c.type,
  }));
}

export function clusterVersionJson(clock: Clock, cv: ClusterVersionObj): Json {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: metadata(clock, 'ClusterVersion', cv.meta),
    spec: {
      channel: cv.channel,
      clusterID: cv.clusterID,
      ...(cv.desiredUpdate
        ? {
            desiredUpdate: {
              force: cv.desiredUpdate.force,
              image: cv.desiredUpdate.image,
              version: cv.desiredUpdate.version,
            },
          }
        : {}),
    },
    status: {
      availableUpdates: null,
      conditions: configConditions(clock, cv.conditions),
      desired: { image: cv.desired.image, version: cv.desired.version },
      history: cv.history.map((h) => ({
        completionTime: h.completionTime === undefined ? null : at(clock, h.completionTime),
        image: h.image,
        startedTime: at(clock, h.startedTime),
        state: h.state,
        verified: h.verified,
        version: h.version,
      })),
      observedGeneration: cv.observedGeneration,
      versionHash: md5Hex(`version-hash:${cv.desired.image}`).slice(0, 11),
    },
  };
}

export function clusterOperatorJson(clock: Clock, co: ClusterOperatorObj): Json {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: metadata(clock, 'ClusterOperator', co.meta, {
      ownerReferences: [
        {
          apiVersion: 'config.openshift.io/v1',
          controller: true,
          kind: 'ClusterVersion',
          name: 'version',
          uid: uid('ClusterVersion', 'version'),
        },
      ],
    }),
    spec: {},
    status: {
      conditions: configConditions(clock, co.conditions),
      extension: co.extension ? { ...co.extension } : null,
      relatedObjects: co.relatedObjects.map((r) => ({ group: r.group, name: r.name, resource: r.resource })),
      versions: co.versions.map((v) => ({ name: v.name, version: v.version })),
    },
  };
}

const mcRef = (name: string): Json => ({
  apiVersion: 'machineconfiguration.openshift.io/v1',
  kind: 'MachineConfig',
  name,
});

export function poolJson(clock: Clock, pool: PoolObj): Json {
  const builtIn = pool.meta.name === 'master' || pool.meta.name === 'worker';
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: metadata(clock, 'MachineConfigPool', pool.meta),
    spec: {
      configuration: { name: pool.spec.name, source: pool.spec.source.map(mcRef) },
      machineConfigSelector: builtIn
        ? { matchLabels: { [MCO.role]: pool.meta.name } }
        : { matchExpressions: [{ key: MCO.role, operator: 'In', values: [...pool.mcRoles] }] },
      ...(pool.maxUnavailable !== 1 ? { maxUnavailable: pool.maxUnavailable } : {}),
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${pool.nodeRole}`]: '' } },
      paused: pool.paused,
    },
    status: {
      conditions: pool.status.conditions.map((c) => ({
        lastTransitionTime: at(clock, c.lastTransitionTime),
        message: c.message,
        reason: c.reason,
        status: c.status,
        type: c.type,
      })),
      configuration: {
        name: pool.status.configuration.name,
        source: pool.status.configuration.source.map(mcRef),
      },
      degradedMachineCount: pool.status.degradedMachineCount,
      machineCount: pool.status.machineCount,
      observedGeneration: pool.status.observedGeneration,
      readyMachineCount: pool.status.readyMachineCount,
      unavailableMachineCount: pool.status.unavailableMachineCount,
      updatedMachineCount: pool.status.updatedMachineCount,
    },
  };
}

export function machineConfigJson(clock: Clock, mc: MachineConfigObj): Json {
  const extra: Json = {};
  if (mc.owner) {
    extra.ownerReferences = [
      {
        apiVersion: 'machineconfiguration.openshift.io/v1',
        blockOwnerDeletion: true,
        controller: true,
        kind: mc.owner.kind,
        name: mc.owner.name,
        uid: uid(mc.owner.kind, mc.owner.name),
      },
    ];
  }
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: metadata(clock, 'MachineConfig', mc.meta, extra),
    spec: specJson(mc.spec),
  };
}

export function nodeJson(clock: Clock, node: NodeObj, index: number): Json {
  const master = node.roles.includes('master');
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/instance-type': master ? 'm5.xlarge' : 'm5.large',
    'beta.kubernetes.io/os': 'linux',
    'failure-domain.beta.kubernetes.io/region': 'us-east-2',
    'failure-domain.beta.kubernetes.io/zone': node.zone,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': node.meta.name.split('.')[0] as string,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': master ? 'm5.xlarge' : 'm5.large',
    'node.openshift.io/os_id': 'rhcos',
    'topology.ebs.csi.aws.com/zone': node.zone,
    'topology.kubernetes.io/region': 'us-east-2',
    'topology.kubernetes.io/zone': node.zone,
  };
  for (const r of node.roles) labels[`node-role.kubernetes.io/${r}`] = '';
  const taints: Json[] = [];
  if (master) taints.push({ effect: 'NoSchedule', key: 'node-role.kubernetes.io/master' });
  if (node.updateTaint) taints.push({ effect: 'PreferNoSchedule', key: 'UpdateInProgress' });
  if (node.unschedulable) {
    taints.push({
      effect: 'NoSchedule',
      key: 'node.kubernetes.io/unschedulable',
      timeAdded: at(clock, node.readySince),
    });
  }
  if (!node.ready)
    taints.push({
      effect: 'NoSchedule',
      key: 'node.kubernetes.io/unreachable',
      timeAdded: at(clock, clock.end),
    });
  const heartbeat = at(clock, node.ready ? clock.end - 7_000 : node.readySince);
  const created = at(clock, node.meta.createdAt);
  const condition = (type: string, status: string, reason: string, message: string, since: string): Json => ({
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: since,
    message,
    reason,
    status,
    type,
  });
  const ip = node.meta.name.replace(/^ip-/, '').split('.')[0]?.replaceAll('-', '.') ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: metadata(
      clock,
      'Node',
      {
        ...node.meta,
        generation: 0,
        annotations: {
          ...node.meta.annotations,
          [MCO.currentConfig]: node.currentConfig,
          [MCO.desiredConfig]: node.desiredConfig,
          [MCO.reason]: node.reason,
          [MCO.state]: node.state,
          'machineconfiguration.openshift.io/controlPlaneTopology': 'HighlyAvailable',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
        labels,
      },
      {},
    ),
    spec: {
      providerID: `aws:///${node.zone}/i-0${md5Hex(node.meta.name).slice(0, 16)}`,
      ...(taints.length > 0 ? { taints } : {}),
      ...(node.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      addresses: [
        { address: ip, type: 'InternalIP' },
        { address: node.meta.name, type: 'Hostname' },
        { address: node.meta.name, type: 'InternalDNS' },
      ],
      conditions: [
        condition(
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
          created,
        ),
        condition(
          'DiskPressure',
          'False',
          'KubeletHasNoDiskPressure',
          'kubelet has no disk pressure',
          created,
        ),
        condition(
          'PIDPressure',
          'False',
          'KubeletHasSufficientPID',
          'kubelet has sufficient PID available',
          created,
        ),
        node.ready
          ? condition(
              'Ready',
              'True',
              'KubeletReady',
              'kubelet is posting ready status',
              at(clock, node.readySince),
            )
          : condition(
              'Ready',
              'Unknown',
              'NodeStatusUnknown',
              'Kubelet stopped posting node status.',
              at(clock, node.readySince),
            ),
      ],
      nodeInfo: {
        architecture: 'amd64',
        bootID: uidFor(`boot:${node.meta.name}:${node.readySince}`),
        containerRuntimeVersion: 'cri-o://1.23.0-98.rhaos4.10.git9b7f5ae.el8',
        kernelVersion: '4.18.0-305.19.1.el8_4.x86_64',
        kubeProxyVersion: node.kubeletVersion,
        kubeletVersion: node.kubeletVersion,
        machineID: md5Hex(`machine:${node.meta.name}`),
        operatingSystem: 'linux',
        osImage: node.osImage,
        systemUUID: uidFor(`system:${node.meta.name}:${index}`),
      },
    },
  };
}

export function eventJson(clock: Clock, ev: RecordedEvent, index: number): Json {
  const name = `${ev.involved.name}.${md5Hex(`${ev.reason}|${ev.message}|${ev.first}|${index}`).slice(0, 16)}`;
  const involved: Json = {
    apiVersion: ev.involved.apiVersion,
    kind: ev.involved.kind,
    name: ev.involved.name,
  };
  if (ev.involved.namespace !== undefined) involved.namespace = ev.involved.namespace;
  involved.uid = uid(ev.involved.kind, ev.involved.name);
  const fromTest = ev.component === 'openshift-tests.openshift.io/upgrade';
  return {
    apiVersion: 'v1',
    ...(fromTest ? { action: 'Upgrade' } : {}),
    count: fromTest ? undefined : ev.count,
    eventTime: fromTest ? microTime(clock.epoch + ev.first) : null,
    firstTimestamp: fromTest ? null : at(clock, ev.first),
    involvedObject: involved,
    kind: 'Event',
    lastTimestamp: fromTest ? null : at(clock, ev.last),
    message: ev.message,
    metadata: {
      creationTimestamp: at(clock, ev.first),
      name,
      namespace: ev.namespace,
      resourceVersion: String(900_000 + index),
      uid: uidFor(`event:${name}`),
    },
    reason: ev.reason,
    reportingComponent: fromTest ? ev.component : '',
    reportingInstance: '',
    source: fromTest ? {} : { component: ev.component, ...(ev.host !== undefined ? { host: ev.host } : {}) },
    type: ev.type,
  };
}
