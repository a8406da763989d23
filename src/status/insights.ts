import type { Insight, InsightLevel } from './types.js';

/** Documentation pages oc links its insights to; atlevel links the same ones. */
export const REFERENCES = {
  operatorDown:
    'https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md',
  operatorDegraded:
    'https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDegraded.md',
  updateHistory:
    'https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html#gathering-clusterversion-history-cli_troubleshooting_updates',
  machineConfig:
    'https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html#understanding-the-machine-config-operator',
  pausedPool:
    'https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html#troubleshooting-disabling-autoreboot-mco_troubleshooting-operator-issues',
  podDisruptionBudget: 'https://kubernetes.io/docs/tasks/run-application/configure-pdb/',
  updateConditions:
    'https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html',
} as const;

const LEVEL_RANK: Record<InsightLevel, number> = { Critical: 3, Error: 2, Warning: 1, Info: 0 };

function levelRank(level: InsightLevel): number {
  return LEVEL_RANK[level];
}

/**
 * Most severe first; within a level the most recent first, insights with no known start last.
 * Stable, so insights found in the same order keep it (operators stay alphabetical).
 */
export function sortInsights(insights: readonly Insight[]): Insight[] {
  return insights
    .map((insight, index) => ({ insight, index }))
    .sort((a, b) => {
      const byLevel = levelRank(b.insight.level) - levelRank(a.insight.level);
      if (byLevel !== 0) return byLevel;
      const ta = a.insight.since ?? Number.NEGATIVE_INFINITY;
      const tb = b.insight.since ?? Number.NEGATIVE_INFINITY;
      if (ta !== tb) return tb > ta ? 1 : -1;
      return a.index - b.index;
    })
    .map((x) => x.insight);
}

/** An insight that stops the update until someone acts: Error or Critical. */
export function isSerious(insight: Insight): boolean {
  return levelRank(insight.level) >= LEVEL_RANK.Error;
}
