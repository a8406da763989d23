/**
 * The files of one oc examples case (oc pkg/cli/admin/upgrade/status/examples): newer cases carry
 * `CASE-mco-deployment.yaml`, the machine-config-operator Deployment, whose image oc compares with the
 * machine-config ClusterOperator's `operator-image` version; a file atlevel does not know (oc adds
 * inputs over time, `-us.yaml`) is named in a note and the rest of the case is read, never refused.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assessStatus } from '../../src/status/index.js';
import { inProcessCli } from '../helpers/cli.js';
import { describeFixtures, fixture, OC_STATUS_CASES, OC_STATUS_EXAMPLES } from '../helpers/fixtures.js';
import { loadHistory, loadHistoryParts } from '../helpers/load.js';
import { REBUILT_OC_CASES } from './oc-output.js';

const cli = inProcessCli('oc-case-files', ['status']);
const MULTI = REBUILT_OC_CASES.find((c) => c.name === 'to-multi-arch')?.prefix ?? '';
const MCO_IMAGE =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:787a505ca594b0a727549353c503dec9233a9d3c2dcd6b64e3de5f998892a1d5';

/** A copy of to-multi-arch under `name`, without the files `leave` names, plus `extra` files. */
function copyCase(name: string, leave: readonly string[], extra: Record<string, string> = {}): string {
  const dir = join(cli.dir, name);
  mkdirSync(dir);
  const from = join(MULTI, '..');
  for (const f of readdirSync(from)) {
    const suffix = f.slice('to-multi-arch'.length);
    if (leave.includes(suffix)) continue;
    copyFileSync(join(from, f), join(dir, `${name}${suffix}`));
  }
  for (const [suffix, text] of Object.entries(extra)) writeFileSync(join(dir, `${name}${suffix}`), text);
  return join(dir, name);
}

describe('CASE-mco-deployment.yaml', () => {
  it("is read: the machine-config-operator container's image", async () => {
    const parts = await loadHistoryParts([MULTI]);
    expect(parts.mcoImage?.image).toBe(MCO_IMAGE);
    expect(parts.mcoImage?.source).toBe(`${MULTI}-mco-deployment.yaml`);
    expect(parts.inputs.map((i) => [i.path.slice(MULTI.length), i.reader, i.contributed])).toContainEqual([
      '-mco-deployment.yaml',
      'mco-deployment',
      'the machine-config-operator image',
    ]);
  });

  it('serves the check oc makes: machine-config reports another operator-image, so it is not updated', async () => {
    const s = assessStatus(await loadHistory([MULTI]));
    expect(s.controlPlane.operators.updatingOperators.map((o) => o.name)).toEqual(['machine-config']);
    expect([s.controlPlane.operators.updated, s.controlPlane.operators.total]).toEqual([32, 33]);
    expect(s.controlPlane.completionPercent).toBe(97);
  });

  it('without it, machine-config at the same version string counts as updated (oc says the same then)', async () => {
    const s = assessStatus(await loadHistory([copyCase('no-deployment', ['-mco-deployment.yaml'])]));
    expect([s.controlPlane.operators.updated, s.controlPlane.operators.total]).toEqual([33, 33]);
    // The ClusterVersion's history entry is still Partial: the update is not complete.
    expect(s.controlPlane.assessment).not.toBe('Completed');
    expect(s.controlPlane.completionPercent).toBe(99);
    expect(s.notes).toContainEqual(expect.stringContaining('no machine-config-operator Deployment'));
  });

  it('a Deployment that is not the MCO is bad input naming the file (exit 2)', async () => {
    const prefix = copyCase('wrong-deployment', ['-mco-deployment.yaml'], {
      '-mco-deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: console\n',
    });
    const r = await cli.run(prefix);
    expect(r.code).toBe(2);
    expect(cli.stderr()).toContain(`${prefix}-mco-deployment.yaml`);
    expect(cli.stderr()).toMatch(/not the machine-config-operator Deployment/);
  });

  it('a file that holds no Deployment is bad input naming the file (exit 2)', async () => {
    const prefix = copyCase('not-deployment', ['-mco-deployment.yaml'], {
      '-mco-deployment.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
    });
    const r = await cli.run(prefix);
    expect(r.code).toBe(2);
    expect(cli.stderr()).toMatch(/-mco-deployment\.yaml.*not a Deployment/);
  });
});

describe('a file of the case atlevel does not know', () => {
  it('is named in a note; the case is read all the same', async () => {
    const prefix = copyCase('with-us', [], {
      '-us.yaml': 'apiVersion: v1\nkind: List\nitems: []\n',
      '-extra.txt': 'notes\n',
    });
    const parts = await loadHistoryParts([prefix]);
    expect(parts.objects.clusterOperators).toHaveLength(33);
    expect(parts.mcoImage?.image).toBe(MCO_IMAGE);
    const notes = parts.notes.filter((n) => n.includes('not read'));
    expect(notes).toEqual([
      expect.stringContaining('not read: with-us-extra.txt'),
      expect.stringContaining('not read: with-us-us.yaml'),
    ]);
    const r = await cli.run(prefix, '-o', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).controlPlane.completionPercent).toBe(97);
  });

  it('a folder of several cases is still no one case (read as oc get files)', async () => {
    const prefix = copyCase('two-cases', []);
    copyFileSync(`${prefix}-cv.yaml`, `${prefix}-b-cv.yaml`);
    await expect(loadHistoryParts([prefix])).rejects.toThrow(/not an oc examples case/);
  });
});

describeFixtures('every oc examples case is read, none refused', () => {
  it.each([...OC_STATUS_CASES])('%s', async (name) => {
    const parts = await loadHistoryParts([fixture(OC_STATUS_EXAMPLES, name)]);
    expect(parts.objects.clusterVersions).toHaveLength(1);
    expect(parts.objects.clusterOperators.length).toBeGreaterThan(0);
    expect(parts.notes.filter((n) => n.includes('not read'))).toEqual([]);
  });
});

describe('every rebuilt oc case is read, none refused', () => {
  it.each(REBUILT_OC_CASES.map((c) => [c.name, c.prefix]))('%s', async (_name, prefix) => {
    const parts = await loadHistoryParts([prefix]);
    expect(parts.objects.clusterVersions).toHaveLength(1);
    expect(parts.objects.nodes.length).toBeGreaterThan(0);
  });
});
