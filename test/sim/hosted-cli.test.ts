/**
 * `atlevel simulate` of the hosted scenarios (docs/simulate.md, "Hosted control planes"): the policies'
 * counts across seeds, one run judged by analyze on the dump it wrote, and the refusals of flags and
 * policies that belong to the update model.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

let out = '';
let err = '';
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'atlevel-hosted-cli-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function capture(): void {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, cb?: unknown) => {
    out += String(chunk);
    if (typeof cb === 'function') (cb as () => void)();
    return true;
  }) as typeof process.stdout.write);
  vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  }) as typeof process.stderr.write);
}

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('atlevel simulate, hosted scenarios', () => {
  it('nodepool-replace across 20 seeds: violations under pre-fix-capi-v1beta1 (exit 1), none under fixed (exit 0)', async () => {
    capture();
    const pre = await main(['simulate', '--scenario', 'nodepool-replace', '--runs', '20', '-o', 'json']);
    expect(pre).toBe(1);
    const a = JSON.parse(out);
    expect(a).toMatchObject({ mode: 'seeds', model: 'hosted', policy: 'pre-fix-capi-v1beta1', runs: 20 });
    expect(a.violations).toBeGreaterThan(0);
    capture();
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
    expect(JSON.parse(out)).toMatchObject({ policy: 'fixed', violations: 0, firstViolatingSeed: null });
  });

  it('one pre-fix run writes the dump and exits with analyze’s verdict: nodepool-level-before-rollout', async () => {
    capture();
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
    expect(out).toContain(
      "FAIL  analyze's verdict on the run it wrote: nodepool-level-before-rollout violated",
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
    capture();
    const code = await main(['simulate', '--scenario', 'nodepool-inplace', '--seed', '2']);
    expect(code).toBe(0);
    expect(out).toContain('PASS');
  });

  it.each([
    [
      ['--scenario', 'nodepool-replace', '--policy', 'naive'],
      'nodepool-replace takes pre-fix-capi-v1beta1, fixed',
    ],
    [['--scenario', 'pause-image-only', '--policy', 'pre-fix-capi-v1beta1'], 'pause-image-only takes naive'],
    [['--scenario', 'nodepool-inplace', '--exhaustive'], 'takes --seed and --runs'],
  ])('refuses %j (exit 2, one line)', async (args, words) => {
    capture();
    const code = await main(['simulate', ...args]);
    expect(code).toBe(2);
    expect(err).toContain(words);
    expect(err.trim().split('\n')).toHaveLength(1);
  });
});
