import type { ClusterOperator, ClusterVersion } from '../model/index.js';
import { type Millis, parseTime } from '../model/index.js';

/**
 * oc evaluates its example snapshots (`pkg/cli/admin/upgrade/status/examples` in openshift/oc) at the
 * latest condition transition of the ClusterVersion and ClusterOperators, plus 368975 ns "to exercise
 * rounding" (docs/status.md, `--at`). Doing the same makes every duration and estimate comparable with
 * oc's expected outputs.
 */
const OC_NOW_OFFSET_MS = 0.368975;

/** The moment a snapshot speaks of, or undefined when no condition carries a time. */
export function snapshotNow(cv: ClusterVersion, operators: readonly ClusterOperator[]): Millis | undefined {
  let latest: Millis | undefined;
  const consider = (value: string | null | undefined): void => {
    const at = parseTime(value);
    if (at !== undefined && (latest === undefined || at > latest)) latest = at;
  };
  for (const c of cv.status?.conditions ?? []) consider(c.lastTransitionTime);
  for (const co of operators) for (const c of co.status?.conditions ?? []) consider(c.lastTransitionTime);
  return latest === undefined ? undefined : latest + OC_NOW_OFFSET_MS;
}
