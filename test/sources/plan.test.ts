/**
 * An input's plan (src/sources/plan.ts, `atlevel inputs`): for each layout kind, what it says the
 * argument is, which files are claimed and by which kind, served as they are and ignored, and the
 * runs it holds; and that the loader, serve's extras and ingest do exactly what it says.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandInputs } from '../../src/ingest/index.js';
import type { InputPlan } from '../../src/model/index.js';
import { inputsText } from '../../src/report/inputs-text.js';
import { eachRunFile, loadHistoryParts, planInput, readServedExtras } from '../../src/sources/index.js';
import { ignoredFiles, planListing, servedFiles } from '../../src/sources/planning.js';
import { inProcessCli } from '../helpers/cli.js';
import { FakeGcs } from '../helpers/fake-gcs.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';
import { putBug2019850Run, runUrls } from '../helpers/prow-run.js';

const example = join(projectRoot, 'examples/bug-2019850');
const fixtures = join(projectRoot, 'test/fixtures/sources');
const mustGather = join(fixtures, 'must-gather');
const GATHER = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-plan-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function claimed(plan: InputPlan): Record<string, string> {
  return Object.fromEntries(plan.claimed.map((c) => [c.path, `${c.reader}${c.kind ? ` ${c.kind}` : ''}`]));
}

function layoutOf(plan: InputPlan, path: string): string | undefined {
  return plan.claimed.find((c) => c.path === path)?.layout;
}

describe('the plan of each kind of input', () => {
  it('a CI run folder: the CI layout, each gather-extra file by its kind, the README ignored, 1 run', async () => {
    const plan = await planInput(example);
    expect(plan.is).toBe('folder');
    expect(plan.layouts[0]).toBe('CI run');
    expect(claimed(plan)).toMatchObject({
      [`${GATHER}/clusteroperators.json`]: 'gather-extra ClusterOperator',
      [`${GATHER}/clusterversion.json`]: 'gather-extra ClusterVersion',
      [`${GATHER}/machineconfigs.json`]: 'gather-extra MachineConfig',
      'build-log.txt': 'build-log',
    });
    expect(layoutOf(plan, 'build-log.txt')).toBe('CI run');
    expect(layoutOf(plan, 'release/release-to.json')).toBe('other YAML/JSON');
    expect(plan.served).toEqual([]);
    expect(plan.ignored).toEqual([{ path: 'README.md', why: 'no layout reads it' }]);
    expect(plan.runs).toEqual([{ source: example, kind: 'folder' }]);
  });

  it('a must-gather: resources by kind, an unmodelled kind served as-is, its own files ignored as part of it', async () => {
    const plan = await planInput(mustGather);
    const root = 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123';
    expect(plan.layouts).toEqual(['must-gather']);
    expect(claimed(plan)).toMatchObject({
      [`${root}/cluster-scoped-resources/core/nodes/master-0.yaml`]: 'must-gather Node',
      [`${root}/namespaces/openshift-machine-config-operator/policy/poddisruptionbudgets.yaml`]:
        'must-gather PodDisruptionBudget',
      [`${root}/monitoring/alerts.json`]: 'alerts',
    });
    expect(plan.served).toEqual([
      { path: `${root}/cluster-scoped-resources/config.openshift.io/consoles/cluster.yaml`, as: 'objects' },
    ]);
    expect(plan.ignored).toEqual([
      { path: `${root}/timestamp`, why: 'part of the must-gather, not read' },
      { path: `${root}/version`, why: 'part of the must-gather, not read' },
    ]);
    // One run, named by the must-gather's folder as one taken with several images is.
    expect(plan.runs).toEqual([{ source: mustGather, kind: 'folder' }]);
  });

  it('a folder of oc get files: each read by content, the README ignored', async () => {
    const plan = await planInput(join(fixtures, 'oc-get'));
    expect(plan.layouts).toEqual(['oc get files']);
    expect(Object.keys(claimed(plan))).toEqual(['cluster.yaml', 'node-worker-0.yml', 'operators.json']);
    expect(plan.ignored.map((i) => i.path)).toEqual(['README.txt']);
    expect(plan.runs).toHaveLength(1);
  });

  it('an oc examples case by its prefix: each file by its kind, one run of kind case', async () => {
    const prefix = join(fixtures, 'oc-example/case');
    const plan = await planInput(prefix);
    expect(plan.is).toBe('oc examples case');
    expect(claimed(plan)).toEqual({
      'case-alerts.json': 'alerts',
      'case-co.yaml': 'oc-example ClusterOperator',
      'case-cv.yaml': 'oc-example ClusterVersion',
      'case-mc.yaml': 'oc-example MachineConfig',
      'case-mcp.yaml': 'oc-example MachineConfigPool',
      'case-node.yaml': 'oc-example Node',
    });
    expect(plan.runs).toEqual([{ source: prefix, kind: 'case' }]);
    // ingest takes the case as one run, and names it by the same files.
    expect(await expandInputs([prefix])).toEqual([{ source: prefix, kind: 'case' }]);
    const files: string[] = [];
    await eachRunFile({ source: prefix, kind: 'case' }, async (rel, _size, bytes) => {
      for await (const _ of bytes);
      files.push(rel);
    });
    expect(files.sort()).toEqual(Object.keys(claimed(plan)));
  });

  it('a tarball: the same claims as its folder, under the folder name; one archive run; nothing served', async () => {
    const tgz = join(dir, 'run.tar.gz');
    await create({ file: tgz, gzip: true, cwd: join(projectRoot, 'examples') }, ['bug-2019850']);
    const [folder, archive] = await Promise.all([planInput(example), planInput(tgz)]);
    expect(archive.is).toBe('archive');
    expect(archive.layouts).toEqual(folder.layouts);
    expect(archive.claimed).toEqual(folder.claimed.map((c) => ({ ...c, path: `bug-2019850/${c.path}` })));
    expect(archive.runs).toEqual([{ source: tgz, kind: 'archive' }]);
    expect(archive.served).toEqual([]);
  });

  it('a folder of runs with a stray file: each run; the stray file ignored with its reason by inputs, ingest and analyze', async () => {
    const runs = join(dir, 'runs');
    cpSync(example, join(runs, 'run-1'), { recursive: true });
    cpSync(example, join(runs, 'run-2'), { recursive: true });
    // A snapshot a layout would read (a ClusterVersion), left at the top, beside the runs.
    const stray = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'config.openshift.io/v1', kind: 'ClusterVersion', metadata: { name: 'version' } },
      ],
    };
    writeFileSync(join(runs, 'snapshot.json'), JSON.stringify(stray));
    const note = `${join(runs, 'snapshot.json')}: a file beside runs, not a run: skipped`;
    const why = { path: 'snapshot.json', why: 'a file beside runs, not a run' };
    const [plan, runsOnly] = await Promise.all([planInput(runs), planInput(runs, { runsOnly: true })]);
    expect(plan.runs.map((r) => r.source)).toEqual([join(runs, 'run-1'), join(runs, 'run-2')]);
    expect(plan.claimed.map((c) => c.path)).not.toContain('snapshot.json');
    expect(plan.ignored).toContainEqual(why);
    expect(plan.notes).toContain(note);
    // ingest's plan (runs only) says the same of it, and stores exactly the plan's runs.
    expect(runsOnly.ignored).toEqual([why]);
    expect(runsOnly.notes).toEqual([note]);
    const notes: string[] = [];
    expect((await expandInputs([runs], undefined, (n) => notes.push(n))).map((r) => r.source)).toEqual(
      plan.runs.map((r) => r.source),
    );
    expect(notes).toEqual([note]);
    // analyze of the whole folder reads the claimed files, not the stray one, and says why.
    const parts = await loadHistoryParts([runs], { now: Date.now() });
    expect(parts.inputs.map((i) => i.path)).not.toContain(join(runs, 'snapshot.json'));
    expect(parts.notes).toContain(note);
    for (const i of parts.inputs) expect(plan.claimed.map((c) => join(runs, c.path))).toContain(i.path);
  });

  it('oc get files beside a link to a folder of oc get files elsewhere: the linked folder stays a run of its own', async () => {
    const elsewhere = join(dir, 'ocget-elsewhere');
    mkdirSync(elsewhere);
    cpSync(join(fixtures, 'oc-get/operators.json'), join(elsewhere, 'operators.json'));
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    cpSync(join(fixtures, 'oc-get/cluster.yaml'), join(mixed, 'cluster.yaml'));
    symlinkSync(elsewhere, join(mixed, 'linked'));
    const plan = await planInput(mixed, { runsOnly: true });
    expect(plan.runs).toEqual([{ source: join(mixed, 'linked'), kind: 'folder', real: elsewhere }]);
    expect(plan.ignored).toEqual([{ path: 'cluster.yaml', why: 'a file beside runs, not a run' }]);
  });

  it('a folder of links to runs outside it, with a stray file: ingest takes the runs and skips the file; analyze, which follows no link out of it, reads the file, and the claims say so', async () => {
    const outside = join(dir, 'elsewhere');
    cpSync(example, join(outside, 'run-1'), { recursive: true });
    const links = join(dir, 'links-out');
    mkdirSync(links);
    symlinkSync(join(outside, 'run-1'), join(links, 'run-1'));
    const snapshot = {
      apiVersion: 'v1',
      kind: 'List',
      items: [{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }],
    };
    writeFileSync(join(links, 'snapshot.json'), JSON.stringify(snapshot));
    const [plan, runsOnly] = await Promise.all([planInput(links), planInput(links, { runsOnly: true })]);
    expect(runsOnly.runs.map((r) => r.source)).toEqual([join(links, 'run-1')]);
    expect(runsOnly.ignored).toEqual([{ path: 'snapshot.json', why: 'a file beside runs, not a run' }]);
    expect(plan.runs).toEqual(runsOnly.runs);
    expect(plan.claimed.map((c) => c.path)).toEqual(['snapshot.json']);
    const parts = await loadHistoryParts([links], { now: Date.now() });
    expect(parts.inputs.map((i) => i.path)).toEqual([join(links, 'snapshot.json')]);
  });

  it('links out of a folder of runs into what cannot be read (/, a FIFO, dangling, a loop): inputs, ingest and analyze all work; one note names each, the runs are listed', async () => {
    // `inputs` and ingest follow links to folders out of the folder (a folder of links to runs);
    // a link to `/` used to walk the whole file system until /proc refused it, and fail the listing.
    const outside = join(dir, 'unreadable-outside');
    mkdirSync(outside);
    cpSync(example, join(outside, 'b'), { recursive: true });
    execFileSync('mkfifo', [join(outside, 'fifo')]);
    symlinkSync(join(outside, 'loop-b'), join(outside, 'loop-a'));
    symlinkSync(join(outside, 'loop-a'), join(outside, 'loop-b'));
    symlinkSync(join(outside, 'nowhere'), join(outside, 'dangling'));
    symlinkSync('..', join(outside, 'up'));
    const runs = join(dir, 'unreadable-runs');
    mkdirSync(runs);
    cpSync(example, join(runs, 'a'), { recursive: true });
    symlinkSync('/', join(runs, 'root'));
    symlinkSync(outside, join(runs, 'out'));
    symlinkSync(join(outside, 'fifo'), join(runs, 'fifo'));
    symlinkSync(join(outside, 'gone'), join(runs, 'dangling'));
    // Root reads any folder; anyone else gets the permission denied that root does not.
    const closed = process.getuid?.() !== 0;
    if (closed) {
      mkdirSync(join(outside, 'closed'));
      chmodSync(join(outside, 'closed'), 0);
    }
    try {
      const [plan, runsOnly] = await Promise.all([planInput(runs), planInput(runs, { runsOnly: true })]);
      const expected = [
        { source: join(runs, 'a'), kind: 'folder' },
        { source: join(runs, 'out/b'), kind: 'folder' },
      ];
      expect(runsOnly.runs).toEqual(expected);
      expect(plan.runs).toEqual(expected);
      const problems: [string, RegExp][] = [
        ['root', /symbolic link back to a folder above it/],
        ['dangling', /dangling symbolic link/],
        ['out/dangling', /dangling symbolic link/],
        ['out/loop-a', /symlink loop/],
        ['out/loop-b', /symlink loop/],
        ['out/up', /symbolic link back to a folder above it/],
        ...(closed ? [['out/closed', /permission denied/] as [string, RegExp]] : []),
      ];
      for (const [path, why] of problems) {
        const lines = runsOnly.notes.filter((n) => n.startsWith(`${join(runs, path)}: `));
        expect(lines, path).toHaveLength(1);
        expect(lines[0], path).toMatch(why);
      }
      // The loader follows no link out of the folder: it reads run a alone, as before.
      expect(plan.claimed.every((c) => c.path.startsWith('a/'))).toBe(true);
      const parts = await loadHistoryParts([runs], { now: Date.now() });
      expect(parts.inputs.every((i) => i.path.startsWith(join(runs, 'a/')))).toBe(true);
      expect((await expandInputs([runs])).map((r) => r.source)).toEqual(expected.map((r) => r.source));
    } finally {
      if (closed) chmodSync(join(outside, 'closed'), 0o755);
    }
  });

  it('a folder of oc get files with some in a subfolder: one run, nothing beside it, all read by analyze', async () => {
    const snap = join(dir, 'snap');
    mkdirSync(join(snap, 'operators'), { recursive: true });
    cpSync(join(fixtures, 'oc-get/cluster.yaml'), join(snap, 'cluster.yaml'));
    cpSync(join(fixtures, 'oc-get/operators.json'), join(snap, 'operators/operators.json'));
    const [plan, runsOnly] = await Promise.all([planInput(snap), planInput(snap, { runsOnly: true })]);
    expect(plan.runs).toEqual([{ source: snap, kind: 'folder' }]);
    expect(runsOnly.runs).toEqual(plan.runs);
    expect(Object.keys(claimed(plan))).toEqual(['cluster.yaml', 'operators/operators.json']);
    expect([...plan.ignored, ...runsOnly.ignored]).toEqual([]);
    const parts = await loadHistoryParts([snap], { now: Date.now() });
    expect(parts.inputs.map((i) => i.path).sort()).toEqual([
      join(snap, 'cluster.yaml'),
      join(snap, 'operators/operators.json'),
    ]);
  });

  it('a folder of symbolic links to runs: each run, with where it really is', async () => {
    const links = join(dir, 'links');
    mkdirSync(links);
    for (const n of [1, 2, 3]) symlinkSync(example, join(links, `run-${n}`));
    const plan = await planInput(links, { runsOnly: true });
    expect(plan.runs).toEqual(
      [1, 2, 3].map((n) => ({ source: join(links, `run-${n}`), kind: 'folder', real: example })),
    );
    expect(plan.claimed).toEqual([]);
  });

  it('a live cluster: the kubeconfig says where, the plan which kinds are listed and watched, only get/list/watch', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      yaml.dump({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'ctx',
      }),
    );
    const plan = await planInput({ live: { kubeconfig } });
    expect(plan.is).toBe('live cluster');
    expect(plan.live).toMatchObject({
      server: 'https://127.0.0.1:1',
      context: 'ctx',
      verbs: ['get', 'list', 'watch'],
    });
    const kinds = plan.live?.lists.map((r) => r.kind) ?? [];
    expect(kinds).toEqual(expect.arrayContaining(['ClusterVersion', 'ClusterOperator', 'Node', 'Event']));
    expect(plan.live?.watches).toEqual(plan.live?.lists);
    expect(plan.runs).toEqual([]);
  });

  it('a CI run by URL (a local fake of Cloud Storage): fetched into the cache, planned as its folder; one url run', async () => {
    const fake = new FakeGcs();
    putBug2019850Run(fake);
    await fake.start();
    try {
      const url = runUrls(fake).prow;
      const plan = await planInput(url, { remote: { cacheDir: join(dir, 'cache') } });
      expect(plan.is).toBe('URL');
      expect(plan.layouts[0]).toBe('CI run');
      expect(claimed(plan)).toMatchObject({
        [`${GATHER}/clusteroperators.json`]: 'gather-extra ClusterOperator',
      });
      expect(plan.runs).toEqual([{ source: url, kind: 'url' }]);
      // ingest counts it without fetching it.
      const before = fake.requests.length;
      expect((await planInput(url, { runsOnly: true })).runs).toEqual(plan.runs);
      expect(fake.requests.length).toBe(before);
    } finally {
      await fake.stop();
    }
  });

  it('a path that is not there is one InputError naming it', async () => {
    await expect(planInput(join(dir, 'nope'))).rejects.toThrow(/nope: no such file or directory/);
  });
});

describe('the commands do what the plan says', () => {
  it('analyze reads exactly the files the plan claims', async () => {
    const plan = await planInput(example);
    const parts = await loadHistoryParts([example], { now: Date.now() });
    const read = new Set(parts.inputs.map((i) => i.path));
    // A file read by content (oc-get) is listed among the inputs only when it held something atlevel uses.
    for (const c of plan.claimed.filter((c) => c.reader !== 'oc-get'))
      expect(read, c.path).toContain(`${example}/${c.path}`);
    for (const path of read) expect(plan.claimed.map((c) => `${example}/${c.path}`)).toContain(path);
  });

  it('serve serves as-is exactly the files the plan names, logs included', async () => {
    const mg = join(dir, 'mg');
    cpSync(mustGather, mg, { recursive: true });
    const root = join(mg, 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123');
    const logs = join(root, 'namespaces/ns-a/pods/pod-a/c/c/logs');
    mkdirSync(logs, { recursive: true });
    writeFileSync(join(logs, 'current.log'), 'hello\n');
    mkdirSync(join(root, 'namespaces/ns-a/route.openshift.io'), { recursive: true });
    writeFileSync(
      join(root, 'namespaces/ns-a/route.openshift.io/routes.yaml'),
      'apiVersion: route.openshift.io/v1\nkind: RouteList\nitems:\n- apiVersion: route.openshift.io/v1\n  kind: Route\n  metadata: {name: r, namespace: ns-a}\n',
    );
    const plan = await planInput(mg);
    const extras = await readServedExtras([mg]);
    const servedObjects = plan.served
      .filter((s) => s.as === 'objects')
      .map((s) => s.path.split('/').slice(-3).join('/'));
    expect(servedObjects).toEqual([
      'config.openshift.io/consoles/cluster.yaml',
      'ns-a/route.openshift.io/routes.yaml',
    ]);
    expect(extras.objects.map((o) => o.kind).sort()).toEqual(['Console', 'Route']);
    expect(
      plan.served.filter((s) => s.as === 'log').map((s) => s.path.split('/').slice(-6).join('/')),
    ).toEqual(['pods/pod-a/c/c/logs/current.log']);
    expect([...extras.logs.keys()]).toEqual(['ns-a/pod-a/c']);
  });
});

describe('planning hostile names', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      'namespaces',
      'cluster-scoped-resources',
      'pods',
      'logs',
      'current.log',
      'core',
      'nodes',
      'events.json',
      'build-log.txt',
      'x.yaml',
      'a.tar.gz',
      'hostedcluster-h',
      '..',
      '.',
      '',
      '__proto__',
      'constructor',
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
  const rel = fc.array(segment, { minLength: 1, maxLength: 7 }).map((parts) => parts.join('/'));

  it('every file is claimed, served or ignored: exactly one, never lost, never twice', () => {
    fc.assert(
      fc.property(fc.array(rel, { maxLength: 40 }), (rels) => {
        const plan = planListing(rels);
        const served = servedFiles(rels, plan);
        const ignored = ignoredFiles(plan, served);
        const all = [
          ...plan.files.map((f) => f.rel),
          ...(plan.revisions !== undefined ? [plan.revisions] : []),
          ...served.map((s) => s.rel),
          ...ignored.map((i) => i.rel),
        ];
        expect(all.sort()).toEqual([...new Set(rels)].sort());
      }),
      { numRuns: 300 },
    );
  });
});

describe('printing hostile names', () => {
  it('the text never carries a control character of a file name to the terminal', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { minLength: 1, maxLength: 6 }),
        (names) => {
          const planOf = (names: readonly string[]): InputPlan => ({
            input: names[0] ?? '',
            is: 'folder',
            layouts: ['CI run'],
            claimed: names.map((path) => ({ path, layout: 'oc get files', reader: 'oc-get' })),
            served: names.map((path) => ({ path, as: 'log' as const })),
            ignored: names.map((path) => ({ path, why: 'no layout reads it' })),
            runs: names.map((source) => ({ source, kind: 'folder' as const })),
            notes: names,
          });
          const text = inputsText([planOf(names)], { colour: false, width: 100 });
          expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
          // A newline in a name never adds a line: one row per file, as for plain names.
          const plain = inputsText([planOf(names.map(() => 'x'))], { colour: false, width: 100 });
          expect(text.split('\n')).toHaveLength(plain.split('\n').length);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('atlevel inputs', () => {
  const cli = inProcessCli('inputs');

  it('prints the plan as text, and -o json and -o yaml are the same document', async () => {
    const text = await cli.run('inputs', example);
    expect(text.code).toBe(0);
    expect(text.out).toContain('read as CI run');
    expect(text.out).toMatch(/clusteroperators\.json +CI run +gather-extra +ClusterOperator/);
    expect(text.out).toMatch(/runs: 1\n/);
    const json = await cli.run('inputs', example, '-o', 'json');
    const yml = await cli.run('inputs', example, '-o', 'yaml');
    expect(json.code).toBe(0);
    expect(yml.code).toBe(0);
    const doc = JSON.parse(json.out);
    expect(yaml.load(yml.out)).toEqual(doc);
    expect(doc).toMatchObject({ kind: 'InputPlans', inputs: [{ input: example, is: 'folder' }] });
  });

  it('bad input: exit 2, one line naming it', async () => {
    const r = await cli.run('inputs', join(cli.dir, 'missing'));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(cli.stderr().trimEnd().split('\n')).toEqual([
      expect.stringMatching(/missing: no such file or directory/),
    ]);
  });
});

describeFixtures(
  'the plan of real must-gathers (openshift/must-gather-clean), as a folder and as a tarball',
  () => {
    const files = (root: string): string[] =>
      readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
        .sort();

    it.each(['aws', 'metal'])(
      '%s: each file claimed, served or ignored with a reason; the loader reads exactly the claims',
      async (name) => {
        const mg = fixture('openshift__must-gather-clean/test/files/extracted-subset', `must-gather-${name}`);
        const tgz = join(dir, `must-gather-${name}.tar.gz`);
        await create({ file: tgz, gzip: true, cwd: mg }, readdirSync(mg));
        const [folder, archive] = await Promise.all([planInput(mg), planInput(tgz)]);
        const all = [...folder.claimed, ...folder.served, ...folder.ignored].map((f) => f.path).sort();
        expect(all).toEqual(files(mg));
        expect(folder.ignored.every((i) => i.why.length > 0)).toBe(true);
        for (const [plan, at] of [
          [folder, `${mg}/`],
          [archive, `${tgz}!`],
        ] as const) {
          const read = (await loadHistoryParts([plan.input], { now: Date.now() })).inputs.map((i) => i.path);
          expect(read.sort()).toEqual(plan.claimed.map((c) => `${at}${c.path}`).sort());
        }
        // The tarball claims what the folder claims; what serve would serve of the folder it ignores, with a reason.
        expect(archive.claimed).toEqual(folder.claimed);
        expect(archive.served).toEqual([]);
        expect(archive.ignored.map((i) => i.path).sort()).toEqual(
          [...folder.served, ...folder.ignored].map((f) => f.path).sort(),
        );
        expect(archive.ignored.every((i) => i.why === 'part of the must-gather, not read')).toBe(true);
      },
    );
  },
);
