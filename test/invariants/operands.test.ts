/**
 * operator-level-before-operands on hand-made histories: each way the rule may be broken, each trap of
 * a real cluster that must not look like a late rollout (docs/rules/operator-level-before-operands.md),
 * and each way it is not checked. The objects follow apps/v1 and v1; the times are made up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainFindings } from '../../src/explain/index.js';
import { RULE_RECORD } from '../../src/invariants/index.js';
import type { ClusterHistory, HistoryParts, KindObject } from '../../src/model/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { workloadRollouts } from '../../src/timeline/index.js';
import { clusterVersion, monitor, parts, ref, T } from '../helpers/build.js';

const A = '4.15.0';
const B = '4.15.1';
const C = '4.15.2';
const DAY = '2024-05-01';
const iso = (clock: string) => `${DAY}T${clock}Z`;
const at = (clock: string) => T(clock, DAY);
const digest = (c: string) => `sha256:${c.repeat(64)}`;
const img = (c: string) => `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${digest(c)}`;

/** coredns (dns's DaemonSet) and haproxy-router (ingress's Deployment) change in each update; cli does not. */
const IMAGES: Record<string, Record<string, string>> = {
  [A]: { coredns: img('a'), 'haproxy-router': img('b'), cli: img('c'), 'machine-api': img('d') },
  [B]: { coredns: img('1'), 'haproxy-router': img('2'), cli: img('c'), 'machine-api': img('4') },
  [C]: { coredns: img('5'), 'haproxy-router': img('6'), cli: img('c'), 'machine-api': img('7') },
};
const FOREIGN = 'registry.example.com/team/app@sha256:'.concat('e'.repeat(64));

function release(version: string) {
  const components = Object.entries(IMAGES[version] ?? {}).map(([name, pullSpec]) => ({
    name,
    pullSpec,
    digest: pullSpec.slice(pullSpec.indexOf('sha256:')),
  }));
  return { version, components, ref: ref(`release-${version}.json`) };
}

type Deployment = KindObject<'Deployment'>;
type DaemonSet = KindObject<'DaemonSet'>;
type ReplicaSet = KindObject<'ReplicaSet'>;
type Pod = KindObject<'Pod'>;
type KubeEvent = KindObject<'Event'>;

function co(
  name: string,
  version: string,
  namespaces: string[],
  named: { resource: string; namespace: string; name: string }[] = [],
) {
  return {
    kind: 'ClusterOperator' as const,
    metadata: { name },
    status: {
      conditions: [],
      versions: [{ name: 'operator', version }],
      relatedObjects: [
        ...namespaces.map((ns) => ({ group: '', resource: 'namespaces', name: ns })),
        ...named.map((n) => ({ group: 'apps', ...n })),
      ],
    },
  };
}

function deployment(
  ns: string,
  name: string,
  image: string,
  opts: {
    replicas?: number;
    progressed?: { rs: string; clock: string };
    annotations?: Record<string, string>;
    updated?: number;
  } = {},
): Deployment {
  const replicas = opts.replicas ?? 2;
  return {
    kind: 'Deployment',
    metadata: {
      name,
      namespace: ns,
      generation: 3,
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
    },
    spec: { replicas, template: { spec: { containers: [{ name: 'main', image }] } } },
    status: {
      observedGeneration: 3,
      replicas,
      updatedReplicas: opts.updated ?? replicas,
      availableReplicas: replicas,
      conditions: opts.progressed
        ? [
            {
              type: 'Progressing',
              status: 'True',
              reason: 'NewReplicaSetAvailable',
              message: `ReplicaSet "${opts.progressed.rs}" has successfully progressed.`,
              lastTransitionTime: iso('08:00:00'),
              lastUpdateTime: iso(opts.progressed.clock),
            } as never,
          ]
        : [],
    },
  };
}

function replicaSet(
  ns: string,
  deploymentName: string,
  hash: string,
  image: string,
  created: string,
  replicas: number,
): ReplicaSet {
  return {
    kind: 'ReplicaSet',
    metadata: {
      name: `${deploymentName}-${hash}`,
      namespace: ns,
      creationTimestamp: iso(created),
      ownerReferences: [{ kind: 'Deployment', name: deploymentName }],
    },
    spec: { replicas, template: { spec: { containers: [{ name: 'main', image }] } } },
    status: { replicas },
  };
}

function daemonSet(
  ns: string,
  name: string,
  image: string,
  desired = 3,
  maxUnavailable: number | string = 1,
): DaemonSet {
  return {
    kind: 'DaemonSet',
    metadata: { name, namespace: ns, generation: 2 },
    spec: {
      template: { spec: { containers: [{ name: 'main', image }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } },
    },
    status: {
      observedGeneration: 2,
      desiredNumberScheduled: desired,
      updatedNumberScheduled: desired,
      numberAvailable: desired,
    },
  };
}

function pod(
  ns: string,
  name: string,
  image: string,
  opts: {
    owner: { kind: 'DaemonSet' | 'ReplicaSet'; name: string };
    hash?: string;
    node?: string;
    created: string;
    ready?: string;
  },
): Pod {
  const labels: Record<string, string> = {};
  if (opts.hash)
    labels[opts.owner.kind === 'DaemonSet' ? 'controller-revision-hash' : 'pod-template-hash'] = opts.hash;
  return {
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      creationTimestamp: iso(opts.created),
      labels,
      ownerReferences: [{ kind: opts.owner.kind, name: opts.owner.name }],
    },
    spec: { ...(opts.node ? { nodeName: opts.node } : {}), containers: [{ name: 'main', image }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(opts.ready ?? opts.created) }],
    },
  };
}

let eventCount = 0;
function event(
  ns: string,
  kind: string,
  name: string,
  reason: string,
  message: string,
  clock: string,
): KubeEvent {
  eventCount += 1;
  return {
    kind: 'Event',
    metadata: { name: `${name}.${eventCount}`, namespace: ns },
    involvedObject: { kind, name, namespace: ns },
    reason,
    message,
    type: 'Normal',
    count: 1,
    firstTimestamp: iso(clock),
    lastTimestamp: iso(clock),
  };
}

function node(name: string, created: string) {
  return {
    kind: 'Node' as const,
    metadata: { name, creationTimestamp: iso(created) },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(created) }] },
  };
}

interface Cluster {
  p: HistoryParts;
  push<K extends keyof HistoryParts['objects']>(field: K, ...objects: unknown[]): Cluster;
  history(): ClusterHistory;
}

/**
 * One update A → B from 10:00 to 11:00: dns reports level at 10:30:00.500, ingress at 10:30:00.500,
 * machine-api at 10:30:00.500. Three nodes exist since 08:00.
 */
function cluster(opts: { twoUpdates?: boolean } = {}): Cluster {
  const p = parts();
  const history = opts.twoUpdates
    ? [
        { state: 'Completed', version: C, started: iso('12:00:00'), completed: iso('13:00:00') },
        { state: 'Completed', version: B, started: iso('10:00:00'), completed: iso('11:00:00') },
        { state: 'Completed', version: A, started: iso('07:00:00'), completed: iso('07:30:00') },
      ]
    : [
        { state: 'Completed', version: B, started: iso('10:00:00'), completed: iso('11:00:00') },
        { state: 'Completed', version: A, started: iso('07:00:00'), completed: iso('07:30:00') },
      ];
  p.objects.clusterVersions.push({ object: clusterVersion(history), ref: ref('clusterversion.json') });
  const last = opts.twoUpdates ? C : B;
  const ops = [
    co('dns', last, ['openshift-dns', 'openshift-dns-operator']),
    co('ingress', last, ['openshift-ingress', 'openshift-ingress-operator']),
    co(
      'machine-api',
      last,
      ['openshift-machine-api'],
      [{ resource: 'deployments', namespace: 'openshift-machine-api', name: 'machine-api-controllers' }],
    ),
    co('cluster-autoscaler', last, ['openshift-machine-api']),
  ];
  for (const o of ops)
    p.objects.clusterOperators.push({ object: o as never, ref: ref('clusteroperators.json') });
  for (const name of ['dns', 'ingress', 'machine-api', 'cluster-autoscaler']) {
    p.monitorIntervals.push(
      monitor(
        at('10:30:00.500'),
        'ClusterOperator',
        { clusteroperator: name },
        `versions: operator ${A} -> ${B}`,
      ),
    );
    if (opts.twoUpdates)
      p.monitorIntervals.push(
        monitor(
          at('12:30:00.500'),
          'ClusterOperator',
          { clusteroperator: name },
          `versions: operator ${B} -> ${C}`,
        ),
      );
  }
  for (const n of ['node-a', 'node-b', 'node-c'])
    p.objects.nodes.push({ object: node(n, '08:00:00') as never, ref: ref('nodes.json') });
  p.releases = opts.twoUpdates ? { from: release(B), to: release(C) } : { from: release(A), to: release(B) };
  const c: Cluster = {
    p,
    push(field, ...objects) {
      const file = `${String(field).toLowerCase()}.json`;
      for (const o of objects) (p.objects[field] as unknown[]).push({ object: o, ref: ref(file) });
      return c;
    },
    history: () => buildHistory(p),
  };
  return c;
}

const DNS = 'openshift-dns';
const ING = 'openshift-ingress';
const coredns = (v: string) => IMAGES[v]?.coredns ?? '';
const router = (v: string) => IMAGES[v]?.['haproxy-router'] ?? '';

/** The events of dns-default-old09, the old pod of A's image (shared by two components), deleted at 10:35:30. */
function oldSharedDnsPodGone(c: Cluster): void {
  c.push(
    'events',
    event(DNS, 'DaemonSet', 'dns-default', 'SuccessfulDelete', 'Deleted pod: dns-default-old09', '10:35:30'),
    event(
      DNS,
      'Pod',
      'dns-default-old09',
      'Pulled',
      `Container image "${coredns(A)}" already present on machine`,
      '08:01:00',
    ),
  );
}

/** dns's DaemonSet fully rolled to B between 10:05 and 10:15, each pod Ready a minute after it was created. */
function dnsRolledEarly(
  c: Cluster,
  opts: { ready?: (i: number) => string; created?: (i: number) => string } = {},
): Cluster {
  c.push('daemonSets', daemonSet(DNS, 'dns-default', coredns(B)));
  ['node-a', 'node-b', 'node-c'].forEach((n, i) => {
    const created = opts.created?.(i) ?? `10:${String(5 + i * 2).padStart(2, '0')}:00`;
    c.push(
      'pods',
      pod(DNS, `dns-default-${'xyzab'.slice(0, 4)}${i}`, coredns(B), {
        owner: { kind: 'DaemonSet', name: 'dns-default' },
        hash: 'rev2',
        node: n,
        created,
        ready: opts.ready?.(i) ?? `10:${String(6 + i * 2).padStart(2, '0')}:00`,
      }),
    );
  });
  return c;
}

/** ingress's router rolled to B: new ReplicaSet at 10:10, the old one scaled to 0 at 10:12. */
function routerRolledEarly(c: Cluster, progressedAt = '10:12:00'): Cluster {
  c.push(
    'deployments',
    deployment(ING, 'router-default', router(B), {
      progressed: { rs: 'router-default-new1', clock: progressedAt },
    }),
  );
  c.push(
    'replicaSets',
    replicaSet(ING, 'router-default', 'old1', router(A), '08:00:00', 0),
    replicaSet(ING, 'router-default', 'new1', router(B), '10:10:00', 2),
  );
  c.push(
    'events',
    event(
      ING,
      'Deployment',
      'router-default',
      'ScalingReplicaSet',
      'Scaled up replica set router-default-new1 to 2',
      '10:10:00',
    ),
    event(
      ING,
      'Deployment',
      'router-default',
      'ScalingReplicaSet',
      'Scaled down replica set router-default-old1 to 0',
      '10:12:00',
    ),
  );
  return c;
}

function check(history: ClusterHistory) {
  const rule = RULE_RECORD.get('operator-level-before-operands');
  if (!rule) throw new Error('rule missing');
  return rule.check(history);
}

describe('operator-level-before-operands: violations', () => {
  it('an old-image DaemonSet pod deleted after the level report is a violation naming the DaemonSet, its counts and the component', () => {
    const c = cluster();
    routerRolledEarly(c);
    c.push('daemonSets', daemonSet(DNS, 'dns-default', coredns(B)));
    c.push(
      'pods',
      pod(DNS, 'dns-default-aaaa1', coredns(B), {
        owner: { kind: 'DaemonSet', name: 'dns-default' },
        hash: 'rev2',
        node: 'node-a',
        created: '10:10:00',
      }),
      pod(DNS, 'dns-default-aaaa2', coredns(B), {
        owner: { kind: 'DaemonSet', name: 'dns-default' },
        hash: 'rev2',
        node: 'node-b',
        created: '10:20:00',
      }),
      pod(DNS, 'dns-default-aaaa3', coredns(B), {
        owner: { kind: 'DaemonSet', name: 'dns-default' },
        hash: 'rev2',
        node: 'node-c',
        created: '10:36:00',
      }),
    );
    c.push(
      'events',
      event(
        DNS,
        'Pod',
        'dns-default-old03',
        'Pulled',
        `Container image "${coredns(A)}" already present on machine`,
        '08:01:00',
      ),
      event(
        DNS,
        'DaemonSet',
        'dns-default',
        'SuccessfulDelete',
        'Deleted pod: dns-default-old03',
        '10:35:30',
      ),
      event(
        DNS,
        'DaemonSet',
        'dns-default',
        'SuccessfulCreate',
        'Created pod: dns-default-aaaa3',
        '10:36:00',
      ),
    );
    const out = check(c.history());
    expect(out.state).toBe('violated');
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0];
    expect(f?.subject?.operator).toBe('dns');
    expect(f?.summary).toContain('DaemonSet openshift-dns/dns-default');
    expect(f?.summary).toMatch(/\(in the update 4\.15\.0 → 4\.15\.1\)$/);
    expect(f?.summary).toContain('coredns');
    const text = f?.evidence.map((e) => e.statement).join('\n') ?? '';
    expect(text).toContain('Deleted pod: dns-default-old03');
    expect(text).toContain('at the level moment 2/3 pods of the new images existed');
    expect(text).toMatch(/its rollout finished at 10:36:00|finished at 10:35:30/);
    expect(text).toContain(
      `release component coredns: ${coredns(A)} in the old release, ${coredns(B)} in the new`,
    );
    // The explanation goes down to the release component.
    const [explained] = explainFindings(c.history(), out.findings);
    const titles = explained?.explanation?.steps.map((s) => s.title) ?? [];
    expect(titles[0]).toMatch(/^dns reported level/);
    expect(titles.some((t) => t.startsWith('DaemonSet openshift-dns/dns-default had not rolled out'))).toBe(
      true,
    );
    expect(titles).toContain(
      'the release component coredns changed its image: sha256:aaaaaaaaaaaa… → sha256:111111111111…',
    );
    // The catalogue's entry for the way of failing, its words naming the component.
    expect(explained?.explanation?.signature?.id).toBe('operand-early-level');
    expect(explained?.explanation?.signature?.detail).toContain('Here the changed image was coredns');
  });

  it('the first ReplicaSet of the new images created after the level report is a violation', () => {
    const c = cluster();
    c.push(
      'deployments',
      deployment(ING, 'router-default', router(B), {
        progressed: { rs: 'router-default-new1', clock: '10:45:00' },
      }),
    );
    c.push(
      'replicaSets',
      replicaSet(ING, 'router-default', 'old1', router(A), '08:00:00', 0),
      replicaSet(ING, 'router-default', 'new1', router(B), '10:40:00', 2),
    );
    const out = check(c.history());
    expect(out.state).toBe('violated');
    const f = out.findings[0];
    expect(f?.subject?.operator).toBe('ingress');
    expect(f?.summary).toContain('Deployment openshift-ingress/router-default');
    expect(f?.summary).toContain('haproxy-router');
    const text = f?.evidence.map((e) => e.statement).join('\n') ?? '';
    expect(text).toContain('ReplicaSet router-default-new1, the first with');
    expect(text).toContain('0/2 updated');
    expect(text).toContain('its rollout finished at 10:45:00');
  });

  it('an old-image ReplicaSet scaled down after the level report is a violation', () => {
    const c = cluster();
    c.push('deployments', deployment(ING, 'router-default', router(B)));
    c.push(
      'replicaSets',
      replicaSet(ING, 'router-default', 'old1', router(A), '08:00:00', 0),
      replicaSet(ING, 'router-default', 'new1', router(B), '10:20:00', 2),
    );
    c.push(
      'events',
      event(
        ING,
        'Deployment',
        'router-default',
        'ScalingReplicaSet',
        'Scaled up replica set router-default-new1 to 1',
        '10:20:00',
      ),
      event(
        ING,
        'Deployment',
        'router-default',
        'ScalingReplicaSet',
        'Scaled down replica set router-default-old1 to 1',
        '10:25:00',
      ),
      event(
        ING,
        'Deployment',
        'router-default',
        'ScalingReplicaSet',
        'Scaled up replica set router-default-new1 to 2',
        '10:31:00',
      ),
      event(
        ING,
        'Deployment',
        'router-default',
        'ScalingReplicaSet',
        'Scaled down replica set router-default-old1 to 0',
        '10:33:00',
      ),
    );
    const out = check(c.history());
    expect(out.state).toBe('violated');
    const text = out.findings[0]?.evidence.map((e) => e.statement).join('\n') ?? '';
    expect(text).toContain('Scaled down replica set router-default-old1 to 0');
    expect(text).toContain('router-default-new1 was scaled to 1/2 updated');
    expect(text).toContain('its rollout finished at 10:33:00');
  });

  it('a template still naming the old image at the last data is a violation that had not finished', () => {
    const c = cluster();
    routerRolledEarly(c);
    c.push('daemonSets', daemonSet(DNS, 'dns-default', coredns(A)));
    c.push(
      'pods',
      pod(DNS, 'dns-default-qqqq1', coredns(A), {
        owner: { kind: 'DaemonSet', name: 'dns-default' },
        hash: 'rev1',
        node: 'node-a',
        created: '08:00:00',
      }),
    );
    c.push('events', event(DNS, 'Pod', 'dns-default-qqqq1', 'Pulled', 'irrelevant', '10:50:00'));
    const out = check(c.history());
    expect(out.state).toBe('violated');
    expect(out.findings[0]?.summary).toContain('had not finished by');
  });
});

describe('operator-level-before-operands: traps that are not late rollouts', () => {
  it('holds when every rollout is dated before the level report', () => {
    const c = routerRolledEarly(dnsRolledEarly(cluster()));
    const out = check(c.history());
    expect(out.state).toBe('holds');
  });

  it('MCO reboots after level: DaemonSet pods Ready again later, even recreated with the same revision, are no violation', () => {
    // Ready moved after the reboot: not placed, so not checked; never violated.
    const rebooted = routerRolledEarly(dnsRolledEarly(cluster(), { ready: (i) => `10:5${i}:00` }));
    const out = check(rebooted.history());
    expect(out.state).not.toBe('violated');
    expect(out.state).toBe('not-checked');
    expect(out.reason).toContain('node reboots');
    // Recreated by the DaemonSet controller after graceful shutdown: same revision, new pods, created later.
    const recreated = routerRolledEarly(
      dnsRolledEarly(cluster(), { created: (i) => `10:5${i}:00`, ready: (i) => `10:5${i}:30` }),
    );
    recreated.push(
      'events',
      event(
        DNS,
        'DaemonSet',
        'dns-default',
        'SuccessfulDelete',
        'Deleted pod: dns-default-gone1',
        '10:50:00',
      ),
      event(
        DNS,
        'Pod',
        'dns-default-gone1',
        'Pulled',
        `Container image "${coredns(B)}" already present on machine`,
        '10:06:00',
      ),
    );
    expect(check(recreated.history()).state).not.toBe('violated');
  });

  it('drains: Deployment pods evicted and recreated later (same pod-template-hash), Progressing moved later: no violation', () => {
    const c = dnsRolledEarly(cluster());
    routerRolledEarly(c, '10:55:00');
    c.push(
      'pods',
      pod(ING, 'router-default-new1-zzzz1', router(B), {
        owner: { kind: 'ReplicaSet', name: 'router-default-new1' },
        hash: 'new1',
        node: 'node-a',
        created: '10:50:00',
      }),
      pod(ING, 'router-default-new1-zzzz2', router(B), {
        owner: { kind: 'ReplicaSet', name: 'router-default-new1' },
        hash: 'new1',
        node: 'node-b',
        created: '10:54:00',
      }),
    );
    c.push(
      'events',
      event(
        ING,
        'ReplicaSet',
        'router-default-new1',
        'SuccessfulCreate',
        'Created pod: router-default-new1-zzzz1',
        '10:50:00',
      ),
      event(ING, 'Pod', 'router-default-new1-yyyy1', 'Killing', 'Stopping container router', '10:49:59'),
    );
    const out = check(c.history());
    expect(out.state).toBe('holds');
  });

  it('nodes joining after the level report get new DaemonSet pods: no violation, and the rollout still holds', () => {
    const c = routerRolledEarly(dnsRolledEarly(cluster()));
    c.push('nodes', node('node-d', '10:45:00'));
    (c.p.objects.daemonSets[0]?.object.status as { desiredNumberScheduled: number }).desiredNumberScheduled =
      4;
    c.push(
      'pods',
      pod(DNS, 'dns-default-late4', coredns(B), {
        owner: { kind: 'DaemonSet', name: 'dns-default' },
        hash: 'rev2',
        node: 'node-d',
        created: '10:46:00',
      }),
    );
    expect(check(c.history()).state).toBe('holds');
  });

  it("several updates: each is judged at its own level moment; the earlier update's rollout is not the later one's", () => {
    const c = cluster({ twoUpdates: true });
    // The B rollout happened after the first update's level report (10:40): not the second update's concern.
    c.push(
      'deployments',
      deployment(ING, 'router-default', router(C), {
        progressed: { rs: 'router-default-c1', clock: '12:12:00' },
      }),
    );
    c.push(
      'replicaSets',
      replicaSet(ING, 'router-default', 'a1', router(A), '08:00:00', 0),
      replicaSet(ING, 'router-default', 'b1', router(B), '10:40:00', 0),
      replicaSet(ING, 'router-default', 'c1', router(C), '12:10:00', 2),
    );
    c.push(
      'events',
      event(
        ING,
        'Deployment',
        'router-default',
        'ScalingReplicaSet',
        'Scaled down replica set router-default-b1 to 0',
        '12:12:00',
      ),
    );
    dnsRolledEarly(c, { created: (i) => `12:0${5 + i}:00`, ready: (i) => `12:1${i}:00` });
    (c.p.objects.daemonSets[0]?.object.spec?.template?.spec?.containers ?? [])[0]!.image = coredns(C);
    for (const p of c.p.objects.pods) (p.object.spec?.containers ?? [])[0]!.image = coredns(C);
    const out = check(c.history());
    expect(out.state).not.toBe('violated');
    // The first update has no payloads in the inputs: not checked, and it says so.
    expect(out.state).toBe('not-checked');
    expect(out.reason).toContain(`${A} → ${B}`);
  });

  it('a day-2 change rolls the Deployment again after the update: never charged to the update', () => {
    const c = dnsRolledEarly(cluster());
    c.push(
      'deployments',
      deployment(ING, 'router-default', router(B), {
        progressed: { rs: 'router-default-day2', clock: '14:02:00' },
      }),
    );
    c.push(
      'replicaSets',
      replicaSet(ING, 'router-default', 'old1', router(A), '08:00:00', 0),
      replicaSet(ING, 'router-default', 'new1', router(B), '10:10:00', 0),
      replicaSet(ING, 'router-default', 'day2', router(B), '14:00:00', 2),
    );
    c.push(
      'events',
      event(
        ING,
        'Deployment',
        'router-default',
        'ScalingReplicaSet',
        'Scaled down replica set router-default-old1 to 0',
        '10:12:00',
      ),
      event(
        ING,
        'Deployment',
        'router-default',
        'ScalingReplicaSet',
        'Scaled down replica set router-default-new1 to 0',
        '14:01:00',
      ),
    );
    expect(check(c.history()).state).toBe('holds');
  });

  it('a workload scaled to zero is not judged', () => {
    const c = routerRolledEarly(dnsRolledEarly(cluster()));
    c.push('deployments', deployment(ING, 'router-internal', router(A), { replicas: 0 }));
    expect(check(c.history()).state).toBe('holds');
  });

  it("a workload whose images are in neither release is not an operand: skipped, and counted in a finding's evidence", () => {
    const c = dnsRolledEarly(cluster());
    c.push('deployments', deployment(ING, 'customer-app', FOREIGN));
    c.push('replicaSets', replicaSet(ING, 'customer-app', 'x1', FOREIGN, '10:40:00', 2));
    expect(check(routerRolledEarly(c).history()).state).toBe('holds');
    // With a real violation beside it, the evidence counts it.
    const late = dnsRolledEarly(cluster());
    late.push('deployments', deployment(ING, 'customer-app', FOREIGN));
    late.push('deployments', deployment(ING, 'router-default', router(A)));
    const out = check(late.history());
    expect(out.state).toBe('violated');
    const counts =
      out.findings[0]?.evidence.find((e) => e.field === 'status.relatedObjects')?.statement ?? '';
    expect(counts).toContain('1 not operands of the payload');
  });

  it("a namespace several operators name: a workload named by none is charged to none; one named by an operator is that one's", () => {
    const c = routerRolledEarly(dnsRolledEarly(cluster()));
    const mapi = IMAGES[A]?.['machine-api'] ?? '';
    c.push('deployments', deployment('openshift-machine-api', 'unnamed-controller', mapi));
    expect(check(c.history()).state).toBe('holds');
    c.push('deployments', deployment('openshift-machine-api', 'machine-api-controllers', mapi));
    const out = check(c.history());
    expect(out.state).toBe('violated');
    expect(out.findings.map((f) => f.subject?.operator)).toEqual(['machine-api']);
    expect(out.findings[0]?.evidence.map((e) => e.statement).join('\n')).toContain(
      '1 more in namespaces other operators share',
    );
  });

  it("the operator's own Deployment, applied by the CVO, is not its operand", () => {
    const c = routerRolledEarly(dnsRolledEarly(cluster()));
    c.push(
      'deployments',
      deployment('openshift-dns-operator', 'dns-operator', coredns(A), {
        annotations: { 'include.release.openshift.io/self-managed-high-availability': 'true' },
      }),
    );
    expect(check(c.history()).state).toBe('holds');
  });
});

describe('operator-level-before-operands: not checked', () => {
  it('with no workload data at all, names the missing files', () => {
    const out = check(cluster().history());
    expect(out.state).toBe('not-checked');
    expect(out.missing.join('\n')).toMatch(
      /deployments\.json[\s\S]*daemonsets\.json[\s\S]*pods\.json[\s\S]*replicasets\.json[\s\S]*events\.json/,
    );
  });

  it('partial data (only deployments.json): not checked, naming replicasets.json and events.json; never a violation', () => {
    const c = cluster();
    c.push(
      'deployments',
      deployment(ING, 'router-default', router(B), {
        progressed: { rs: 'router-default-new1', clock: '10:55:00' },
      }),
    );
    c.push('daemonSets', daemonSet(DNS, 'dns-default', coredns(B)));
    const out = check(c.history());
    expect(out.state).toBe('not-checked');
    expect(out.missing.join('\n')).toContain('replicasets.json');
    expect(out.missing.join('\n')).toContain('events.json');
    expect(out.missing.join('\n')).toContain('pods.json');
  });

  it('without the release payloads nothing says which image is whose', () => {
    const c = routerRolledEarly(dnsRolledEarly(cluster()));
    c.p.releases = {};
    const out = check(c.history());
    expect(out.state).toBe('not-checked');
    expect(out.missing.join('\n')).toContain('release payloads');
  });

  it('with no update, the rule does not apply', () => {
    const p = parts();
    const out = check(buildHistory(p));
    expect(out.state).toBe('not-checked');
    expect(out.missing).toEqual([]);
  });
});

describe('the rollout history (timeline/workload-rollouts.ts)', () => {
  it('joins ReplicaSets, pods and events to their workload, by owner and by name', () => {
    const c = routerRolledEarly(dnsRolledEarly(cluster()));
    c.push(
      'events',
      event(
        DNS,
        'Pod',
        'dns-default-gone9',
        'Pulled',
        `Successfully pulled image "${coredns(A)}" in 1.2s`,
        '10:04:00',
      ),
    );
    const { workloads, data } = workloadRollouts(c.history());
    expect(data).toMatchObject({
      deployments: true,
      daemonSets: true,
      replicaSets: true,
      pods: true,
      events: true,
    });
    const router = workloads.find((w) => w.key === 'Deployment/openshift-ingress/router-default');
    expect(router?.revisions.map((r) => r.id)).toEqual(['router-default-old1', 'router-default-new1']);
    expect(router?.steps.map((s) => s.what).sort()).toEqual([
      'complete',
      'revision-created',
      'revision-created',
      'scaled-down',
      'scaled-up',
    ]);
    expect(router?.steps.map((s) => s.at)).toEqual(
      [...(router?.steps.map((s) => s.at) ?? [])].sort((a, b) => a - b),
    );
    const dns = workloads.find((w) => w.key === 'DaemonSet/openshift-dns/dns-default');
    expect(dns?.pods.find((p) => p.name === 'dns-default-gone9')?.images).toEqual([
      { container: '', image: coredns(A) },
    ]);
    expect(dns?.revisions.map((r) => r.id)).toEqual(['rev2']);
  });
});

describe('operator-level-before-operands: property', () => {
  it('drains, reboots, recreated pods and new nodes after the level report never make a violation of a rollout done before it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom('drain', 'reboot', 'recreate', 'new-node'),
            minute: fc.integer({ min: 31, max: 59 }),
            which: fc.integer({ min: 0, max: 2 }),
          }),
          { maxLength: 8 },
        ),
        (perturbations) => {
          const c = routerRolledEarly(dnsRolledEarly(cluster()));
          perturbations.forEach((q, i) => {
            const clock = `10:${q.minute}:00`;
            const name = `x${i}${q.which}`.padEnd(5, 'q').slice(0, 5);
            if (q.kind === 'drain') {
              c.push(
                'pods',
                pod(ING, `router-default-new1-${name}`, router(B), {
                  owner: { kind: 'ReplicaSet', name: 'router-default-new1' },
                  hash: 'new1',
                  created: clock,
                }),
              );
              c.push(
                'events',
                event(
                  ING,
                  'ReplicaSet',
                  'router-default-new1',
                  'SuccessfulCreate',
                  `Created pod: router-default-new1-${name}`,
                  clock,
                ),
              );
            } else if (q.kind === 'reboot') {
              const p = c.p.objects.pods.find((x) => x.object.metadata.namespace === DNS);
              const ready = p?.object.status?.conditions?.[0];
              if (ready) ready.lastTransitionTime = iso(clock);
            } else if (q.kind === 'recreate') {
              c.push(
                'events',
                event(
                  DNS,
                  'DaemonSet',
                  'dns-default',
                  'SuccessfulCreate',
                  `Created pod: dns-default-${name}`,
                  clock,
                ),
              );
            } else {
              c.push('nodes', node(`node-n${i}`, clock));
              c.push(
                'pods',
                pod(DNS, `dns-default-${name}`, coredns(B), {
                  owner: { kind: 'DaemonSet', name: 'dns-default' },
                  hash: 'rev2',
                  node: `node-n${i}`,
                  created: clock,
                }),
              );
            }
          });
          const out = check(c.history());
          expect(out.state).not.toBe('violated');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('operator-level-before-operands: shapes of real clusters no other test covers', () => {
  /** The payloads of cluster(), with `edit` applied to the components of each (name → pull spec). */
  function withReleases(
    c: Cluster,
    edit: (version: string, images: Record<string, string>) => void,
  ): Cluster {
    const make = (version: string) => {
      const images = { ...(IMAGES[version] ?? {}) };
      edit(version, images);
      const components = Object.entries(images).map(([name, pullSpec]) => ({
        name,
        pullSpec,
        digest: pullSpec.slice(pullSpec.indexOf('sha256:')),
      }));
      return { version, components, ref: ref(`release-${version}.json`) };
    };
    c.p.releases = { from: make(A), to: make(B) };
    return c;
  }

  /** dns's DaemonSet as installed on A, never rolled: its template and every pod run `image`. */
  function dnsNeverRolled(c: Cluster, image: string): Cluster {
    c.push('daemonSets', daemonSet(DNS, 'dns-default', image));
    ['node-a', 'node-b', 'node-c'].forEach((n, i) => {
      c.push(
        'pods',
        pod(DNS, `dns-default-inst${i}`, image, {
          owner: { kind: 'DaemonSet', name: 'dns-default' },
          hash: 'rev1',
          node: n,
          created: '07:10:00',
        }),
      );
    });
    return c;
  }

  it('one image behind two components, one of which the update moved: not checked, never "unchanged"', () => {
    // A: coredns and dns-node-resolver share one image; B rebuilds coredns only. A DaemonSet still on
    // that image may be coredns's, left behind (a violation), or dns-node-resolver's (unchanged).
    const c = withReleases(cluster(), (_version, images) => {
      images['dns-node-resolver'] = coredns(A);
    });
    routerRolledEarly(c);
    dnsNeverRolled(c, coredns(A));
    const out = check(c.history());
    expect(out.state).toBe('not-checked');
    expect(out.reason).toContain('the old release had it also as coredns, whose digest the update changed');
    expect(out.reason).toContain("dns's DaemonSet openshift-dns/dns-default");
    expect(out.missing.length).toBeGreaterThan(0);
  });

  it('one image behind two components: a workload that rolled the moved one shows which it is, and its old pod deleted late is a violation', () => {
    const c = withReleases(cluster(), (_version, images) => {
      images['dns-node-resolver'] = coredns(A);
    });
    routerRolledEarly(c);
    // The template and two pods run B's coredns; the third old pod, of A's shared image, went at 10:35:30.
    dnsRolledEarly(c, { created: (i) => (i === 2 ? '10:36:00' : `10:0${5 + i}:00`) });
    oldSharedDnsPodGone(c);
    const out = check(c.history());
    expect(out.state).toBe('violated');
    expect(out.findings[0]?.summary).toContain('coredns');
  });

  it('the same image behind two components the update both kept: unchanged, and the rule holds', () => {
    const c = withReleases(cluster(), (_version, images) => {
      images['dns-node-resolver'] = coredns(A);
      images.coredns = coredns(A);
    });
    routerRolledEarly(c);
    dnsNeverRolled(c, coredns(A));
    expect(check(c.history()).state).toBe('holds');
  });

  it("multi-arch payloads (manifest-list digests): the pods' per-architecture imageIDs are not read as foreign images", () => {
    const c = cluster();
    routerRolledEarly(c);
    dnsRolledEarly(c);
    // As kubelet reports them on an arm64 node: the platform manifest's digest, in neither payload.
    for (const p of c.p.objects.pods) {
      const o = p.object as { status?: { containerStatuses?: unknown[] } };
      o.status = {
        ...o.status,
        containerStatuses: [
          { name: 'main', image: coredns(B), imageID: `quay.io/x@sha256:${'f'.repeat(64)}`, ready: true },
        ],
      };
    }
    expect(check(c.history()).state).toBe('holds');
    // And still a violation when an old pod was deleted after the level report.
    const late = cluster();
    routerRolledEarly(late);
    dnsRolledEarly(late, { created: (i) => (i === 2 ? '10:36:00' : `10:0${5 + i}:00`) });
    oldSharedDnsPodGone(late);
    expect(check(late.history()).state).toBe('violated');
  });

  it('a DaemonSet with updateStrategy OnDelete whose operator replaced every pod before the level report: holds', () => {
    const c = cluster();
    routerRolledEarly(c);
    dnsRolledEarly(c);
    const ds = c.p.objects.daemonSets[0]?.object as { spec: { updateStrategy?: unknown } };
    ds.spec.updateStrategy = { type: 'OnDelete' };
    expect(check(c.history()).state).toBe('holds');
  });

  it('a DaemonSet with updateStrategy OnDelete whose old pods were never deleted: a violation (its pods still run the old image)', () => {
    const c = cluster();
    routerRolledEarly(c);
    dnsNeverRolled(c, coredns(A));
    const ds = c.p.objects.daemonSets[0]?.object as {
      spec: { updateStrategy?: unknown; template: { spec: { containers: { image: string }[] } } };
    };
    ds.spec.updateStrategy = { type: 'OnDelete' };
    const container = ds.spec.template.spec.containers[0];
    if (container) container.image = coredns(B);
    const out = check(c.history());
    expect(out.state).toBe('violated');
    expect(out.findings[0]?.summary).toContain('DaemonSet openshift-dns/dns-default');
  });

  it('a Deployment paused with the new template and the old ReplicaSet still serving: a violation, not a rollout placed before the level', () => {
    const c = cluster();
    dnsRolledEarly(c);
    const d = deployment(ING, 'router-default', router(B), { updated: 0 });
    (d.spec as { paused?: boolean }).paused = true;
    (d.status as { conditions: unknown[] }).conditions = [
      {
        type: 'Progressing',
        status: 'Unknown',
        reason: 'DeploymentPaused',
        message: 'Deployment is paused',
        lastTransitionTime: iso('10:05:00'),
        lastUpdateTime: iso('10:05:00'),
      },
    ];
    c.push('deployments', d);
    c.push('replicaSets', replicaSet(ING, 'router-default', 'old1', router(A), '08:00:00', 2));
    const out = check(c.history());
    expect(out.state).toBe('violated');
    expect(out.findings[0]?.summary).toContain('Deployment openshift-ingress/router-default');
  });
});

describe('operator-level-before-operands: init containers', () => {
  // cluster-network-operator's multus-additional-cni-plugins DaemonSet (bindata/network/multus/multus.yaml):
  // its one container runs the multus-cni image, which this update keeps; its init containers copy the
  // CNI binaries of egress-router-cni (changed by the update) and container-networking-plugins (kept).
  const MULTUS = 'openshift-multus';
  const PLUGINS = 'multus-additional-cni-plugins';
  const EGRESS: Record<string, string> = { [A]: img('8'), [B]: img('9') };
  const KEPT = { 'multus-cni': img('f'), 'container-networking-plugins': img('0') };
  const egress = (v: string) => EGRESS[v] ?? '';

  /** cluster() with the network operator (level at 10:30:00.500) and the multus components in both payloads. */
  function networkCluster(): Cluster {
    const c = cluster();
    c.push('clusterOperators', co('network', B, [MULTUS, 'openshift-network-operator']));
    c.p.monitorIntervals.push(
      monitor(
        at('10:30:00.500'),
        'ClusterOperator',
        { clusteroperator: 'network' },
        `versions: operator ${A} -> ${B}`,
      ),
    );
    const with_ = (r: ReturnType<typeof release>, v: string) => ({
      ...r,
      components: [
        ...r.components,
        ...Object.entries({ ...KEPT, 'egress-router-cni': egress(v) }).map(([name, pullSpec]) => ({
          name,
          pullSpec,
          digest: pullSpec.slice(pullSpec.indexOf('sha256:')),
        })),
      ],
    });
    c.p.releases = { from: with_(release(A), A), to: with_(release(B), B) };
    return c;
  }

  function podSpec(v: string) {
    return {
      containers: [{ name: 'kube-multus-additional-cni-plugins', image: KEPT['multus-cni'] }],
      initContainers: [
        { name: 'egress-router-binary-copy', image: egress(v) },
        { name: 'cni-plugins', image: KEPT['container-networking-plugins'] },
      ],
    };
  }

  function plugins(v: string): DaemonSet {
    const ds = daemonSet(MULTUS, PLUGINS, '');
    return { ...ds, spec: { ...ds.spec, template: { spec: podSpec(v) } } } as DaemonSet;
  }

  function pluginsPod(name: string, v: string, hash: string, node: string, created: string): Pod {
    const p = pod(MULTUS, name, '', { owner: { kind: 'DaemonSet', name: PLUGINS }, hash, node, created });
    return { ...p, spec: { nodeName: node, ...podSpec(v) } } as Pod;
  }

  /** Each node's pod of B's init image, created 10:05 to 10:09 (Ready a minute later): before the level report. */
  function rolledEarly(c: Cluster): Cluster {
    c.push('daemonSets', plugins(B));
    ['node-a', 'node-b', 'node-c'].forEach((n, i) => {
      c.push('pods', pluginsPod(`${PLUGINS}-new0${i}`, B, 'rev2', n, `10:0${5 + i * 2}:00`));
    });
    return c;
  }

  it('the rollout reads the init containers: the template, the pods and the revisions carry their images', () => {
    const c = rolledEarly(networkCluster());
    const w = workloadRollouts(c.history()).workloads.find((x) => x.key === `DaemonSet/${MULTUS}/${PLUGINS}`);
    expect(w?.images).toEqual([
      { container: 'kube-multus-additional-cni-plugins', image: KEPT['multus-cni'] },
      { container: 'egress-router-binary-copy', image: egress(B), init: true },
      { container: 'cni-plugins', image: KEPT['container-networking-plugins'], init: true },
    ]);
    expect(w?.pods.map((p) => p.images.filter((i) => i.init).map((i) => i.image))).toEqual(
      [0, 1, 2].map(() => [egress(B), KEPT['container-networking-plugins']]),
    );
  });

  it('an operand whose only change is an init image, rolled out before the level report: holds', () => {
    const c = routerRolledEarly(dnsRolledEarly(rolledEarly(networkCluster())));
    const out = check(c.history());
    expect(out.state).toBe('holds');
  });

  it('an old pod of the old init image deleted after the level report: a violation naming egress-router-cni', () => {
    const c = routerRolledEarly(dnsRolledEarly(networkCluster()));
    c.push('daemonSets', plugins(B));
    c.push(
      'pods',
      pluginsPod(`${PLUGINS}-new00`, B, 'rev2', 'node-a', '10:10:00'),
      pluginsPod(`${PLUGINS}-new01`, B, 'rev2', 'node-b', '10:20:00'),
      pluginsPod(`${PLUGINS}-new02`, B, 'rev2', 'node-c', '10:36:00'),
    );
    c.push(
      'events',
      event(
        MULTUS,
        'Pod',
        `${PLUGINS}-old02`,
        'Pulled',
        `Container image "${egress(A)}" already present on machine`,
        '08:01:00',
      ),
      event(MULTUS, 'DaemonSet', PLUGINS, 'SuccessfulDelete', `Deleted pod: ${PLUGINS}-old02`, '10:35:30'),
      event(MULTUS, 'DaemonSet', PLUGINS, 'SuccessfulCreate', `Created pod: ${PLUGINS}-new02`, '10:36:00'),
    );
    const out = check(c.history());
    expect(out.state).toBe('violated');
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0];
    expect(f?.subject?.operator).toBe('network');
    expect(f?.summary).toContain(`DaemonSet ${MULTUS}/${PLUGINS}`);
    expect(f?.summary).toContain('egress-router-cni');
    const text = f?.evidence.map((e) => e.statement).join('\n') ?? '';
    expect(text).toContain(`Deleted pod: ${PLUGINS}-old02`);
    expect(text).toContain(
      `release component egress-router-cni: ${egress(A)} in the old release, ${egress(B)} in the new`,
    );
  });

  it('a template that still names the old init image when last seen: a violation (it held before init images were read)', () => {
    const c = routerRolledEarly(dnsRolledEarly(networkCluster()));
    c.push('daemonSets', plugins(A));
    ['node-a', 'node-b', 'node-c'].forEach((n, i) => {
      c.push('pods', pluginsPod(`${PLUGINS}-old0${i}`, A, 'rev1', n, '07:10:00'));
    });
    c.push('events', event(DNS, 'Pod', 'dns-default-xyza0', 'Pulled', 'irrelevant', '10:50:00'));
    const out = check(c.history());
    expect(out.state).toBe('violated');
    const f = out.findings.find((x) => x.summary.includes(PLUGINS));
    expect(f?.summary).toContain('had not finished by');
    const template = f?.evidence.find((e) => e.statement.includes('pod template still names'));
    expect(template).toMatchObject({ field: 'spec.template.spec.initContainers' });
    expect(template?.statement).toContain("still names the old release's egress-router-cni image");
  });

  it('property: reboots, recreated pods, new nodes and pulls of the new init image after the level report never make a violation of a rollout done before it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom('reboot', 'recreate', 'new-node', 'pulled'),
            minute: fc.integer({ min: 31, max: 59 }),
            which: fc.integer({ min: 0, max: 2 }),
          }),
          { maxLength: 8 },
        ),
        (perturbations) => {
          const c = routerRolledEarly(dnsRolledEarly(rolledEarly(networkCluster())));
          perturbations.forEach((q, i) => {
            const clock = `10:${q.minute}:00`;
            const name = `${PLUGINS}-p${i}${q.which}`;
            if (q.kind === 'reboot') {
              const p = c.p.objects.pods.find((x) => x.object.metadata.name === `${PLUGINS}-new0${q.which}`);
              const ready = p?.object.status?.conditions?.[0];
              if (ready) ready.lastTransitionTime = iso(clock);
            } else if (q.kind === 'recreate') {
              c.push(
                'events',
                event(MULTUS, 'DaemonSet', PLUGINS, 'SuccessfulCreate', `Created pod: ${name}`, clock),
              );
            } else if (q.kind === 'new-node') {
              c.push('nodes', node(`node-n${i}`, clock));
              c.push('pods', pluginsPod(name, B, 'rev2', `node-n${i}`, clock));
            } else {
              c.push(
                'events',
                event(
                  MULTUS,
                  'Pod',
                  `${PLUGINS}-new0${q.which}`,
                  'Pulled',
                  `Container image "${egress(B)}" already present on machine`,
                  clock,
                ),
              );
            }
          });
          expect(check(c.history()).state).not.toBe('violated');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a pod still running the old init image when last seen: a violation whose evidence names its initContainers', () => {
    const c = routerRolledEarly(dnsRolledEarly(networkCluster()));
    c.push('daemonSets', plugins(B));
    c.push(
      'pods',
      pluginsPod(`${PLUGINS}-new00`, B, 'rev2', 'node-a', '10:10:00'),
      pluginsPod(`${PLUGINS}-new01`, B, 'rev2', 'node-b', '10:20:00'),
      pluginsPod(`${PLUGINS}-old02`, A, 'rev1', 'node-c', '07:10:00'),
    );
    c.push('events', event(MULTUS, 'Pod', `${PLUGINS}-new01`, 'Pulled', 'irrelevant', '10:50:00'));
    const out = check(c.history());
    expect(out.state).toBe('violated');
    const still = out.findings[0]?.evidence.find((e) =>
      e.statement.includes(`pod ${PLUGINS}-old02 on node-c`),
    );
    expect(still).toMatchObject({ object: `Pod/${MULTUS}/${PLUGINS}-old02`, field: 'spec.initContainers' });
    expect(still?.statement).toContain("still ran the old release's egress-router-cni image");
  });
});
