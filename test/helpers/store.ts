/**
 * An empty run store (the schema in place, no runs) at a given folder, copied from one made once per
 * test run. A PGlite store made from nothing runs PostgreSQL's initdb in WASM, about 7 s of CPU on the
 * 2-core machine; the tests that need an empty store, not its making, paid that for each store
 * (issue 42: a sixth of `npm test`'s CPU time). test/store/store.test.ts and the end-to-end ingest
 * suites still make their stores from nothing.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RunStore } from '../../src/store/index.js';

let template: Promise<string> | undefined;

/**
 * The template, under the test run's scratch folder (test/helpers/scratch-tmpdir.ts: one per run,
 * shared by its workers, removed at the end). The first worker to want it makes it; another waits
 * for it rather than make a second one, but not for more than 30 s (then it makes its own).
 */
async function made(): Promise<string> {
  const root = join(tmpdir(), 'atlevel-store-template');
  const ready = join(root, 'db');
  mkdirSync(root, { recursive: true });
  let mine = false;
  try {
    mkdirSync(join(root, 'maker'));
    mine = true;
  } catch {
    for (let waited = 0; !existsSync(ready) && waited < 30_000; waited += 100) await sleep(100);
    if (existsSync(ready)) return ready;
  }
  const dir = join(mkdtempSync(join(root, mine ? 'made-' : 'own-')), 'db');
  const store = await RunStore.open(dir, 'write');
  await store.close();
  if (!mine) return dir;
  // Whole or not at all: a waiting worker never copies a half-made store.
  renameSync(dir, ready);
  return ready;
}

/** Copy an empty, closed store to `path` (a folder that does not exist yet) and return `path`. */
export async function emptyStore(path: string): Promise<string> {
  template ??= made();
  cpSync(await template, path, { recursive: true });
  return path;
}
