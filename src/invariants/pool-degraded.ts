import type { ClusterHistory, Evidence, Finding, Millis } from '../model/index.js';
import { formatClock, formatDuration, MCO } from '../model/index.js';
import {
  type ConditionTransition,
  conditionTransitions,
  findUpdates,
  intervalLocators,
  intervalsOf,
  type PoolHistory,
  poolHistory,
  type RenderedConfig,
  targetAt,
  type UpdateRecord,
  updateConfig,
  userMachineConfigs,
} from '../timeline/index.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked, partialCoverage } from './rule.js';

const DEGRADED_CONDITIONS = ['Degraded', 'NodeDegraded', 'RenderDegraded'] as const;

/** One bad period of a pool condition: from its turn to True to its turn back (none: to the end). */
interface BadPeriod {
  readonly flip: ConditionTransition;
  readonly recovered?: ConditionTransition;
  /**
   * For `Degraded`, the NodeDegraded or RenderDegraded turn that says why: the node controller sets
   * `Degraded` with no reason, and with a message only when it repeats NodeDegraded's (docs/domain.md 2.3).
   */
  readonly cause?: { readonly type: string; readonly flip: ConditionTransition };
}

/**
 * Whose a degradation is. `update`: it began before the update completed, or while the pool rolled out
 * the update's own config (or before that config existed): the update's, as the rule always judged
 * it. `later`: it began after the update completed, while the pool rolled out a later config (a day-2
 * change) or once it had finished the update's own: not the update's. `unknown`: it began after the
 * update completed and the inputs do not say which config the pool was on then.
 */
type Blame =
  | {
      readonly kind: 'update';
      /**
       * Set when the degradation began after the CVO completed, while the pool was still rolling out
       * the update's own config: how the inputs show it had not finished, as a sentence and its evidence.
       */
      readonly unfinished?: {
        readonly config: RenderedConfig;
        readonly how: string;
        readonly evidence: Evidence;
      };
    }
  | {
      readonly kind: 'later';
      readonly update: UpdateRecord & { readonly completedAt: Millis };
      readonly config: RenderedConfig;
      /** The update's own config, when the inputs identify it. */
      readonly own?: RenderedConfig;
      /** How the inputs show the pool had finished the update's own config (then `config` is that config). */
      readonly settled?: string;
      /**
       * Not a later render: what else made the degradation not the update's (a day-2 MachineConfig whose
       * render failed, a paused pool none of whose nodes was given the update's config), with evidence.
       */
      readonly other?: { readonly what: string; readonly short: string; readonly evidence: Evidence };
    }
  | {
      readonly kind: 'unknown';
      readonly update: UpdateRecord & { readonly completedAt: Millis };
      readonly why: string;
    };

/**
 * A pool that is degraded blocks the machine-config operator and every later update (docs/domain.md
 * 1.3), but only a degradation of the update's making is the update's failure: one that began after
 * the update completed, while the pool rolled out a day-2 change, is reported as context and never
 * charged to the update (docs/rules/pool-degraded.md).
 */
export const poolDegraded = defineRule(
  'pool-degraded',
  'No MachineConfigPool is Degraded (NodeDegraded or RenderDegraded) during the update or while rolling out its config.',
  {
    severityPolicy:
      'failure: still Degraded at the end of the inputs, since a moment during the update or its config’s rollout (or with no update in the inputs); warning: Degraded and recovered, or Degraded after the update completed, on a later rollout (a day-2 change), once the pool had finished the update’s config, on a day-2 MachineConfig’s failed render, or in a paused pool none of whose nodes was given the update’s config',
  },
  (history: ClusterHistory, rule) => {
    // Only a pool whose conditions the inputs hold can be checked: a snapshot of it, or condition
    // lines about it. Events about a pool (RenderedConfigGenerated, SetDesiredConfig) name it but say
    // nothing of Degraded, and origin's monitor does not record pool conditions (docs/domain.md).
    const pools = new Set(history.objects.machineConfigPools.map((p) => p.object.metadata.name));
    const named = new Set<string>(pools);
    // By the intervals' distinct locators, and then only the intervals of the pools they name.
    for (const [locator, key] of intervalLocators(history)) {
      const name = locator.type === 'MachineConfigPool' ? locator.keys.machineconfigpool : undefined;
      if (!name) continue;
      named.add(name);
      if (pools.has(name)) continue;
      const conditions = intervalsOf(history, key).some(
        (i) =>
          i.locator === locator &&
          i.message.annotations.condition !== undefined &&
          i.message.annotations.status !== undefined,
      );
      if (conditions) pools.add(name);
    }
    const updates = findUpdates(history);
    if (pools.size === 0) {
      const reason =
        named.size === 0
          ? 'no MachineConfigPools in the inputs'
          : `no conditions of the MachineConfigPools in the inputs (only events about ${[...named].sort().join(', ')})`;
      return updates.length > 0 || named.size > 0
        ? notChecked(rule, reason, [NEEDS.pools])
        : notApplicable(rule, reason);
    }
    const findings: Finding[] = [];
    // The pools whose degradation at the end of the inputs may or may not be the update's.
    const undecided: string[] = [];
    for (const pool of [...pools].sort()) {
      const judged = judgedPeriods(history, pool);
      if (!judged) continue;
      const { type, periods, last } = judged;
      const blames = periods.map((p) => blameOf(history, pool, type, p, updates));
      const lastBlame = blames[blames.length - 1] as Blame;
      // Judged by how the inputs end: degraded again after a recovery is still degraded, from the
      // start of that last bad period; only a pool whose last word is False recovered.
      if (!last.recovered && lastBlame.kind === 'update') {
        findings.push(updateFinding(rule.id, pool, type, last, lastBlame));
      } else {
        const i = periods.findIndex((p, j) => blames[j]?.kind !== 'later' && p.recovered);
        const first = periods[i];
        if (first) findings.push(updateFinding(rule.id, pool, type, first, blames[i]));
      }
      // The newest degradation a later rollout made: context, so it is never hidden.
      const laterIndex = blames.findLastIndex((b) => b.kind === 'later');
      const laterBlame = blames[laterIndex];
      const laterPeriod = periods[laterIndex];
      if (laterBlame?.kind === 'later' && laterPeriod)
        findings.push(laterFinding(rule.id, pool, type, laterPeriod, laterBlame));
      if (!last.recovered && lastBlame.kind === 'unknown') {
        findings.push(unknownFinding(rule.id, pool, type, last, lastBlame));
        undecided.push(
          `pool ${pool} has been ${type}=True since ${formatClock(last.flip.at)}, after the update to ${lastBlame.update.target} completed, and the inputs do not say whether it was rolling out the update's config or a later change then: ${lastBlame.why}`,
        );
      }
    }
    // A pool the inputs name only in events was not checked: said, never counted as not degraded.
    const outcome = checked(
      rule,
      findings,
      partialCoverage(
        'pools',
        named,
        pools,
        'no conditions of the pool in the inputs (only events about it)',
        [NEEDS.pools],
      ),
    );
    if (outcome.state === 'violated' || undecided.length === 0) return outcome;
    // Never "holds" on a guess: the degradation is shown, the rule is not checked.
    return { ...notChecked(rule, undecided.join('; '), [NEEDS.renderedConfigs]), findings };
  },
);

/**
 * The condition a pool is judged on and its bad periods: `Degraded`, else `NodeDegraded`, else
 * `RenderDegraded`, the first with any (Degraded repeats what NodeDegraded/RenderDegraded say).
 */
function judgedPeriods(
  history: ClusterHistory,
  pool: string,
): { readonly type: string; readonly periods: BadPeriod[]; readonly last: BadPeriod } | undefined {
  const key = `MachineConfigPool/${pool}`;
  for (const type of DEGRADED_CONDITIONS) {
    const periods = withCauses(history, key, type, badPeriods(conditionTransitions(history, key, type)));
    const last = periods.at(-1);
    if (last) return { type, periods, last };
  }
  return undefined;
}

/**
 * Whose a pool's degradation still open at the end of the inputs is, as this rule judges it: the same
 * condition, its last bad period (docs/rules/pool-degraded.md). For the rules that judge something the
 * degradation causes, so that they never charge the update with what this rule does not
 * (no-serious-insight's degraded node or failed render). Undefined when the pool's conditions show no
 * degradation open at the end of the inputs.
 */
export type PoolDegradationOwner =
  | { readonly kind: 'update'; readonly since: Millis }
  | {
      /** `later`: not the update's; `unknown`: the inputs cannot tell. */
      readonly kind: 'later' | 'unknown';
      /** One sentence: when it began against the update's completion, and why it is not (or may not be) the update's. */
      readonly why: string;
      readonly since: Millis;
      readonly evidence: readonly Evidence[];
    };

/** The pool's open degradation judged by blameOf, as the rule judges its last bad period. */
export function poolDegradationOwner(
  history: ClusterHistory,
  pool: string,
): PoolDegradationOwner | undefined {
  const judged = judgedPeriods(history, pool);
  if (!judged || judged.last.recovered) return undefined;
  const { type, last } = judged;
  const b = blameOf(history, pool, type, last, findUpdates(history));
  if (b.kind === 'update') return { kind: 'update', since: last.flip.at };
  const began = `pool ${pool} has been ${type}=True since ${formatClock(last.flip.at)}, ${formatDuration(last.flip.at - b.update.completedAt)} after the update to ${b.update.target} completed (${formatClock(b.update.completedAt)})`;
  if (b.kind === 'unknown') {
    return {
      kind: 'unknown',
      why: `${began}: ${b.why}`,
      since: last.flip.at,
      evidence: [...flipEvidence(pool, type, last), completionEvidence(b.update)],
    };
  }
  const what =
    b.other !== undefined
      ? b.other.short
      : b.settled !== undefined
        ? `the pool had finished the update's own config ${b.config.name} first`
        : `the pool was rolling out ${b.config.name}, a later config rendered at ${formatClock(b.config.createdAt)} (a day-2 change)`;
  return {
    kind: 'later',
    why: `${began}: ${what}`,
    since: last.flip.at,
    evidence: laterEvidence(pool, type, last, b),
  };
}

/** The bad periods of a condition, oldest first (a repeated True inside one is the same period). */
function badPeriods(transitions: readonly ConditionTransition[]): BadPeriod[] {
  const out: BadPeriod[] = [];
  let open: ConditionTransition | undefined;
  for (const tr of transitions) {
    if (tr.status === 'True' && !open) open = tr;
    else if (tr.status === 'False' && open) {
      out.push({ flip: open, recovered: tr });
      open = undefined;
    }
  }
  if (open) out.push({ flip: open });
  return out;
}

/**
 * Whose a degradation that began at `t` is (docs/rules/pool-degraded.md): judged against the newest
 * update that had started by then. Before any update, during it, or with no completion in the inputs,
 * the update's. After its completion, by the config the pool targeted at `t` (docs/domain.md 3.3.1):
 * the update's own config still rolling out is the update's; a later rollout (a day-2 change), or the
 * update's own config once the pool had finished it, is not.
 */
function blameOf(
  history: ClusterHistory,
  pool: string,
  type: string,
  period: BadPeriod,
  updates: readonly UpdateRecord[],
): Blame {
  const t = period.flip.at;
  const update = updates.findLast((u) => u.startedAt !== undefined && u.startedAt <= t);
  const completedAt = update?.completedAt;
  if (!update || completedAt === undefined || t <= completedAt) return { kind: 'update' };
  const done = { ...update, completedAt };
  const ph = poolHistory(history, pool);
  const target = targetAt(ph, t);
  if (!target) {
    return {
      kind: 'unknown',
      update: done,
      why:
        ph.rendered.length === 0
          ? `the inputs hold no rendered config of pool ${pool}`
          : `no rendered config of pool ${pool} in the inputs was created by then`,
    };
  }
  const whose = configOwner(history, pool, update, target);
  if (whose.kind === 'unknown') return { kind: 'unknown', update: done, why: whose.why };
  if (whose.kind === 'later')
    return { kind: 'later', update: done, config: target, ...(whose.own ? { own: whose.own } : {}) };
  // The pool still targeted an older config: the update's own had not been rendered yet.
  if (whose.kind === 'earlier') return { kind: 'update' };
  if (whose.kind === 'other') {
    return {
      kind: 'unknown',
      update: done,
      why: `pool ${pool} targeted ${target.name}, neither the update's own config ${whose.own.name} nor a later rollout the inputs identify`,
    };
  }
  // The update's own config. Finished before the degradation began: the pool was settled on the update's config, not rolling
  // it out. A finish is an observation (a transition, the test's poll, the daemons' NodeDone
  // events), never an assumption.
  const finish = ph.finishes.find((f) => f.at >= target.createdAt && f.at < t);
  // Or the snapshot: still degraded at its end, the pool's status.configuration names the config.
  // It moves only when every node is updated, which a degraded node is not (docs/domain.md 2.3), so
  // it got there before the degradation began.
  const mcp = ph.pool?.object;
  const onIt =
    !period.recovered &&
    mcp?.status?.configuration?.name === target.name &&
    mcp.spec?.configuration?.name === target.name;
  const settled = finish
    ? `at ${formatClock(finish.at)}`
    : onIt
      ? `its status.configuration names it, which does not move while a node is degraded`
      : undefined;
  if (settled) return { kind: 'later', update: done, config: target, own: target, settled };
  return ownUnfinished(history, ph, type, period, done, target);
}

/**
 * Whose rollout a rendered config of the pool is, against one update (docs/domain.md 3.3.1): `own`,
 * the update's own config; `later`, one rendered after the update completed (a day-2 change) or for
 * a user's change made while it ran; `earlier`, older than the update's own (rendered before it);
 * `other`, none of these; `unknown`, the inputs cannot tell (the update's own config is not
 * identified, or this config may be it rendered late). For the rules that judge what a rollout
 * causes: pool-degraded on the config a pool targeted, no-serious-insight on the config a node drains for.
 */
export type ConfigOwner =
  | { readonly kind: 'own' | 'earlier' | 'other'; readonly own: RenderedConfig }
  | { readonly kind: 'later'; readonly own?: RenderedConfig }
  | { readonly kind: 'unknown'; readonly why: string };

export function configOwner(
  history: ClusterHistory,
  pool: string,
  update: UpdateRecord,
  config: RenderedConfig,
): ConfigOwner {
  const own = updateConfig(history, pool, update);
  if (own.alternative === config) return { kind: 'unknown', why: own.how };
  if (own.later.includes(config)) return { kind: 'later', ...(own.config ? { own: own.config } : {}) };
  if (!own.config) return { kind: 'unknown', why: own.how };
  if (config === own.config) return { kind: 'own', own: own.config };
  if (config.createdAt < own.config.createdAt) return { kind: 'earlier', own: own.config };
  return { kind: 'other', own: own.config };
}

/**
 * A degradation that began after the CVO completed, while the pool targeted the update's own config
 * and no finish of it was seen (docs/rules/pool-degraded.md). Never the update's on a guess:
 * - a day-2 MachineConfig (a user's, or one generated from a KubeletConfig or ContainerRuntimeConfig)
 *   that appeared after the completion and before the degradation, for the pool's roles: a render
 *   failure (RenderDegraded) is that change's, since the render controller keeps the last good config
 *   as the target when a render fails (MCO `render_controller.go`, `syncFailingStatus`); a node's
 *   degradation may be either, the inputs holding no config rendered from it: unknown;
 * - a paused pool, none of whose nodes was given the update's config: the update's config was not being
 *   rolled out (docs/domain.md 2.1), so not the update's; unknown when no Node says;
 * - the pool shown still rolling out the update's config (its status.configuration on an older config,
 *   fewer nodes updated than it has, or an observation of it Updating after the config appeared): the
 *   update is not done for this pool, whatever the CVO's Completed says (docs/domain.md 1.3): the
 *   update's, and the finding says so;
 * - nothing either way: unknown.
 */
function ownUnfinished(
  history: ClusterHistory,
  ph: PoolHistory,
  type: string,
  period: BadPeriod,
  update: UpdateRecord & { readonly completedAt: Millis },
  own: RenderedConfig,
): Blame {
  const t = period.flip.at;
  const pool = ph.name;
  const day2 = userMachineConfigs(history, pool)
    .filter((m) => m.createdAt > update.completedAt && m.createdAt <= t)
    .at(-1);
  if (day2) {
    const evidence: Evidence = {
      statement: `MachineConfig ${day2.name} (a day-2 change for pool ${pool}'s roles) created after the update completed`,
      at: day2.createdAt,
      object: `MachineConfig/${day2.name}`,
      field: 'metadata.creationTimestamp',
      ref: day2.ref,
    };
    const render = type === 'RenderDegraded' || period.cause?.type === 'RenderDegraded';
    if (render) {
      return {
        kind: 'later',
        update,
        config: own,
        own,
        other: {
          what: `when the render of MachineConfig ${day2.name}, a day-2 change created at ${formatClock(day2.createdAt)}, failed: the pool's target stayed the update's own config ${own.name}, as it does when a render fails`,
          short: `the render of MachineConfig ${day2.name}, a day-2 change created at ${formatClock(day2.createdAt)}, failed`,
          evidence,
        },
      };
    }
    return {
      kind: 'unknown',
      update,
      why: `MachineConfig ${day2.name}, a day-2 change for the pool's roles, was created at ${formatClock(day2.createdAt)}, before the degradation, and no config rendered from it is in the inputs: whether the pool was still rolling out the update's own config ${own.name} or that change, the inputs do not say`,
    };
  }
  const mcp = ph.pool?.object;
  const names = new Set(ph.rendered.map((r) => r.name));
  const nodes = history.objects.nodes.filter((n) => {
    const a = n.object.metadata.annotations ?? {};
    return names.has(a[MCO.currentConfig] ?? '') || names.has(a[MCO.desiredConfig] ?? '');
  });
  if (mcp?.spec?.paused === true) {
    if (nodes.length === 0) {
      return {
        kind: 'unknown',
        update,
        why: `pool ${pool} is paused, and no Node in the inputs says whether any of its nodes had been given the update's config ${own.name}`,
      };
    }
    const given = nodes.find((n) => n.object.metadata.annotations?.[MCO.desiredConfig] === own.name);
    if (!given) {
      return {
        kind: 'later',
        update,
        config: own,
        own,
        other: {
          what: `while the pool was paused and none of its ${nodes.length} nodes had been given the update's config ${own.name} (a paused pool gives its nodes no new config): the degradation is not of the update's rollout, and the update is not done for this pool until it is unpaused`,
          short: `the pool is paused and none of its ${nodes.length} nodes was given the update's config ${own.name}`,
          evidence: {
            statement: `pool ${pool} is paused (spec.paused), and every node of it still has a desiredConfig other than ${own.name}`,
            object: `MachineConfigPool/${pool}`,
            field: 'spec.paused',
            value: 'true',
            ref: ph.pool?.ref ?? own.ref,
          },
        },
      };
    }
  }
  const status = mcp?.status;
  const current = status?.configuration?.name;
  const counts =
    status?.machineCount !== undefined && status.updatedMachineCount !== undefined
      ? { all: status.machineCount, updated: status.updatedMachineCount }
      : undefined;
  if (mcp?.spec?.configuration?.name === own.name && current && current !== own.name) {
    const n = counts ? `, ${counts.updated} of ${counts.all} nodes updated` : '';
    return {
      kind: 'update',
      unfinished: {
        config: own,
        how: `its status.configuration is still ${current}${n}`,
        evidence: {
          statement: `pool ${pool} targets ${own.name} (spec.configuration) and its nodes have reached only ${current} (status.configuration)${n}, at the end of the inputs`,
          object: `MachineConfigPool/${pool}`,
          field: 'status.configuration.name',
          value: current,
          ref: ph.pool?.ref ?? own.ref,
        },
      },
    };
  }
  const rolling = [...ph.observations]
    .reverse()
    .find((o) => o.at >= own.createdAt && o.at <= t && (o.updating === true || o.updated === false));
  if (rolling) {
    return {
      kind: 'update',
      unfinished: {
        config: own,
        how: `${rolling.text} at ${formatClock(rolling.at)}`,
        evidence: {
          statement: `pool ${pool} ${rolling.text}, after ${own.name} appeared and before the degradation, with no finish seen since`,
          at: rolling.at,
          object: `MachineConfigPool/${pool}`,
          ref: rolling.ref,
        },
      },
    };
  }
  return {
    kind: 'unknown',
    update,
    why: `pool ${pool} targeted the update's own config ${own.name}, and the inputs show neither that it had finished it nor that it was still rolling it out when it degraded`,
  };
}

function periodText(pool: string, type: string, p: BadPeriod): string {
  return `pool ${pool} was ${type}=True from ${formatClock(p.flip.at)}${p.recovered ? ` to ${formatClock(p.recovered.at)}` : ' to the end of the inputs'}`;
}

/** The pool's own words for the degradation: `NodeDegraded: Node … is reporting: "…"`. */
function causeText(p: BadPeriod): string | undefined {
  const said = (tr: ConditionTransition): string | undefined => tr.message || tr.reason || undefined;
  const own = said(p.flip);
  if (own) return own;
  const cause = p.cause ? said(p.cause.flip) : undefined;
  return cause && p.cause ? `${p.cause.type}: ${cause}` : undefined;
}

function why(p: BadPeriod): string {
  const said = (tr: ConditionTransition): string | undefined => tr.message || tr.reason || undefined;
  const own = said(p.flip);
  if (own) return `: ${own}`;
  const cause = p.cause ? said(p.cause.flip) : undefined;
  return cause && p.cause ? ` (${p.cause.type}: ${cause})` : '';
}

/** Each `Degraded` period with the NodeDegraded or RenderDegraded turn to True inside it, if any. */
function withCauses(history: ClusterHistory, key: string, type: string, periods: BadPeriod[]): BadPeriod[] {
  if (type !== 'Degraded') return periods;
  const specific = (['NodeDegraded', 'RenderDegraded'] as const).flatMap((t) =>
    conditionTransitions(history, key, t)
      .filter((tr) => tr.status === 'True' && (tr.message || tr.reason))
      .map((tr) => ({ type: t, flip: tr })),
  );
  // Second precision: the specific condition may carry a time a second off the union's.
  return periods.map((p) => {
    const cause = specific.find(
      (c) => c.flip.at >= p.flip.at - 1000 && (!p.recovered || c.flip.at < p.recovered.at),
    );
    return cause ? { ...p, cause } : p;
  });
}

function flipEvidence(pool: string, type: string, p: BadPeriod): Evidence[] {
  const c = p.cause;
  return [
    {
      statement: `pool ${pool} ${type}=True${p.flip.reason ? ` (${p.flip.reason})` : ''}`,
      at: p.flip.at,
      object: `MachineConfigPool/${pool}`,
      field: `status.conditions[${type}]`,
      ref: p.flip.ref,
    },
    ...(c
      ? [
          {
            statement: `pool ${pool} ${c.type}=True${c.flip.reason ? ` (${c.flip.reason})` : ''}${c.flip.message ? `: ${c.flip.message}` : ''}`,
            at: c.flip.at,
            object: `MachineConfigPool/${pool}`,
            field: `status.conditions[${c.type}]`,
            ref: c.flip.ref,
          },
        ]
      : []),
  ];
}

/** A degradation of the update's, or of no update: the finding the rule always made. */
function updateFinding(rule: string, pool: string, type: string, p: BadPeriod, blame?: Blame): Finding {
  const key = `MachineConfigPool/${pool}`;
  const unfinished = blame?.kind === 'update' ? blame.unfinished : undefined;
  const still = unfinished
    ? `, after the CVO completed the update, while the pool was still rolling out the update's own config ${unfinished.config.name} (${unfinished.how}): the update is not done for this pool, whatever the CVO's Completed says`
    : '';
  return {
    rule,
    severity: p.recovered ? 'warning' : 'failure',
    summary: `${periodText(pool, type, p)}${still}${why(p)}${p.recovered ? '; a warning, not a failure: the pool recovered' : ''}`,
    at: p.flip.at,
    evidence: [...flipEvidence(pool, type, p), ...(unfinished ? [unfinished.evidence] : [])],
    moments: [{ label: `pool ${pool} ${type}`, at: p.flip.at, objects: [key] }],
    subject: { pool, objects: [key] },
  };
}

/** A degradation a later rollout made, after the update completed: context, not the update's failure. */
function laterFinding(
  rule: string,
  pool: string,
  type: string,
  p: BadPeriod,
  b: Extract<Blame, { kind: 'later' }>,
): Finding {
  const key = `MachineConfigPool/${pool}`;
  const after = formatDuration(p.flip.at - b.update.completedAt);
  const what =
    b.other !== undefined
      ? b.other.what
      : b.settled !== undefined
        ? `once it had finished rolling out the update's own config ${b.config.name} (${b.settled})`
        : `while it rolled out ${b.config.name}, a later config rendered at ${formatClock(b.config.createdAt)} (a day-2 change${b.own ? `, not the update's ${b.own.name}` : ''})`;
  const said = causeText(p);
  return {
    rule,
    severity: 'warning',
    summary: `${periodText(pool, type, p)}, ${after} after the update to ${b.update.target} completed (${formatClock(b.update.completedAt)}), ${what}; a warning, not a failure of the update: the degradation began after it${p.recovered ? ' and the pool recovered' : ' and blocks the next update until it is fixed'}${said ? `. ${said}` : ''}`,
    at: p.flip.at,
    evidence: laterEvidence(pool, type, p, b),
    moments: [{ label: `pool ${pool} ${type}`, at: p.flip.at, objects: [key] }],
    subject: {
      target: b.update.target,
      ...(b.update.previous ? { previous: b.update.previous } : {}),
      pool,
      // What made it not the update's: the day-2 MachineConfig, or the pool itself when paused.
      objects: [key, b.other?.evidence.object ?? `MachineConfig/${b.config.name}`].filter(
        (o, i, all) => all.indexOf(o) === i,
      ),
      toConfig: b.config.name,
      cvoCompletedAt: b.update.completedAt,
    },
  };
}

/** What shows a degradation is a later change's: the pool's turn, the update's completion, and the change. */
function laterEvidence(
  pool: string,
  type: string,
  p: BadPeriod,
  b: Extract<Blame, { kind: 'later' }>,
): Evidence[] {
  return [
    ...flipEvidence(pool, type, p),
    completionEvidence(b.update),
    b.other?.evidence ?? {
      statement:
        b.settled !== undefined
          ? `${b.config.name} is the update's own config, and the pool had finished it`
          : `${b.config.name} created for pool ${pool}, after the update completed`,
      at: b.config.createdAt,
      object: `MachineConfig/${b.config.name}`,
      field: 'metadata.creationTimestamp',
      ref: b.config.ref,
    },
  ];
}

/** A degradation at the end of the inputs that began after the update, on a config the inputs do not identify. */
function unknownFinding(
  rule: string,
  pool: string,
  type: string,
  p: BadPeriod,
  b: Extract<Blame, { kind: 'unknown' }>,
): Finding {
  const key = `MachineConfigPool/${pool}`;
  const said = causeText(p);
  return {
    rule,
    severity: 'warning',
    summary: `${periodText(pool, type, p)}, ${formatDuration(p.flip.at - b.update.completedAt)} after the update to ${b.update.target} completed; a warning, not a failure: whether the pool was rolling out the update's config or a later change then, the inputs do not say (${b.why})${said ? `. ${said}` : ''}`,
    at: p.flip.at,
    evidence: flipEvidence(pool, type, p),
    moments: [{ label: `pool ${pool} ${type}`, at: p.flip.at, objects: [key] }],
    subject: {
      target: b.update.target,
      pool,
      objects: [key],
      cvoCompletedAt: b.update.completedAt,
    },
  };
}

/** The witness of the update's completion that dates it (ClusterVersion history, or the monitor's line). */
function completionEvidence(update: UpdateRecord & { readonly completedAt: Millis }): Evidence {
  const w = update.witnesses.find((x) => x.at === update.completedAt);
  const ref = w?.ref ?? update.ref;
  return {
    statement: `the update to ${update.target} completed${w && w.by !== 'history' ? ` (${w.text})` : ''}`,
    at: update.completedAt,
    object: 'ClusterVersion/version',
    ...(w?.by === 'history' || !w ? { field: 'status.history[].completionTime' } : {}),
    ...(ref ? { ref } : {}),
  };
}
