import type { ClusterHistory, Millis } from '../model/index.js';
import { assessStatus, statusPrerequisites } from './assess.js';
import type { Insight } from './types.js';

/**
 * The insights about a hosted cluster's guest operators, as the ordinary status gives them (it needs
 * the guest's ClusterVersion); its pools are the NodePools, shown from the management side. One
 * function for `atlevel status` and no-serious-insight, so the two read the guest alike.
 */
export function guestOperatorInsights(g: ClusterHistory, now?: Millis): readonly Insight[] {
  const opts = now !== undefined ? { now } : {};
  if (statusPrerequisites(g, opts) !== undefined) return [];
  return assessStatus(g, opts).insights.filter(
    (i) => i.kind === 'operator-unavailable' || i.kind === 'operator-degraded',
  );
}
