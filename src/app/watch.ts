/**
 * The `watch` use case: follow an update on a live cluster (docs/live.md). Each transition and each
 * finding goes to the caller's callback as it happens; the result is analyze's on what was seen, or,
 * when the signal stopped the watch before the update completed, inconclusive unless a rule already
 * failed. The watcher and the client library are loaded only when a watch starts.
 */
import type { AnalysisResult } from '../analyze/index.js';
import type { ClusterHistory } from '../model/index.js';
import type { WatchOutput } from '../watch/index.js';
import { type Conclusion, verdictConclusion } from './conclusion.js';
import {
  type GivenReleases,
  type LiveTarget,
  liveLimits,
  type ReadOptions,
  readGivenReleases,
} from './read.js';

export interface WatchRequest extends GivenReleases {
  readonly live: LiveTarget;
  /** Write what was seen to this folder in the CI layout analyze reads (on completion or stop). */
  readonly record?: string;
  /** Keep watching across updates until the signal stops it. */
  readonly forever?: boolean;
}

export interface WatchEvents {
  /** A transition, a finding, or the completion of an update, as it happens. */
  readonly onEvent: (event: WatchOutput) => void;
}

export interface WatchOutcome {
  /** analyze's result on what was seen; when stopped early, its stopped form (watch/stopped.ts). */
  readonly result: AnalysisResult;
  readonly history: ClusterHistory;
  /** The API server watched. */
  readonly server: string;
  /** Stopped before an update completed (or stopped at all with `forever`). */
  readonly interrupted: boolean;
  /** When stopped during an update: its target. */
  readonly activeAtStop?: string;
  /** Where the run was recorded, if it was. */
  readonly recorded?: string;
  readonly conclusion: Conclusion;
}

export async function watch(
  request: WatchRequest,
  events: WatchEvents,
  signal: AbortSignal,
  read: ReadOptions = {},
): Promise<WatchOutcome> {
  const { loadKubeConfig } = await import('../live/index.js');
  const { stoppedResult, watchCluster } = await import('../watch/index.js');
  const { live } = request;
  const config = await loadKubeConfig({
    ...(live.kubeconfig !== undefined ? { kubeconfig: live.kubeconfig } : {}),
    ...(live.context !== undefined ? { context: live.context } : {}),
  });
  const releases = await readGivenReleases(request, read);
  const summary = await watchCluster({
    config,
    signal,
    limits: liveLimits(live, read),
    ...(request.forever ? { forever: true } : {}),
    ...(request.record !== undefined ? { record: request.record } : {}),
    ...(releases ? { releases } : {}),
    emit: events.onEvent,
  });
  // A stopped watch says inconclusive (exit 4) unless a rule failed: never PASS over exit 4.
  const result = summary.interrupted ? stoppedResult(summary.result, summary) : summary.result;
  return {
    result,
    history: summary.history,
    server: config.server,
    interrupted: summary.interrupted,
    ...(summary.activeAtStop !== undefined ? { activeAtStop: summary.activeAtStop } : {}),
    ...(summary.recorded !== undefined ? { recorded: summary.recorded } : {}),
    conclusion: verdictConclusion(result.verdict),
  };
}
