import type { ClusterHistory, Evidence, Finding } from '../model/index.js';
import { formatClock } from '../model/index.js';
import { assessStatus, type Insight, isSerious, statusPrerequisites } from '../status/index.js';
import { findUpdates } from '../timeline/index.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked } from './rule.js';

/**
 * One assessment of the inputs' moment for both commands: the insights `atlevel status` raises are
 * computed once (status/), and each Error or Critical one is a failure here, on the same objects, so
 * that status and analyze never disagree about the same input (docs/status.md).
 */
export const noSeriousInsight = defineRule(
  'no-serious-insight',
  "At the inputs' moment, atlevel status raises no Error or Critical update-health insight.",
  { severityPolicy: "failure: each Error or Critical insight of atlevel status at the inputs' moment" },
  (history: ClusterHistory, rule) => {
    // The moment is the one `atlevel status` assesses by default (the snapshot's latest condition
    // change); inputs whose conditions carry no time are assessed at the end of what they show.
    const end = history.span?.to;
    const opts = statusPrerequisites(history) !== undefined && end !== undefined ? { now: end } : {};
    const problem = statusPrerequisites(history, opts);
    if (problem !== undefined) {
      return findUpdates(history).length > 0
        ? notChecked(rule, `the moment cannot be assessed: ${problem}`, [NEEDS.snapshot])
        : notApplicable(rule, `the moment cannot be assessed: ${problem}`);
    }
    const status = assessStatus(history, opts);
    const findings = status.insights
      .filter(isSerious)
      .map((i) => insightFinding(rule.id, i, status.evaluatedAt));
    return checked(rule, findings);
  },
);

function insightFinding(rule: string, i: Insight, now: number): Finding {
  const objects = i.objects.map((o) => `${o.kind}/${o.name}`);
  const evidence: Evidence[] = [
    {
      statement: `atlevel status, at ${formatClock(now)}: ${i.level} insight (${i.impact}): ${i.description}`,
      ...(i.since !== undefined ? { at: i.since } : {}),
      ...(objects[0] ? { object: objects[0] } : {}),
      ...(i.refs[0] ? { ref: i.refs[0] } : {}),
    },
    ...i.refs.slice(1).map((ref, n) => ({
      statement: `read from ${ref.file}`,
      ...(objects[n + 1] ? { object: objects[n + 1] as string } : {}),
      ref,
    })),
  ];
  return {
    rule,
    severity: 'failure',
    summary: i.message,
    ...(i.since !== undefined ? { at: i.since } : {}),
    evidence,
    ...(i.since !== undefined ? { moments: [{ label: `${i.kind} since`, at: i.since, objects }] } : {}),
    subject: { objects, insight: i.kind },
  };
}
