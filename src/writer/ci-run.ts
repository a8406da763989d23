/**
 * A CI run's files from plain content (path → text, nothing written): gather-extra Lists named by the
 * kinds' descriptors (docs/domain.md 7.4), origin's interval files (7.3), the build log (7.1, 6) and
 * `oc adm release info -o json` of both releases (8.4).
 */
import { CiRun, intervalFileNames, type MonitorRecord, type ReleaseInfoSpec } from '../artifacts/index.js';
import type { KnownKind } from '../model/index.js';

export interface CiContent {
  /** The multi-stage test's name (e.g. `e2e-aws-upgrade`): the folder its steps' artifacts go in. */
  readonly target: string;
  /** When the test started (wall ms): origin names its interval files after it. */
  readonly start: number;
  /** gather-extra Lists, each already in the JSON form `oc get -o json` prints, written in this order. */
  readonly lists: ReadonlyArray<readonly [KnownKind, readonly unknown[]]>;
  /** origin's e2e-events file (every record) and, when given, its e2e-intervals file. */
  readonly monitor: {
    readonly events: readonly MonitorRecord[];
    readonly intervals?: readonly MonitorRecord[];
  };
  readonly buildLog: string;
  readonly releases?: { readonly from: ReleaseInfoSpec; readonly to: ReleaseInfoSpec };
  /** Any other file of the run, path (relative to the run folder) → text. */
  readonly extra?: ReadonlyArray<readonly [string, string]>;
}

export function ciRunFiles(content: CiContent): Map<string, string> {
  const run = new CiRun(content.target);
  for (const [kind, items] of content.lists) run.gatherList(kind, items);
  const names = intervalFileNames(content.start);
  run.intervals(names.events, content.monitor.events);
  if (content.monitor.intervals) run.intervals(names.intervals, content.monitor.intervals);
  run.buildLog(content.buildLog);
  if (content.releases) {
    run.release('from', content.releases.from);
    run.release('to', content.releases.to);
  }
  for (const [path, text] of content.extra ?? []) run.add(path, text);
  return run.files;
}
