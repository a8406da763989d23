/**
 * The workload kinds (model/kinds/deployment.ts, daemonset.ts, pod.ts), each one descriptor file:
 * read from gather-extra and from a must-gather's namespaces, served to kubectl, listed live,
 * recorded by watch, rewound, and on the timeline. The objects follow the apps/v1 and v1 types; the
 * times are made up.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveState, RESOURCES } from '../../src/live/index.js';
import type { ClusterHistory } from '../../src/model/index.js';
import type { RunningServer } from '../../src/serve/index.js';
import { LIVE_READING, loadHistoryParts } from '../../src/sources/index.js';
import { buildHistory, objectKey, objectsAt, workloadRollouts } from '../../src/timeline/index.js';
import { toInterval, transitions } from '../../src/watch/monitor.js';
import { renderRecord } from '../../src/watch/record.js';
import { describeKubectl, kubectl, serve } from '../serve/helpers.js';

const iso = (clock: string) => `2024-05-01T${clock}Z`;
const at = (clock: string) => Date.parse(iso(clock));

function cond(type: string, status: string, clock: string, reason = '', message = '') {
  return { type, status, lastTransitionTime: iso(clock), reason, message };
}

const CONTAINERS = [{ name: 'operator', image: 'quay.io/openshift/op@sha256:2' }];

/** A Deployment rolled out long ago, and one half-way through a rollout the controller has not observed yet. */
const DEPLOYMENTS = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'etcd-operator',
      namespace: 'openshift-etcd-operator',
      generation: 4,
      creationTimestamp: iso('09:00:00'),
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'etcd-operator' } },
      template: { spec: { containers: CONTAINERS } },
    },
    status: {
      observedGeneration: 4,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      conditions: [
        cond(
          'Available',
          'True',
          '09:01:00',
          'MinimumReplicasAvailable',
          'Deployment has minimum availability.',
        ),
        cond(
          'Progressing',
          'True',
          '09:01:00',
          'NewReplicaSetAvailable',
          'ReplicaSet "etcd-operator-1" has successfully progressed.',
        ),
      ],
    },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'console',
      namespace: 'openshift-console',
      generation: 7,
      creationTimestamp: iso('09:00:00'),
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'console' } },
      template: { spec: { containers: CONTAINERS } },
    },
    status: {
      observedGeneration: 6,
      replicas: 3,
      updatedReplicas: 1,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions: [
        cond(
          'Available',
          'True',
          '09:02:00',
          'MinimumReplicasAvailable',
          'Deployment has minimum availability.',
        ),
        cond(
          'Progressing',
          'True',
          '10:30:00',
          'ReplicaSetUpdated',
          'ReplicaSet "console-7" is progressing.',
        ),
      ],
    },
  },
];

/** The MCO's daemons, half-way through a rollout to 6 nodes. */
const DAEMONSETS = [
  {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'machine-config-daemon',
      namespace: 'openshift-machine-config-operator',
      generation: 3,
      creationTimestamp: iso('09:00:00'),
    },
    spec: {
      selector: { matchLabels: { 'k8s-app': 'machine-config-daemon' } },
      template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: CONTAINERS } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } },
    },
    status: {
      observedGeneration: 3,
      desiredNumberScheduled: 6,
      currentNumberScheduled: 6,
      updatedNumberScheduled: 4,
      numberReady: 5,
      numberAvailable: 5,
      numberUnavailable: 1,
    },
  },
];

/** A machine-config-daemon pod, owned by the DaemonSet, Ready since 09:30. */
const PODS = [
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'machine-config-daemon-abcde',
      namespace: 'openshift-machine-config-operator',
      creationTimestamp: iso('09:29:00'),
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'machine-config-daemon', uid: 'u1' },
      ],
    },
    spec: { nodeName: 'n1', containers: CONTAINERS },
    status: {
      phase: 'Running',
      conditions: [cond('PodScheduled', 'True', '09:29:00'), cond('Ready', 'True', '09:30:00')],
      containerStatuses: [{ name: 'operator', ready: true, restartCount: 2, image: CONTAINERS[0]?.image }],
    },
  },
];

const list = (items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', items });

function write(root: string, rel: string, value: unknown): void {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

const tmp = mkdtempSync(join(tmpdir(), 'atlevel-kinds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A CI run whose gather-extra holds only the workload Lists. */
function ciRun(): string {
  const root = join(tmp, 'run');
  const gather = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';
  write(root, `${gather}/deployments.json`, list(DEPLOYMENTS));
  write(root, `${gather}/daemonsets.json`, list(DAEMONSETS));
  write(root, `${gather}/pods.json`, list(PODS));
  return root;
}

/** A must-gather with no ClusterOperators or ClusterVersion: workloads in `oc adm inspect`'s namespace layout only. */
function mustGather(): string {
  const root = join(tmp, 'must-gather.local.1', 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0000');
  for (const d of DEPLOYMENTS)
    write(root, `namespaces/${d.metadata.namespace}/apps/deployments.yaml`, list([d]));
  for (const d of DAEMONSETS)
    write(root, `namespaces/${d.metadata.namespace}/apps/daemonsets.yaml`, list([d]));
  for (const p of PODS) write(root, `namespaces/${p.metadata.namespace}/core/pods.yaml`, list([p]));
  write(root, 'cluster-scoped-resources/core/nodes/n1.yaml', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', creationTimestamp: iso('08:00:00') },
  });
  return join(tmp, 'must-gather.local.1');
}

async function historyOf(path: string): Promise<ClusterHistory> {
  return buildHistory(await loadHistoryParts([path], { now: Date.now() }));
}

describe('Deployment', () => {
  it('is read from gather-extra deployments.json and from namespaces/<ns>/apps/deployments.yaml', async () => {
    for (const path of [ciRun(), mustGather()]) {
      const h = await historyOf(path);
      const names = h.objects.deployments.map(
        (d) => `${d.object.metadata.namespace}/${d.object.metadata.name}`,
      );
      expect(names.sort(), path).toEqual([
        'openshift-console/console',
        'openshift-etcd-operator/etcd-operator',
      ]);
      const console = h.objects.deployments.find((d) => d.object.metadata.name === 'console')?.object;
      expect(console?.spec?.template?.spec?.containers?.[0]?.image).toBe('quay.io/openshift/op@sha256:2');
      expect(console?.status?.updatedReplicas).toBe(1);
    }
  });

  it('is on the timeline: its conditions from their lastTransitionTime, and its rollout as last seen', async () => {
    const h = await historyOf(ciRun());
    const mine = h.intervals.filter((i) => i.locator.type === 'Deployment');
    const console = mine.filter((i) => objectKey(i.locator) === 'Deployment/openshift-console/console');
    const progressing = console.find((i) => i.message.annotations.condition === 'Progressing');
    expect(progressing?.from).toBe(at('10:30:00'));
    // A Deployment's steady Progressing=True is no warning.
    expect(
      mine.find(
        (i) =>
          i.message.annotations.condition === 'Progressing' && i.message.reason === 'NewReplicaSetAvailable',
      )?.level,
    ).toBe('Info');
    const rollout = console.find((i) => i.source === 'derived:rollout');
    expect(rollout?.level).toBe('Warning');
    expect(rollout?.message.humanMessage).toBe(
      'rollout in progress as last seen: 1/2 updated, 2/2 available, 2/2 ready, generation 7 not yet observed (observed 6)',
    );
    expect(
      mine.find(
        (i) => i.source === 'derived:rollout' && i.message.humanMessage.startsWith('rollout complete'),
      ),
    ).toBeDefined();
  });

  it('is rewound by its conditions; the rest of its status is said to be as last seen', async () => {
    const h = await historyOf(ciRun());
    const r = objectsAt(h, at('10:00:00'));
    const console = r.objects.deployments.find((d) => d.object.metadata.name === 'console')?.object;
    const progressing = console?.status?.conditions?.find((c) => c.type === 'Progressing');
    // It changed at 10:30 and nothing earlier is recorded: not known, and said so.
    expect(progressing).toMatchObject({ status: 'Unknown', reason: 'NotRewound' });
    expect(r.unrewound).toContainEqual(
      expect.objectContaining({
        object: 'Deployment/openshift-console/console',
        field: 'status.conditions[Progressing]',
      }),
    );
    expect(r.unrewound).toContainEqual(
      expect.objectContaining({ object: 'Deployment', field: 'status.*Replicas' }),
    );
    // Available had not changed since 09:02: known.
    expect(console?.status?.conditions?.find((c) => c.type === 'Available')?.status).toBe('True');
  });

  it('is listed live across namespaces, and watch records it and its condition changes', () => {
    expect(RESOURCES.find((r) => r.kind === 'Deployment')).toEqual({
      kind: 'Deployment',
      group: 'apps',
      version: 'v1',
      plural: 'deployments',
      scope: 'all',
    });
    const state = new LiveState('https://api.example:6443', RESOURCES, LIVE_READING.validate);
    for (const d of DEPLOYMENTS) state.put('Deployment', d);
    const files = renderRecord(state, [], at('10:00:00'), 'header');
    const file = [...files.keys()].find((f) => f.endsWith('gather-extra/artifacts/deployments.json'));
    expect(file).toBeDefined();
    expect(JSON.parse(files.get(file ?? '') ?? '{}').items).toHaveLength(2);

    const before = DEPLOYMENTS[1] as (typeof DEPLOYMENTS)[number];
    const after = {
      ...before,
      status: {
        ...before.status,
        conditions: [
          before.status.conditions[0],
          cond(
            'Progressing',
            'False',
            '10:40:00',
            'ProgressDeadlineExceeded',
            'ReplicaSet "console-7" has timed out progressing.',
          ),
        ],
      },
    };
    const records = transitions('Deployment', before, after, at('10:40:01'));
    expect(records).toEqual([
      {
        from: at('10:40:00'),
        to: at('10:40:00'),
        level: 'Error',
        locator: 'ns/openshift-console deployment/console',
        message:
          'condition/Progressing status/False reason/ProgressDeadlineExceeded changed: ReplicaSet "console-7" has timed out progressing.',
      },
    ]);
    const interval = toInterval(records[0] as (typeof records)[number], 'live');
    expect(objectKey(interval.locator)).toBe('Deployment/openshift-console/console');
    expect(interval.message.annotations).toMatchObject({ condition: 'Progressing', status: 'False' });
  });
});

describe('DaemonSet', () => {
  it('is read from gather-extra daemonsets.json and from namespaces/<ns>/apps/daemonsets.yaml', async () => {
    for (const path of [ciRun(), mustGather()]) {
      const h = await historyOf(path);
      const ds = h.objects.daemonSets.map((d) => d.object);
      expect(
        ds.map((d) => d.metadata.name),
        path,
      ).toEqual(['machine-config-daemon']);
      expect(ds[0]?.status?.updatedNumberScheduled).toBe(4);
      expect(ds[0]?.spec?.updateStrategy?.type).toBe('RollingUpdate');
    }
  });

  it('is on the timeline by its rollout as last seen, and rewound with its status said to be as last seen', async () => {
    const h = await historyOf(ciRun());
    const rollout = h.intervals.find(
      (i) => objectKey(i.locator) === 'DaemonSet/openshift-machine-config-operator/machine-config-daemon',
    );
    expect(rollout).toMatchObject({
      level: 'Warning',
      source: 'derived:rollout',
      message: { humanMessage: 'rollout in progress as last seen: 4/6 updated, 5/6 available' },
    });
    const r = objectsAt(h, at('10:00:00'));
    expect(r.objects.daemonSets).toHaveLength(1);
    expect(r.unrewound).toContainEqual(
      expect.objectContaining({ object: 'DaemonSet', field: 'status.number*' }),
    );
  });

  it('is listed live across namespaces and recorded by watch', () => {
    expect(RESOURCES.find((r) => r.kind === 'DaemonSet')).toMatchObject({
      group: 'apps',
      plural: 'daemonsets',
      scope: 'all',
    });
    const state = new LiveState('https://api.example:6443', RESOURCES, LIVE_READING.validate);
    for (const d of DAEMONSETS) state.put('DaemonSet', d);
    const files = renderRecord(state, [], at('10:00:00'), 'header');
    const file = [...files.keys()].find((f) => f.endsWith('gather-extra/artifacts/daemonsets.json'));
    expect(JSON.parse(files.get(file ?? '') ?? '{}').items).toHaveLength(1);
  });
});

describe('Pod', () => {
  it('is read from gather-extra pods.json and namespaces/<ns>/core/pods.yaml, with its owner and images', async () => {
    for (const path of [ciRun(), mustGather()]) {
      const pods = (await historyOf(path)).objects.pods.map((p) => p.object);
      expect(
        pods.map((p) => p.metadata.name),
        path,
      ).toEqual(['machine-config-daemon-abcde']);
      expect(pods[0]?.metadata.ownerReferences?.[0]?.kind).toBe('DaemonSet');
      expect(pods[0]?.spec?.containers?.[0]?.image).toBe('quay.io/openshift/op@sha256:2');
    }
  });

  it('is on the timeline by its conditions, and rewound by them (created after the moment: left out)', async () => {
    const h = await historyOf(ciRun());
    const ready = h.intervals.find(
      (i) =>
        objectKey(i.locator) === 'Pod/openshift-machine-config-operator/machine-config-daemon-abcde' &&
        i.message.annotations.condition === 'Ready',
    );
    expect(ready).toMatchObject({ from: at('09:30:00'), level: 'Info', source: 'derived:condition' });
    const r = objectsAt(h, at('10:00:00'));
    expect(r.objects.pods).toHaveLength(1);
    // Its Ready condition is rewound; the rest of its status is as last seen, and said so.
    expect(r.objects.pods[0]?.object.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'True',
    );
    expect(r.unrewound).toContainEqual(
      expect.objectContaining({ object: 'Pod', field: 'status.containerStatuses' }),
    );
    // Created at 09:29: it did not exist yet at 09:28.
    expect(objectsAt(h, at('09:28:00')).objects.pods).toHaveLength(0);
  });

  it('is listed live in the namespaces a PodDisruptionBudget protects, and recorded by watch', () => {
    expect(RESOURCES.find((r) => r.kind === 'Pod')).toMatchObject({
      group: '',
      plural: 'pods',
      scope: 'namespaces',
    });
    const state = new LiveState('https://api.example:6443', RESOURCES, LIVE_READING.validate);
    for (const p of PODS) state.put('Pod', p);
    const files = renderRecord(state, [], at('10:00:00'), 'header');
    const file = [...files.keys()].find((f) => f.endsWith('gather-extra/artifacts/pods.json'));
    expect(JSON.parse(files.get(file ?? '') ?? '{}').items).toHaveLength(1);
  });
});

describeKubectl('kubectl get on the workload kinds, and on kinds the input lacks', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve([mustGather()]);
  });
  afterAll(async () => {
    await server?.close();
  });
  const rows = (s: string) =>
    s
      .trimEnd()
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/));

  it("get deploy -A prints kubectl's deployment columns", async () => {
    const r = await kubectl(server, ['get', 'deploy', '-A']);
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
      ['openshift-console', 'console', '2/2', '1', '2', expect.any(String)],
      ['openshift-etcd-operator', 'etcd-operator', '1/1', '1', '1', expect.any(String)],
    ]);
  });

  it("get ds -A prints kubectl's daemonset columns", async () => {
    const r = await kubectl(server, ['get', 'ds', '-A']);
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([
      ['NAMESPACE', 'NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
      [
        'openshift-machine-config-operator',
        'machine-config-daemon',
        '6',
        '6',
        '5',
        '4',
        '5',
        'kubernetes.io/os=linux',
        expect.any(String),
      ],
    ]);
  });

  it("get pods -A prints kubectl's pod columns", async () => {
    const r = await kubectl(server, ['get', 'pods', '-A']);
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      [
        'openshift-machine-config-operator',
        'machine-config-daemon-abcde',
        '1/1',
        'Running',
        '2',
        expect.any(String),
      ],
    ]);
  });

  it('a must-gather without ClusterOperators: get co says "No resources found", as a real API server does', async () => {
    const r = await kubectl(server, ['get', 'co']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe('No resources found');
    const cv = await kubectl(server, ['get', 'clusterversion']);
    expect(cv.stderr.trim()).toBe('No resources found');
  });
});

describe('init containers', () => {
  // The metal3 Deployment of the baremetal platform (cluster-baremetal-operator) runs init containers of
  // release images before its own; multus-additional-cni-plugins (cluster-network-operator) copies its
  // CNI binaries in init containers. Their images are the release's as much as the containers' are.
  const IPA = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:'.concat('1'.repeat(64));
  const OS_IMAGES = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:'.concat('2'.repeat(64));
  const BMO = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:'.concat('3'.repeat(64));
  const template = {
    metadata: { labels: { 'k8s-app': 'metal3' } },
    spec: {
      initContainers: [
        { name: 'metal3-ipa-downloader', image: IPA },
        { name: 'machine-os-images', image: OS_IMAGES },
      ],
      containers: [{ name: 'metal3-baremetal-operator', image: BMO }],
    },
  };
  const metal3 = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'metal3',
      namespace: 'openshift-machine-api',
      generation: 2,
      creationTimestamp: iso('09:00:00'),
    },
    spec: { replicas: 1, selector: { matchLabels: { 'k8s-app': 'metal3' } }, template },
    status: { observedGeneration: 2, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
  };
  const rs = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'metal3-6d4b9f7c8',
      namespace: 'openshift-machine-api',
      creationTimestamp: iso('09:00:00'),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'metal3', uid: 'u2' }],
    },
    spec: { replicas: 1, template },
    status: { replicas: 1 },
  };
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'metal3-6d4b9f7c8-x2k9p',
      namespace: 'openshift-machine-api',
      creationTimestamp: iso('09:00:10'),
      labels: { 'pod-template-hash': '6d4b9f7c8' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'metal3-6d4b9f7c8', uid: 'u3' }],
    },
    spec: { nodeName: 'n1', ...template.spec },
    status: { phase: 'Running', conditions: [cond('Ready', 'True', '09:01:00')] },
  };
  const gather = 'artifacts/e2e-metal-ipi-upgrade/gather-extra/artifacts';

  function run(
    name: string,
    objects: { deployments: unknown[]; replicasets: unknown[]; pods: unknown[] },
  ): string {
    const root = join(tmp, name);
    for (const [file, items] of Object.entries(objects)) write(root, `${gather}/${file}.json`, list(items));
    return root;
  }

  it('are read from the Deployment, the ReplicaSet and the Pod, and the rollout carries their images', async () => {
    const h = await historyOf(run('init', { deployments: [metal3], replicasets: [rs], pods: [pod] }));
    expect(
      h.objects.deployments[0]?.object.spec?.template?.spec?.initContainers?.map((c) => c.image),
    ).toEqual([IPA, OS_IMAGES]);
    expect(h.objects.replicaSets[0]?.object.spec?.template?.spec?.initContainers).toHaveLength(2);
    expect(h.objects.pods[0]?.object.spec?.initContainers?.[0]?.name).toBe('metal3-ipa-downloader');
    const w = workloadRollouts(h).workloads.find((x) => x.key === 'Deployment/openshift-machine-api/metal3');
    const images = [
      { container: 'metal3-baremetal-operator', image: BMO },
      { container: 'metal3-ipa-downloader', image: IPA, init: true },
      { container: 'machine-os-images', image: OS_IMAGES, init: true },
    ];
    expect(w?.images).toEqual(images);
    expect(w?.revisions.map((r) => r.images)).toEqual([images]);
    expect(w?.pods.map((p) => p.images)).toEqual([images]);
  });

  it('an init container image of the wrong type is bad input naming the file and the field', async () => {
    const bad = {
      ...metal3,
      spec: {
        ...metal3.spec,
        template: { spec: { ...template.spec, initContainers: [{ name: 'x', image: 7 }] } },
      },
    };
    const root = run('init-bad', { deployments: [bad], replicasets: [], pods: [] });
    await expect(historyOf(root)).rejects.toThrow(/deployments\.json: .*initContainers.*expected string/);
  });
});
