/**
 * A folder of runs, as `atlevel inputs`, `atlevel ingest` and `atlevel analyze`/`status` read it,
 * the three agreeing (src/sources/runs.ts):
 *  - a folder of two whole must-gathers (`must-gather.local.111/<image>/…`, `must-gather.local.222/…`)
 *    is two runs: inputs lists both, ingest takes each, analyze and status refuse the folder (exit 2,
 *    one line: a folder of 2 runs, name one), as they refuse a folder of CI runs of two clusters;
 *  - one must-gather is one run named by its own folder (`must-gather.local.NNN/`, or the folder
 *    named), whether it was taken with one image (one `<image>/` folder) or several;
 *  - a symbolic link loop beside runs is skipped with a note naming it, by all three; a loop inside a
 *    run's own files is still that run's error.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandInputs } from '../../src/ingest/index.js';
import { loadHistoryParts, planInput, readServedExtras } from '../../src/sources/index.js';
import { inProcessCli } from '../helpers/cli.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';

const synthetic = join(projectRoot, 'test/fixtures/sources/must-gathers');
const example = join(projectRoot, 'examples/bug-2019850');
const MG = 'openshift__must-gather-clean/test/files/extracted-subset';
const cli = inProcessCli('folder-of-runs');

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-folder-of-runs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The runs of a folder as `inputs` plans them, as ingest's plan has them, and as ingest expands them. */
async function runsOf(folder: string): Promise<string[]> {
  const [plan, runsOnly] = await Promise.all([planInput(folder), planInput(folder, { runsOnly: true })]);
  const ingested = await expandInputs([folder]);
  expect(runsOnly.runs).toEqual(plan.runs);
  expect(ingested.map((r) => r.source)).toEqual(plan.runs.map((r) => r.source));
  return plan.runs.map((r) => r.source);
}

/** One line on stderr, exit 2: what analyze and status say of a folder of runs from two clusters. */
async function refused(command: string, folder: string): Promise<string> {
  cli.clearStderr();
  const r = await cli.run(command, folder);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  const lines = cli.stderr().trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toMatch(/\n\s+at /);
  return lines[0] ?? '';
}

describe('a folder of two whole must-gathers (synthetic)', () => {
  const two = join(synthetic, 'two');
  const gathers = { a: join(two, 'must-gather.local.111'), b: join(two, 'must-gather.local.222') };

  it('is two runs for inputs and ingest, each named by its must-gather folder, as when given alone', async () => {
    expect(await runsOf(two)).toEqual([gathers.a, gathers.b]);
    expect(await runsOf(gathers.a)).toEqual([gathers.a]);
  });

  it('wrapped in one `must-gather*` folder (case/must-gather/…), still two runs', async () => {
    const wrapped = join(dir, 'case');
    cpSync(two, join(wrapped, 'must-gather'), { recursive: true });
    const inner = join(wrapped, 'must-gather');
    expect(await runsOf(wrapped)).toEqual([
      join(inner, 'must-gather.local.111'),
      join(inner, 'must-gather.local.222'),
    ]);
  });

  it.each([['analyze'], ['status']])(
    '%s refuses it: exit 2, a folder of 2 runs, name one',
    async (command) => {
      const line = await refused(command, two);
      expect(line).toBe(
        `atlevel: ${two}: a folder of 2 runs, from two clusters (must-gather.local.222: clusterID 22222222-2222-4222-8222-222222222222; must-gather.local.111: clusterID 11111111-1111-4111-8111-111111111111) (name one run: atlevel inputs ${two} lists them, atlevel ingest takes each)`,
      );
    },
  );

  it('each run alone is read', async () => {
    const parts = await loadHistoryParts([join(two, 'must-gather.local.222')], { now: Date.now() });
    expect(parts.objects.clusterVersions).toHaveLength(1);
  });
});

describe('one must-gather taken with several images (synthetic)', () => {
  const several = join(synthetic, 'several-images');
  const mg = join(several, 'must-gather.local.333');

  it('is one run, given itself or in the folder holding it', async () => {
    expect(await runsOf(mg)).toEqual([mg]);
    expect(await runsOf(several)).toEqual([several]);
  });

  it('analyze reads both image folders as one input', async () => {
    const parts = await loadHistoryParts([mg], { now: Date.now() });
    const files = parts.inputs.map((i) => i.path);
    expect(files.some((f) => f.includes('sha256-cccc/'))).toBe(true);
    expect(files.some((f) => f.includes('sha256-dddd/'))).toBe(true);
  });

  it('beside another whole must-gather: two runs, the several-image one whole', async () => {
    const both = join(dir, 'both');
    cpSync(mg, join(both, 'must-gather.local.333'), { recursive: true });
    cpSync(join(synthetic, 'two/must-gather.local.111'), join(both, 'must-gather.local.111'), {
      recursive: true,
    });
    expect(await runsOf(both)).toEqual([
      join(both, 'must-gather.local.111'),
      join(both, 'must-gather.local.333'),
    ]);
  });
});

describe('one must-gather taken with one image (synthetic): the same rule as with several', () => {
  const holder = join(synthetic, 'one-image');
  const mg = join(holder, 'must-gather.local.444');
  const imageName = 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-4444';
  const image = join(mg, imageName);

  it('is one run named by the folder named: the must-gather, the folder holding it, or the image folder', async () => {
    expect(await runsOf(mg)).toEqual([mg]);
    expect(await runsOf(holder)).toEqual([holder]);
    expect(await runsOf(image)).toEqual([image]);
  });

  it('inputs says so in text and JSON; its files are named inside the must-gather', async () => {
    const text = await cli.run('inputs', mg);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`  runs: 1\n    ${mg}  folder\n`);
    const json = await cli.run('inputs', mg, '-o', 'json');
    const [plan] = (JSON.parse(json.out) as { inputs: { runs: unknown; claimed: { path: string }[] }[] })
      .inputs;
    expect(plan?.runs).toEqual([{ source: mg, kind: 'folder' }]);
    expect(plan?.claimed.map((c) => c.path)).toEqual([
      `${imageName}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml`,
    ]);
  });

  it('analyze reads it as one must-gather, named by its folder', async () => {
    cli.clearStderr();
    const r = await cli.run('analyze', mg);
    expect([0, 1, 4]).toContain(r.code);
    expect(cli.stderr()).toContain(`${mg}: read as must-gather`);
    const parts = await loadHistoryParts([mg], { now: Date.now() });
    expect(parts.objects.clusterVersions).toHaveLength(1);
  });

  it('a file a layout reads at its top is part of the run, as with several images (not beside runs)', async () => {
    const copy = join(dir, 'one-image-stray/must-gather.local.444');
    cpSync(mg, copy, { recursive: true });
    const stray = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stray', namespace: 'x' } };
    writeFileSync(join(copy, 'stray.json'), JSON.stringify(stray));
    const plan = await planInput(copy);
    expect(plan.runs).toEqual([{ source: copy, kind: 'folder' }]);
    expect(plan.ignored.map((i) => i.why)).not.toContain('a file beside runs, not a run');
    expect(plan.notes.join('\n')).not.toContain('beside runs');
  });

  it('beside another whole must-gather: two runs, each named by its must-gather folder', async () => {
    const both = join(dir, 'one-and-several');
    cpSync(mg, join(both, 'must-gather.local.444'), { recursive: true });
    cpSync(join(synthetic, 'several-images/must-gather.local.333'), join(both, 'must-gather.local.333'), {
      recursive: true,
    });
    expect(await runsOf(both)).toEqual([
      join(both, 'must-gather.local.333'),
      join(both, 'must-gather.local.444'),
    ]);
  });
});

describe('a folder of symbolic links to must-gathers', () => {
  it('is one run for each, named by its link, whether taken with one image or several', async () => {
    const links = join(dir, 'links-to-must-gathers');
    mkdirSync(links);
    symlinkSync(join(synthetic, 'one-image/must-gather.local.444'), join(links, 'a'));
    symlinkSync(join(synthetic, 'several-images/must-gather.local.333'), join(links, 'b'));
    expect(await runsOf(links)).toEqual([join(links, 'a'), join(links, 'b')]);
    // A link to an image folder is the run it leads to: no part of the folder holding the link.
    const holder = join(dir, 'link-to-an-image');
    mkdirSync(holder);
    const image = join(
      synthetic,
      'one-image/must-gather.local.444/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-4444',
    );
    symlinkSync(image, join(holder, 'image'));
    expect(await runsOf(holder)).toEqual([join(holder, 'image')]);
  });
});

describe('a folder of CI runs from two clusters', () => {
  it.each([['analyze'], ['status']])('%s says the same as of a folder of must-gathers', async (command) => {
    const runs = join(dir, `ci-runs-${command}`);
    cpSync(example, join(runs, 'run-1'), { recursive: true });
    cpSync(example, join(runs, 'run-2'), { recursive: true });
    const cv = join(runs, 'run-2/artifacts/e2e-aws-upgrade/gather-extra/artifacts/clusterversion.json');
    writeFileSync(
      cv,
      readFileSync(cv, 'utf8').replace('6ad1aabd-35a4-413e-a763-4c1c0e78d983', 'another-cluster'),
    );
    expect(await runsOf(runs)).toEqual([join(runs, 'run-1'), join(runs, 'run-2')]);
    const line = await refused(command, runs);
    expect(line).toMatch(
      new RegExp(
        `^atlevel: ${runs}: a folder of 2 runs, from two clusters \\(run-\\d: clusterID [-a-z0-9]+; run-\\d: clusterID [-a-z0-9]+\\) \\(name one run: `,
      ),
    );
  });
});

describeFixtures('real must-gathers (openshift/must-gather-clean) in a folder of runs', () => {
  const image = (name: string) => {
    const mg = fixture(MG, `must-gather-${name}`);
    const [only] = readdirSync(mg).filter((n) => n.startsWith('quay-io-'));
    return { mg, image: only ?? '' };
  };

  it('two whole must-gathers of two clusters: two runs; analyze and status refuse the folder with one line', async () => {
    const folder = join(dir, 'real-two');
    const aws = image('aws');
    const metal = image('metal');
    cpSync(aws.mg, join(folder, 'must-gather.local.111'), { recursive: true });
    cpSync(metal.mg, join(folder, 'must-gather.local.222'), { recursive: true });
    writeFileSync(join(folder, 'must-gather.local.111/timestamp'), 'x\n');
    expect(await runsOf(folder)).toEqual([
      join(folder, 'must-gather.local.111'),
      join(folder, 'must-gather.local.222'),
    ]);
    for (const command of ['analyze', 'status']) {
      const line = await refused(command, folder);
      expect(line).toContain(`${folder}: a folder of 2 runs, from two clusters (`);
      expect(line).toContain('96eb6c40-16e8-4718-ade6-5d7c6f05e120');
      expect(line).toContain('1d754610-c657-4a11-ad51-733c3196dc6c');
    }
  });

  it('a real must-gather with its one image folder is one run named by its folder; serve reads the same objects', async () => {
    const aws = image('aws');
    expect(await runsOf(aws.mg)).toEqual([aws.mg]);
    const text = await cli.run('inputs', aws.mg);
    expect(text.out).toContain(`  runs: 1\n    ${aws.mg}  folder\n`);
    const [plan] = (
      JSON.parse((await cli.run('inputs', aws.mg, '-o', 'json')).out) as { inputs: { runs: unknown }[] }
    ).inputs;
    expect(plan?.runs).toEqual([{ source: aws.mg, kind: 'folder' }]);
    // analyze and status of the must-gather say what they say of its image folder.
    const same = (text: string) => text.split(join(aws.mg, aws.image)).join(aws.mg);
    for (const command of ['analyze', 'status']) {
      const whole = await cli.run(command, aws.mg);
      const inner = await cli.run(command, join(aws.mg, aws.image));
      expect(whole.code, command).toBe(inner.code);
      expect(whole.out.length, command).toBeGreaterThan(0);
      expect(same(whole.out), command).toBe(same(inner.out));
    }
    // serve of the must-gather serves what serve of its image folder does.
    const [whole, inner] = await Promise.all([
      readServedExtras([aws.mg]),
      readServedExtras([join(aws.mg, aws.image)]),
    ]);
    expect(whole.objects.length).toBeGreaterThan(0);
    expect(whole.objects.length).toBe(inner.objects.length);
  });

  it('a real must-gather, alone or with a second image folder of the same cluster, is one run', async () => {
    const aws = image('aws');
    expect(await runsOf(aws.mg)).toEqual([aws.mg]);
    const mg = join(dir, 'real-several/must-gather.local.444');
    cpSync(aws.mg, mg, { recursive: true });
    cpSync(join(aws.mg, aws.image), join(mg, 'quay-io-example-second-image-sha256-eeee'), {
      recursive: true,
    });
    expect(await runsOf(mg)).toEqual([mg]);
    expect(await runsOf(join(dir, 'real-several'))).toEqual([join(dir, 'real-several')]);
    const parts = await loadHistoryParts([mg], { now: Date.now() });
    expect(parts.inputs.some((i) => i.path.includes('second-image'))).toBe(true);
  });
});

describe('a symbolic link loop beside runs', () => {
  function folderWithLoops(name: string): string {
    const runs = join(dir, name);
    mkdirSync(runs);
    cpSync(example, join(runs, 'a'), { recursive: true });
    symlinkSync(join(runs, 'loop-b'), join(runs, 'loop-a'));
    symlinkSync(join(runs, 'loop-a'), join(runs, 'loop-b'));
    symlinkSync('.', join(runs, 'self'));
    return runs;
  }

  it('inputs, ingest and the loader skip it with a note naming it', async () => {
    const runs = folderWithLoops('loops');
    const [plan, runsOnly] = await Promise.all([planInput(runs), planInput(runs, { runsOnly: true })]);
    const notes: string[] = [];
    const ingested = await expandInputs([runs], undefined, (n) => notes.push(n));
    expect(plan.runs.map((r) => r.source)).toEqual([join(runs, 'a')]);
    expect(ingested.map((r) => r.source)).toEqual([join(runs, 'a')]);
    const parts = await loadHistoryParts([runs], { now: Date.now() });
    expect(parts.inputs.every((i) => i.path.startsWith(join(runs, 'a/')))).toBe(true);
    // serve lists the folder as the loader does: past the loops, serving what the plan says.
    // (A CI run serves nothing as it is: it used to throw the loop here.)
    expect(plan.served).toEqual([]);
    await expect(readServedExtras([runs])).resolves.toMatchObject({ objects: [] });
    for (const [link, why] of [
      ['loop-a', 'symlink loop'],
      ['loop-b', 'symlink loop'],
      ['self', 'symbolic link back to a folder above it'],
    ] as const) {
      const note = `${join(runs, link)}: ${why}`;
      for (const said of [plan.notes, runsOnly.notes, notes, parts.notes])
        expect(
          said.filter((n) => n.startsWith(note)),
          link,
        ).toHaveLength(1);
    }
  });

  it.each([['analyze'], ['status'], ['inputs']])(
    '%s of the folder works (analyze and inputs name the loop)',
    async (command) => {
      const runs = folderWithLoops(`loops-${command}`);
      cli.clearStderr();
      const r = await cli.run(command, runs);
      expect(r.code).not.toBe(2);
      expect(r.code).not.toBe(3);
      // status prints no loader notes: it reads the folder, which is what was refused.
      if (command === 'analyze') expect(cli.stderr()).toContain(`${join(runs, 'loop-a')}: symlink loop`);
      if (command === 'inputs') expect(r.out).toContain(`${join(runs, 'loop-a')}: symlink loop`);
    },
  );

  it('a loop inside a run is still that run’s error: analyze exits 2 naming it', async () => {
    const runs = join(dir, 'loop-inside');
    cpSync(example, join(runs, 'a'), { recursive: true });
    cpSync(example, join(runs, 'b'), { recursive: true });
    symlinkSync('..', join(runs, 'a/artifacts/up'));
    const line = await refused('analyze', runs);
    expect(line).toContain(`${join(runs, 'a/artifacts/up')}: symlink loop`);
  });
});
