import type { InputFile, Interval, ObjectSnapshot, ReleasePayload, TestLogEntry } from '../model/history.js';
import type { Millis } from '../model/time.js';

/**
 * What the readers hand to timeline/buildHistory: the raw material of a ClusterHistory, before
 * intervals are derived from objects and everything is merged and sorted. The simulator produces
 * the same thing.
 */
export interface HistoryParts {
  objects: ObjectSnapshot;
  /** Intervals as recorded by origin's monitor (build-log lines, e2e-events/intervals/timelines JSON). */
  monitorIntervals: Interval[];
  testLog: TestLogEntry[];
  releases: { from?: ReleasePayload; to?: ReleasePayload };
  inputs: InputFile[];
  notes: string[];
  /**
   * Prometheus alerts captured with a snapshot (oc examples `CASE-alerts.json`, must-gather
   * `monitoring/alerts.json`, `oc adm inspect-alerts` output), flattened to the alert objects
   * (`{labels, annotations, state, activeAt, ...}`); src/status/alerts.ts interprets them.
   */
  alerts?: unknown[];
  /**
   * Set when interval-file copies of build-log lines were dropped while reading (loadHistory does
   * this; timeline's dropEchoes would drop them anyway): the time they spanned, which still counts
   * toward the history's span.
   */
  echoSpan?: { readonly from: Millis; readonly to: Millis };
}

export interface LoadOptions {
  /** `--release-from F` / `--release-to F`: release info files given explicitly. */
  readonly releaseFrom?: string;
  readonly releaseTo?: string;
  /** Refuse any single file (or decompressed stream) larger than this. Default 2 GiB. */
  readonly maxFileBytes?: number;
}
