/**
 * The operand operators of the model (issue 40, item 3): the DaemonSet and Deployment rollouts, the
 * policies' level moments, the ground truth, the workload artifacts, and scenario files declaring operands.
 */
import { describe, expect, it } from 'vitest';
import { GATHER_DIR, renderArtifacts } from '../../src/sim/artifacts/write.js';
import { exploreSeeds } from '../../src/sim/explore.js';
import { runSimulation } from '../../src/sim/run.js';
import { builtinScenario } from '../../src/sim/scenario.js';
import { parseScenario } from '../../src/sim/scenario-file.js';

const ds = builtinScenario('daemonset-operand-only');
const dep = builtinScenario('deployment-operand-only');
if (!ds || !dep) throw new Error('operand scenarios missing');

type Item = {
  metadata: {
    name: string;
    namespace: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string }[];
  };
  spec: Record<string, unknown>;
  status: Record<string, unknown>;
};
const list = (files: Map<string, string>, name: string): Item[] =>
  (JSON.parse(files.get(`${GATHER_DIR}/${name}`) as string) as { items: Item[] }).items;

describe('operand operators', () => {
  it('naive reports level before its operand rolled out; fixed and pre-fix-2021 after', () => {
    for (const scenario of [ds, dep]) {
      const naive = exploreSeeds(scenario, 'naive', 1, 10);
      expect(naive.violations).toBe(10);
      expect(naive.operandViolations).toBe(10);
      for (const policy of ['fixed', 'pre-fix-2021'] as const) {
        const safe = exploreSeeds(scenario, policy, 1, 10);
        expect(safe.violations).toBe(0);
      }
    }
  });

  it('records the counts at the level moment and when the rollout finished', () => {
    const run = runSimulation(ds, 'naive', 1);
    const [v, ...rest] = run.facts.operandViolations;
    expect(rest).toEqual([]);
    expect(v).toMatchObject({
      operator: 'dns',
      kind: 'DaemonSet',
      namespace: 'openshift-dns',
      name: 'dns-default',
    });
    expect(v?.desired).toBe(6);
    expect(v?.updated).toBeLessThan(6);
    expect(v?.rolledOutAt).toBeGreaterThan(v?.at ?? Number.POSITIVE_INFINITY);
    // fixed: the version comes after the rollout, seen through the operator's watch and status sync.
    const fixed = runSimulation(ds, 'fixed', 1, { record: true });
    const dns = fixed.workloads.all.find((w) => w.spec.name === 'dns-default');
    const level = fixed.rec?.monitor.find(
      (m) => m.locator === 'clusteroperator/dns' && m.message.startsWith('versions:'),
    );
    expect(dns?.rolledOutAt).toBeDefined();
    expect(level?.from).toBeGreaterThanOrEqual((dns?.rolledOutAt ?? 0) + 2000);
  });

  it('a DaemonSet never has more than maxUnavailable pods down; a Deployment stays within maxSurge', () => {
    const run = runSimulation(ds, 'fixed', 3);
    const w = run.workloads.all.find((x) => x.spec.name === 'dns-default');
    if (!w) throw new Error('no dns-default');
    // Every moment of the run at which a pod changed (install time excluded: all pods start then).
    const moments = w.pods
      .flatMap((p) => [p.createdAt, p.readyAt, p.terminatingAt, p.goneAt])
      .filter((t): t is number => t !== undefined && t >= 0);
    expect(moments.length).toBeGreaterThan(12);
    for (const t of moments) expect(w.nodes.length - w.status(t).ready).toBeLessThanOrEqual(1);
    const d = runSimulation(dep, 'fixed', 3).workloads.all.find((x) => x.spec.name === 'console');
    if (!d) throw new Error('no console');
    for (const p of d.pods.filter((x) => x.createdAt >= 0)) {
      const live = d.pods.filter(
        (q) => q.createdAt <= p.createdAt && (q.terminatingAt ?? Infinity) > p.createdAt,
      );
      expect(live.length).toBeLessThanOrEqual(3); // 2 replicas + maxSurge 25% (1)
      expect(d.status(p.terminatingAt ?? p.createdAt).ready).toBeGreaterThanOrEqual(2); // maxUnavailable 25% → 0
    }
  });

  it('writes the workloads as gather-extra does: owners, hashes, counts, rollout events', () => {
    const files = renderArtifacts(runSimulation(dep, 'naive', 1, { record: true }));
    const console = list(files, 'deployments.json').find((d) => d.metadata.name === 'console');
    expect(console?.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
    const sets = list(files, 'replicasets.json').filter((r) => r.metadata.namespace === 'openshift-console');
    expect(sets.map((r) => r.spec.replicas).sort()).toEqual([0, 2]);
    const pods = list(files, 'pods.json').filter((p) => p.metadata.namespace === 'openshift-console');
    expect(pods).toHaveLength(2);
    for (const p of pods) {
      expect(p.metadata.ownerReferences?.[0]?.kind).toBe('ReplicaSet');
      expect(p.metadata.labels?.['pod-template-hash']).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{10}$/);
    }
    const dnsPods = list(files, 'pods.json').filter((p) => p.metadata.namespace === 'openshift-dns');
    expect(dnsPods).toHaveLength(6);
    expect(dnsPods[0]?.metadata.labels?.['controller-revision-hash']).toBeDefined();
    const events = (
      JSON.parse(files.get(`${GATHER_DIR}/events.json`) as string) as {
        items: { reason: string; message: string; metadata: { namespace: string } }[];
      }
    ).items.filter((e) => e.metadata.namespace === 'openshift-console');
    const messages = events.map((e) => `${e.reason} ${e.message}`);
    expect(messages.some((m) => /^ScalingReplicaSet Scaled up replica set console-\w+ to 1$/.test(m))).toBe(
      true,
    );
    expect(messages.some((m) => /^ScalingReplicaSet Scaled down replica set console-\w+ to 0$/.test(m))).toBe(
      true,
    );
    expect(
      messages.some((m) => /^Pulled Successfully pulled image "quay\.io\/[^"]+" in [\d.]+s$/.test(m)),
    ).toBe(true);
    expect(messages.some((m) => m.startsWith('Killing Stopping container console'))).toBe(true);
    const co = (
      JSON.parse(files.get(`${GATHER_DIR}/clusteroperators.json`) as string) as {
        items: { metadata: { name: string }; status: { relatedObjects: { name: string }[] } }[];
      }
    ).items.find((c) => c.metadata.name === 'console');
    expect(co?.status.relatedObjects.map((r) => r.name)).toEqual([
      'openshift-console-operator',
      'openshift-console',
    ]);
  });

  it('is deterministic: the same seed writes the same workload bytes', () => {
    const a = renderArtifacts(runSimulation(ds, 'naive', 7, { record: true }));
    const b = renderArtifacts(runSimulation(ds, 'naive', 7, { record: true }));
    for (const f of ['pods.json', 'daemonsets.json', 'events.json', 'replicasets.json'])
      expect(a.get(`${GATHER_DIR}/${f}`)).toBe(b.get(`${GATHER_DIR}/${f}`));
  });
});

describe('scenario files declare operands', () => {
  it('by built-in name or in full', () => {
    const s = parseScenario(
      [
        'name: router-roll',
        'changed: [haproxy-router]',
        'operands:',
        '  - node-tuning',
        '  - operator: ingress',
        '    kind: Deployment',
        '    namespace: openshift-ingress',
        '    name: router-default',
        '    component: haproxy-router',
        '    replicas: 2',
      ].join('\n'),
      'x.yaml',
    );
    expect(s.operands?.map((o) => `${o.operator}:${o.kind}:${o.namespace}/${o.name}:${o.maxSurge}`)).toEqual([
      'node-tuning:DaemonSet:openshift-cluster-node-tuning-operator/tuned:0',
      'ingress:Deployment:openshift-ingress/router-default:25%',
    ]);
    expect(exploreSeeds(s, 'naive', 1, 3).operandViolations).toBe(3);
    expect(exploreSeeds(s, 'fixed', 1, 3).violations).toBe(0);
  });

  it('refuses an unknown operand, an unknown operator and a second operand of one operator', () => {
    expect(() => parseScenario('name: a\noperands: [nope]', 'a.yaml')).toThrow(
      /operands\[0\]: unknown built-in operand/,
    );
    expect(() =>
      parseScenario(
        'name: a\noperands:\n  - {operator: machine-config, kind: DaemonSet, namespace: x, name: y, component: pod}',
        'a.yaml',
      ),
    ).toThrow(/operator: not an operator the model runs generically/);
    expect(() => parseScenario('name: a\noperands: [dns, dns]', 'a.yaml')).toThrow(/already has an operand/);
  });
});
