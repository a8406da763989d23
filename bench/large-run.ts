/**
 * Writes a large synthetic CI upgrade run (about 150 MB) for the analyze benchmark: 100k monitor
 * intervals (build-log text and e2e intervals JSON), 220+ rendered configs of realistic size, 250
 * nodes, 30k events. The bug-2019850 race is embedded so the analysis has real work to do. The
 * operators' workloads, their rollout events and the two releases (bench/large-run-workloads.ts) make
 * operator-level-before-operands checked too (it holds).
 * Deterministic: the same arguments write the same bytes.
 */
import {
  CiRun,
  monitorLine,
  type StructuredRecord,
  structuredIntervalsJson,
} from '../src/artifacts/index.js';
import { writeRunFolder } from '../src/writer/index.js';
import { largeWorkloads } from './large-run-workloads.js';
import { rng } from './rng.js';

export interface LargeRunSize {
  intervals: number;
  renderedPerPool: number;
  nodes: number;
  events: number;
}

export const DEFAULT_SIZE: LargeRunSize = {
  intervals: 100_000,
  renderedPerPool: 112,
  nodes: 250,
  events: 30_000,
};

const A = '4.10.0-0.nightly-2021-11-02-191632';
const B = '4.10.0-0.nightly-2021-11-03-020416';
const START = Date.parse('2021-11-03T02:50:00Z');
const LEVEL = Date.parse('2021-11-03T03:23:09.856Z');
const RENDER = Date.parse('2021-11-03T03:23:11Z');
const DONE = Date.parse('2021-11-03T03:28:21Z');

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
function hex(r: () => number, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(r() * 16).toString(16);
  return s;
}

function renderedConfig(name: string, pool: string, created: number, pod: string, r: () => number) {
  const files = [];
  for (let i = 0; i < 90; i++) {
    const body = `# generated file ${i} for ${pool}\n${'key=value-'.repeat(40 + Math.floor(r() * 200))}\n`;
    files.push({
      path: `/etc/atlevel-bench/${pool}/file-${i}.conf`,
      mode: 420,
      overwrite: true,
      contents: { source: `data:,${encodeURIComponent(body)}` },
    });
  }
  files.push({
    path: '/etc/crio/crio.conf.d/00-default',
    mode: 420,
    overwrite: true,
    contents: { source: `data:,${encodeURIComponent(`[crio.image]\npause_image = "${pod}"\n`)}` },
  });
  const kubelet = `[Unit]\nDescription=Kubernetes Kubelet\n[Service]\nExecStart=/usr/bin/hyperkube kubelet \\\n      --config=/etc/kubernetes/kubelet.conf \\\n      --pod-infra-container-image=${pod} \\\n      --v=2\n`;
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: {
      name,
      creationTimestamp: iso(created),
      annotations: {
        'machineconfiguration.openshift.io/generated-by-controller-version':
          'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      },
      ownerReferences: [
        {
          apiVersion: 'machineconfiguration.openshift.io/v1',
          kind: 'MachineConfigPool',
          name: pool,
          uid: `uid-${pool}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      resourceVersion: String(1000 + Math.floor(r() * 1e6)),
      uid: hex(r, 32),
    },
    spec: {
      osImageURL:
        'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:1111111111111111111111111111111111111111111111111111111111111111',
      config: {
        ignition: { version: '3.2.0' },
        storage: { files },
        systemd: {
          units: [
            { name: 'kubelet.service', enabled: true, contents: kubelet },
            { name: 'crio.service', enabled: true, contents: '[Service]\nExecStart=/usr/bin/crio\n' },
          ],
        },
      },
      kernelArguments: [],
      extensions: [],
      fips: false,
      kernelType: '',
    },
  };
}

/** Writes the run as the folder `dir` (absent or empty) through the artifact writer (src/writer/). */
export async function writeLargeRun(dir: string, size: LargeRunSize = DEFAULT_SIZE): Promise<void> {
  const r = rng(42);
  const run = new CiRun('e2e-aws-upgrade');
  const podA =
    'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639';
  const podB =
    'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb';

  // Rendered configs: a long history of earlier configs per pool, then the race pair.
  const mcs = [];
  for (const pool of ['master', 'worker']) {
    for (let i = 0; i < size.renderedPerPool - 1; i++) {
      const created = START - (size.renderedPerPool - i) * 3_600_000;
      mcs.push(renderedConfig(`rendered-${pool}-${hex(r, 32)}`, pool, created, podA, r));
    }
    mcs.push(renderedConfig(`rendered-${pool}-${hex(r, 32)}`, pool, RENDER, podB, r));
  }
  const lastMaster =
    mcs.filter((m) => m.metadata.name.startsWith('rendered-master-')).at(-1)?.metadata.name ?? '';
  const lastWorker =
    mcs.filter((m) => m.metadata.name.startsWith('rendered-worker-')).at(-1)?.metadata.name ?? '';
  run.gatherList('MachineConfig', mcs);

  const poolObj = (name: string, cfg: string, finished: number, count: number) => ({
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: {
      name,
      labels:
        name === 'master' ? { 'operator.machineconfiguration.openshift.io/required-for-upgrade': '' } : {},
    },
    spec: { configuration: { name: cfg }, paused: false },
    status: {
      configuration: { name: cfg },
      machineCount: count,
      updatedMachineCount: count,
      readyMachineCount: count,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
      conditions: [
        {
          type: 'Updated',
          status: 'True',
          lastTransitionTime: iso(finished),
          reason: '',
          message: `All nodes are updated with ${cfg}`,
        },
        { type: 'Updating', status: 'False', lastTransitionTime: iso(finished), reason: '', message: '' },
        {
          type: 'Degraded',
          status: 'False',
          lastTransitionTime: iso(START - 86_400_000),
          reason: '',
          message: '',
        },
      ],
    },
  });
  run.gatherList('MachineConfigPool', [
    poolObj('master', lastMaster, Date.parse('2021-11-03T03:35:52Z'), 3),
    poolObj('worker', lastWorker, Date.parse('2021-11-03T04:30:00Z'), size.nodes - 3),
  ]);

  const nodes = [];
  for (let i = 0; i < size.nodes; i++) {
    const master = i < 3;
    const cfg = master ? lastMaster : lastWorker;
    nodes.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: `ip-10-0-${Math.floor(i / 250)}-${i % 250}.us-east-2.compute.internal`,
        labels: {
          [`node-role.kubernetes.io/${master ? 'master' : 'worker'}`]: '',
          'kubernetes.io/os': 'linux',
          'topology.kubernetes.io/zone': `us-east-2${'abc'[i % 3]}`,
        },
        annotations: {
          'machineconfiguration.openshift.io/currentConfig': cfg,
          'machineconfiguration.openshift.io/desiredConfig': cfg,
          'machineconfiguration.openshift.io/state': 'Done',
          'machineconfiguration.openshift.io/reason': '',
        },
      },
      spec: {},
      status: {
        conditions: [
          {
            type: 'MemoryPressure',
            status: 'False',
            lastTransitionTime: iso(START),
            reason: 'KubeletHasSufficientMemory',
            message: 'kubelet has sufficient memory available',
          },
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: iso(RENDER + 60_000 * (i + 1)),
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
          },
        ],
        nodeInfo: { kubeletVersion: 'v1.22.1+b9be6e9', osImage: 'Red Hat Enterprise Linux CoreOS 410.84' },
      },
    });
  }
  run.gatherList('Node', nodes);

  const cos = [];
  const names = Array.from({ length: 32 }, (_, i) => (i === 0 ? 'machine-config' : `operator-${i}`));
  // Only machine-config's level shows in the inputs (the versions line below): its rollouts end before it.
  const workloads = largeWorkloads(
    names.map((name) => (name === 'machine-config' ? { name, levelAt: LEVEL } : { name })),
    nodes.map((n) => n.metadata.name),
    {
      start: START,
      versionA: A,
      versionB: B,
      imageA: `registry/release:${A}`,
      imageB: `registry/release:${B}`,
    },
  );
  for (const name of names) {
    cos.push({
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name },
      status: {
        conditions: [
          {
            type: 'Available',
            status: 'True',
            lastTransitionTime: iso(START - 3_600_000),
            reason: 'AsExpected',
            message: 'ok',
          },
          {
            type: 'Progressing',
            status: 'False',
            lastTransitionTime: iso(LEVEL + 1000),
            reason: 'AsExpected',
            message: `Cluster version is ${B}`,
          },
          {
            type: 'Degraded',
            status: 'False',
            lastTransitionTime: iso(START - 3_600_000),
            reason: 'AsExpected',
            message: '',
          },
        ],
        versions: [{ name: 'operator', version: B }],
        relatedObjects: workloads.related.get(name) ?? [],
      },
    });
  }
  run.gatherList('ClusterOperator', cos);
  run
    .gatherList('Deployment', workloads.deployments)
    .gatherList('ReplicaSet', workloads.replicaSets)
    .gatherList('DaemonSet', workloads.daemonSets)
    .gatherList('Pod', workloads.pods)
    .release('from', workloads.from)
    .release('to', workloads.to);
  run.gatherList('ClusterVersion', [
    {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name: 'version' },
      spec: { desiredUpdate: { version: B, image: `registry/release:${B}`, force: true } },
      status: {
        desired: { version: B, image: `registry/release:${B}` },
        history: [
          {
            state: 'Completed',
            startedTime: iso(START),
            completionTime: iso(DONE),
            version: B,
            image: `registry/release:${B}`,
            verified: false,
          },
          {
            state: 'Completed',
            startedTime: iso(START - 7_200_000),
            completionTime: iso(START - 3_600_000),
            version: A,
            image: `registry/release:${A}`,
            verified: false,
          },
        ],
        conditions: [
          {
            type: 'Available',
            status: 'True',
            lastTransitionTime: iso(START - 3_600_000),
            message: `Done applying ${B}`,
          },
          {
            type: 'Progressing',
            status: 'False',
            lastTransitionTime: iso(DONE),
            message: `Cluster version is ${B}`,
          },
        ],
      },
    },
  ]);

  const events = [];
  for (let i = 0; i < size.events; i++) {
    const at = START + Math.floor(r() * 7_000_000);
    const node = nodes[i % nodes.length]?.metadata.name ?? 'n';
    events.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${node}.${hex(r, 16)}`,
        namespace: 'openshift-machine-config-operator',
        creationTimestamp: iso(at),
        resourceVersion: String(i),
      },
      involvedObject: { kind: 'Node', name: node },
      reason: ['Drain', 'Reboot', 'OSUpdateStarted', 'NodeReady'][i % 4],
      message: `synthetic event ${i} for ${node} ${'x'.repeat(Math.floor(r() * 400))}`,
      source: { component: 'machineconfigdaemon', host: node },
      firstTimestamp: iso(at),
      lastTimestamp: iso(at + 1000),
      count: 1,
      type: 'Normal',
    });
  }
  run.gatherList('Event', [...events, ...workloads.events]);

  // Monitor intervals: the same stream as build-log text and as e2e-intervals JSON (current schema).
  const lines: string[] = [
    '2021/11/03 02:49:59 ci-operator version v20211102',
    'Running multi-stage test e2e-aws-upgrade',
  ];
  const items: StructuredRecord[] = [];
  for (let i = 0; i < size.intervals; i++) {
    const at = START + Math.floor((i / size.intervals) * 6_000_000);
    const co = names[1 + (i % 31)] ?? 'operator-1';
    const status = i % 2 === 0 ? 'True' : 'False';
    const msg = `condition/Progressing status/${status} reason/Reconciling changed: synthetic ${i}`;
    lines.push(
      monitorLine({ from: at, to: at, level: 'Warning', locator: `clusteroperator/${co}`, message: msg }),
    );
    if (i % 10 === 0) lines.push(`INFO[2021-11-03T03:00:00Z] unrelated noise line ${i}`);
    items.push({
      level: 'Warning',
      source: 'ClusterOperatorMonitor',
      display: true,
      locator: { type: 'ClusterOperator', keys: { clusteroperator: co } },
      message: {
        reason: 'Reconciling',
        cause: '',
        humanMessage: `synthetic ${i}`,
        annotations: { condition: 'Progressing', status, reason: 'Reconciling' },
      },
      from: at,
      to: at + 1000,
    });
  }
  lines.push(
    monitorLine({
      from: LEVEL,
      to: LEVEL,
      level: 'Info',
      locator: 'clusteroperator/machine-config',
      message: `versions: operator ${A} -> ${B}`,
    }),
    monitorLine({
      from: DONE,
      to: DONE,
      level: 'Warning',
      locator: 'clusterversion/version',
      message: `cluster reached ${B}`,
    }),
  );
  run.buildLog(`${lines.join('\n')}\n`);
  run.add(`${run.paths.junit}/e2e-intervals_20211103-025000.json`, structuredIntervalsJson(items));
  await writeRunFolder(dir, run.files, { what: 'the large run', flag: 'the bench' });
}
