/**
 * The same run under two ids is stored twice, and said. A run is named by its Prow JOB/BUILD_ID when
 * its path or URL has one, else by its own prowjob.json, else by its files' hash (docs/runs.md,
 * **Identity**): a copy of a run under `logs/JOB/BUILD_ID/` and the same files elsewhere (or a CI URL
 * and a local copy of its artifacts without prowjob.json) get two ids, and stats counts each. The
 * store cannot tell them apart by id, so ingest finds the runs it wrote whose update another stored
 * run has too (the same start and end to the millisecond, the same versions) and names each pair once
 * (`sameUpdates`; the CLI says a note and counts them in its closing line). A different update, and
 * a run stored again under the id it has, are no such pair.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStats } from '../../src/stats/index.js';
import { RunStore } from '../../src/store/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { ingestInProcess } from '../helpers/ingest.js';
import { emptyStore } from '../helpers/store.js';

const EXAMPLE = join(projectRoot, 'examples/bug-2019850');
const FIXED = join(projectRoot, 'examples/bug-2019850-fixed');
const JOB = 'periodic-ci-openshift-release-master-ci-4.10-upgrade-from-stable-4.9-e2e-aws-upgrade';
const BUILD = '1455987654321098752';

let dir: string;
let prowCopy: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-same-update-'));
  prowCopy = join(dir, 'logs', JOB, BUILD);
  cpSync(EXAMPLE, prowCopy, { recursive: true });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one update stored under two ids', () => {
  let store: RunStore;
  beforeAll(async () => {
    store = await RunStore.open(await emptyStore(join(dir, 'db')), 'write');
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  it('is named once, run against the stored run, whether written together or later', async () => {
    const first = await ingestInProcess(store, [EXAMPLE, FIXED]);
    expect(first).toMatchObject({ stored: 2, sameUpdates: [] });

    const second = await ingestInProcess(store, [prowCopy]);
    expect(second.stored).toBe(1);
    expect(second.sameUpdates).toHaveLength(1);
    expect(second.sameUpdates[0]).toMatchObject({
      runId: `prow:${JOB}/${BUILD}`,
      source: prowCopy,
      otherSource: EXAMPLE,
    });
    expect(second.sameUpdates[0]?.other).toMatch(/^sha256:/);
    // What the note warns of: stats counts the runs, so the one update twice.
    const s = await collectStats(store.db, store.where, {});
    expect(s.runs).toBe(3);
    expect(
      s.rates.find((r) => r.by === 'all' && r.rule === 'master-pool-updated-before-cvo-complete'),
    ).toMatchObject({
      checked: 3,
      violated: 2,
    });

    // Stored again under the id it has: already there, no pair.
    expect(await ingestInProcess(store, [prowCopy, EXAMPLE])).toMatchObject({
      stored: 0,
      skipped: 2,
      sameUpdates: [],
    });
  });

  it('two runs of one update written in one ingest make one pair, not two', async () => {
    const other = await RunStore.open(await emptyStore(join(dir, 'db2')), 'write');
    try {
      const both = await ingestInProcess(other, [EXAMPLE, prowCopy, FIXED]);
      expect(both.stored).toBe(3);
      expect(both.sameUpdates).toHaveLength(1);
      const [pair] = both.sameUpdates;
      expect(new Set([pair?.source, pair?.otherSource])).toEqual(new Set([EXAMPLE, prowCopy]));
    } finally {
      await other.close();
    }
  });
});
