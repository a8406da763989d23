/** `atlevel stats -o json`: the StatsResult as it is, with a schema version and ISO times (docs/runs.md). */
import { safeJson } from '../model/index.js';
import type { StatsResult } from './query.js';

/**
 * 2: the duration percentiles are nearest-rank (were interpolated), null under three runs, and each
 * duration has a `min`.
 */
export const STATS_SCHEMA_VERSION = 2;

export function statsJson(s: StatsResult): string {
  return safeJson(statsDocument(s));
}

/** The document `-o json` and `-o yaml` print (report/ documentFormats). */
export function statsDocument(s: StatsResult) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    schemaVersion: STATS_SCHEMA_VERSION,
    tool: 'atlevel stats',
    ...s,
    filter: { ...s.filter, ...(s.filter.since !== undefined ? { since: iso(s.filter.since) } : {}) },
    firstRun: iso(s.firstRun),
    lastRun: iso(s.lastRun),
    errors: s.errors.map((e) => ({ ...e, at: iso(e.at) })),
    signatures: s.signatures.map((g) => ({ ...g, firstSeen: iso(g.firstSeen), lastSeen: iso(g.lastSeen) })),
    earlyLevels: s.earlyLevels.map((o) => ({ ...o, firstSeen: iso(o.firstSeen), lastSeen: iso(o.lastSeen) })),
  };
}
