/**
 * `atlevel diff` end to end, in-process: the bug-2019850 pair (test/fixtures/machineconfig), the
 * must-gathers through --from, two files, filters, exit codes, text and JSON output.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/cli.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';
import { skipNote } from '../helpers/skip.js';

const F = join(projectRoot, 'test/fixtures/machineconfig');
const CONFIGS = join(F, 'bug-2019850-machineconfigs.json');
const FROM = join(F, 'image-references-4.10.0-0.nightly-2021-11-02-191632.json');
const TO = join(F, 'image-references-4.10.0-0.nightly-2021-11-03-020416.json');
const OLD_POD =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639';
const NEW_POD =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb';

const cli = inProcessCli('diff');
const { dir, run } = cli;

interface DiffJson {
  schemaVersion: number;
  from: string;
  to: string;
  identical: boolean;
  selection?: { mode: string; pool?: string; at?: string };
  summary: { changes: number; components: string[] };
  changes: {
    part: string;
    name: string;
    change: string;
    changedLines?: unknown[];
    images?: unknown[];
    textDiff?: string;
  }[];
}

describe('atlevel diff: the bug-2019850 example', () => {
  it('--pool master names exactly one change, kubelet.service, component pod', async () => {
    const { code, out } = await run(
      'diff',
      '--pool',
      'master',
      '--from',
      CONFIGS,
      '--release-from',
      FROM,
      '--release-to',
      TO,
      '-o',
      'json',
    );
    expect(code).toBe(1);
    const d = JSON.parse(out) as DiffJson;
    expect(d.schemaVersion).toBe(1);
    expect(d.from).toBe('rendered-master-78d48a9fbc8ba6a746040c11f8335d1a');
    expect(d.to).toBe('rendered-master-ebc4fc8c7b6a155d86684204394e4930');
    expect(d.selection).toEqual({ mode: 'pool', pool: 'master' });
    expect(d.changes).toHaveLength(1);
    const [c] = d.changes;
    expect(c).toMatchObject({ part: 'units', name: 'kubelet.service', change: 'modified' });
    expect(c?.changedLines).toEqual([
      {
        before: `      --pod-infra-container-image=${OLD_POD} \\`,
        after: `      --pod-infra-container-image=${NEW_POD} \\`,
      },
    ]);
    expect(c?.images).toEqual([{ before: OLD_POD, after: NEW_POD, component: 'pod' }]);
    expect(c?.textDiff?.split('\n')[0]).toBe('@@ -31,7 +31,7 @@');
    expect(d.summary).toEqual({ changes: 1, byPart: { units: 1 }, components: ['pod'] });
  });

  it('text output: grouped by part, diff -u inside, the component named', async () => {
    const { code, out } = await run(
      'diff',
      '--pool',
      'master',
      '--from',
      CONFIGS,
      '--release-from',
      FROM,
      '--release-to',
      TO,
    );
    expect(code).toBe(1);
    const lines = out.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'pool master: the two newest of 2 rendered configs',
      'from rendered-master-78d48a9fbc8ba6a746040c11f8335d1a, created 2021-11-03T02:30:53Z, controller b33c7f6a2b9e, Ignition 3.2.0',
      'to   rendered-master-ebc4fc8c7b6a155d86684204394e4930, created 2021-11-03T03:23:11Z, controller b33c7f6a2b9e, Ignition 3.2.0',
      '1 change: systemd units 1',
      'release components: pod',
      '',
    ]);
    expect(lines).toContain('systemd units');
    expect(lines).toContain('~ kubelet.service modified: 42 lines → 42 lines');
    expect(lines).toContain(`    -      --pod-infra-container-image=${OLD_POD} \\`);
    expect(lines).toContain(`    +      --pod-infra-container-image=${NEW_POD} \\`);
    expect(lines).toContain('      pod: sha256:ef6684475a8f… → sha256:0adaefcf3675…');
    expect(out).not.toContain('\u001b[');
  });

  it('with only the older release, the new image is not named after the one it replaced', async () => {
    const { code, out } = await run(
      'diff',
      '--pool',
      'master',
      '--from',
      CONFIGS,
      '--release-from',
      FROM,
      '-o',
      'json',
    );
    expect(code).toBe(1);
    const d = JSON.parse(out) as DiffJson;
    expect(d.changes[0]?.images).toEqual([{ before: OLD_POD, after: NEW_POD, replaced: 'pod' }]);
    expect(d.summary.components).toEqual([]);
    const text = await run('diff', '--pool', 'master', '--from', CONFIGS, '--release-from', FROM);
    expect(text.out).toContain(`      (in no release given; it replaced pod): ${OLD_POD} →`);
    expect(text.out).not.toContain('release components: pod');
  });

  it('without release info the digests are still listed, with a hint', async () => {
    const { code, out } = await run('diff', '--pool', 'worker', '--from', CONFIGS);
    expect(code).toBe(1);
    expect(out).toContain(
      'images changed; pass --release-from and --release-to to name their release components',
    );
    // Two whole pull specs are wider than a pipe's 200 columns: the line breaks between them.
    expect(out).toContain(`      image: ${OLD_POD} →\n        ${NEW_POD}`);
    const wide = await run('diff', '--pool', 'worker', '--from', CONFIGS, '--width', '1000');
    expect(wide.out).toContain(`      image: ${OLD_POD} → ${NEW_POD}`);
  });

  it('--at picks the config in effect then and the next one', async () => {
    const { code, out } = await run(
      'diff',
      '--pool',
      'master',
      '--at',
      '2021-11-03T03:23:10Z',
      '--from',
      CONFIGS,
      '-o',
      'json',
    );
    expect(code).toBe(1);
    expect((JSON.parse(out) as DiffJson).selection).toEqual({
      mode: 'pool-at',
      pool: 'master',
      at: '2021-11-03T03:23:10Z',
    });
    const late = await run('diff', '--pool', 'master', '--at', '2021-11-03T04:00:00Z', '--from', CONFIGS);
    expect(late.code).toBe(2);
    expect(cli.stderr()).toContain('pool master has no rendered config created after 2021-11-03T04:00:00Z');
  });

  it('takes unique name prefixes; a config against itself is identical (exit 0)', async () => {
    const same = await run(
      'diff',
      'rendered-master-78d4',
      'rendered-master-78d48a9fbc8ba6a746040c11f8335d1a',
      '--from',
      CONFIGS,
    );
    expect(same.code).toBe(0);
    expect(same.out).toContain('identical');
    const ambiguous = await run('diff', 'rendered-', 'rendered-master-78d4', '--from', CONFIGS);
    expect(ambiguous.code).toBe(2);
    expect(cli.stderr()).toMatch(/"rendered-" matches 4 MachineConfigs/);
  });

  it('filters: outside --only or --path the configs are identical', async () => {
    expect((await run('diff', '--pool', 'master', '--from', CONFIGS, '--only', 'files,kargs,os')).code).toBe(
      0,
    );
    const byPath = await run('diff', '--pool', 'master', '--from', CONFIGS, '--path', '/etc/**');
    expect(byPath.code).toBe(0);
    expect(byPath.out).toContain('identical (within --path /etc/**)');
    expect((await run('diff', '--pool', 'master', '--from', CONFIGS, '--path', 'kubelet.*')).code).toBe(1);
  });

  it('bad input and usage exit 2 with one line', async () => {
    expect((await run('diff', '--pool', 'infra', '--from', CONFIGS)).code).toBe(2);
    expect(cli.stderr()).toContain(
      'no rendered config of pool "infra" (pools with rendered configs: master, worker)',
    );
    expect((await run('diff', '--pool', 'master', '--from', CONFIGS, '--only', 'bogus')).code).toBe(2);
    expect((await run('diff', 'a.yaml')).code).toBe(2);
    expect((await run('diff', '--pool', 'master')).code).toBe(2);
    expect((await run('diff', join(dir, 'missing.yaml'), CONFIGS)).code).toBe(2);
    expect(cli.stderr()).toContain('missing.yaml: no such file');
  });
});

describeFixtures('atlevel diff on the must-gathers', () => {
  const mg = () => {
    const root = fixture('openshift__must-gather-clean/test/files/extracted-subset/must-gather-aws');
    return join(root, readdirSync(root)[0]!);
  };

  it('names found with --from in a must-gather tree', async () => {
    const { code, out } = await run('diff', '00-master', '00-worker', '--from', mg(), '-o', 'json');
    expect(code).toBe(1);
    const d = JSON.parse(out) as DiffJson;
    expect(d.changes.map((c) => `${c.change} ${c.name}`)).toEqual([
      'removed /etc/kubernetes/apiserver-url.env',
      'removed /usr/local/bin/recover-kubeconfig.sh',
      'removed rpm-ostreed.service',
      'removed rpm-ostreed.service/mco-controlplane-nice.conf',
    ]);
  });

  it('two files', async () => {
    const mcs = join(mg(), 'cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigs');
    const { code, out } = await run(
      'diff',
      join(mcs, '01-master-kubelet.yaml'),
      join(mcs, '01-worker-kubelet.yaml'),
      '--only',
      'units',
    );
    expect(code).toBe(1);
    expect(out).toContain('1 change (within --only units,dropins): systemd units 1');
    expect(out).toContain('    --- 01-master-kubelet:kubelet.service');
  });
});

const EXAMPLE = join(projectRoot, 'examples/bug-2019850');

describe.skipIf(!existsSync(EXAMPLE))(
  `atlevel diff on the bundled examples/bug-2019850 run${skipNote(existsSync(EXAMPLE) ? undefined : 'examples/bug-2019850 not found')}`,
  () => {
    const release = (side: string) => join(EXAMPLE, 'release', `release-${side}.json`);

    it('--path kubelet.service: exactly one change, the pause image, component pod', async () => {
      const { code, out } = await run(
        'diff',
        '--pool',
        'master',
        '--from',
        EXAMPLE,
        '--release-from',
        release('from'),
        '--release-to',
        release('to'),
        '--path',
        'kubelet.service',
        '-o',
        'json',
      );
      expect(code).toBe(1);
      const d = JSON.parse(out) as DiffJson;
      expect(d.changes).toHaveLength(1);
      expect(d.changes[0]).toMatchObject({
        part: 'units',
        name: 'kubelet.service',
        images: [{ before: OLD_POD, after: NEW_POD, component: 'pod' }],
      });
    });

    it('unfiltered, every changed image is the pod image (kubelet.service and CRI-O pause_image)', async () => {
      const { out } = await run('diff', '--pool', 'master', '--from', EXAMPLE, '-o', 'json');
      const d = JSON.parse(out) as DiffJson;
      expect(d.summary.components).toEqual(['pod']);
      for (const c of d.changes)
        expect(c.images).toEqual([{ before: OLD_POD, after: NEW_POD, component: 'pod' }]);
    });
  },
);
