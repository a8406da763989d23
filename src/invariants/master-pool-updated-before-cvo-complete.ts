import type { ClusterHistory, Evidence, Finding, KeyMoment, SourceRef } from '../model/index.js';
import { formatClock, formatDuration, gapAfter, MCO, parseTime } from '../model/index.js';
import {
  findUpdates,
  finishedRollout,
  type PoolHistory,
  type PoolObservation,
  poolHistory,
  poolStateAt,
  type RenderedConfig,
  type UpdateRecord,
  updateLabel,
} from '../timeline/index.js';
import { configForRelease } from './release-configs.js';
import { checked, defineRule, NEEDS, notApplicable, notChecked, noUpdateReason } from './rule.js';

const POOL = 'master';
const POOL_KEY = `MachineConfigPool/${POOL}`;

/** origin's upgrade invariant (docs/domain.md 6), checked at the instant the CVO reported completion. */
export const masterPoolUpdatedBeforeCvoComplete = defineRule(
  'master-pool-updated-before-cvo-complete',
  'When the CVO reports an update complete, the master pool is Updated=True, Updating=False and on the rendered config made for the new release.',
  {
    severityPolicy:
      "failure: the master pool was not Updated on the new release's config when the CVO completed (or the upgrade test saw the violation)",
    explain: 'pool-rollout-at-completion',
  },
  (history: ClusterHistory, rule) => {
    const updates = findUpdates(history);
    const completed = updates.filter((u) => u.completedAt !== undefined);
    const newest = updates[updates.length - 1];
    // History says Completed but no witness says when (a trimmed or rebuilt ClusterVersion): the
    // update did complete, so the rule applies, and the moment it is judged at is unknown.
    const undated =
      newest?.state === 'Completed' && newest.completedAt === undefined
        ? `the update ${updateLabel(newest)} is Completed in ClusterVersion history, but the inputs do not say when the CVO completed it`
        : undefined;
    if (completed.length === 0) {
      return undated
        ? notChecked(rule, undated, [NEEDS.completion])
        : notApplicable(rule, noUpdateReason(history, 'completed update'));
    }
    const ph = poolHistory(history, POOL);
    const testPool = history.testLog.some((e) => e.kind === 'pool-status' && e.pool === POOL);
    if (!ph.pool && ph.rendered.length === 0 && ph.observations.length === 0 && !testPool) {
      return notChecked(rule, 'nothing in the inputs describes the master pool', [NEEDS.pools]);
    }
    const findings: Finding[] = [];
    let unknown = 0;
    // Completions whose pool state was known (held or broke the rule): with none, nothing was checked.
    let known = 0;
    // Why an update could not be checked, each naming the update (older ones are context).
    const skipped: string[] = [];
    // What the newest skip lacked, when it says so (else the configs or the pools, below).
    let lastNeed: string | undefined;
    const skip = (why: string, need?: string) => {
      skipped.push(why);
      lastNeed = need;
    };
    for (const update of completed) {
      const t = update.completedAt as number;
      const next = updates[updates.indexOf(update) + 1];
      const state = poolStateAt(ph, t);
      // The update's own config (docs/domain.md 3.7), never merely the newest: a config rendered
      // after the update for the same release is a later rollout. Without rendered configs the rule
      // judges the pool's conditions alone.
      const own = ph.rendered.length > 0 ? configForRelease(history, POOL, update) : undefined;
      const wanted = own?.config ? { config: own.config, how: own.how } : undefined;
      const testSaw = history.testLog.find(
        (e): e is Extract<typeof e, { kind: 'invariant-violation' }> =>
          e.kind === 'invariant-violation' && e.at >= t && (!next?.startedAt || e.at < next.startedAt),
      );
      if (own && !own.config && !testSaw) {
        // The inputs do not identify the config the update made: neither a violation nor a hold.
        skip(`the update ${updateLabel(update)}: ${own.how}`);
        if (update === newest) unknown += 1;
        continue;
      }
      const onWanted = !wanted || state.target?.name === wanted.config.name;
      // The config made for the new release did not exist yet: whatever its conditions said, the pool
      // cannot have been on it (the race of bug 2019850 at its plainest).
      const notRenderedYet = wanted !== undefined && wanted.config.createdAt > t;
      // What the upgrade test itself saw of the pool, the first poll at or after completion: the
      // evidence when nothing else describes the pool (build-log.txt alone).
      const testPoll = history.testLog.find(
        (e): e is Extract<typeof e, { kind: 'pool-status' }> =>
          e.kind === 'pool-status' &&
          e.pool === POOL &&
          e.at >= t &&
          (!next?.startedAt || e.at < next.startedAt),
      );
      const ok = state.updated === true && state.updating !== true && onWanted;
      // An assumed state (a later config superseded the target, nothing observed the pool in
      // between: a day-2 rollout overwrote its conditions) is no evidence the pool was Updated.
      // A day-2 rollout already begun at the completion (a user's MachineConfig rendered while the
      // update ran, after its own config): what counts is whether the pool had finished the update's
      // config before that render; without evidence of it, nothing is known.
      const dayTwo =
        wanted !== undefined &&
        state.target !== undefined &&
        state.target !== wanted.config &&
        state.target.createdAt > wanted.config.createdAt &&
        own?.later.includes(state.target) === true;
      // origin's upgrade test answers the same question by polling the pool after completion, so a
      // change rolled right after it (a day-2 MachineConfig) reads there as a violation. When atlevel's
      // own evidence answers it, that answer is the verdict; the test's line is shown as origin's
      // claim beside it, never taken as atlevel's.
      if (testSaw) {
        const settled = wanted ? finishedRollout(ph, wanted.config) : undefined;
        const held =
          (ok && state.assumed !== true && !own?.alternative) ||
          (dayTwo && settled !== undefined && settled.at <= t);
        if (held) {
          known += 1;
          findings.push(
            originDisagrees(ph, update, t, testSaw, wanted?.config, settled ?? state.nextObservation),
          );
          continue;
        }
      }
      // A master the inputs show still on a config stamped for another release: it was not on the
      // update's config at the completion, whatever overwrote the pool's conditions since. Only where
      // nothing observed the pool then: an observation of it is the evidence.
      const behind =
        update === newest && wanted && (state.updated === undefined || state.assumed === true || dayTwo)
          ? masterBehind(history, ph, update, t)
          : undefined;
      if (dayTwo && !testSaw && !behind) {
        const settled = finishedRollout(ph, wanted.config);
        if (settled && settled.at <= t) {
          known += 1;
          continue;
        }
        skip(
          `the update ${updateLabel(update)}: at the completion the master pool was rolling out ${state.target?.name}, a later change, and the inputs do not say whether it had finished ${wanted.config.name} before`,
          NEEDS.poolStates,
        );
        if (update === newest) unknown += 1;
        continue;
      }
      if (ok && own?.alternative && !testSaw) {
        // On the config rendered during the update, but one rendered after the completion may have
        // been the update's own (docs/domain.md 3.3.1): neither a hold nor a violation.
        skip(`the update ${updateLabel(update)}: ${own.how}`);
        if (update === newest) unknown += 1;
        continue;
      }
      if ((state.updated === undefined || (ok && state.assumed)) && !testSaw && !notRenderedYet && !behind) {
        // Nothing to go on. Only the newest update is the one the inputs are about; older history
        // entries are context that a snapshot can rarely check, so an unknown one makes the rule
        // "not checked" only when no completion at all could be checked (below).
        if (update === newest) unknown += 1;
        skip(
          `the update ${updateLabel(update)}: the inputs do not say what state the master pool was in when the CVO reported completion`,
          ph.rendered.length > 0 ? NEEDS.poolStates : NEEDS.pools,
        );
        continue;
      }
      known += 1;
      if (ok && !testSaw && !behind) continue;

      const finish = wanted ? finishedRollout(ph, wanted.config) : undefined;
      const evidence: Evidence[] = [];
      for (const w of update.witnesses) {
        evidence.push({
          statement:
            w.by === 'history'
              ? `ClusterVersion history marks ${update.target} Completed`
              : w.by === 'monitor'
                ? `the monitor recorded "${w.text}"`
                : `the upgrade test logged "${w.text}"`,
          at: w.at,
          object: 'ClusterVersion/version',
          ...(w.by === 'history' ? { field: 'status.history[].completionTime' } : {}),
          ref: w.ref,
        });
      }
      if (state.target) {
        evidence.push({
          statement: `the pool's target was ${state.target.name}, created at ${formatClock(state.target.createdAt)}`,
          at: state.target.createdAt,
          object: `MachineConfig/${state.target.name}`,
          field: 'metadata.creationTimestamp',
          ref: state.target.ref,
        });
      }
      // An assumption about the pool (settled, nothing observed it) gives way to the node that says otherwise.
      if (!(behind && state.assumed)) {
        for (const r of state.reasoning) evidence.push({ statement: r, object: POOL_KEY });
      }
      if (state.nextObservation) {
        evidence.push({
          statement: state.nextObservation.text,
          at: state.nextObservation.at,
          object: POOL_KEY,
          ref: state.nextObservation.ref,
        });
      }
      if (testSaw && testSaw.kind === 'invariant-violation') {
        evidence.push({
          statement: `the upgrade test logged "${testSaw.text}"`,
          at: testSaw.at,
          ref: testSaw.ref,
        });
      }
      if (behind) {
        evidence.push({
          statement: `node ${behind.node} of the master pool runs ${behind.config.name}, stamped for ${behind.config.releaseImageVersion} (its currentConfig annotation as last seen): once the operator stamps its release, every config rendered or re-applied carries it (docs/domain.md 1.2), so the node was not on ${wanted?.config.name} when the CVO completed`,
          object: `Node/${behind.node}`,
          field: `metadata.annotations[${MCO.currentConfig}]`,
          ref: behind.ref,
        });
      }
      if (finish) {
        evidence.push({
          statement: `the pool finished rolling out ${wanted?.config.name}: ${finish.text}`,
          at: finish.at,
          object: POOL_KEY,
          ref: finish.ref,
        });
      }

      const seen =
        state.updated === undefined && testPoll
          ? { updated: testPoll.updated, updating: testPoll.updating, degraded: testPoll.degraded }
          : state;
      if (seen !== state && testPoll) {
        evidence.push({
          statement: `the upgrade test saw pool ${POOL} Updated=${fmt(testPoll.updated)}, Updating=${fmt(testPoll.updating)}, Degraded=${fmt(testPoll.degraded)}`,
          at: testPoll.at,
          object: POOL_KEY,
          ref: testPoll.ref,
        });
      }
      const asSeen =
        seen !== state && testPoll ? ` (as the upgrade test saw it at ${formatClock(testPoll.at)})` : '';
      const stateText = `Updated=${fmt(seen.updated)}, Updating=${fmt(seen.updating)}${seen.degraded ? ', Degraded=True' : ''}${asSeen}`;
      const rolling = state.target && state.updated !== true ? `, rolling to ${state.target.name}` : '';
      const late = finish
        ? `; the pool finished at ${formatClock(finish.at)}, ${formatDuration(finish.at - t)} later`
        : '';
      const wrongConfig =
        state.updated === true && !onWanted && wanted
          ? `; it was on ${state.target?.name ?? 'an older config'}, not ${wanted.config.name} made for the new release (created ${formatClock(wanted.config.createdAt)})`
          : '';
      const moments: KeyMoment[] = [
        { label: 'CVO reported the update complete', at: t, objects: ['ClusterVersion/version'] },
      ];
      if (wanted) {
        moments.push({
          label: `${wanted.config.name} created`,
          at: wanted.config.createdAt,
          objects: [`MachineConfig/${wanted.config.name}`, POOL_KEY],
        });
      }
      if (finish) moments.push({ label: 'master pool really finished', at: finish.at, objects: [POOL_KEY] });
      if (state.nextObservation) {
        moments.push({
          label: 'upgrade test saw the pool',
          at: state.nextObservation.at,
          objects: [POOL_KEY],
        });
      }
      if (wanted) {
        evidence.push({
          statement: `${wanted.config.name} is the config the update made for the pool: ${wanted.how}`,
          at: wanted.config.createdAt,
          object: `MachineConfig/${wanted.config.name}`,
          ref: wanted.config.ref,
        });
      }
      findings.push({
        rule: rule.id,
        severity: 'failure',
        summary: `${
          behind &&
          wanted &&
          (seen.updated === undefined || state.assumed === true || !onWanted) &&
          !notRenderedYet
            ? `the CVO reported ${update.target} complete at ${formatClock(t)} while master ${behind.node} was not yet on ${wanted.config.name}, the config made for the new release: it still runs ${behind.config.name}, stamped for ${behind.config.releaseImageVersion}${late}`
            : seen.updated === undefined && !notRenderedYet && testSaw
              ? `origin's upgrade test logged "Invariant violation detected: ${testSaw.text}" at ${formatClock(testSaw.at)}, after the CVO reported ${update.target} complete at ${formatClock(t)}; the inputs hold no state of the master pool at the completion for atlevel to check it against`
              : seen.updated === undefined && notRenderedYet && wanted
                ? `the CVO reported ${update.target} complete at ${formatClock(t)} before the master pool's config for the new release existed: ${wanted.config.name} was created at ${formatClock(wanted.config.createdAt)}${gapText(wanted.config.createdAt, t)}${late}`
                : `the CVO reported ${update.target} complete at ${formatClock(t)} while the master pool was ${stateText}${rolling}${wrongConfig}${late}`
        } (in the update ${updateLabel(update)})`,
        at: t,
        evidence,
        moments,
        subject: {
          target: update.target,
          ...(update.previous ? { previous: update.previous } : {}),
          pool: POOL,
          objects: [POOL_KEY, 'ClusterVersion/version'],
          ...(behind
            ? { fromConfig: behind.config.name }
            : state.current
              ? { fromConfig: state.current.name }
              : {}),
          ...(wanted ? { toConfig: wanted.config.name } : {}),
          cvoCompletedAt: t,
        },
      });
    }
    if (findings.length === 0 && undated) return notChecked(rule, undated, [NEEDS.completion]);
    if (findings.length === 0 && (unknown > 0 || known === 0)) {
      // The newest completed update's reason; older history entries are context, counted only.
      const last = skipped[skipped.length - 1];
      const older = skipped.length - 1;
      const why = last
        ? `${last}${older > 0 ? ` (and ${older} older update${older === 1 ? '' : 's'} the inputs do not cover)` : ''}`
        : 'the inputs do not say what state the master pool was in when the CVO reported completion';
      // What would have told: the pool's state then when that was the gap (the rendered configs are
      // there), else the configs that identify the update's own.
      return notChecked(rule, why, [
        last && lastNeed !== undefined
          ? lastNeed
          : ph.rendered.length > 0
            ? NEEDS.renderedConfigs
            : NEEDS.pools,
      ]);
    }
    return checked(rule, findings);
  },
);

/**
 * origin's upgrade test logged an invariant violation for an update whose completion atlevel's own
 * evidence shows the master pool had finished: a warning that quotes the test as origin's claim and
 * gives atlevel's verdict beside it, naming the later config the pool was rolling out when the test
 * polled (a day-2 change after the completion), when the inputs show one.
 */
function originDisagrees(
  ph: PoolHistory,
  update: UpdateRecord,
  t: number,
  testSaw: { readonly at: number; readonly text: string; readonly ref: SourceRef },
  config: RenderedConfig | undefined,
  seen: PoolObservation | undefined,
): Finding {
  const polled = poolStateAt(ph, testSaw.at).target;
  const later = polled && polled !== config && polled.createdAt > t ? polled : undefined;
  const evidence: Evidence[] = [
    {
      statement: `origin's upgrade test logged "Invariant violation detected: ${testSaw.text}" (origin's claim)`,
      at: testSaw.at,
      ref: testSaw.ref,
    },
  ];
  if (seen) evidence.push({ statement: seen.text, at: seen.at, object: POOL_KEY, ref: seen.ref });
  if (later) {
    evidence.push({
      statement: `${later.name} was rendered at ${formatClock(later.createdAt)}, after the completion: a later change the pool rolled out, not the update's`,
      at: later.createdAt,
      object: `MachineConfig/${later.name}`,
      field: 'metadata.creationTimestamp',
      ref: later.ref,
    });
  }
  const finished = config ? ` had finished ${config.name}` : ' was Updated';
  return {
    rule: 'master-pool-updated-before-cvo-complete',
    severity: 'warning',
    summary: `origin's upgrade test logged "Invariant violation detected: ${testSaw.text}" at ${formatClock(testSaw.at)}, but atlevel's evidence says the rule held: the master pool${finished}${seen ? ` by ${formatClock(seen.at)}` : ''}, before the CVO reported ${update.target} complete at ${formatClock(t)}${later ? `; when the test polled, the pool was rolling out ${later.name}, rendered at ${formatClock(later.createdAt)} after the completion (a day-2 change, not the update)` : ''} (in the update ${updateLabel(update)}); a warning, not a failure`,
    at: testSaw.at,
    evidence,
    moments: [
      { label: 'CVO reported the update complete', at: t, objects: ['ClusterVersion/version'] },
      { label: "origin's upgrade test logged a violation", at: testSaw.at, objects: [POOL_KEY] },
    ],
    // No `pool` in the subject: the explainer's cause chain tells how a pool missed the completion,
    // and this one did not.
    subject: {
      target: update.target,
      ...(update.previous ? { previous: update.previous } : {}),
      objects: [POOL_KEY, 'ClusterVersion/version'],
      cvoCompletedAt: t,
    },
  };
}

/**
 * A master the inputs show (its Node as last seen) on a rendered config of the pool stamped for another
 * release than the newest update's, and that existed at the completion `t`. Once the operator has
 * written its release on the ControllerConfig, every config the render controller makes or re-applies
 * carries it, so a pool never returns to a config stamped for another release (docs/domain.md 1.2): the
 * node was not on the update's config at `t`. Only for an update that changed the version string (the
 * stamp tells nothing otherwise) and for the newest update (a later one would restamp its configs).
 */
function masterBehind(
  history: ClusterHistory,
  ph: PoolHistory,
  update: UpdateRecord,
  t: number,
): { node: string; config: RenderedConfig; ref: SourceRef } | undefined {
  if (update.previous === undefined || update.previous === update.target) return undefined;
  for (const { object, ref } of history.objects.nodes) {
    const current = object.metadata.annotations?.[MCO.currentConfig];
    const config = current === undefined ? undefined : ph.rendered.find((r) => r.name === current);
    if (!config?.releaseImageVersion || config.releaseImageVersion === update.target) continue;
    const created = parseTime(object.metadata.creationTimestamp);
    if (created === undefined || created > t) continue;
    return { node: object.metadata.name, config, ref };
  }
  return undefined;
}

/** `, 1–2s later`: how long after `t` a config stamped `createdAt` (whole seconds) appeared. */
function gapText(createdAt: number, t: number): string {
  const gap = gapAfter(createdAt, t);
  return gap ? `, ${gap} later` : '';
}

function fmt(v: boolean | undefined): string {
  return v === undefined ? 'unknown' : v ? 'True' : 'False';
}
