/**
 * stats/ answers `atlevel stats` over the run store: failure rate per rule by version stream,
 * platform and week; runs by signature with first and last seen; the changed release components that
 * co-occur with the race before and after the fix; percentiles of the durations (query.ts), and the
 * text, JSON, CSV and HTML forms of the answer. docs/runs.md describes the figures.
 */
export { STATS_FORMATS } from './formats.js';
export {
  type ComponentRow,
  collectStats,
  type Percentiles,
  type StatsFilter,
  type StatsResult,
} from './query.js';
