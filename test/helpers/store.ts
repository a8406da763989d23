/**
 * An empty run store (the schema in place, no runs) at a given folder, copied from one made once per
 * test worker. A PGlite store made from nothing runs PostgreSQL's initdb in WASM, about 7 s of CPU on
 * the 2-core machine; the tests that need an empty store, not its making, paid that for each store
 * (issue 42: a third of `npm test`'s CPU time). test/store/store.test.ts and the end-to-end ingest
 * suites still make their stores from nothing.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunStore } from '../../src/store/index.js';

let template: Promise<string> | undefined;

/** Copy an empty, closed store to `path` (a folder that does not exist yet) and return `path`. */
export async function emptyStore(path: string): Promise<string> {
  template ??= (async () => {
    // Under the test run's scratch folder (test/helpers/scratch-tmpdir.ts), removed at the end.
    const dir = join(mkdtempSync(join(tmpdir(), 'atlevel-store-template-')), 'db');
    const store = await RunStore.open(dir, 'write');
    await store.close();
    return dir;
  })();
  cpSync(await template, path, { recursive: true });
  return path;
}
