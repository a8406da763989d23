/**
 * A run the store refuses (issue 38): the batch it came in is written again one run at a time, the
 * refused run becomes an ingest error with the store's reason, and the others are stored. A store that
 * cannot even record the error is gone, and the ingest ends with its error.
 */
import { describe, expect, it } from 'vitest';
import { type Analyser, ingestRuns, type RunInput } from '../../src/ingest/index.js';
import type { RunRecord, RunStore } from '../../src/store/index.js';

function inputs(ids: readonly string[]): RunInput[] {
  return ids.map((id) => ({ source: `/runs/${id}`, kind: 'folder', prow: { job: 'job', buildId: id } }));
}

const analyse: Analyser = async (who, _signal, started) => {
  started();
  return { id: who.id } as RunRecord;
};

/** A store whose transactions fail whenever they hold the run `bad` (as PostgreSQL refuses a batch). */
function pickyStore(bad: string, errorsToo = false) {
  const stored: string[] = [];
  const errors: { id: string; error: string }[] = [];
  const store = {
    storedIds: async () => new Set<string>(),
    sameUpdates: async () => [],
    forgetErrors: async () => undefined,
    putRuns: async (records: readonly RunRecord[]) => {
      if (records.some((r) => r.id === bad)) throw new Error('unsupported Unicode escape sequence');
      stored.push(...records.map((r) => r.id));
      return records.map(() => 'stored' as const);
    },
    putError: async (id: string, _source: string, error: string) => {
      if (errorsToo) throw new Error('connection terminated');
      errors.push({ id, error });
    },
  };
  return { store: store as unknown as RunStore, stored, errors };
}

describe('a run the store refuses', () => {
  it('is an ingest error with the store’s reason; the rest of its batch is stored', async () => {
    const { store, stored, errors } = pickyStore('prow:job/3');
    const said: string[] = [];
    const summary = await ingestRuns(inputs(['1', '2', '3', '4', '5']), {
      store,
      analyse,
      parallel: 5,
      onError: (source, message) => said.push(`${source}: ${message}`),
    });
    expect(stored.sort()).toEqual(['prow:job/1', 'prow:job/2', 'prow:job/4', 'prow:job/5']);
    expect(errors).toEqual([
      { id: 'prow:job/3', error: 'the run store refused the run: unsupported Unicode escape sequence' },
    ]);
    expect(said).toEqual(['/runs/3: the run store refused the run: unsupported Unicode escape sequence']);
    expect(summary).toMatchObject({ total: 5, done: 5, stored: 4, errors: 1 });
  });

  it('ends the ingest with the store’s error when the store cannot record it either', async () => {
    const { store } = pickyStore('prow:job/2', true);
    await expect(ingestRuns(inputs(['1', '2']), { store, analyse, parallel: 2 })).rejects.toThrow(
      /unsupported Unicode escape sequence/,
    );
  });
});
