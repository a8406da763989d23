/**
 * The `stats` use case: what the run store says across runs (docs/runs.md): failure rate per rule by
 * stream, platform and week, runs by signature, changed components and the race, duration
 * percentiles. A store that is not there is an input error; nothing is created.
 */
import { RULE_IDS } from '../invariants/index.js';
import { InputError, printable, UsageError } from '../model/index.js';
import { collectStats, type StatsFilter, type StatsResult } from '../stats/index.js';
import { RunStore, storeExists } from '../store/index.js';
import type { Conclusion } from './conclusion.js';
import { storeSpec } from './ingest.js';

export interface StatsRequest {
  /** The run store: a PGlite folder or postgres://…; the default store when absent. */
  readonly db?: string;
  readonly filter: StatsFilter;
  /** Also each ClusterOperator's level report after the update's start (slower on big stores). */
  readonly operators?: boolean;
}

export interface StatsOutcome {
  readonly stats: StatsResult;
  /** Always ok: the figures were gathered (a rule's failure rate is a figure, not a failure of the command). */
  readonly conclusion: Conclusion;
}

export async function stats(request: StatsRequest): Promise<StatsOutcome> {
  const spec = storeSpec(request);
  if (!storeExists(spec)) {
    throw new InputError(
      spec,
      'no run store here',
      'ingest runs first (atlevel ingest RUNS --db …), or pass --db',
    );
  }
  const store = await RunStore.open(spec);
  try {
    const result = await collectStats(store.db, store.where, request.filter, undefined, {
      operators: request.operators === true,
    });
    // A rule that is not atlevel's and that no stored run was judged on is a typo, not a rule that
    // never broke: its figures would read "no violations". A retired rule the store holds stays accepted.
    const unknown = result.filterMisses.find((m) => m.flag === '--rule' && !RULE_IDS.includes(m.value));
    if (unknown)
      throw new UsageError(
        `--rule ${printable(unknown.value)}: no such rule, and no run in the store has a state for it (atlevel's rules: ${RULE_IDS.join(', ')})`,
      );
    return { stats: result, conclusion: 'ok' };
  } finally {
    await store.close();
  }
}
