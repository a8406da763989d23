import type { ClusterHistory, SourceRef } from '../model/index.js';
import { formatClock, formatDuration, MCO, type Millis, parseTime } from '../model/index.js';
import { type PoolHistory, poolHistory, type RenderedConfig, targetAt } from './pools.js';
import { remembered } from './query.js';
import { findUpdates, type UpdateRecord } from './updates.js';

/**
 * How long after the CVO completed an update a config rendered for it may still appear. The render
 * controller renders 5 s after the operator writes the new ControllerConfig (docs/domain.md 4.5), and
 * the operator writes it before it reports its version, which comes before the CVO completes: the late
 * config of bug 2019850 appeared 2 s after completion (docs/domain.md 0). Ten minutes covers a slow
 * render queue many times over; a config rendered later than that came from something else, a day-2
 * change (docs/domain.md 3.3.1).
 */
export const RENDER_GRACE_MS = 10 * 60_000;

/**
 * How soon after a user's MachineConfig appears the render controller renders the pool: 5 s
 * (`renderDelay`, docs/domain.md 4.5), with room for a busy controller.
 */
const USER_RENDER_MS = 60_000;

/** The template controller's MachineConfigs (MCO `pkg/controller/template/render.go`, docs/domain.md 3.4). */
const TEMPLATE_NAMES = ['00-<role>', '01-<role>-container-runtime', '01-<role>-kubelet'];

/** What the inputs say of the rendered config a pool should reach for one update (docs/domain.md 3.3.1). */
export interface UpdateConfig {
  readonly update: UpdateRecord;
  /** The update's own config, when the inputs identify it. */
  readonly config?: RenderedConfig;
  /** How it was identified, or why it could not be. */
  readonly how: string;
  /**
   * Configs rendered for the pool after the update completed and before the next update started:
   * later rollouts (a day-2 MachineConfig, a resumed pool's own change, ...), never the update's.
   */
  readonly later: readonly RenderedConfig[];
  /**
   * A config rendered for the pool after the CVO completed, by the same controller, that may be the
   * update's own instead of `config` (rendered late, as in bug 2019850) or a day-2 change: the inputs
   * cannot tell which when neither the stamp nor a user's MachineConfig does. A rule that would hold
   * on `config` then says "not checked".
   */
  readonly alternative?: RenderedConfig;
}

/**
 * `A → B`, or `of A to another payload` when the version stays (`of A to the multi-architecture
 * payload` for `oc adm upgrade --to-multi-arch`): how findings name an update. "A → A" would read as
 * no update at all, when the whole update is in the images.
 */
export function updateLabel(update: UpdateRecord): string {
  if (update.previous === undefined) return `to ${update.target}`;
  if (update.previous !== update.target) return `${update.previous} → ${update.target}`;
  return `of ${update.target} to ${update.toMultiArch ? 'the multi-architecture payload' : 'another payload'}`;
}

/**
 * The rendered config an update made for a pool, identified as the MCO makes it (docs/domain.md 3.3.1):
 * 1. the render controller stamps every rendered config with the ControllerConfig's
 *    `release-image-version`, the operator's release: a config stamped for the update's target,
 *    rendered during the update (or re-stamped in place, so created earlier), is the update's own;
 * 2. without the stamp (an MCO before PR #2918), the config rendered during the update, by the
 *    controller version of the newest config rendered then (`generated-by-controller-version`);
 * 3. when nothing was rendered during the update, the config the pool already targeted when it began.
 * "During" runs from the start to the CVO's completion plus RENDER_GRACE_MS (the race of bug 2019850
 * renders the update's config just after the CVO completed), cut short by the next update's start, and
 * excludes configs whose render a user MachineConfig created after the completion explains. Never the
 * newest config: a config rendered after the update, for the same release, is a later rollout.
 */
export function updateConfig(history: ClusterHistory, pool: string, update: UpdateRecord): UpdateConfig {
  return remembered(
    history,
    `update-config\u0000${pool}\u0000${update.target}\u0000${update.startedAt ?? ''}`,
    () => updateConfigOf(history, poolHistory(history, pool), update),
  );
}

function updateConfigOf(history: ClusterHistory, ph: PoolHistory, update: UpdateRecord): UpdateConfig {
  const updates = findUpdates(history);
  const next = updates[updates.indexOf(update) + 1];
  const started = update.startedAt;
  const nextStart = next?.startedAt ?? Number.POSITIVE_INFINITY;
  const completed = update.completedAt;
  const end = Math.min(
    completed !== undefined ? completed + RENDER_GRACE_MS : Number.POSITIVE_INFINITY,
    nextStart,
  );
  const userChanges = userMachineConfigTimes(history, ph.name);
  // A config rendered after the completion right after a user MachineConfig appeared is that change's.
  const causedByUser = (r: RenderedConfig): boolean =>
    completed !== undefined &&
    r.createdAt > completed &&
    userChanges.some((t) => t > completed && t <= r.createdAt);
  const afterCompletion = (r: RenderedConfig): boolean =>
    completed !== undefined && r.createdAt > completed && r.createdAt < nextStart;
  // During the update, a render that a user's MachineConfig created just before explains (the first
  // render since it appeared, within USER_RENDER_MS): a day-2 change made while the update ran.
  const renderedForUser = (r: RenderedConfig): boolean => {
    const before = ph.rendered[ph.rendered.indexOf(r) - 1];
    return userChanges.some(
      (t) => t <= r.createdAt && r.createdAt - t <= USER_RENDER_MS && (!before || t > before.createdAt),
    );
  };

  if (started === undefined) {
    return { update, how: "the update's start time is not in the inputs", later: [] };
  }

  // The stamp tells releases apart only when the version string changed (a same-version update, a
  // rebuild or an architecture migration, keeps it).
  const stampTells = update.previous !== undefined && update.previous !== update.target;
  const stamped = stampTells ? ph.rendered.filter((r) => r.releaseImageVersion === update.target) : [];
  if (stamped.length > 0) {
    // The fixed operator reports its version only once the required pool's config carries its
    // release (docs/domain.md 1.2), so a config stamped for the target that existed when the CVO
    // completed is the one the update made; one stamped later, with no user change in the inputs to
    // explain it (a MachineConfig edited in place, such as a rotated SSH key, keeps its creation
    // time), is a later rollout. Only when none existed by then is a config rendered just after the
    // completion the update's own (the race of bug 2019850).
    // A render a user's MachineConfig explains, made by the new controller while the update still
    // ran, is a day-2 change too when an earlier config stamped for the release was there.
    const byCompletion =
      completed !== undefined
        ? ([...stamped].reverse().find((r) => r.createdAt <= completed && !renderedForUser(r)) ??
          [...stamped].reverse().find((r) => r.createdAt <= completed))
        : undefined;
    const own = byCompletion ?? [...stamped].reverse().find((r) => r.createdAt <= end && !causedByUser(r));
    const later = ph.rendered.filter(
      (r) =>
        r !== own &&
        r.createdAt < nextStart &&
        (afterCompletion(r) || (stamped.includes(r) && renderedForUser(r))) &&
        (!own || r.createdAt > own.createdAt),
    );
    if (own) {
      const when =
        own.createdAt < started
          ? `created before the update and re-stamped in place (its content did not change)`
          : `rendered at ${formatClock(own.createdAt)}, during the update`;
      return {
        update,
        config: own,
        how: `its release-image-version annotation is ${update.target}, ${when}`,
        later,
      };
    }
    const first = stamped[0] as RenderedConfig;
    return {
      update,
      how:
        completed !== undefined
          ? `every config stamped for ${update.target} was rendered after the update completed (the first, ${first.name}, ${formatDuration(first.createdAt - completed)} later): those are later rollouts, and the update's own config is not in the inputs`
          : `no config stamped for ${update.target} was rendered during the update`,
      later,
    };
  }

  const duringAll = ph.rendered.filter(
    (r) =>
      r.createdAt >= started &&
      r.createdAt <= end &&
      !causedByUser(r) &&
      // stamped for another release (the old one: rendered before the operator moved on)
      (!stampTells || r.releaseImageVersion === undefined || r.releaseImageVersion === update.target),
  );
  // Renders a user's MachineConfig explains are day-2 changes made while the update ran, unless
  // nothing else was rendered then.
  const notForUser = duringAll.filter((r) => !renderedForUser(r));
  const during = notForUser.length > 0 ? notForUser : duringAll;
  const forUser = (r: RenderedConfig): boolean => duringAll.includes(r) && !during.includes(r);
  const newest = during[during.length - 1];
  if (newest) {
    // Renders by the new controller build: the operator rolls the controller before the render that
    // makes the update's config, so an older controller's render during the update came first.
    const by = newest.controllerVersion;
    const byNewest = by === undefined ? during : during.filter((r) => r.controllerVersion === by);
    const stampNote = stampTells
      ? ''
      : update.previous === update.target
        ? ' (the update keeps its version string, so release-image-version cannot tell its configs apart)'
        : '';
    // Rendered by the same controller both before and after the completion: the later one is the
    // update's own rendered late, or a day-2 change (oc's no-version-upgrading example renders the
    // worker pool again 74 s after the completion). Judged on the earlier one, a rule that holds
    // is only "not checked" (alternative); never failed on the later one alone.
    const late = byNewest.at(-1) ?? newest;
    const early =
      completed !== undefined && late.createdAt > completed
        ? byNewest.filter((r) => r.createdAt <= completed).at(-1)
        : undefined;
    const own = early ?? late;
    const later = ph.rendered.filter(
      (r) => r !== own && r !== late && (afterCompletion(r) || forUser(r)) && r.createdAt > own.createdAt,
    );
    const controller = by ? `, by controller version ${by.slice(0, 12)}` : '';
    if (early && completed !== undefined) {
      return {
        update,
        config: early,
        how: `${early.name} was rendered at ${formatClock(early.createdAt)}, during the update${controller}; ${late.name}, rendered by the same controller ${formatDuration(late.createdAt - completed)} after the CVO completed, may be the update's own config instead (rendered late) or a day-2 change, and nothing in the inputs tells which${stampNote}`,
        later,
        alternative: late,
      };
    }
    return {
      update,
      config: own,
      how: `it was rendered at ${formatClock(own.createdAt)}, during the update${controller}${stampNote}`,
      later,
    };
  }
  const later = ph.rendered.filter(afterCompletion);
  const kept = targetAt(ph, started);
  if (
    kept &&
    (!stampTells || kept.releaseImageVersion === undefined || kept.releaseImageVersion === update.target)
  ) {
    return {
      update,
      config: kept,
      how: `no config was rendered for the pool during the update: it kept ${kept.name}`,
      later,
    };
  }
  const firstLater = later[0];
  return {
    update,
    how:
      firstLater && completed !== undefined
        ? `the pool's configs in the inputs were all rendered after the update completed (the first, ${firstLater.name}, ${formatDuration(firstLater.createdAt - completed)} later)`
        : kept
          ? `the config the pool had when the update started, ${kept.name}, is stamped for ${kept.releaseImageVersion}, and nothing was rendered during the update`
          : 'no rendered config of the pool dates from the update',
    later,
  };
}

/**
 * When MachineConfigs for the pool's roles appeared that a user's change made: the installer's and the
 * user's own (no controller-version annotation), and those the kubelet-config and container-runtime-config
 * controllers generate from a user's KubeletConfig or ContainerRuntimeConfig (`99-<pool>-generated-kubelet`,
 * annotated like the templates). Each makes the render controller re-render the pool. Only the template
 * controller's own configs (docs/domain.md 3.4) come from the release, and those exist from the install on.
 */
function userMachineConfigTimes(history: ClusterHistory, pool: string): Millis[] {
  return userMachineConfigs(history, pool).map((m) => m.createdAt);
}

/** A MachineConfig a user's change made (userMachineConfigTimes), with what names and dates it. */
export interface UserMachineConfig {
  readonly name: string;
  readonly createdAt: Millis;
  readonly ref: SourceRef;
}

/**
 * The user's MachineConfigs for the pool's roles, oldest first: its own role's, and for any pool but
 * master the worker role's too (a custom pool such as `infra` selects `worker` and its own role, as
 * the MCO's custom pool documentation configures it, docs/domain.md 3.4).
 */
export function userMachineConfigs(history: ClusterHistory, pool: string): UserMachineConfig[] {
  const out: UserMachineConfig[] = [];
  const roles = new Set([pool, ...(pool === 'master' ? [] : ['worker'])]);
  for (const { object, ref } of history.objects.machineConfigs) {
    const name = object.metadata.name;
    if (name.startsWith('rendered-')) continue;
    const role = object.metadata.labels?.[MCO.role];
    if (role === undefined || !roles.has(role)) continue;
    if (
      object.metadata.annotations?.[MCO.generatedByControllerVersion] !== undefined &&
      TEMPLATE_NAMES.some((t) => name === t.replace('<role>', role))
    )
      continue;
    const at = parseTime(object.metadata.creationTimestamp);
    if (at !== undefined) out.push({ name, createdAt: at, ref });
  }
  return out.sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
}

/** For the timeline: each rendered config of the pool that a later rollout made, with its update. */
export function laterRollouts(history: ClusterHistory, pool: string): ReadonlyMap<string, UpdateRecord> {
  return remembered(history, `later-rollouts\u0000${pool}`, () => {
    const out = new Map<string, UpdateRecord>();
    for (const update of findUpdates(history)) {
      if (update.completedAt === undefined) continue;
      for (const r of updateConfig(history, pool, update).later) out.set(r.name, update);
    }
    return out;
  });
}
