/**
 * "A success removes its error" (docs/runs.md) holds for a run that could not be read, too. An
 * unreadable tarball has no identity, so its error is kept under `source:PATH`; a later ingest of a
 * good tarball at that path stores a run under its content's id, and the error of the path goes with
 * it, as it does when the path now names a run the store already has. Before, `stats` went on saying
 * `1 ingest error in the store`, naming a path whose run was stored.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStats } from '../../src/stats/index.js';
import { RunStore } from '../../src/store/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { ingestInProcess } from '../helpers/ingest.js';
import { emptyStore } from '../helpers/store.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-errors-forgotten-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const broken = (path: string) => writeFileSync(path, gzipSync('not a tar archive\n'));
const tarOf = (example: string, path: string) =>
  create({ gzip: true, file: path, cwd: join(projectRoot, 'examples') }, [example]);

describe('the ingest error of a path that gives a run now', () => {
  it('goes when the run is stored, and when the path names a run the store has', async () => {
    const store = await RunStore.open(await emptyStore(join(dir, 'db')), 'write');
    try {
      const errors = async () => (await collectStats(store.db, store.where, {})).errors.map((e) => e.source);
      const a = join(dir, 'a.tar.gz');
      const b = join(dir, 'b.tar.gz');
      broken(a);
      broken(b);
      expect(await ingestInProcess(store, [a, b])).toMatchObject({ stored: 0, errors: 2 });
      expect((await errors()).sort()).toEqual([a, b]);

      // a: fixed, a run the store does not have yet: stored, and a's error is gone.
      await tarOf('bug-2019850', a);
      expect(await ingestInProcess(store, [a])).toMatchObject({ stored: 1, errors: 0 });
      expect(await errors()).toEqual([b]);

      // b: now the same run as a (another path to the same files): already there, and b's error is gone.
      await tarOf('bug-2019850', b);
      expect(await ingestInProcess(store, [b])).toMatchObject({ stored: 0, skipped: 1, errors: 0 });
      expect(await errors()).toEqual([]);
      expect((await collectStats(store.db, store.where, {})).ingestErrors).toBe(0);
    } finally {
      await store.close();
    }
  });
});
