/**
 * operator-level-before-operands on small CI runs (test/fixtures/operands/, gather-extra Lists shaped
 * as `oc get -o json` writes them; README there): a DaemonSet whose last old pod went after its
 * operator reported level fails, naming the DaemonSet, its counts and the release component; the same
 * run rolled out in time passes, a drain recreating the router's pods later notwithstanding; a run with
 * only deployments.json and daemonsets.json is inconclusive and names the missing files.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';

const cli = inProcessCli('operands', ['analyze']);
const RUNS = join(projectRoot, 'test/fixtures/operands');
const RULE = ['--rule', 'operator-level-before-operands'];

describe('analyze: operator-level-before-operands on CI runs', () => {
  it('a DaemonSet rolled out after its operator reported level: exit 1, the workload, its counts, the component', async () => {
    const { code, out } = await cli.run(join(RUNS, 'late-daemonset'), ...RULE);
    expect(code).toBe(1);
    expect(out).toContain(
      'dns reported level for 4.15.0-0.nightly-2024-05-01-080808 at 10:30:00.512 before its operand DaemonSet openshift-dns/dns-default had rolled out the new coredns image',
    );
    expect(out).toContain('at the level moment 2/3 pods of the new images existed');
    expect(out).toContain('its rollout finished at 10:35:58, 5m58s after the level report');
    expect(out).toContain(
      'the release component coredns changed its image: sha256:aaaaaaaaaaaa… → sha256:111111111111…',
    );
    // The router was drained and its pods recreated after the level report: not charged to ingress.
    expect(out).not.toContain('ingress reported level');
  });

  it('-o json: the finding names the operator and the workload', async () => {
    const { code, out } = await cli.run(join(RUNS, 'late-daemonset'), ...RULE, '-o', 'json');
    expect(code).toBe(1);
    const report = JSON.parse(out) as {
      findings: { rule: string; subject?: { operator?: string; objects?: string[] } }[];
    };
    const f = report.findings.find((x) => x.rule === 'operator-level-before-operands');
    expect(f?.subject?.operator).toBe('dns');
    expect(f?.subject?.objects).toEqual(['ClusterOperator/dns', 'DaemonSet/openshift-dns/dns-default']);
  });

  it('the same run rolled out in time passes (exit 0), the drain of the router and the reboots notwithstanding', async () => {
    const { code, out } = await cli.run(join(RUNS, 'clean'), ...RULE);
    expect(code).toBe(0);
    expect(out).toMatch(/^PASS: /);
    expect(out).toContain('✓ operator-level-before-operands');
  });

  it('only deployments.json and daemonsets.json: exit 4, naming pods.json, replicasets.json and events.json', async () => {
    const { code, out } = await cli.run(join(RUNS, 'partial'), ...RULE);
    expect(code).toBe(4);
    expect(out).toMatch(/^INCONCLUSIVE: /);
    expect(out).toContain('not checked: the inputs cannot place 2 rollouts in time');
    for (const file of ['pods.json', 'replicasets.json', 'events.json']) expect(out).toContain(file);
  });

  it('the bundled example without its workload data: not checked, naming the missing files; the bug example still fails', async () => {
    expect((await cli.run(join(projectRoot, 'examples/bug-2019850-fixed'))).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-operands-'));
    cpSync(join(projectRoot, 'examples/bug-2019850-fixed'), dir, { recursive: true });
    const gather = join(dir, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts');
    for (const f of ['deployments.json', 'daemonsets.json', 'pods.json', 'replicasets.json'])
      rmSync(join(gather, f));
    const fixed = await cli.run(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(fixed.code).toBe(4);
    expect(fixed.out).toContain(
      'operator-level-before-operands               not checked: the inputs hold no Deployments or DaemonSets',
    );
    for (const file of [
      'deployments.json',
      'daemonsets.json',
      'pods.json',
      'replicasets.json',
      'events.json',
    ])
      expect(fixed.out).toContain(file);
    expect((await cli.run(join(projectRoot, 'examples/bug-2019850'))).code).toBe(1);
  });
});
