/**
 * A synthetic must-gather in openshift/must-gather's layout, for serve's tests (small) and bench
 * (250 nodes, 200 rendered configs, 30k events). Files are JSON text with `.yaml` names, which YAML
 * readers accept and which is quick to write at this size.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface MustGatherShape {
  readonly nodes: number;
  readonly renderedConfigs: number;
  readonly events: number;
  readonly namespaces?: number;
}

const T0 = Date.parse('2024-05-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function write(root: string, rel: string, value: unknown): void {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}

function cond(type: string, status: string, at: number, message = '') {
  return { type, status, lastTransitionTime: iso(at), reason: '', message };
}

/** Writes the gather below `dir` and returns the must-gather's root folder. */
export function makeMustGather(dir: string, shape: MustGatherShape): string {
  const root = join(dir, 'must-gather.local.1', 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0000');
  const csr = 'cluster-scoped-resources';
  const version = '4.16.3';
  write(root, `${csr}/config.openshift.io/clusterversions/version.yaml`, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', creationTimestamp: iso(T0) },
    spec: { channel: 'stable-4.16', desiredUpdate: { version } },
    status: {
      desired: { version },
      history: [
        {
          state: 'Completed',
          version,
          startedTime: iso(T0 + 3_600_000),
          completionTime: iso(T0 + 7_200_000),
        },
        { state: 'Completed', version: '4.16.2', startedTime: iso(T0), completionTime: iso(T0 + 1_800_000) },
      ],
      conditions: [
        cond('Available', 'True', T0 + 1_800_000, `Done applying ${version}`),
        cond('Progressing', 'False', T0 + 7_200_000, `Cluster version is ${version}`),
        cond('Failing', 'False', T0 + 7_200_000),
      ],
    },
  });
  for (const name of ['authentication', 'etcd', 'kube-apiserver', 'machine-config', 'network']) {
    write(root, `${csr}/config.openshift.io/clusteroperators/${name}.yaml`, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name, creationTimestamp: iso(T0) },
      status: {
        versions: [{ name: 'operator', version }],
        conditions: [
          cond('Available', 'True', T0 + 1_000_000),
          cond('Progressing', 'False', T0 + 7_000_000),
          cond('Degraded', 'False', T0 + 1_000_000),
        ],
      },
    });
  }
  const pools = ['master', 'worker'];
  const rendered: Record<string, string[]> = { master: [], worker: [] };
  for (let i = 0; i < shape.renderedConfigs; i++) {
    const pool = pools[i % 2] as string;
    const name = `rendered-${pool}-${i.toString(16).padStart(32, '0')}`;
    rendered[pool]?.push(name);
    write(root, `${csr}/machineconfiguration.openshift.io/machineconfigs/${name}.yaml`, {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: {
        name,
        creationTimestamp: iso(T0 + i * 60_000),
        labels: { 'machineconfiguration.openshift.io/role': pool },
        annotations: { 'machineconfiguration.openshift.io/generated-by-controller-version': 'abc123' },
        ownerReferences: [
          {
            apiVersion: 'machineconfiguration.openshift.io/v1',
            kind: 'MachineConfigPool',
            name: pool,
            uid: pool,
          },
        ],
      },
      spec: {
        config: { ignition: { version: '3.4.0' }, storage: { files: [] } },
        osImageURL: 'quay.io/os@sha256:1',
      },
    });
  }
  const masters = Math.min(3, shape.nodes);
  const nodeNames: string[] = [];
  for (let i = 0; i < shape.nodes; i++) {
    const pool = i < masters ? 'master' : 'worker';
    const name = `${pool}-${i}.example.internal`;
    nodeNames.push(name);
    const config = rendered[pool]?.at(-1) ?? `rendered-${pool}-0`;
    write(root, `${csr}/core/nodes/${name}.yaml`, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        creationTimestamp: iso(T0 - 86_400_000),
        labels: { [`node-role.kubernetes.io/${pool}`]: '', 'kubernetes.io/hostname': name },
        annotations: {
          'machineconfiguration.openshift.io/currentConfig': config,
          'machineconfiguration.openshift.io/desiredConfig': config,
          'machineconfiguration.openshift.io/state': 'Done',
        },
      },
      spec: {},
      status: {
        addresses: [{ type: 'InternalIP', address: `10.0.${Math.floor(i / 250)}.${i % 250}` }],
        nodeInfo: {
          kubeletVersion: 'v1.29.6+aba1e8d',
          osImage: 'Red Hat Enterprise Linux CoreOS 416.94',
          kernelVersion: '5.14.0-427.el9.x86_64',
          containerRuntimeVersion: 'cri-o://1.29.6',
        },
        conditions: [cond('Ready', 'True', T0 + 5_000_000)],
      },
    });
  }
  for (const pool of pools) {
    const members = nodeNames.filter((n) => n.startsWith(`${pool}-`)).length;
    const config = rendered[pool]?.at(-1) ?? '';
    write(root, `${csr}/machineconfiguration.openshift.io/machineconfigpools/${pool}.yaml`, {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfigPool',
      metadata: { name: pool, creationTimestamp: iso(T0) },
      spec: {
        configuration: { name: config },
        nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${pool}`]: '' } },
      },
      status: {
        configuration: { name: config },
        machineCount: members,
        readyMachineCount: members,
        updatedMachineCount: members,
        degradedMachineCount: 0,
        conditions: [
          cond('Updated', 'True', T0 + 7_100_000),
          cond('Updating', 'False', T0 + 7_100_000),
          cond('Degraded', 'False', T0),
        ],
      },
    });
  }
  const nsCount = shape.namespaces ?? 10;
  const perNs = Math.ceil(shape.events / nsCount);
  let made = 0;
  for (let n = 0; n < nsCount; n++) {
    const ns = n === 0 ? 'openshift-machine-config-operator' : `openshift-ns-${n}`;
    write(root, `namespaces/${ns}/${ns}.yaml`, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns, creationTimestamp: iso(T0 - 86_400_000) },
      status: { phase: 'Active' },
    });
    const items = [];
    for (let e = 0; e < perNs && made < shape.events; e++, made++) {
      const at = T0 + made * 200;
      const node = nodeNames[made % Math.max(1, nodeNames.length)] ?? 'none';
      items.push({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `event-${made}`, namespace: ns, creationTimestamp: iso(at) },
        involvedObject: { kind: 'Node', name: node },
        reason: made % 7 === 0 ? 'Drain' : 'NodeReady',
        message: `Synthetic event ${made} about ${node}`,
        type: made % 11 === 0 ? 'Warning' : 'Normal',
        count: 1,
        firstTimestamp: iso(at),
        lastTimestamp: iso(at),
        source: { component: 'machineconfigdaemon', host: node },
      });
    }
    write(root, `namespaces/${ns}/core/events.yaml`, { apiVersion: 'v1', kind: 'EventList', items });
    const pod = `${ns.replace(/^openshift-/, '')}-pod-0`;
    write(root, `namespaces/${ns}/pods/${pod}/${pod}.yaml`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: pod,
        namespace: ns,
        creationTimestamp: iso(T0),
        labels: { app: n === 0 ? 'mcd' : 'other' },
      },
      spec: { nodeName: nodeNames[0] ?? '', containers: [{ name: 'main', image: 'quay.io/x:1' }] },
      status: {
        phase: 'Running',
        podIP: '10.128.0.5',
        containerStatuses: [{ name: 'main', ready: true, restartCount: 2, state: { running: {} } }],
      },
    });
    write(
      root,
      `namespaces/${ns}/pods/${pod}/main/main/logs/current.log`,
      `line one of ${pod}\nline two of ${pod}\n`,
    );
    write(root, `namespaces/${ns}/pods/${pod}/main/main/logs/previous.log`, `before the restart of ${pod}\n`);
    write(root, `namespaces/${ns}/apps/deployments.yaml`, {
      apiVersion: 'apps/v1',
      kind: 'DeploymentList',
      items: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {
            name: `${pod}-deploy`,
            namespace: ns,
            creationTimestamp: iso(T0),
            labels: { app: 'x' },
          },
          spec: { replicas: 1 },
        },
      ],
    });
  }
  write(root, `${csr}/config.openshift.io/infrastructures/cluster.yaml`, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster', creationTimestamp: iso(T0 - 86_400_000) },
    status: { platform: 'AWS', infrastructureName: 'example' },
  });
  write(root, 'timestamp', `${iso(T0 + 7_300_000)}\n`);
  return dirname(root);
}
