/**
 * The catalogue's entries for the HyperShift rules (docs/hosted.md "Cause and signature", docs/runs.md
 * "Signatures"): each hosted fixture's finding carries the signature of its bug, a variant without the
 * bug's shape falls back to its rule's entry, and no hosted entry matches a finding of another rule.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { matchCatalogue, signatureCatalogue } from '../../src/signatures/index.js';
import { loadHistoryParts } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/index.js';
import { projectRoot } from '../helpers/fixtures.js';

const HOSTED = [
  'ocpbugs-77922',
  'nodepool-early-level',
  'ocpbugs-92013',
  'nodepool-stuck',
  'controlplane-early-completed',
];
const tmp = mkdtempSync(join(tmpdir(), 'atlevel-hosted-signatures-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = (name: string) => join(projectRoot, 'test/fixtures/hosted', name);

/**
 * The HyperShift rules' failures. no-serious-insight fails too where `atlevel status` raises the
 * defect as an Error insight (77922, controlplane-ahead); its findings are the status insight's, not
 * a HyperShift rule's, and are left out here.
 */
async function failures(dir: string) {
  const result = analyzeHistory(buildHistory(await loadHistoryParts([dir], { now: Date.now() })));
  return result.findings.filter((f) => f.severity === 'failure' && f.rule !== 'no-serious-insight');
}

/** A copy of a hosted fixture with one file edited. */
function variant(name: string, file: string, edit: (text: string) => string): string {
  const dir = join(tmp, `${name}-${Math.random().toString(36).slice(2)}`);
  cpSync(fixture(name), dir, { recursive: true });
  const path = join(dir, file);
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(path, after);
  return dir;
}

const MD = 'namespaces/clusters-example/cluster.x-k8s.io/machinedeployments.yaml';

describe('signatures of the HyperShift rules', () => {
  it.each([
    ['ocpbugs-77922', 'nodepool-level-before-rollout', 'ocpbugs-77922'],
    ['ocpbugs-92013', 'nodepool-stuck-updating', 'ocpbugs-92013'],
    ['controlplane-ahead', 'controlplane-level-before-components', 'controlplane-early-completed'],
  ])('%s: the %s finding is signed %s', async (name, rule, id) => {
    const found = await failures(fixture(name));
    expect(found.map((f) => f.rule)).toEqual([rule]);
    const f = found[0];
    expect(f?.explanation?.signature?.id).toBe(id);
    expect(f?.explanation?.steps.at(-1)?.title).toContain(`(${id})`);
  });

  it('77922: the cause names the v1beta1 and v1beta2 counts, the older MachineSet and its Machine', async () => {
    const [f] = await failures(fixture('ocpbugs-77922'));
    const titles = f?.explanation?.steps.map((s) => s.title) ?? [];
    expect(titles).toContain(
      'MachineDeployment/clusters-example/example-workers counts v1beta1 updatedReplicas 3 of spec.replicas 3; v1beta2 upToDateReplicas 3, availableReplicas 4, replicas 4',
    );
    expect(titles).toContain(
      'the older MachineSet example-workers-5f4a8c21 still has Machine example-workers-5f4a8c21-pqrst',
    );
  });

  it('77922 without the v1beta1 shape (updatedReplicas short of the desired replicas): the rule fallback, not the bug', async () => {
    const dir = variant('ocpbugs-77922', MD, (t) => t.replace('updatedReplicas: 3', 'updatedReplicas: 2'));
    const [f] = await failures(dir);
    expect(f?.rule).toBe('nodepool-level-before-rollout');
    expect(f?.explanation?.signature?.id).toBe('nodepool-early-level');
  });

  it('92013 without the conversion-data annotation: still stuck, the rule fallback, not the bug', async () => {
    const dir = variant('ocpbugs-92013', MD, (t) =>
      t.replace(/^ *cluster\.x-k8s\.io\/conversion-data:.*\n/m, ''),
    );
    const [f] = await failures(dir);
    expect(f?.rule).toBe('nodepool-stuck-updating');
    expect(f?.explanation?.signature?.id).toBe('nodepool-stuck');
    // The stale annotation's step is there only when the annotation is.
    const [g] = await failures(fixture('ocpbugs-92013'));
    expect(g?.explanation?.steps.some((s) => s.title.includes('conversion-data'))).toBe(true);
    expect(f?.explanation?.steps.some((s) => s.title.includes('conversion-data'))).toBe(false);
  });

  it('no hosted entry matches a finding of another rule, whose hosted facts are all unknown', async () => {
    for (const facts of [
      new Map<string, string>(),
      new Map([
        ['rule', 'operator-level-before-operands'],
        ['operandKind', 'DaemonSet'],
      ]),
      new Map([['rule', 'operator-level-before-required-pool-target']]),
      new Map([
        ['releaseImageVersion', 'absent'],
        ['controllerVersion', 'same'],
        ['osImageURL', 'same'],
      ]),
    ]) {
      expect(HOSTED).not.toContain(matchCatalogue(signatureCatalogue(), facts)?.signature.id);
    }
    const pause = await failures(join(projectRoot, 'examples/bug-2019850'));
    expect(pause.length).toBeGreaterThan(0);
    for (const f of pause) expect(HOSTED).not.toContain(f.explanation?.signature?.id);
    expect(pause.some((f) => f.explanation?.signature?.id === 'bug-1999556')).toBe(true);
  });

  it('the hosted entries match on their own rule only', () => {
    const sign = (o: Record<string, string>) =>
      matchCatalogue(signatureCatalogue(), new Map(Object.entries(o)))?.signature.id;
    const shape = {
      upgradeType: 'Replace',
      v1beta1UpdatedReplicas: 'at-desired',
      olderMachines: 'present',
      conversionData: 'stale',
      componentBehind: 'version',
    };
    expect(sign({ ...shape, rule: 'nodepool-level-before-rollout' })).toBe('ocpbugs-77922');
    expect(sign({ ...shape, rule: 'nodepool-stuck-updating' })).toBe('ocpbugs-92013');
    expect(sign({ ...shape, rule: 'controlplane-level-before-components' })).toBe(
      'controlplane-early-completed',
    );
    expect(sign({ ...shape, rule: 'nodepool-level-before-rollout', upgradeType: 'InPlace' })).toBe(
      'nodepool-early-level',
    );
    expect(sign({ ...shape, rule: 'nodepool-level-before-rollout', olderMachines: 'absent' })).toBe(
      'nodepool-early-level',
    );
    expect(
      sign({
        ...shape,
        rule: 'nodepool-level-before-rollout',
        olderMachines: 'absent',
        v1beta2UpToDateReplicas: 'short',
      }),
    ).toBe('ocpbugs-77922');
    expect(sign({ ...shape, rule: 'operator-level-before-required-pool-target' })).toBeUndefined();
  });
});
