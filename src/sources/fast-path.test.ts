import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { DeferredJson, isKnownKind, KINDS, KNOWN_KINDS, type KnownKind } from '../model/index.js';
import { parseDocuments } from './documents.js';
import { fastPath } from './fast-path.js';
import { validateObject } from './validate.js';

type Loose = Record<string, unknown>;

/**
 * Deep equality of data, as strict as a reader could tell: the same prototypes, the same own keys
 * (symbols, non-enumerable ones and holes included; in any order, the one thing zod changes), and
 * the same primitives by Object.is (-0, NaN). Not toStrictEqual: it compares `constructor`
 * properties, which an object of input data may have as a key of its own.
 */
function difference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (a === b || Object.is(a, b)) return undefined;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return `${path}: ${String(a)} vs ${String(b)}`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototypes differ`;
  const keysA = Reflect.ownKeys(a);
  const keysB = new Set(Reflect.ownKeys(b));
  if (keysA.length !== keysB.size || !keysA.every((k) => keysB.has(k))) return `${path}: keys differ`;
  for (const key of keysA) {
    const da = Object.getOwnPropertyDescriptor(a, key) as PropertyDescriptor;
    const db = Object.getOwnPropertyDescriptor(b, key) as PropertyDescriptor;
    if (da.enumerable !== db.enumerable || 'value' in da !== 'value' in db)
      return `${path}.${String(key)}: kinds differ`;
    const d = difference(da.value, db.value, `${path}.${String(key)}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** The property every acceptance must have: zod accepts the value and gives back an equal one. */
function expectZodAgrees(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.success).toBe(true);
  expect(difference(result.data, value)).toBeUndefined();
}

function checkAll(value: unknown): number {
  let accepted = 0;
  for (const kind of KNOWN_KINDS) {
    const schema = KINDS[kind].schema;
    if (fastPath(schema)?.(value) === true) {
      accepted++;
      expectZodAgrees(schema, value);
    }
  }
  return accepted;
}

const ROOT = join(import.meta.dirname, '..', '..');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (/\.(json|ya?ml)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Every object of a known kind in the examples and the source fixtures, by kind. */
function realObjects(): Map<KnownKind, Loose[]> {
  const byKind = new Map<KnownKind, Loose[]>();
  const files = [
    ...filesUnder(join(ROOT, 'examples')),
    ...filesUnder(join(ROOT, 'test', 'fixtures', 'sources')),
  ];
  for (const file of files) {
    let docs: { value: unknown }[];
    try {
      docs = parseDocuments(readFileSync(file, 'utf8'), file, file.endsWith('.json'));
    } catch {
      continue;
    }
    for (const doc of docs) {
      const v = doc.value as Loose | null;
      if (v === null || typeof v !== 'object') continue;
      const items = Array.isArray(v.items) ? (v.items as unknown[]) : [v];
      for (const item of items) {
        const kind = (item as Loose | null)?.kind;
        if (!isKnownKind(kind)) continue;
        const list = byKind.get(kind) ?? [];
        list.push(item as Loose);
        byKind.set(kind, list);
      }
    }
  }
  return byKind;
}

const meta = (name: string) => ({
  name,
  namespace: 'openshift-machine-config-operator',
  uid: '6f1c5c6e-3b0a-4b8e-9d59-1f4a2b0c9e11',
  generation: 3,
  resourceVersion: '123456',
  creationTimestamp: '2021-11-03T03:23:11Z',
  labels: { 'machineconfiguration.openshift.io/role': 'master', empty: '' },
  annotations: { 'machineconfiguration.openshift.io/state': 'Done' },
  ownerReferences: [{ apiVersion: 'v1', kind: 'Deployment', name: 'owner', uid: 'u', controller: true }],
  managedFields: [{ manager: 'kubelet', operation: 'Update' }],
});

const condition = {
  type: 'Available',
  status: 'True',
  lastTransitionTime: '2021-11-03T03:23:11Z',
  reason: 'AsExpected',
  message: 'all is well',
};

const selector = {
  matchLabels: { 'pools.operator.machineconfiguration.openshift.io/master': '' },
  matchExpressions: [{ key: 'node-role', operator: 'In', values: ['master'] }],
};

/** One object per kind with every field its schema names, in the forms the cluster writes them. */
const FULL: Record<KnownKind, Loose> = {
  ClusterVersion: {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: meta('version'),
    spec: {
      channel: 'stable-4.10',
      clusterID: 'abc',
      desiredUpdate: { version: '4.10.0', image: 'quay.io/x@sha256:1', force: false },
    },
    status: {
      desired: { version: '4.10.0', image: 'quay.io/x@sha256:1', channels: ['a'] },
      history: [
        {
          state: 'Completed',
          startedTime: '2021-11-03T02:15:33Z',
          completionTime: null,
          version: '4.10.0',
          image: 'quay.io/x@sha256:1',
          verified: true,
        },
      ],
      conditions: [condition, { type: 'Progressing', status: 'False' }],
      observedGeneration: 2,
    },
  },
  ClusterOperator: {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: meta('machine-config'),
    spec: {},
    status: {
      conditions: [condition],
      versions: [{ name: 'operator', version: '4.10.0' }],
      relatedObjects: [{ group: '', resource: 'namespaces', name: 'openshift-machine-config-operator' }],
      extension: { master: 'all 3 nodes are at latest configuration' },
    },
  },
  MachineConfigPool: {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: meta('master'),
    spec: {
      paused: false,
      maxUnavailable: 1,
      nodeSelector: selector,
      machineConfigSelector: selector,
      configuration: { name: 'rendered-master-1', source: [{ name: '00-master', kind: 'MachineConfig' }] },
    },
    status: {
      observedGeneration: 3,
      configuration: { name: 'rendered-master-1', source: [{ name: '00-master' }] },
      machineCount: 3,
      updatedMachineCount: 3,
      readyMachineCount: 3,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
      conditions: [condition],
    },
  },
  MachineConfig: {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: meta('rendered-master-1'),
    spec: {
      osImageURL: 'quay.io/os@sha256:2',
      config: { ignition: { version: '3.2.0' }, storage: { files: [] } },
      kernelArguments: ['nosmt'],
      extensions: null,
      fips: false,
      kernelType: 'default',
    },
  },
  Node: {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: meta('ip-10-0-1-2'),
    spec: {
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
    },
    status: {
      conditions: [{ ...condition, type: 'Ready' }],
      nodeInfo: { kubeletVersion: 'v1.22.1', osImage: 'RHCOS' },
    },
  },
  Event: {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta('ip-10-0-1-2.16b3'),
    involvedObject: { kind: 'Node', name: 'ip-10-0-1-2', namespace: '' },
    regarding: { kind: 'Node', name: 'ip-10-0-1-2' },
    reason: 'NodeNotReady',
    message: 'Node is not ready',
    note: null,
    type: 'Normal',
    count: 2,
    firstTimestamp: '2021-11-03T03:23:11Z',
    lastTimestamp: null,
    eventTime: null,
    source: { component: 'kubelet', host: 'ip-10-0-1-2' },
  },
  Pod: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('machine-config-daemon-x'),
    spec: { nodeName: 'ip-10-0-1-2', containers: [] },
    status: { phase: 'Running', conditions: [condition] },
  },
  PodDisruptionBudget: {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: meta('etcd-quorum-guard'),
    spec: { selector, minAvailable: '50%', maxUnavailable: 1 },
    status: { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 },
  },
  ControllerConfig: {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'ControllerConfig',
    metadata: meta('machine-config-controller'),
    spec: {
      osImageURL: 'quay.io/os@sha256:2',
      images: { pause: 'quay.io/pause' },
      releaseImage: 'quay.io/r',
    },
  },
  Deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('machine-config-operator'),
    spec: {
      replicas: 1,
      selector,
      template: {
        metadata: { labels: { 'k8s-app': 'machine-config-operator' } },
        spec: { containers: [{ name: 'machine-config-operator', image: 'quay.io/mco@sha256:1' }] },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      paused: false,
    },
    status: {
      observedGeneration: 3,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      unavailableReplicas: 0,
      conditions: [condition],
    },
  },
  ReplicaSet: {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('machine-config-operator-6d5f8b7c9'),
    spec: {
      replicas: 1,
      selector,
      template: {
        metadata: { labels: { 'k8s-app': 'machine-config-operator', 'pod-template-hash': '6d5f8b7c9' } },
        spec: { containers: [{ name: 'machine-config-operator', image: 'quay.io/mco@sha256:1' }] },
      },
    },
    status: {
      observedGeneration: 2,
      replicas: 1,
      fullyLabeledReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    },
  },
  DaemonSet: {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: meta('machine-config-daemon'),
    spec: {
      selector,
      template: {
        metadata: { labels: { 'k8s-app': 'machine-config-daemon' } },
        spec: { containers: [{ name: 'machine-config-daemon', image: 'quay.io/mco@sha256:1' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } },
    },
    status: {
      observedGeneration: 3,
      desiredNumberScheduled: 6,
      currentNumberScheduled: 6,
      updatedNumberScheduled: 6,
      numberReady: 6,
      numberAvailable: 6,
      numberUnavailable: 0,
      numberMisscheduled: 0,
      conditions: [condition],
    },
  },
  HostedCluster: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: meta('example'),
    spec: {
      release: { image: 'quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64' },
      controlPlaneRelease: { image: 'quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64' },
      pausedUntil: 'false',
    },
    status: {
      version: {
        desired: { version: '4.20.1', image: 'quay.io/r:4.20.1' },
        history: [
          {
            state: 'Completed',
            version: '4.20.1',
            image: 'quay.io/r:4.20.1',
            startedTime: '2021-11-03T03:23:11Z',
            completionTime: '2021-11-03T04:23:11Z',
          },
        ],
        observedGeneration: 3,
      },
      controlPlaneVersion: {
        desired: { version: '4.20.1', image: 'quay.io/r:4.20.1' },
        history: [
          {
            state: 'Partial',
            version: '4.20.1',
            image: 'quay.io/r:4.20.1',
            startedTime: '2021-11-03T03:23:11Z',
            completionTime: null,
          },
        ],
        observedGeneration: 3,
      },
      conditions: [condition],
    },
  },
  HostedControlPlane: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedControlPlane',
    metadata: meta('example'),
    spec: { releaseImage: 'quay.io/r:4.20.1', controlPlaneReleaseImage: null },
    status: {
      version: '4.20.1',
      versionStatus: { desired: { version: '4.20.1' }, history: [], observedGeneration: 3 },
      controlPlaneVersion: { desired: { version: '4.20.1' }, history: null, observedGeneration: 3 },
      conditions: [condition],
    },
  },
  ControlPlaneComponent: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'ControlPlaneComponent',
    metadata: meta('kube-apiserver'),
    status: {
      version: '4.20.1',
      conditions: [condition],
      resources: [{ kind: 'Deployment', group: 'apps', name: 'kube-apiserver' }],
    },
  },
  NodePool: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: meta('example-us-east-1a'),
    spec: {
      clusterName: 'example',
      release: { image: 'quay.io/r:4.20.1' },
      replicas: 3,
      autoScaling: { min: 0, max: 5 },
      management: {
        upgradeType: 'Replace',
        replace: { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '0%' } },
        inPlace: { maxUnavailable: 1 },
      },
      config: [{ name: 'extra-mc' }],
      pausedUntil: null,
    },
    status: {
      replicas: 3,
      version: '4.20.1',
      nodesInfo: {
        nodeVersions: [
          { ocpVersion: '4.20.1', kubeletVersion: 'v1.33.4', readyNodeCount: 3, unreadyNodeCount: 0 },
        ],
      },
      conditions: [condition],
    },
  },
  MachineDeployment: {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineDeployment',
    metadata: meta('example-us-east-1a'),
    spec: {
      clusterName: 'example-x',
      replicas: 3,
      selector,
      template: {
        metadata: { labels: { a: 'b' }, annotations: { c: 'd' } },
        spec: {
          clusterName: 'example-x',
          version: '4.20.1',
          bootstrap: { dataSecretName: 'user-data-example-us-east-1a-abc' },
          infrastructureRef: { kind: 'AWSMachineTemplate', name: 'example-us-east-1a-abc' },
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      paused: false,
    },
    status: {
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      unavailableReplicas: 0,
      fullyLabeledReplicas: 3,
      phase: 'Running',
      conditions: [condition],
      v1beta2: {
        conditions: [condition],
        replicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        upToDateReplicas: 3,
      },
    },
  },
  MachineSet: {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineSet',
    metadata: meta('example-us-east-1a-abc'),
    spec: {
      clusterName: 'example-x',
      replicas: 3,
      selector,
      template: { spec: { version: '4.20.1', bootstrap: { dataSecretName: null } } },
      deletePolicy: 'Oldest',
    },
    status: { observedGeneration: 3, replicas: 3, phase: 'Running', conditions: null, v1beta2: null },
  },
  Machine: {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: { ...meta('example-us-east-1a-abc-xyz'), deletionTimestamp: '2021-11-03T03:23:11Z' },
    spec: {
      clusterName: 'example-x',
      version: '4.20.1',
      providerID: 'aws:///us-east-1a/i-0',
      bootstrap: { dataSecretName: 'user-data-example-us-east-1a-abc' },
    },
    status: {
      phase: 'Running',
      nodeRef: { name: 'ip-10-0-1-1.ec2.internal' },
      nodeInfo: { kubeletVersion: 'v1.33.4' },
      conditions: [condition],
      v1beta2: { conditions: [condition] },
    },
  },
};

const REAL = realObjects();

describe('fastPath', () => {
  it('compiles every kind in KINDS', () => {
    for (const kind of KNOWN_KINDS) expect(fastPath(KINDS[kind].schema), kind).not.toBeNull();
  });

  it('accepts the full object of every kind, and zod gives it back unchanged', () => {
    for (const kind of KNOWN_KINDS) {
      const schema = KINDS[kind].schema;
      expect(fastPath(schema)?.(FULL[kind]), kind).toBe(true);
      expectZodAgrees(schema, FULL[kind]);
    }
  });

  it('accepts every real object zod gives back unchanged (the examples and the source fixtures)', () => {
    let total = 0;
    for (const [kind, objects] of REAL) {
      const schema = KINDS[kind].schema;
      let accepted = 0;
      for (const object of objects) {
        const result = schema.safeParse(object);
        const same = result.success && difference(result.data, object) === undefined;
        const fast = fastPath(schema)?.(object) === true;
        // Only when zod would change nothing; and then always.
        expect(fast, `${kind} ${JSON.stringify(object).slice(0, 200)}`).toBe(same);
        if (fast) accepted++;
      }
      expect(accepted, kind).toBeGreaterThan(0);
      total += objects.length;
    }
    // The examples hold every kind the CI layout reads.
    for (const kind of [
      'ClusterVersion',
      'ClusterOperator',
      'MachineConfigPool',
      'MachineConfig',
      'Node',
      'Event',
    ] as const) {
      expect(REAL.get(kind)?.length ?? 0, kind).toBeGreaterThan(0);
    }
    expect(total).toBeGreaterThan(100);
  });

  it('leaves to zod what zod would change or drop', () => {
    const schema = KINDS.Node.schema;
    const check = fastPath(schema);
    const withMeta = (m: Loose) => ({ ...FULL.Node, metadata: { ...(FULL.Node.metadata as Loose), ...m } });
    // stringMap turns a null label value into ''.
    const nullLabel = withMeta({ labels: { a: null } });
    expect(check?.(nullLabel)).toBe(false);
    expect(schema.parse(nullLabel).metadata.labels).toEqual({ a: '' });
    // An own __proto__ key (as JSON.parse makes it) is not copied by zod.
    const proto = JSON.parse('{"kind":"Node","metadata":{"name":"n"},"__proto__":{"x":1}}');
    expect(check?.(proto)).toBe(false);
    expect(Object.hasOwn(schema.parse(proto), '__proto__')).toBe(false);
    // Objects that are not plain data.
    expect(check?.(Object.assign(Object.create(null), FULL.Node))).toBe(false);
    expect(check?.({ ...FULL.Node, [Symbol('s')]: 1 })).toBe(false);
    expect(check?.(withMeta({ labels: { [Symbol('s')]: 'x' } }))).toBe(false);
    expect(schema.safeParse(withMeta({ labels: { [Symbol('s')]: 'x' } })).success).toBe(false);
    const sparse = [condition];
    sparse.length = 2;
    expect(check?.({ ...FULL.Node, status: { conditions: sparse } })).toBe(false);
  });

  it('rejects what zod rejects', () => {
    const check = fastPath(KINDS.Event.schema);
    const event = FULL.Event;
    const with_ = (m: Loose) => ({ ...event, ...m });
    expect(check?.(with_({ metadata: { name: '' } }))).toBe(false);
    expect(check?.(with_({ metadata: {} }))).toBe(false);
    expect(check?.(with_({ metadata: undefined }))).toBe(false);
    expect(check?.(with_({ kind: 'Node' }))).toBe(false);
    for (const count of [Number.NaN, Number.POSITIVE_INFINITY, '2', 2n])
      expect(check?.(with_({ count }))).toBe(false);
    expect(check?.(with_({ source: { component: 3 } }))).toBe(false);
    expect(check?.(with_({ reason: undefined }))).toBe(true);
    expect(check?.(with_({ count: null, note: null }))).toBe(true);
    // One code point in two UTF-16 units is a name of length 1.
    expect(check?.(with_({ metadata: { name: '\u{1F600}' } }))).toBe(true);
    expect(check?.(with_({ metadata: { name: '\uD800' } }))).toBe(true);
  });

  it('reads keys that are not identifiers', () => {
    const schema = z.looseObject({ 'a"b': z.string(), 'c\\\n${d}': z.number().optional(), '': z.literal(1) });
    const check = fastPath(schema);
    const value = { 'a"b': 'x', 'c\\\n${d}': 2, '': 1 };
    expect(check?.(value)).toBe(true);
    expectZodAgrees(schema, value);
    expect(check?.({ ...value, 'c\\\n${d}': '2' })).toBe(false);
    expect(check?.({ 'a"b': 'x' })).toBe(false);
  });

  it('keeps an unknown value as it is (a deferred config)', () => {
    const config = new DeferredJson(new TextEncoder().encode('{}'), 'f', 'spec.config');
    const mc = { ...FULL.MachineConfig, spec: { config } };
    expect(fastPath(KINDS.MachineConfig.schema)?.(mc)).toBe(true);
    expectZodAgrees(KINDS.MachineConfig.schema, mc);
    expect(validateObject('MachineConfig', mc, 'f', '')).toBe(mc);
  });

  it('gives up on schema nodes it does not reproduce', () => {
    const unsupported: z.ZodType[] = [
      z.object({ a: z.string() }),
      z.strictObject({ a: z.string() }),
      z.looseObject({ a: z.string().email() }),
      z.looseObject({ a: z.string().max(3) }),
      z.looseObject({ a: z.string().trim() }),
      z.looseObject({ a: z.number().int() }),
      z.looseObject({ a: z.number().min(0) }),
      z.looseObject({ a: z.coerce.string() }),
      z.looseObject({ a: z.string().default('x') }),
      z.looseObject({ a: z.string().default('x').optional() }),
      z.looseObject({ a: z.exactOptional(z.string()) }),
      z.looseObject({ a: z.date() }),
      z.looseObject({ a: z.array(z.string()).min(1) }),
      z.looseObject({ a: z.union([z.looseObject({}), z.string()]) }),
      z.looseObject({ a: z.union([z.string().transform((s) => s), z.number()]) }),
      z.looseObject({ a: z.xor([z.string(), z.number()]) }),
      z.looseObject({ a: z.string().pipe(z.string()) }),
      z.looseObject({ a: z.record(z.enum(['x']), z.string()) }),
      z.looseObject({ a: z.looseRecord(z.string().min(2), z.string()) }),
      z.looseObject({ a: z.string().refine((s) => s !== 'x') }),
      z.looseObject({ constructor: z.string().optional() }),
      z.looseObject({ a: z.looseObject({ b: z.looseObject({ c: z.bigint() }) }) }),
    ];
    for (const [i, schema] of unsupported.entries()) expect(fastPath(schema), `case ${i}`).toBeNull();
  });

  it('returns the raw object itself from validateObject when it accepts', () => {
    const event = structuredClone(FULL.Event);
    expect(validateObject('Event', event, 'events.json', 'items[0]')).toBe(event);
    const nullLabel = { ...event, metadata: { name: 'e', labels: { a: null } } };
    const valid = validateObject('Event', nullLabel, 'events.json', 'items[0]');
    expect(valid).not.toBe(nullLabel);
    expect(valid.metadata.labels).toEqual({ a: '' });
  });
});

// ---- the property: whatever the fast path accepts, zod accepts and gives back unchanged ----

/** Values a mutation puts somewhere: the wrong types, the edge cases, and anything at all. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    '',
    'x',
    0,
    -0,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    false,
  ),
  fc
    .constantFrom<() => unknown>(
      () => [],
      () => ({}),
      () => [null],
      () => ({ a: null }),
      () => ['x', 'y'],
      () => ({
        name: 'n',
        kind: 'k',
        version: 'v',
        type: 't',
        status: 's',
        key: 'k',
        operator: 'o',
        state: 's',
      }),
      () => JSON.parse('{"__proto__":{"a":1}}'),
      () => Object.create(null),
      () => ({ [Symbol('s')]: 'x' }),
      () => new Date(0),
      () => new Map(),
      () => Object.assign([1, 2], { extra: 1 }),
      // biome-ignore lint/suspicious/noSparseArray: a hole is one of the cases
      () => [, 'x'],
      () => '\uD83D\uDE00',
      () => '\uDE00',
    )
    .map((make) => make()),
  fc.jsonValue(),
  fc.anything({
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withBoxedValues: true,
  }),
);

const KEYS = [
  'name',
  'kind',
  'metadata',
  'labels',
  'annotations',
  'status',
  'spec',
  'conditions',
  'type',
  'count',
  '__proto__',
  'extra',
  'constructor',
  'toString',
  '',
];

type Step = readonly [at: number, op: number, key: number, value: unknown];

/** Every object and array in `value`, with itself first. */
function containers(value: unknown, out: (Loose | unknown[])[] = []): (Loose | unknown[])[] {
  if (value !== null && typeof value === 'object' && !(value instanceof DeferredJson)) {
    out.push(value as Loose);
    for (const v of Object.values(value)) containers(v, out);
  }
  return out;
}

function mutate(base: Loose, steps: readonly Step[]): Loose {
  const object = structuredClone(base);
  for (const [at, op, keyIndex, value] of steps) {
    // Only what a parser builds is changed (a boxed string's characters cannot be).
    const all = containers(object).filter((c) => {
      const proto = Object.getPrototypeOf(c);
      return proto === Object.prototype || proto === Array.prototype;
    });
    const target = all[at % all.length] as Loose;
    const keys = Object.keys(target);
    const existing = keys.length > 0 ? keys[keyIndex % keys.length] : undefined;
    // An array gets elements only: an array with named properties is no parser's output.
    const added = Array.isArray(target) ? String(keys.length) : (KEYS[keyIndex % KEYS.length] as string);
    const key = existing !== undefined && op % 4 !== 3 ? existing : added;
    switch (op % 4) {
      case 0:
        delete target[key];
        break;
      case 1:
      case 3:
        // Set (an existing key, or a new one), by definition so that __proto__ is an own key.
        Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
        break;
      case 2:
        target[key] = typeof target[key] === 'string' ? '' : null;
        break;
    }
  }
  return object;
}

const step: fc.Arbitrary<Step> = fc.tuple(fc.nat(), fc.nat(), fc.nat(), nasty);

describe('fastPath property', () => {
  it('on arbitrary values: an acceptance is always zod accepting the same value', () => {
    fc.assert(
      fc.property(nasty, (value) => {
        checkAll(value);
      }),
      { numRuns: 3000 },
    );
  });

  const bases: Loose[] = [
    ...Object.values(FULL),
    ...[...REAL.values()].flatMap((objects) => objects.slice(0, 5)),
  ];

  it('on mutated objects of every kind: an acceptance is always zod accepting the same value', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.nat(), fc.array(step, { minLength: 1, maxLength: 5 }), (baseIndex, steps) => {
        const object = mutate(bases[baseIndex % bases.length] as Loose, steps);
        accepted += checkAll(object);
        runs++;
      }),
      { numRuns: 5000 },
    );
    // The mutations leave enough objects valid that both answers are exercised.
    expect(accepted).toBeGreaterThan(runs / 10);
    expect(accepted).toBeLessThan(runs * 0.9);
  });

  it('on objects of every kind with one field deleted, or set to each edge value', () => {
    const edges = [null, undefined, '', 0, -0, Number.NaN, [], {}, 'x', true];
    for (const base of Object.values(FULL)) {
      const all = containers(base);
      for (let at = 0; at < all.length; at++) {
        const keys = Object.keys(all[at] as Loose);
        for (let k = 0; k < keys.length; k++) {
          checkAll(mutate(base, [[at, 0, k, undefined]]));
          for (const value of edges) checkAll(mutate(base, [[at, 1, k, value]]));
        }
        for (let k = 0; k < KEYS.length; k++) checkAll(mutate(base, [[at, 3, k, 'x']]));
      }
    }
  });
});

// ---- the same property on random schemas of the node types the compiler knows ----

type Desc =
  | { t: 'string'; min: number }
  | { t: 'number' | 'boolean' | 'unknown' | 'nullToEmpty' }
  | { t: 'literal'; value: string | number | boolean | null }
  | { t: 'optional' | 'nullable'; inner: Desc }
  | { t: 'union'; options: Desc[] }
  | { t: 'array'; element: Desc }
  | { t: 'object'; fields: [string, Desc][] }
  | { t: 'record'; value: Desc };

const leafDesc: fc.Arbitrary<Desc> = fc.oneof(
  fc.record({ t: fc.constant('string' as const), min: fc.integer({ min: 0, max: 3 }) }),
  fc.constantFrom<Desc>({ t: 'number' }, { t: 'boolean' }, { t: 'unknown' }, { t: 'nullToEmpty' }),
  fc.record({ t: fc.constant('literal' as const), value: fc.constantFrom('a', '', 0, 1, true, null) }),
);

const { desc } = fc.letrec<{ desc: Desc }>((tie) => ({
  desc: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafDesc,
    fc.record({ t: fc.constantFrom('optional' as const, 'nullable' as const), inner: tie('desc') }),
    fc.record({
      t: fc.constant('union' as const),
      options: fc.array(
        leafDesc.filter((d) => d.t !== 'nullToEmpty'),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    fc.record({ t: fc.constant('array' as const), element: tie('desc') }),
    fc.record({
      t: fc.constant('object' as const),
      fields: fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c', 'name'), tie('desc')), {
        maxLength: 3,
        selector: ([k]) => k,
      }),
    }),
    fc.record({ t: fc.constant('record' as const), value: tie('desc') }),
  ),
}));

function schemaOf(d: Desc): z.ZodType {
  switch (d.t) {
    case 'string':
      return d.min > 0 ? z.string().min(d.min) : z.string();
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'unknown':
      return z.unknown();
    case 'nullToEmpty':
      return z
        .string()
        .nullable()
        .transform((v) => v ?? '');
    case 'literal':
      return z.literal(d.value);
    case 'optional':
      return schemaOf(d.inner).optional();
    case 'nullable':
      return schemaOf(d.inner).nullable();
    case 'union':
      return z.union(d.options.map(schemaOf) as [z.ZodType, z.ZodType]);
    case 'array':
      return z.array(schemaOf(d.element));
    case 'object':
      return z.looseObject(Object.fromEntries(d.fields.map(([k, f]) => [k, schemaOf(f)])));
    case 'record':
      return z.record(z.string(), schemaOf(d.value));
  }
}

/** Values mostly of the described shape, with a wrong one here and there. */
function valuesOf(d: Desc): fc.Arbitrary<unknown> {
  const near = ((): fc.Arbitrary<unknown> => {
    switch (d.t) {
      case 'string':
        return fc.oneof(
          fc.string({ maxLength: 4 }),
          fc.constantFrom('\u{1F600}', '\uD800', '\u{1F600}\u{1F600}', 'ab'),
        );
      case 'number':
        return fc.double();
      case 'boolean':
        return fc.boolean();
      case 'unknown':
        return nasty;
      case 'nullToEmpty':
        return fc.oneof(fc.constant(null), fc.string({ maxLength: 2 }));
      case 'literal':
        return fc.constantFrom(d.value, -0);
      case 'optional':
        return fc.oneof(fc.constant(undefined), valuesOf(d.inner));
      case 'nullable':
        return fc.oneof(fc.constant(null), valuesOf(d.inner));
      case 'union':
        return fc.oneof(...d.options.map(valuesOf));
      case 'array':
        return fc.array(valuesOf(d.element), { maxLength: 3 });
      case 'object':
        return fc
          .tuple(
            fc.record(Object.fromEntries(d.fields.map(([k, f]) => [k, valuesOf(f)])), { requiredKeys: [] }),
            fc.dictionary(fc.constantFrom('x', '__proto__', 'a'), nasty, { maxKeys: 1 }),
          )
          .map(([known, extra]) => Object.assign(extra, known));
      case 'record':
        return fc.dictionary(fc.constantFrom('k', 'l', '__proto__', 'constructor'), valuesOf(d.value), {
          maxKeys: 3,
        });
    }
  })();
  return fc.oneof({ weight: 6, arbitrary: near }, { weight: 1, arbitrary: nasty });
}

describe('fastPath property on random schemas', () => {
  it('an acceptance is always zod accepting the same value', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        desc.chain((d) => fc.tuple(fc.constant(d), valuesOf(d))),
        ([d, value]) => {
          const schema = schemaOf(d);
          const check = fastPath(schema);
          expect(check).not.toBeNull();
          runs++;
          if (check?.(value) === true) {
            accepted++;
            expectZodAgrees(schema, value);
          }
        },
      ),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(runs / 5);
  });
});

// ---- the check for parsed values (collectOne's): the same answers on what JSON.parse and js-yaml build ----

/** `value` as a reader gets it from a JSON file and from a YAML file (none when it has no such form). */
function parsedForms(value: unknown): unknown[] {
  const out: unknown[] = [];
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // A BigInt, a cycle: no JSON text.
  }
  if (json !== undefined) out.push(...parseDocuments(json, 'v.json', true).map((d) => d.value));
  let text: string | undefined;
  try {
    text = yaml.dump(value, { skipInvalid: true });
  } catch {
    // Nothing js-yaml writes.
  }
  if (text !== undefined && text.trim() !== '') {
    try {
      out.push(...parseDocuments(text, 'v.yaml', false).map((d) => d.value));
    } catch {
      // What js-yaml wrote and the readers refuse (a document of its own rules) is read by no one.
    }
  }
  return out;
}

function sameAnswers(schema: z.ZodType, value: unknown): boolean {
  const answer = fastPath(schema, true)?.(value);
  expect(answer).toBe(fastPath(schema)?.(value));
  return answer === true;
}

describe('fastPath for parsed values', () => {
  it('answers as the check for any value, on mutated objects of every kind read back from JSON and YAML', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.nat(), fc.array(step, { minLength: 1, maxLength: 5 }), (baseIndex, steps) => {
        const base = Object.values(FULL)[baseIndex % Object.values(FULL).length] as Loose;
        for (const value of parsedForms(mutate(base, steps))) {
          for (const kind of KNOWN_KINDS) if (sameAnswers(KINDS[kind].schema, value)) accepted++;
          runs++;
        }
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(runs / 10);
  });

  it('answers as the check for any value on random schemas, read back from JSON and YAML', () => {
    fc.assert(
      fc.property(
        desc.chain((d) => fc.tuple(fc.constant(d), valuesOf(d))),
        ([d, value]) => {
          const schema = schemaOf(d);
          for (const parsed of parsedForms(value)) sameAnswers(schema, parsed);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('leaves to zod an own __proto__ key and a member kept as bytes, as the check for any value does', () => {
    const schema = z.looseObject({ a: z.unknown() });
    const json = parseDocuments('{"a": 1, "__proto__": {"x": 1}}', 'v.json', true)[0]?.value;
    expect(sameAnswers(schema, json)).toBe(false);
    const config = new DeferredJson(new TextEncoder().encode('{}'), 'f', 'spec.config');
    const kept = z.looseObject({ spec: z.looseObject({ config: z.looseObject({}) }) });
    expect(sameAnswers(kept, { spec: { config } })).toBe(false);
  });
});
