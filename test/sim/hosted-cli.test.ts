/**
 * `atlevel simulate` of the hosted scenarios (docs/simulate.md, "Hosted control planes"): the policies'
 * counts across seeds, one run judged by analyze on the dump it wrote, and the refusals of flags and
 * policies that belong to the update model.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturedStdio } from '../helpers/stdio.js';

const io = capturedStdio();
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'atlevel-hosted-cli-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('atlevel simulate, hosted scenarios', () => {
  it('nodepool-replace across 20 seeds: violations under pre-fix-capi-v1beta1 (exit 1), none under fixed (exit 0)', async () => {
    io.capture();
    const pre = await main(['simulate', '--scenario', 'nodepool-replace', '--runs', '20', '-o', 'json']);
    expect(pre).toBe(1);
    const a = JSON.parse(io.out);
    expect(a).toMatchObject({ mode: 'seeds', model: 'hosted', policy: 'pre-fix-capi-v1beta1', runs: 20 });
    expect(a.violations).toBeGreaterThan(0);
    io.capture();
    const fixed = await main([
      'simulate',
      '--scenario',
      'nodepool-replace',
      '--policy',
      'fixed',
      '--runs',
      '20',
      '-o',
      'json',
    ]);
    expect(fixed).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ policy: 'fixed', violations: 0, firstViolatingSeed: null });
  });

  it('one pre-fix run writes the dump and exits with analyze’s verdict: nodepool-level-before-rollout', async () => {
    io.capture();
    const dir = join(root, 'np-1');
    const code = await main([
      'simulate',
      '--scenario',
      'nodepool-replace',
      '--seed',
      '1',
      '--artifacts',
      dir,
    ]);
    expect(code).toBe(1);
    expect(io.out).toContain(
      "FAIL  analyze's verdict on the run it wrote: no-serious-insight, nodepool-level-before-rollout violated",
    );
    const written = await files(dir);
    expect(written).toContain('namespaces/clusters/hypershift.openshift.io/nodepools/example-workers.yaml');
    expect(written).toContain('namespaces/clusters/hypershift.openshift.io/hostedclusters/example.yaml');
    expect(written).toContain('namespaces/clusters-example/cluster.x-k8s.io/machines.yaml');
    expect(written).toContain(
      'hostedcluster-example/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml',
    );
    expect(written.some((f) => /secret/i.test(f))).toBe(false);
  });

  it('an InPlace run passes', async () => {
    io.capture();
    const code = await main(['simulate', '--scenario', 'nodepool-inplace', '--seed', '2']);
    expect(code).toBe(0);
    expect(io.out).toContain('PASS');
  });

  it.each([
    [
      ['--scenario', 'nodepool-replace', '--policy', 'naive'],
      'nodepool-replace takes pre-fix-capi-v1beta1, fixed',
    ],
    [['--scenario', 'pause-image-only', '--policy', 'pre-fix-capi-v1beta1'], 'pause-image-only takes naive'],
    [['--scenario', 'nodepool-inplace', '--exhaustive'], 'takes --seed and --runs'],
  ])('refuses %j (exit 2, one line)', async (args, words) => {
    io.capture();
    const code = await main(['simulate', ...args]);
    expect(code).toBe(2);
    expect(io.err).toContain(words);
    expect(io.err.trim().split('\n')).toHaveLength(1);
  });
});
