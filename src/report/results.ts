/**
 * The result each command hands to its reporters. Everything a report of that command prints, in any
 * format, is in here.
 */
import type { AnalysisResult } from '../analyze/index.js';
import type { MachineConfigDiff } from '../machineconfig/index.js';
import type { ClusterHistory, ReleasePayload } from '../model/index.js';
import type { ComponentMatch } from '../release/index.js';
import type { TextSettings } from './reporter.js';

export interface AnalyzeSettings extends TextSettings {
  /** Summaries only, no evidence or cause chain. */
  readonly brief: boolean;
}

/** What `atlevel status --details` adds to the text report. */
export type StatusDetails = 'none' | 'nodes' | 'health' | 'operators' | 'all';

export interface StatusSettings extends TextSettings {
  readonly details: StatusDetails;
}

/** `atlevel analyze` / `atlevel report`. */
export interface AnalyzeReport {
  readonly result: AnalysisResult;
  /** The HTML report draws the timeline from it. */
  readonly history: ClusterHistory;
  /** The paths as given on the command line. */
  readonly inputs: readonly string[];
}

/** How `atlevel diff` chose the two configs (`names`, `pool`, `pool-at`, `files`). */
export interface DiffSelection {
  readonly mode: string;
  readonly pool?: string;
  readonly at?: string;
}

/** `atlevel diff`. */
export interface DiffReport {
  readonly diff: MachineConfigDiff;
  readonly releases: { readonly from?: ReleasePayload; readonly to?: ReleasePayload };
  readonly selection: DiffSelection;
  /** How the two configs were picked, in words, when atlevel picked them. */
  readonly how?: string;
}

/** `atlevel release info`: the payload, and the answer to a lookup if one was asked. */
export interface ReleaseInfoReport {
  readonly payload: ReleasePayload;
  readonly lookup?: {
    readonly by: 'image-for' | 'component-for';
    readonly matches: readonly ComponentMatch[];
  };
}
