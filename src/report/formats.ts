/**
 * Every command's output formats: one record per result type, keyed by the `-o` name. Adding an
 * output format is one reporter module plus one line in its command's record; the CLI takes its
 * `-o` choices from these keys. `-o json` and `-o yaml` print one document (documentFormats).
 */

import type { InputPlan } from '../model/index.js';
import type { ReleaseDiff } from '../release/index.js';
import type { SimulateOutcome } from '../sim/index.js';
import type { HostedStatus, UpdateStatus } from '../status/index.js';
import { documentFormats, type Reporters } from './reporter.js';
import type {
  AnalyzeReport,
  AnalyzeSettings,
  DiffReport,
  ReleaseInfoReport,
  StatusSettings,
} from './results.js';

export const ANALYZE_FORMATS = {
  text: async () => (await import('./analyze-text.js')).analyzeText,
  ...documentFormats(async () => (await import('./analyze-json.js')).analyzeDocument),
  junit: async () => (await import('./analyze-junit.js')).analyzeJunit,
  html: async () => (await import('./html/index.js')).analyzeHtml,
} satisfies Reporters<AnalyzeReport, AnalyzeSettings>;

export const STATUS_FORMATS = {
  text: async () => (await import('./status-text.js')).renderStatusText,
  ...documentFormats(async () => (await import('./status-json.js')).statusDocument),
} satisfies Reporters<UpdateStatus, StatusSettings>;

/** `atlevel status` of a hosted cluster: the same `-o` choices, another document (docs/status.md). */
export const HOSTED_STATUS_FORMATS = {
  text: async () => (await import('./hosted-status-text.js')).renderHostedStatusText,
  ...documentFormats(async () => (await import('./hosted-status-json.js')).hostedStatusDocument),
} satisfies Reporters<HostedStatus, StatusSettings>;

export const DIFF_FORMATS = {
  text: async () => (await import('./diff-text.js')).diffText,
  ...documentFormats(async () => (await import('./diff-json.js')).diffDocument),
} satisfies Reporters<DiffReport>;

export const RELEASE_DIFF_FORMATS = {
  text: async () => (await import('./release-text.js')).renderReleaseDiffText,
  ...documentFormats(async () => (await import('./release-json.js')).releaseDiffDocument),
} satisfies Reporters<ReleaseDiff>;

export const RELEASE_INFO_FORMATS = {
  text: async () => (await import('./release-text.js')).releaseInfoText,
  ...documentFormats(async () => (await import('./release-json.js')).releaseInfoDoc),
} satisfies Reporters<ReleaseInfoReport>;

export const SIMULATE_FORMATS = {
  text: async () => (await import('./sim-text.js')).renderSimulationText,
  ...documentFormats(async () => (await import('./sim-json.js')).simulationDocument),
} satisfies Reporters<SimulateOutcome>;

/** `atlevel inputs`: each argument's plan (docs/inputs.md). */
export const INPUTS_FORMATS = {
  text: async () => (await import('./inputs-text.js')).inputsText,
  ...documentFormats(async () => (await import('./inputs-json.js')).inputsDocument),
} satisfies Reporters<readonly InputPlan[]>;
