import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { RULE_IDS } from '../../src/invariants/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { poolHistory, poolStateAt } from '../../src/timeline/pools.js';
import { findUpdates } from '../../src/timeline/updates.js';
import {
  clusterVersion,
  cond,
  monitor,
  operator,
  parts,
  pool,
  poolLog,
  ref,
  rendered,
  T,
} from '../helpers/build.js';

const A = '4.10.0-0.nightly-2021-11-02-191632';
const B = '4.10.0-0.nightly-2021-11-03-020416';
const POD_A =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639';
const POD_B =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb';

/** The facts of bug 2019850, as few as the rules need. `fixed` moves the level report after the rollout. */
function race(fixed: boolean, change: 'pod' | 'os' = 'pod') {
  const p = parts();
  const levelAt = fixed ? '03:35:58.100' : '03:23:09.856';
  const cvDone = fixed ? '2021-11-03T03:38:40Z' : '2021-11-03T03:28:21Z';
  p.objects.clusterVersions.push({
    object: clusterVersion([
      { state: 'Completed', version: B, started: '2021-11-03T02:50:21Z', completed: cvDone },
      { state: 'Completed', version: A, started: '2021-11-03T02:05:00Z', completed: '2021-11-03T02:40:00Z' },
    ]),
    ref: ref('clusterversion.json'),
  });
  p.objects.machineConfigPools.push({
    object: pool('master', 'rendered-master-ebc4fc8c7b6a155d86684204394e4930', [
      cond('Updated', 'True', '2021-11-03T03:35:52Z'),
      cond('Updating', 'False', '2021-11-03T03:35:52Z'),
      cond('Degraded', 'False', '2021-11-03T02:31:00Z'),
    ]),
    ref: ref('machineconfigpools.json'),
  });
  const rel = (v: string) => (fixed ? { release: v } : {});
  p.objects.machineConfigs.push(
    {
      object: rendered('rendered-master-78d48a9fbc8ba6a746040c11f8335d1a', '2021-11-03T02:30:53Z', {
        kubeletImage: POD_A,
        ...rel(A),
      }),
      ref: ref('machineconfigs.json'),
    },
    {
      object: rendered('rendered-master-ebc4fc8c7b6a155d86684204394e4930', '2021-11-03T03:23:11Z', {
        kubeletImage: change === 'pod' ? POD_B : POD_A,
        ...(change === 'os' ? { os: `quay.io/os@sha256:${'2'.repeat(64)}` } : {}),
        ...rel(B),
      }),
      ref: ref('machineconfigs.json'),
    },
  );
  p.objects.clusterOperators.push({
    object: operator('machine-config', B, []),
    ref: ref('clusteroperators.json'),
  });
  p.monitorIntervals.push(
    monitor(
      T(levelAt),
      'ClusterOperator',
      { clusteroperator: 'machine-config' },
      `versions: operator ${A} -> ${B}`,
      {},
      'Info',
      10,
    ),
  );
  const mco = {
    name: 'machine-config-operator',
    pullSpec: `quay.io/mco@sha256:${'3'.repeat(64)}`,
    digest: `sha256:${'3'.repeat(64)}`,
  };
  const release = (version: string, pod: string) => ({
    version,
    components: [mco, { name: 'pod', pullSpec: pod, digest: pod.slice(pod.indexOf('sha256:')) }],
    ref: ref(`release-${version}.json`),
  });
  p.releases = { from: release(A, POD_A), to: release(B, POD_B) };
  if (!fixed) {
    p.testLog.push(
      {
        kind: 'upgrade-completed',
        at: T('03:28:35.858'),
        target: 'registry/release:x',
        ref: ref('build-log.txt', 20),
      },
      poolLog(T('03:28:36.063'), 'master', false, true),
      {
        kind: 'invariant-violation',
        at: T('03:28:36.063'),
        text: 'the "master" pool should be updated before the CVO reports available at the new version',
        ref: ref('build-log.txt', 22),
      },
    );
  }
  return buildHistory(p);
}

describe('the bug-2019850 race', () => {
  it('finds the update and its CVO completion', () => {
    const [u] = findUpdates(race(false));
    expect(u?.target).toBe(B);
    expect(u?.previous).toBe(A);
    expect(u?.completedAt).toBe(T('03:28:21'));
  });

  it('knows the master pool was rolling out at the CVO completion', () => {
    const ph = poolHistory(race(false), 'master');
    const s = poolStateAt(ph, T('03:28:21'));
    expect(s).toMatchObject({ updated: false, updating: true });
    expect(s.target?.name).toBe('rendered-master-ebc4fc8c7b6a155d86684204394e4930');
    expect(s.current?.name).toBe('rendered-master-78d48a9fbc8ba6a746040c11f8335d1a');
    // before the render, the pool was done on the old config
    expect(poolStateAt(ph, T('03:20:00'))).toMatchObject({ updated: true, updating: false });
  });

  it('flags both race rules, explains the cause and names the bug-1999556 signature', () => {
    const result = analyzeHistory(race(false));
    expect(result.verdict).toBe('fail');
    const master = result.findings.find((f) => f.rule === 'master-pool-updated-before-cvo-complete');
    expect(master?.summary).toContain('Updated=False, Updating=True');
    expect(master?.summary).toContain('rendered-master-ebc4fc8c7b6a155d86684204394e4930');
    expect(master?.summary).toContain('finished at 03:35:52, 7m31s later');
    const level = result.findings.find((f) => f.rule === 'operator-level-before-required-pool-target');
    expect(level?.severity).toBe('failure');
    expect(level?.summary).toContain('rendered at 03:23:11');
    expect(master?.explanation?.signature?.id).toBe('bug-1999556');
    const diff = master?.explanation?.configDiff;
    expect(diff?.changes.map((c) => `${c.part}:${c.name}`)).toEqual(['units:kubelet.service']);
    expect(diff?.changes[0]?.images?.[0]).toMatchObject({ before: POD_A, after: POD_B, component: 'pod' });
    const titles = master?.explanation?.steps.map((s) => s.title).join('\n') ?? '';
    expect(titles).toContain('machine-config reported level');
    expect(titles).toContain('the changed image is the release component pod');
  });

  it('names the osImageURL race (bug 1955929) when only the OS image changed', () => {
    const result = analyzeHistory(race(false, 'os'));
    const master = result.findings.find((f) => f.rule === 'master-pool-updated-before-cvo-complete');
    expect(master?.explanation?.configDiff?.changes.map((c) => c.part)).toEqual(['osImageURL']);
    expect(master?.explanation?.signature?.id).toBe('bug-1955929');
  });

  it('passes when the operator waits for the rollout (the fix)', () => {
    const result = analyzeHistory(race(true));
    expect(result.findings.filter((f) => f.severity === 'failure')).toEqual([]);
    // The history holds no workloads: operator-level-before-operands alone is not checked.
    expect(result.verdict).toBe('inconclusive');
    expect(result.outcomes.filter((o) => o.missing.length > 0).map((o) => o.rule.id)).toEqual([
      'operator-level-before-operands',
    ]);
    const rules = RULE_IDS.filter((id) => id !== 'operator-level-before-operands');
    expect(analyzeHistory(race(true), { rules }).verdict).toBe('pass');
  });
});
