import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { inProcessCli } from '../helpers/cli.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';

const EXAMPLES = 'openshift__oc/pkg/cli/admin/upgrade/status/examples';
const cli = inProcessCli('status', ['status']);
const { dir, run } = cli;

describeFixtures('atlevel status on oc examples', () => {
  it('exits 1 when an Error insight exists, and writes the versioned JSON', async () => {
    const { code, out } = await run(fixture(EXAMPLES, '4.14.1-degraded'), '-o', 'json');
    expect(code).toBe(1);
    const json = JSON.parse(out);
    expect(json.schemaVersion).toBe(1);
    expect(json.kind).toBe('AtlevelUpdateStatus');
    expect(json.controlPlane).toMatchObject({
      assessment: 'Stalled',
      completionPercent: 97,
      targetVersion: '4.14.1',
    });
    expect(json.controlPlane.operators).toMatchObject({ updated: 32, updating: 1, waiting: 0 });
    expect(json.updating).toBe(true);
    expect(
      json.pools.map((p: { name: string; updated: number; total: number }) => [p.name, p.updated, p.total]),
    ).toEqual([
      ['master', 0, 3],
      ['worker', 0, 3],
    ]);
  });

  it('exits 0 for an update with warnings only, and for no update', async () => {
    expect((await run(fixture(EXAMPLES, '4.14.1-paused-worker-pool'))).code).toBe(0);
    const idle = await run(fixture(EXAMPLES, 'not-upgrading'), '--width', '80');
    expect(idle.code).toBe(0);
    expect(idle.out).toContain('The cluster is not updating.');
  });

  it('--at rebuilds the cluster at that moment; --now is its alias', async () => {
    const { out } = await run(
      fixture(EXAMPLES, '4.14.1-paused-worker-pool'),
      '-o',
      'json',
      '--at',
      '2024-02-07T16:31:06Z',
    );
    const json = JSON.parse(out);
    expect(json.evaluatedAt).toBe('2024-02-07T16:31:06Z');
    expect(json.evaluatedAtSource).toBe('rewound');
    expect(json.controlPlane.durationSeconds).toBe(3);
    expect(json.unrewound.length).toBeGreaterThan(0);
    const alias = await run(
      fixture(EXAMPLES, '4.14.1-paused-worker-pool'),
      '-o',
      'json',
      '--now',
      '2024-02-07T16:31:06Z',
    );
    expect(JSON.parse(alias.out)).toEqual(json);
  });

  it("a moment outside the inputs' span is bad input", async () => {
    const { code } = await run(
      fixture(EXAMPLES, '4.14.1-paused-worker-pool'),
      '--now',
      '2024-02-07T17:31:09Z',
    );
    expect(code).toBe(2);
    expect(cli.stderr()).toContain(
      "2024-02-07T17:31:09Z is outside the inputs' span, 2024-02-07T15:59:57Z to 2024-02-07T16:31:09Z",
    );
  });

  it('--details=all lists every node and describes every insight', async () => {
    const { out } = await run(
      fixture(EXAMPLES, '4.14.1-paused-worker-pool'),
      '--details',
      'all',
      '--width',
      '200',
    );
    expect(out).toContain("Message: Outdated nodes in a paused pool 'worker' will not be updated");
    expect(out).toContain('  Description: Pool is paused, which stops all changes to the nodes in the pool');
  });
});

describe('status --at on examples/bug-2019850', () => {
  const BUG = join(projectRoot, 'examples/bug-2019850');
  it('03:23:25: Progressing, exit 0; 03:26:00: the completed-while-rolling Error, exit 1; --now is --at', async () => {
    // machine-config reported level at 03:23:19.114, the CVO completed at 03:23:32.585, the master
    // pool finished at 03:28:26.
    const early = await run(BUG, '--at', '2021-11-03T03:23:25Z', '-o', 'json');
    expect(early.code).toBe(0);
    expect(JSON.parse(early.out).controlPlane.assessment).toBe('Progressing');
    const late = await run(BUG, '--at', '2021-11-03T03:26:00Z');
    expect(late.code).toBe(1);
    expect(late.out).toContain('while pool master is still rolling out rendered config');
    expect(late.out).not.toContain('The cluster is not updating.');
    const alias = await run(BUG, '--now', '2021-11-03T03:26:00Z');
    expect(alias.code).toBe(1);
    expect(alias.out).toBe(late.out);
  });

  it('a time outside the inputs is bad input', async () => {
    expect((await run(BUG, '--at', '2021-11-04T00:00:00Z')).code).toBe(2);
  });

  it('before the pools were created, text and JSON say none existed yet, naming the first', async () => {
    // The simulated example's pools exist from its first moment; the reconstruction's install does not.
    const BUG = join(projectRoot, 'test/fixtures/reconstruction/bug-2019850');
    const note =
      'No MachineConfigPool existed yet at 2021-11-03T02:28:00Z (the first, master and worker, were created at 2021-11-03T02:30:45Z): node progress is unknown.';
    const json = await run(BUG, '--at', '2021-11-03T02:28:00Z', '-o', 'json');
    expect(JSON.parse(json.out).notes[0]).toBe(note);
    const text = await run(BUG, '--at', '2021-11-03T02:28:00Z', '--width', '400');
    expect(text.out).toContain(`Notes:\n- ${note}\n`);
    expect(text.out).not.toContain('has no MachineConfigPools');
  });
});

describeFixtures('inputs from two clusters', () => {
  const MG = 'openshift__must-gather-clean/test/files/extracted-subset';
  it.each([['status'], ['analyze']])(
    '%s refuses them with exit 2, naming both clusterIDs and files',
    async (command) => {
      const aws = fixture(MG, 'must-gather-aws');
      const metal = fixture(MG, 'must-gather-metal');
      const code = await main([command, aws, metal]);
      expect(code).toBe(2);
      const line = cli.stderr().trim();
      expect(line.split('\n')).toHaveLength(1);
      expect(line).toContain('96eb6c40-16e8-4718-ade6-5d7c6f05e120');
      expect(line).toContain('1d754610-c657-4a11-ad51-733c3196dc6c');
      expect(line).toContain(aws);
      expect(line).toContain(metal);
      expect(line).not.toMatch(/\n\s+at /);
    },
  );

  it.each([['status'], ['analyze']])(
    "%s refuses one folder that holds snapshots of several clusters (oc's examples)",
    async (command) => {
      const code = await main([command, fixture(EXAMPLES)]);
      expect(code).toBe(2);
      const line = cli.stderr().trim();
      expect(line.split('\n')).toHaveLength(1);
      // The first two ClusterVersions in reading order, each with its file.
      expect(line).toContain(`${fixture(EXAMPLES, '4.14.1-degraded-cv.yaml')} has clusterID fb4b77e5-`);
      expect(line).toContain(
        `${fixture(EXAMPLES, '4.14.1-paused-worker-pool-cv.yaml')}: its ClusterVersion has clusterID 4acee7ef-`,
      );
      expect(line).toContain('the inputs are from two clusters');
    },
  );

  it('one case of them, by its prefix, is one cluster', async () => {
    expect(await main(['status', fixture(EXAMPLES, '4.14.1-degraded'), '-o', 'json'])).toBe(1);
  });
});

describe('atlevel status on bad input exits 2', () => {
  it('a time that is not a time', async () => {
    const { code } = await run(join(projectRoot, 'test/fixtures/status/not-accepted'), '--now', 'yesterday');
    expect(code).toBe(2);
    expect(cli.stderr()).toContain('--now "yesterday" is not a time');
  });

  it('an unknown --details or output format, or a silly width', async () => {
    const path = join(projectRoot, 'test/fixtures/status/not-accepted');
    expect((await run(path, '--details', 'everything')).code).toBe(2);
    expect((await run(path, '-o', 'xml')).code).toBe(2);
    expect((await run(path, '--width', '12')).code).toBe(2);
  });

  it('a snapshot with no ClusterVersion names the path and the problem', async () => {
    const nodesOnly = join(dir, 'nodes-only');
    rmSync(nodesOnly, { recursive: true, force: true });
    mkdirSync(nodesOnly);
    writeFileSync(
      join(nodesOnly, 'nodes.yaml'),
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n',
    );
    const { code, out } = await run(nodesOnly);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(cli.stderr()).toMatch(/nodes-only: no ClusterVersion found/);
  });

  it('a path that does not exist', async () => {
    expect((await run(join(dir, 'missing'))).code).toBe(2);
    expect(
      cli
        .stderr()
        .split('\n')
        .filter((l) => l !== ''),
    ).toHaveLength(1);
  });
});
