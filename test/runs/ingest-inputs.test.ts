/**
 * `atlevel ingest` reads its inputs as analyze does (issue 39, item 3) and names a run by what it is
 * (issue 37, item 7), on runs written by `atlevel simulate --artifacts`:
 *  - a `.tar.xz` run is one run (analyze reads it; ingest used to refuse it);
 *  - a folder of symbolic links to 3 runs is 3 runs (ingest used to find none, and say nothing);
 *  - a folder of 2 runs with a stray JSON file at its top is 2 runs and a note naming the file (it
 *    used to be taken for one run from two clusters, and nothing was stored);
 *  - a folder and its own tarball are one run, and a run's own prowjob.json names it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandInputs, identify } from '../../src/ingest/index.js';
import { emptyStore } from '../helpers/store.js';
import { atlevel } from './helpers.js';

const hasXz = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v xz'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dir: string;
const run = (i: number) => join(dir, `run-${i}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-ingest-inputs-'));
  for (const seed of [1, 2, 3]) {
    const r = await atlevel([
      'simulate',
      '--policy',
      'fixed',
      '--seed',
      String(seed),
      '--artifacts',
      run(seed),
      '--out',
      join(dir, `summary-${seed}.txt`),
    ]);
    expect(r.code, r.stderr).toBe(0);
  }
  mkdirSync(join(dir, 'links'));
  for (const i of [1, 2, 3]) symlinkSync(run(i), join(dir, 'links', `run-${i}`));
  mkdirSync(join(dir, 'two'));
  for (const i of [1, 2]) cpSync(run(i), join(dir, 'two', `run-${i}`), { recursive: true });
  writeFileSync(
    join(dir, 'two', 'stray.json'),
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stray' } }),
  );
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `ingested N runs …: S stored` of an ingest into an empty store. */
async function ingest(args: readonly string[], db: string) {
  const r = await atlevel(['ingest', ...args, '--db', await emptyStore(join(dir, db)), '--jobs', '1']);
  expect(r.code, r.stderr).toBe(0);
  const m = /ingested (\d+) runs? .*: (\d+) stored, (\d+) already there, (\d+) ingest errors/.exec(r.stdout);
  return { ...r, runs: Number(m?.[1]), stored: Number(m?.[2]), errors: Number(m?.[4]) };
}

describe('ingest reads its inputs as analyze does', () => {
  it.skipIf(!hasXz)(
    `a .tar.xz run: 1 run stored${hasXz ? '' : ' (skipped: no xz command to make one)'}`,
    async () => {
      const tar = join(dir, 'run-1.tar');
      await create({ file: tar, cwd: dir }, ['run-1']);
      execFileSync('sh', ['-c', `xz -z "${tar}"`]);
      const [found] = await expandInputs([`${tar}.xz`]);
      expect(found).toMatchObject({ kind: 'archive' });
      const r = await ingest([`${tar}.xz`], 'db-xz');
      expect(r).toMatchObject({ runs: 1, stored: 1, errors: 0 });
    },
    180_000,
  );

  it('a folder of symbolic links to 3 runs: 3 runs stored', async () => {
    const found = await expandInputs([join(dir, 'links')]);
    expect(found.map((f) => f.source)).toEqual([1, 2, 3].map((i) => join(dir, 'links', `run-${i}`)));
    const r = await ingest([join(dir, 'links')], 'db-links');
    expect(r).toMatchObject({ runs: 3, stored: 3, errors: 0 });
  }, 180_000);

  it('a folder of 2 runs with a stray JSON file: 2 runs stored, a note names the file', async () => {
    const notes: string[] = [];
    const found = await expandInputs([join(dir, 'two')], undefined, (n) => notes.push(n));
    expect(found.map((f) => f.source)).toEqual([join(dir, 'two', 'run-1'), join(dir, 'two', 'run-2')]);
    expect(notes).toEqual([`${join(dir, 'two', 'stray.json')}: a file beside runs, not a run: skipped`]);
    const r = await ingest([join(dir, 'two')], 'db-two');
    expect(r).toMatchObject({ runs: 2, stored: 2, errors: 0 });
    expect(r.stderr).toContain(`atlevel: note: ${join(dir, 'two', 'stray.json')}: a file beside runs`);
  }, 180_000);

  it('a folder holding no run says so; a lone snapshot file is a run, as analyze reads it', async () => {
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', 'README.md'), 'nothing here\n');
    const notes: string[] = [];
    expect(await expandInputs([join(dir, 'empty')], undefined, (n) => notes.push(n))).toEqual([]);
    expect(notes).toEqual([`${join(dir, 'empty')}: holds no run (no file a layout reads)`]);
    const [lone] = await expandInputs([join(dir, 'two', 'stray.json')]);
    expect(lone).toMatchObject({ kind: 'file' });
  });
});

describe('a run is named by what it is, not by its container', () => {
  it('a folder and its own tarball (made from its parent or inside it) are one run', async () => {
    await create({ gzip: true, file: join(dir, 'outside.tar.gz'), cwd: dir }, ['run-3']);
    await create({ gzip: true, file: join(dir, 'inside.tar.gz'), cwd: run(3) }, ['.']);
    const inputs = await expandInputs([run(3), join(dir, 'outside.tar.gz'), join(dir, 'inside.tar.gz')]);
    expect(inputs.map((i) => i.kind)).toEqual(['folder', 'archive', 'archive']);
    const ids = await Promise.all(inputs.map((i) => identify(i)));
    expect(ids[0]?.identity).toBe('content');
    expect(new Set(ids.map((i) => i.id)).size).toBe(1);
    // Another run is another id.
    expect((await identify((await expandInputs([run(2)]))[0] as never)).id).not.toBe(ids[0]?.id);
    const r = await ingest([run(3), join(dir, 'outside.tar.gz'), join(dir, 'inside.tar.gz')], 'db-same');
    expect(r).toMatchObject({ runs: 1, stored: 1 });
    expect(r.stdout).toContain('2 named twice');
  }, 180_000);

  it('its own prowjob.json names a run outside a Prow path, folder and tarball alike', async () => {
    const copy = join(dir, 'prow-run');
    cpSync(run(1), copy, { recursive: true });
    writeFileSync(
      join(copy, 'prowjob.json'),
      JSON.stringify({
        kind: 'ProwJob',
        metadata: { labels: { 'prow.k8s.io/job': 'periodic-ci-e2e-aws-upgrade' } },
        spec: { job: 'periodic-ci-e2e-aws-upgrade' },
        status: { build_id: '1454000000000000042' },
      }),
    );
    await create({ gzip: true, file: join(dir, 'prow-run.tar.gz'), cwd: dir }, ['prow-run']);
    const inputs = await expandInputs([copy, join(dir, 'prow-run.tar.gz')]);
    for (const i of inputs) {
      expect(await identify(i)).toMatchObject({
        id: 'prow:periodic-ci-e2e-aws-upgrade/1454000000000000042',
        identity: 'prow',
      });
    }
  });
});
