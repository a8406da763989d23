import type { ClusterHistory, Evidence, Finding, Severity } from '../model/index.js';
import { formatClock, gapAfter, MCO } from '../model/index.js';
import {
  findUpdates,
  poolHistory,
  poolStateAt,
  RENDER_GRACE_MS,
  type RenderedConfig,
  updateLabel,
} from '../timeline/index.js';
import { atVersion, keepsVersion, operatorLevelFor, operatorVersion } from './operator-level.js';
import { snapshotRace } from './operator-level-snapshot.js';
import { configForRelease } from './release-configs.js';
import {
  checked,
  defineRule,
  NEEDS,
  notApplicable,
  notChecked,
  noUpdateReason,
  partialCoverage,
} from './rule.js';

const OPERATOR = 'machine-config';

/**
 * The machine-config operator must not report its new version before every required pool has
 * rolled out the rendered config made for the new release (docs/domain.md 1.2–1.4).
 */
export const operatorLevelBeforeRequiredPoolTarget = defineRule(
  'operator-level-before-required-pool-target',
  'machine-config reports its new operator version only after every required pool targets, and has rolled out, the rendered config for the new release.',
  {
    severityPolicy:
      "failure: a config for a required pool was rendered after the level report, or the pool's config is stamped for another release; warning: the config carries no release-image-version",
    explain: 'pool-rollout',
  },
  (history: ClusterHistory, rule) => {
    const updates = findUpdates(history);
    const pools = requiredPools(history);
    const findings: Finding[] = [];
    let sawLevel = false;
    let poolsChecked = 0;
    // The required pools whose rendered configs the inputs hold: the others are not checked, and say so.
    const withConfigs = new Set<string>();
    let completedWithoutLevel = false;
    // Why a snapshot that shows a required pool rolling out the release's config proves nothing.
    let undecidedSnapshot: string | undefined;
    // Pools of updates whose own config the inputs do not identify, with why.
    const unidentified: string[] = [];
    for (const update of updates) {
      const level = operatorLevelFor(history, OPERATOR, update);
      if (!level) {
        // Only the newest update is the one the inputs are about; older entries are context.
        // A snapshot shows the operator already at the new version but not when it got there; it
        // proves the violation only when a required pool is still far from the stamped config.
        if (
          update === updates[updates.length - 1] &&
          (update.state === 'Completed' || atVersion(history, OPERATOR, update))
        ) {
          const version = operatorVersion(history, OPERATOR);
          const seen =
            version && atVersion(history, OPERATOR, update)
              ? pools.map((pool) => snapshotRace(history, rule.id, OPERATOR, version, update, pool))
              : [];
          for (const race of seen) {
            if (race.kind === 'violated') findings.push(race.finding);
            else if (race.kind === 'undecided') undecidedSnapshot = race.why;
          }
          if (seen.some((race) => race.kind === 'violated')) sawLevel = true;
          else completedWithoutLevel = true;
        }
        continue;
      }
      sawLevel = true;
      const t1 = level.at;
      const next = updates[updates.indexOf(update) + 1];
      for (const pool of pools) {
        const ph = poolHistory(history, pool);
        // Without the rendered configs there is nothing to compare the level report with: the
        // pool's conditions alone cannot say which release its config was made for.
        if (ph.rendered.length === 0) continue;
        withConfigs.add(pool);
        // The update's own config (docs/domain.md 3.7): when the inputs cannot identify it, nothing
        // says which render belonged to the update; configs rendered after the update completed
        // are later rollouts (a day-2 change), never the update's.
        const own = configForRelease(history, pool, update);
        if (!own.config) {
          unidentified.push(`the update ${updateLabel(update)}, pool ${pool}: ${own.how}`);
          continue;
        }
        const laterRollout = new Set(own.later.map((r) => r.name));
        const renderEnd =
          update.completedAt !== undefined ? update.completedAt + RENDER_GRACE_MS : Number.POSITIVE_INFINITY;
        poolsChecked += 1;
        const evidence: Evidence[] = [
          {
            statement: `${OPERATOR} reported ${level.name} version ${level.from} -> ${level.to}`,
            at: t1,
            object: `ClusterOperator/${OPERATOR}`,
            field: `status.versions[${level.name}]`,
            value: level.to,
            ref: level.ref,
          },
        ];
        let severity: Severity | undefined;
        // The update's own config a same-version update's pool was still rolling out at t1 (check d).
        let rollingTo: string | undefined;
        const reasons: string[] = [];
        // (a) a config for this pool was rendered after the operator said it was done
        const later = ph.rendered.filter(
          (r) =>
            renderedAfter(r, t1) &&
            (update.startedAt === undefined || r.createdAt >= update.startedAt) &&
            (!next?.startedAt || r.createdAt < next.startedAt) &&
            r.createdAt <= renderEnd &&
            !laterRollout.has(r.name) &&
            r !== own.alternative,
        );
        const firstLater = later[0];
        if (firstLater) {
          severity = 'failure';
          const gap = gapAfter(firstLater.createdAt, t1);
          reasons.push(
            `${firstLater.name} was rendered at ${formatClock(firstLater.createdAt)}, ${gap ? `${gap} ` : ''}after ${OPERATOR} reported level at ${formatClock(t1)}`,
          );
          evidence.push({
            statement: `${firstLater.name} created for pool ${pool}`,
            at: firstLater.createdAt,
            object: `MachineConfig/${firstLater.name}`,
            field: 'metadata.creationTimestamp',
            ref: firstLater.ref,
          });
        }
        // (b) the pool's own conditions moved after the level report
        const state = poolStateAt(ph, t1);
        const after = ph.observations.find(
          (o) => o.at > t1 && o.updating === true && (!next?.startedAt || o.at < next.startedAt),
        );
        if (after && firstLater) {
          evidence.push({
            statement: `afterwards ${after.text}`,
            at: after.at,
            object: `MachineConfigPool/${pool}`,
            ref: after.ref,
          });
        }
        // (c) the config the pool had at t1 is not stamped for the new release
        const atT1 = state.updated === true ? state.target : state.current;
        if (atT1) {
          const rv = atT1.releaseImageVersion;
          evidence.push({
            statement:
              rv === undefined
                ? `the pool was on ${atT1.name}, which has no release-image-version annotation`
                : `the pool was on ${atT1.name}, release-image-version ${rv}`,
            object: `MachineConfig/${atT1.name}`,
            field: `metadata.annotations[${MCO.releaseImageVersion}]`,
            ...(rv !== undefined ? { value: rv } : {}),
            ref: atT1.ref,
          });
          if (rv !== undefined && rv !== update.target) {
            severity = 'failure';
            reasons.push(`the pool's config ${atT1.name} is stamped for ${rv}, not ${update.target}`);
          } else if (rv === undefined && !severity) {
            severity = 'warning';
            reasons.push(
              `the pool's config ${atT1.name} carries no release-image-version, so nothing proves it was made for ${update.target}`,
            );
          }
        }
        // (d) an update that keeps its version stamps the old configs and its own alike (c cannot tell
        // them apart): the pool must have been Updated on the update's own config when the operator
        // reported its operator-image. Not known either way: not checked, never holds.
        if (!severity && keepsVersion(update)) {
          const onOwn =
            state.updated === true && state.assumed !== true && state.target?.name === own.config.name;
          const rolling =
            state.assumed !== true &&
            (state.updated === false || state.updating === true) &&
            own.config.createdAt <= t1;
          if (rolling) {
            severity = 'failure';
            rollingTo = own.config.name;
            reasons.push(
              `the pool was still rolling out ${own.config.name}, the config the update made for it (rendered at ${formatClock(own.config.createdAt)})${state.reasoning.length > 0 ? `: ${state.reasoning[state.reasoning.length - 1]}` : ''}`,
            );
            evidence.push({
              statement: `${own.config.name} is the update's config for pool ${pool}: ${own.how}`,
              at: own.config.createdAt,
              object: `MachineConfig/${own.config.name}`,
              field: 'metadata.creationTimestamp',
              ref: own.config.ref,
            });
          } else if (!onOwn) {
            unidentified.push(
              `the update ${updateLabel(update)}, pool ${pool}: the update keeps its version string, so only the pool's state tells whether it had ${own.config.name} when ${OPERATOR} reported its ${level.name} at ${formatClock(t1)}, and the inputs do not say it (${state.reasoning.join('; ') || 'no observation of the pool then'})`,
            );
            continue;
          }
        }
        if (!severity && own.alternative) {
          // Held on the config rendered during the update, but the one rendered after it completed may
          // have been the update's own (docs/domain.md 3.3.1): not checked, never "holds".
          unidentified.push(`the update ${updateLabel(update)}, pool ${pool}: ${own.how}`);
          continue;
        }
        if (!severity) continue;
        // A warning says why it is not a failure (issue 42): worded as the failure, it read as one.
        const summary =
          severity === 'warning' && atT1
            ? `${OPERATOR} reported level for ${update.target} at ${formatClock(t1)} while required pool ${pool} was on ${atT1.name}, which carries no release-image-version; a warning, not a failure: no config was rendered for the pool after the level report, but nothing in the inputs says which release ${atT1.name} was made for (in the update ${updateLabel(update)})`
            : `${OPERATOR} reported level for ${update.target}${level.name === 'operator' ? '' : ` (its ${level.name} version: the update keeps the version string)`} at ${formatClock(t1)} before required pool ${pool} had the new release's config: ${reasons.join('; ')} (in the update ${updateLabel(update)})`;
        findings.push({
          rule: rule.id,
          severity,
          summary,
          at: t1,
          evidence,
          moments: [
            { label: `${OPERATOR} reported level`, at: t1, objects: [`ClusterOperator/${OPERATOR}`] },
            ...(firstLater
              ? [
                  {
                    label: `${firstLater.name} created`,
                    at: firstLater.createdAt,
                    objects: [`MachineConfig/${firstLater.name}`, `MachineConfigPool/${pool}`],
                  },
                ]
              : []),
          ],
          subject: {
            target: update.target,
            ...(update.previous ? { previous: update.previous } : {}),
            pool,
            operator: OPERATOR,
            objects: [`ClusterOperator/${OPERATOR}`, `MachineConfigPool/${pool}`],
            ...(atT1 ? { fromConfig: atT1.name } : {}),
            ...(firstLater
              ? { toConfig: later[later.length - 1]?.name ?? firstLater.name }
              : rollingTo
                ? { toConfig: rollingTo }
                : {}),
            operatorLevelAt: t1,
            ...(update.completedAt !== undefined ? { cvoCompletedAt: update.completedAt } : {}),
          },
        });
      }
    }
    if (!sawLevel) {
      const newest = updates[updates.length - 1];
      // A completed update whose operator version reports are missing could have broken the rule.
      return completedWithoutLevel
        ? notChecked(
            rule,
            undecidedSnapshot ??
              (newest !== undefined && keepsVersion(newest)
                ? `the update ${updateLabel(newest)} keeps the version string ${newest.target}, so ${OPERATOR}'s operator version cannot say when it reached level; only its operator-image version can (reported from 4.18, openshift/machine-config-operator PR 4637), and the inputs hold no change of it`
                : `the inputs do not say when ${OPERATOR} reported the new version`),
            [NEEDS.operatorVersions],
          )
        : notApplicable(
            rule,
            updates.length === 0
              ? noUpdateReason(history)
              : `no version report by ${OPERATOR} for an update in the inputs`,
          );
    }
    // Not "holds" while an update the inputs hold went unchecked (as master-pool-updated-before-cvo-complete):
    // a clean newer update says nothing about an older one whose own config could not be identified.
    if (findings.length === 0 && (poolsChecked === 0 || unidentified.length > 0)) {
      const last = unidentified[unidentified.length - 1];
      return notChecked(
        rule,
        last ?? `no rendered config of a required pool (${pools.join(', ') || 'master'}) in the inputs`,
        [NEEDS.renderedConfigs],
      );
    }
    return checked(
      rule,
      findings,
      partialCoverage('pools', pools, withConfigs, 'no rendered MachineConfig of the pool in the inputs', [
        NEEDS.renderedConfigs,
      ]),
    );
  },
);

/** Creation times have second precision: a config stamped in the same second as t1 may be either side. */
function renderedAfter(r: RenderedConfig, t1: number): boolean {
  return r.createdAt > Math.floor(t1 / 1000) * 1000;
}

/** Pools labelled required-for-upgrade (docs/domain.md 1.3); master when the pools themselves are missing. */
function requiredPools(history: ClusterHistory): string[] {
  const pools = history.objects.machineConfigPools;
  if (pools.length === 0) return ['master'];
  const required = pools
    .filter((p) => p.object.metadata.labels?.[MCO.requiredForUpgrade] !== undefined)
    .map((p) => p.object.metadata.name);
  return required.length > 0
    ? required
    : pools.some((p) => p.object.metadata.name === 'master')
      ? ['master']
      : [];
}
