/**
 * A must-gather with one image folder is one run named by its own folder (as one taken with several
 * images is), where it used to be the run its image folder is. What that does to a run store:
 *  - a store that holds such a must-gather from then (under its image folder's content hash) keeps
 *    it: ingesting the must-gather again finds it there (`0 stored, 1 already there`), and
 *    `--reanalyze` replaces it in place, under the id it has, with the must-gather's folder as its
 *    source: one run, never a second copy of the same data;
 *  - the image folder and its must-gather named in one ingest are one run (`1 named twice`);
 *  - the must-gather's folder and its tarball (made from its parent) are one run, as any run and its
 *    tarball are; a must-gather whose folder holds nothing but its image folder has the id it had.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandInputs, identify } from '../../src/ingest/index.js';
import { RunStore } from '../../src/store/index.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';
import { ingestInProcess } from '../helpers/ingest.js';
import { emptyStore } from '../helpers/store.js';

const synthetic = join(projectRoot, 'test/fixtures/sources/must-gathers/one-image');
const IMAGE = 'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-4444';

let dir: string;
let mg: string;
let image: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-ingest-must-gather-'));
  // A copy: a run's source is its path, and the store is given paths under one folder.
  mg = join(dir, 'must-gather.local.444');
  cpSync(join(synthetic, 'must-gather.local.444'), mg, { recursive: true });
  image = join(mg, IMAGE);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const storedRuns = (store: RunStore) =>
  store.db.query<{ run_id: string; source: string }>('SELECT run_id, source FROM runs ORDER BY run_id');

describe('a must-gather with one image folder, in a run store', () => {
  let store: RunStore;
  beforeAll(async () => {
    store = await RunStore.open(await emptyStore(join(dir, 'db')), 'write');
  }, 60_000);
  afterAll(() => store?.close());

  it('is named by its folder, with the id its image folder had as its former one', async () => {
    const [run] = await expandInputs([mg]);
    expect(run).toMatchObject({ source: mg, kind: 'folder', image: IMAGE });
    const [alone] = await expandInputs([image]);
    expect(alone).toEqual({ source: image, kind: 'folder' });
    const [who, before] = await Promise.all([identify(run as never), identify(alone as never)]);
    // Its folder holds `timestamp` and `event-filter.html` beside the image folder: another content.
    expect(who.id).not.toBe(before.id);
    expect(who.formerly).toBe(before.id);
  });

  it('stored before under its image folder: skipped, then replaced in place by --reanalyze', async () => {
    // What ingest of the must-gather stored before: the run its image folder is.
    expect(await ingestInProcess(store, [image])).toMatchObject({ stored: 1, skipped: 0 });
    const [old] = await storedRuns(store);
    expect(old?.source).toBe(image);
    expect(await ingestInProcess(store, [mg])).toMatchObject({ stored: 0, skipped: 1, errors: 0 });
    expect(await storedRuns(store)).toEqual([old]);
    expect(await ingestInProcess(store, [mg], true)).toMatchObject({ stored: 1, replaced: 1, skipped: 0 });
    expect(await storedRuns(store)).toEqual([{ run_id: old?.run_id, source: mg }]);
    expect(await ingestInProcess(store, [mg])).toMatchObject({ stored: 0, skipped: 1 });
    expect((await store.counts()).ingest_errors).toBe(0);
  });

  it('named beside its image folder, in either order: one run, named twice', async () => {
    const fresh = await RunStore.open(await emptyStore(join(dir, 'db-both')), 'write');
    try {
      expect(await ingestInProcess(fresh, [image, mg])).toMatchObject({ stored: 1, duplicates: 1 });
      expect((await storedRuns(fresh)).map((r) => r.source)).toEqual([mg]);
      expect(await ingestInProcess(fresh, [mg, image])).toMatchObject({
        stored: 0,
        skipped: 1,
        duplicates: 1,
      });
    } finally {
      await fresh.close();
    }
  });

  it('its folder and its tarball are one run', async () => {
    const tarball = join(dir, 'must-gather.tar.gz');
    await create({ gzip: true, file: tarball, cwd: dir }, ['must-gather.local.444']);
    const runs = await expandInputs([mg, tarball]);
    expect(runs.map((r) => r.kind)).toEqual(['folder', 'archive']);
    const [folder, archive] = await Promise.all(runs.map((r) => identify(r)));
    expect(archive?.id).toBe(folder?.id);
  });
});

describeFixtures('a real must-gather with one image folder (openshift/must-gather-clean)', () => {
  it('holding nothing but its image folder, it has the id its image folder had', async () => {
    const aws = fixture('openshift__must-gather-clean/test/files/extracted-subset/must-gather-aws');
    const [only] = readdirSync(aws).filter((n) => n.startsWith('quay-io-'));
    const [run] = await expandInputs([aws]);
    const [alone] = await expandInputs([join(aws, only ?? '')]);
    expect(run?.source).toBe(aws);
    const [who, before] = await Promise.all([identify(run as never), identify(alone as never)]);
    expect(who.id).toBe(before.id);
    expect(who.formerly).toBeUndefined();
  });
});
