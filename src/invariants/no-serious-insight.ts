import type { ClusterHistory, Evidence, Finding, Millis } from '../model/index.js';
import { formatClock } from '../model/index.js';
import {
  assessStatus,
  type Insight,
  isSerious,
  statusPrerequisites,
  type UpdateStatus,
} from '../status/index.js';
import { findUpdates } from '../timeline/index.js';
import { type PoolDegradationOwner, poolDegradationOwner } from './pool-degraded.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked } from './rule.js';

/**
 * One assessment of the inputs' moment for both commands: the insights `atlevel status` raises are
 * computed once (status/), and each Error or Critical one is a failure here, on the same objects, so
 * that status and analyze never disagree about the same input (docs/status.md). An insight a pool's
 * degradation raises (a degraded node, a failed render) is judged the update's as pool-degraded judges
 * that degradation, never otherwise: a day-2 change's after the update is not the update's failure
 * (docs/rules/no-serious-insight.md).
 */
export const noSeriousInsight = defineRule(
  'no-serious-insight',
  "At the inputs' moment, atlevel status raises no Error or Critical update-health insight.",
  {
    severityPolicy:
      "failure: each Error or Critical insight of atlevel status at the inputs' moment; warning: one raised by a pool's degradation that pool-degraded does not charge to the update (it began after the update completed, on a later change or in a paused pool never given the update's config, or the inputs cannot tell whose it is)",
  },
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
    const owners = new Map<string, PoolDegradationOwner | undefined>();
    const ownerOf = (pool: string) => {
      if (!owners.has(pool)) owners.set(pool, poolDegradationOwner(history, pool));
      return owners.get(pool);
    };
    const findings: Finding[] = [];
    // The insights whose degradation the inputs cannot place: never the update's failure on a guess.
    const undecided: string[] = [];
    for (const i of status.insights.filter(isSerious)) {
      const pool = degradedPool(i, status);
      const owner = pool !== undefined ? ownerOf(pool) : undefined;
      findings.push(insightFinding(rule.id, i, status.evaluatedAt, owner));
      if (owner?.kind === 'unknown') undecided.push(`${i.message}: ${owner.why}`);
    }
    const outcome = checked(rule, findings);
    if (outcome.state === 'violated' || undecided.length === 0) return outcome;
    return { ...notChecked(rule, undecided.join('; '), [NEEDS.renderedConfigs]), findings };
  },
);

/**
 * The pool whose degradation raised the insight: a degraded node's pool, or the pool whose render
 * failed. Other insights (an operator, a drain, a pool still rolling out when the CVO completed) are
 * not a pool's degradation and stay failures.
 */
function degradedPool(i: Insight, status: UpdateStatus): string | undefined {
  const name = i.objects[0]?.name;
  if (i.kind === 'pool-render-degraded') return name;
  if (i.kind === 'node-degraded') return status.pools.find((p) => p.nodes.some((n) => n.name === name))?.name;
  return undefined;
}

function insightFinding(
  rule: string,
  i: Insight,
  now: Millis,
  owner: PoolDegradationOwner | undefined,
): Finding {
  const objects = i.objects.map((o) => `${o.kind}/${o.name}`);
  // The snapshot's objects are read as last seen: a degradation that began after the moment status
  // assesses (the latest ClusterVersion/ClusterOperator condition change) is never said to be "at" it.
  const began = i.since ?? owner?.since;
  const moment =
    began !== undefined && began > now
      ? `on the snapshot's objects as last seen (this began at ${formatClock(began)}, after ${formatClock(now)}, the moment status assesses)`
      : `at ${formatClock(now)}`;
  const evidence: Evidence[] = [
    {
      statement: `atlevel status, ${moment}: ${i.level} insight (${i.impact}): ${i.description}`,
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
  const subject = { objects, insight: i.kind };
  if (owner === undefined || owner.kind === 'update') {
    return {
      rule,
      severity: 'failure',
      summary: i.message,
      ...(i.since !== undefined ? { at: i.since } : {}),
      evidence,
      ...(i.since !== undefined ? { moments: [{ label: `${i.kind} since`, at: i.since, objects }] } : {}),
      subject,
    };
  }
  // As pool-degraded judges the pool's degradation: shown, never the update's failure.
  const whose =
    owner.kind === 'later' ? "not the update's" : "whether it is the update's, the inputs cannot tell";
  return {
    rule,
    severity: 'warning',
    summary: `${i.message}, ${whose}: ${owner.why}; a warning, not a failure of the update, as in pool-degraded`,
    at: owner.since,
    evidence: [...evidence, ...owner.evidence],
    moments: [{ label: `${i.kind} since`, at: owner.since, objects }],
    subject,
  };
}
