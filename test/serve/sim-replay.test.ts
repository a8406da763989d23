/**
 * A simulated run replays exactly: `atlevel serve --replay` plays the simulator's recorded object
 * revisions (atlevel-revisions.jsonl, docs/simulate.md), so watch clients see every revision the
 * simulated API server stored, object for object, in order, after the state at the update's start.
 * Spawns bin/atlevel.js (needs `npm run -s build`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { parseSimRevisions } from '../../src/sources/formats/index.js';
import { getJson, type Json, watchEvents } from './helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'atlevel.js');
const FILE = 'atlevel-revisions.jsonl';
const PATHS: Readonly<Record<string, string>> = {
  ClusterVersion: '/apis/config.openshift.io/v1/clusterversions',
  ClusterOperator: '/apis/config.openshift.io/v1/clusteroperators',
  MachineConfigPool: '/apis/machineconfiguration.openshift.io/v1/machineconfigpools',
  MachineConfig: '/apis/machineconfiguration.openshift.io/v1/machineconfigs',
  Node: '/api/v1/nodes',
};

interface Recorded {
  type: string;
  at: string;
  kind: string;
  namespace?: string;
  name: string;
  object: Json;
}

function readRecorded(dir: string): Recorded[] {
  return readFileSync(join(dir, FILE), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

const home = mkdtempSync(join(tmpdir(), 'atlevel-sim-replay-'));
const runs = [join(home, 'a'), join(home, 'b')];
let server: ChildProcess | undefined;

function run(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c) => {
      stdout += String(c);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

/** The object without the resourceVersion (the server numbers its own changes). */
function sameObject(o: Json): Json {
  const { resourceVersion: _rv, ...metadata } = o.metadata;
  return { ...o, metadata };
}

beforeAll(async () => {
  const sim = ['simulate', '--scenario', 'pause-image-only', '--policy', 'pre-fix-2021', '--seed', '1'];
  const done = await Promise.all(runs.map((dir) => run([...sim, '--artifacts', dir])));
  // Exit 1: the pre-fix policy reproduces the bug (a failure found), and the run is written.
  for (const d of done) expect(d.code).toBe(1);
}, 60_000);

afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
});

describe('a simulated run', () => {
  it('writes the same revisions file, byte for byte, for the same seed', () => {
    const [a, b] = runs.map((dir) => readFileSync(join(dir as string, FILE)));
    expect(a!.length).toBeGreaterThan(0);
    expect(a!.equals(b!)).toBe(true);
  });

  it('replays through serve exactly: the state at the update start, then every revision in order', async () => {
    const recorded = readRecorded(runs[0] as string);
    server = spawn(
      process.execPath,
      [BIN, 'serve', runs[0] as string, '--replay', '--speed', '100000', '--start-after', '2'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    server.stdout?.on('data', (c) => {
      out += String(c);
    });
    while (!out.includes('replay:')) await new Promise((r) => setTimeout(r, 20));
    const url = /(http:\/\/\S+)/.exec(out)?.[1] ?? '';
    const progress = (await getJson(`${url}/atlevel/replay`)).body;
    expect(progress.applied).toBe(0);
    const start: number = progress.start;

    // The initial state: each object's last revision at or before the update's start.
    const initial = new Map<string, Recorded>();
    for (const r of recorded) if (Date.parse(r.at) <= start) initial.set(`${r.kind}/${r.name}`, r);
    const lists = await Promise.all(Object.values(PATHS).map((p) => getJson(`${url}${p}`)));
    const rvs = new Set(lists.map((l) => l.body.metadata.resourceVersion));
    expect(rvs.size).toBe(1); // every list was taken before the replay's first change
    const rv = [...rvs][0];
    const listed = lists.flatMap((l) => l.body.items.map(sameObject));
    const expectedInitial = Object.keys(PATHS).flatMap((kind) =>
      [...initial.values()]
        .filter((r) => r.kind === kind)
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .map((r) => sameObject(r.object)),
    );
    expect(listed).toEqual(expectedInitial);

    // Then every later revision, as the matching watch event, with increasing resourceVersions.
    // (The workloads' revisions are checked against the gather below; these are the cluster-scoped kinds.)
    const later = recorded.filter((r) => Date.parse(r.at) > start && r.kind in PATHS);
    expect(later.length).toBeGreaterThan(100);
    const watches = await Promise.all(
      Object.entries(PATHS).map(([kind, p]) => {
        const n = later.filter((r) => r.kind === kind).length;
        return watchEvents(`${url}${p}?watch=true&resourceVersion=${rv}`, (e) => e.length >= n);
      }),
    );
    const events = watches
      .flat()
      .map((e) => ({ ...e, rv: Number(e.object.metadata.resourceVersion) }))
      .sort((a, b) => a.rv - b.rv);
    expect(new Set(events.map((e) => e.rv)).size).toBe(events.length);
    expect(events.map((e) => `${e.type} ${e.object.kind}/${e.object.metadata.name}`)).toEqual(
      later.map((r) => `${r.type} ${r.kind}/${r.name}`),
    );
    expect(events.map((e) => sameObject(e.object))).toEqual(later.map((r) => sameObject(r.object)));
    expect(events.map((e) => (e as Json).replayedAt)).toEqual(later.map((r) => r.at));
  }, 30_000);
});

describe("a simulated run's workloads", () => {
  const GATHER = 'artifacts/e2e-upgrade/gather-extra/artifacts';
  const LISTS: Readonly<Record<string, string>> = {
    Deployment: 'deployments.json',
    DaemonSet: 'daemonsets.json',
    ReplicaSet: 'replicasets.json',
    Pod: 'pods.json',
  };

  it("are recorded revision by revision: each object's last one is the gather's, a pod gone is a DELETED", () => {
    const dir = runs[0] as string;
    const recorded = readRecorded(dir).filter((r) => r.kind in LISTS);
    const last = new Map<string, Recorded>();
    for (const r of recorded) {
      expect(r.namespace).toBe(r.object.metadata.namespace);
      last.set(`${r.kind}/${r.namespace}/${r.name}`, r);
    }
    for (const [kind, file] of Object.entries(LISTS)) {
      const items: Json[] = JSON.parse(readFileSync(join(dir, GATHER, file), 'utf8')).items;
      // What the gather lists is each object's last revision (the file's last word on it is no DELETED).
      const standing = [...last.values()].filter((r) => r.kind === kind && r.type !== 'DELETED');
      expect(standing.map((r) => sameObject(r.object))).toEqual(
        expect.arrayContaining(items.map(sameObject)),
      );
      expect(standing.length).toBe(items.length);
    }
    // The CVO rolled the operators' own Deployments: a new ReplicaSet, a new pod, the old pod deleted.
    const deleted = [...last.values()].filter((r) => r.type === 'DELETED');
    expect(deleted.length).toBeGreaterThan(0);
    expect(new Set(deleted.map((r) => r.kind))).toEqual(new Set(['Pod']));
    expect(recorded.some((r) => r.kind === 'Deployment' && r.type === 'MODIFIED')).toBe(true);
    // A pod's revisions follow its lifecycle, oldest first: created, then ready, then terminating.
    const pod = deleted[0] as Recorded;
    const mine = recorded.filter((r) => r.kind === 'Pod' && r.name === pod.name);
    expect(mine[mine.length - 1]?.type).toBe('DELETED');
    expect(mine.slice(0, -1).some((r) => r.object.metadata.deletionTimestamp !== undefined)).toBe(true);
  });
});

describe('the revisions reader', () => {
  const line = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: 'MODIFIED',
      at: '2021-11-03T02:50:01.000Z',
      kind: 'Node',
      name: 'n1',
      object: { metadata: { name: 'n1' } },
      ...over,
    });

  it('reads revisions and refuses what is not one, naming the file and line', () => {
    const [r] = parseSimRevisions(`${line()}\n`, 'f.jsonl');
    expect(r).toMatchObject({ type: 'MODIFIED', at: Date.parse('2021-11-03T02:50:01Z'), kind: 'Node' });
    const bad = [
      'not json',
      line({ type: 'CHANGED' }),
      line({ at: 'yesterday' }),
      line({ name: 'n2' }),
      line({ object: [] }),
      `${line({ at: '2021-11-03T02:50:02Z' })}\n${line()}`,
    ];
    for (const text of bad) {
      expect(() => parseSimRevisions(text, 'f.jsonl')).toThrow(InputError);
      expect(() => parseSimRevisions(text, 'f.jsonl')).toThrow(/^f\.jsonl:\d+: /);
    }
  });

  it('never throws anything but an InputError on hostile text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.json(), fc.string(), fc.constant(line()))), (lines) => {
        try {
          parseSimRevisions(lines.join('\n'), 'f.jsonl');
        } catch (err) {
          expect(err).toBeInstanceOf(InputError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
