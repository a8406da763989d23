/**
 * The ingest loop with a store that is still opening (ingestRuns takes its opening): the first runs
 * are analysed meanwhile, those the store turns out to have are dropped and counted as already
 * there, the rest are written once; a store that cannot be opened ends the loop with its error at
 * once, without waiting for the analyses in flight.
 */
import { describe, expect, it } from 'vitest';
import { type Analyser, ingestRuns, type RunInput } from '../../src/ingest/index.js';
import { InputError } from '../../src/model/index.js';
import type { RunRecord, RunStore } from '../../src/store/index.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

function inputs(ids: readonly string[]): RunInput[] {
  return ids.map((id) => ({ source: `/runs/${id}`, kind: 'folder', prow: { job: 'job', buildId: id } }));
}

/** The store calls ingestRuns makes, on a store that already has `have`. */
function fakeStore(have: readonly string[]) {
  const written: string[] = [];
  const store = {
    storedIds: async (ids: readonly string[]) => new Set(ids.filter((id) => have.includes(id))),
    putRuns: async (records: readonly RunRecord[]) => {
      written.push(...records.map((r) => r.id));
      return records.map(() => 'stored' as const);
    },
    putError: async () => undefined,
    sameUpdates: async () => [],
    forgetErrors: async () => undefined,
  };
  return { store: store as unknown as RunStore, written };
}

/** An analyser that answers at once, and the runs it was asked for, in order. */
function recordingAnalyser() {
  const analysed: string[] = [];
  const analyse: Analyser = async (who, _signal, started) => {
    started();
    analysed.push(who.id);
    return { id: who.id } as RunRecord;
  };
  return { analyse, analysed };
}

describe('ingestRuns while the store opens', () => {
  it('drops the analyses of runs the store turns out to have, and writes the others once', async () => {
    const { store, written } = fakeStore(['prow:job/1', 'prow:job/3']);
    const { analyse, analysed } = recordingAnalyser();
    const summary = await ingestRuns(inputs(['1', '2', '3', '4']), {
      store: later(50, store),
      analyse,
      parallel: 4,
    });
    // All four began before the store answered; the two it had were not written again.
    expect(analysed.sort()).toEqual(['prow:job/1', 'prow:job/2', 'prow:job/3', 'prow:job/4']);
    expect(written.sort()).toEqual(['prow:job/2', 'prow:job/4']);
    expect(summary).toMatchObject({ total: 4, done: 4, stored: 2, skipped: 2, errors: 0 });
  });

  it('once the store has answered, does not analyse the runs it has', async () => {
    const { store, written } = fakeStore(['prow:job/2', 'prow:job/3']);
    const { analyse, analysed } = recordingAnalyser();
    const summary = await ingestRuns(inputs(['1', '2', '3']), { store, analyse, parallel: 1 });
    expect(analysed).toEqual(['prow:job/1']);
    expect(written).toEqual(['prow:job/1']);
    expect(summary).toMatchObject({ total: 3, done: 3, stored: 1, skipped: 2 });
  });

  it('rejects with the store’s error at once, not after the runs in flight', async () => {
    const bad = new InputError('/tmp/x/db', 'cannot keep a run store here: ENOTDIR', 'pass --db a folder');
    const opening = (async () => {
      await later(20, undefined);
      throw bad;
    })();
    const never: Analyser = (_who, _signal, started) => {
      started();
      return new Promise<RunRecord>(() => undefined);
    };
    const t = performance.now();
    await expect(
      ingestRuns(inputs(['1', '2']), { store: opening, analyse: never, parallel: 2 }),
    ).rejects.toBe(bad);
    expect(performance.now() - t).toBeLessThan(5000);
  });
});
