/**
 * watch/ follows a live cluster through an update (docs/live.md): list+watch of every resource the
 * live source reads, robust like a controller (resume, 410 Gone relists, backoff with jitter,
 * bookmarks); each meaningful transition reported as it happens; the rules that can decide during
 * an update run the moment they can; at completion the whole analysis, and `--record DIR` in the CI
 * layout that analyze reads.
 */
export { jsonLine, textLine } from './lines.js';
export { stoppedResult } from './stopped.js';
export { type WatchOptions, type WatchOutput, type WatchSummary, watchCluster } from './watcher.js';
