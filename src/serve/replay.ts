/**
 * Replay: the state at the update's start, then every change the timeline knows, in time order.
 * planReplay works out the changes (pure); Replayer plays them into the store at N× real time.
 * An exact recording (every object revision, as the simulator writes them) is played as recorded;
 * otherwise the changing kinds are rewound at every moment the timeline records something about
 * them, and each object that differs from its previous state becomes a MODIFIED event.
 */
import type { ClusterHistory, Millis, ObjectRevision } from '../model/index.js';
import { findUpdates } from '../timeline/index.js';
import { appearing, CHANGING_KINDS, changingAt, type KindObject } from './moment.js';
import type { ChangeType } from './store.js';

export interface Revision {
  readonly at: Millis;
  readonly type: ChangeType;
  readonly item: KindObject;
}

export interface ReplayPlan {
  readonly start: Millis;
  readonly end: Millis;
  /** The state at `start`. */
  readonly initial: readonly KindObject[];
  /** After `start`, oldest first. */
  readonly revisions: readonly Revision[];
  /** The update whose start `start` is (its target); absent when the inputs hold no update. */
  readonly update?: string;
}

/**
 * What makes two moments of an object different for a watcher. Condition messages are left out: the
 * rewind explains an inferred status, or says a message is not known, in words that name the moment,
 * which is not a change of state. A reason that turns NotRewound after the moment of a recorded
 * transition is a change: from then on the message is not known, and the served object says so.
 */
function signature(item: KindObject): string {
  return JSON.stringify(item.object, (key, value) =>
    key === 'conditions' && Array.isArray(value)
      ? value.map((c) => (c && typeof c === 'object' ? { ...c, message: undefined } : c))
      : value,
  );
}

function idOf(item: KindObject): string {
  return `${item.kind}\u0000${item.object.metadata.namespace ?? ''}\u0000${item.object.metadata.name}`;
}

/** Where a replay starts: the last update's start; the history's start when no update is known. */
function replayStart(history: ClusterHistory): Millis | undefined {
  return lastUpdate(history)?.startedAt ?? history.span?.from;
}

function lastUpdate(history: ClusterHistory) {
  const updates = findUpdates(history);
  return updates[updates.length - 1];
}

/** The target of the update a replay starts at, when it starts at one (not at a --from moment). */
function replayedUpdate(history: ClusterHistory, from: Millis | undefined): { update?: string } {
  const last = lastUpdate(history);
  return from === undefined && last?.startedAt !== undefined ? { update: last.target } : {};
}

/** The moments the timeline records something about the changing kinds, inside (start, end]. */
function breakpoints(history: ClusterHistory, start: Millis, end: Millis): Millis[] {
  const times = new Set<Millis>();
  const add = (t: Millis) => {
    if (t > start && t <= end) times.add(t);
  };
  for (const i of history.intervals) {
    if (!CHANGING_KINDS.has(i.locator.type)) continue;
    add(i.from);
    if (i.to !== i.from && i.source === 'derived:rollout') add(i.to);
  }
  for (const mc of history.objects.machineConfigs) {
    const c = Date.parse(mc.object.metadata.creationTimestamp ?? '');
    if (!Number.isNaN(c)) add(c);
  }
  for (const cv of history.objects.clusterVersions) {
    for (const h of cv.object.status?.history ?? []) {
      for (const v of [h.startedTime, h.completionTime]) {
        const t = Date.parse(v ?? '');
        if (!Number.isNaN(t)) add(t);
      }
    }
  }
  return [...times].sort((a, b) => a - b);
}

export function planReplay(
  history: ClusterHistory,
  extra: readonly KindObject[],
  range: { readonly from?: Millis; readonly to?: Millis } = {},
): ReplayPlan {
  if (history.revisions && history.revisions.length > 0)
    return planRecorded(history, history.revisions, extra, range);
  const start = range.from ?? replayStart(history) ?? Date.now();
  const end = range.to ?? history.span?.to ?? start;
  const initial: KindObject[] = [];
  const revisions: Revision[] = [];
  const previous = new Map<string, string>();
  for (const item of changingAt(history, start)) {
    initial.push(item);
    previous.set(idOf(item), signature(item));
  }
  for (const t of breakpoints(history, start, end)) {
    const seen = new Set<string>();
    for (const item of changingAt(history, t)) {
      const id = idOf(item);
      seen.add(id);
      const json = signature(item);
      const before = previous.get(id);
      if (before === json) continue;
      previous.set(id, json);
      revisions.push({ at: t, type: before === undefined ? 'ADDED' : 'MODIFIED', item });
    }
  }
  const appear = [...appearing(history), ...extra.map((item) => ({ at: createdOf(item), item }))];
  for (const { at, item } of appear) {
    if (at === undefined || at <= start) initial.push(item);
    else if (at <= end) revisions.push({ at, type: 'ADDED', item });
  }
  revisions.sort((a, b) => a.at - b.at);
  return { start, end, initial, revisions, ...replayedUpdate(history, range.from) };
}

function recordedItem(r: ObjectRevision): KindObject {
  const o = r.object;
  return {
    kind: r.kind,
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : undefined,
    object: o as KindObject['object'],
  };
}

/**
 * An exact recording (docs/simulate.md, `atlevel-revisions.jsonl`): the initial state is each
 * recorded object's last revision at or before `start` (none when that was a DELETED), and every
 * later revision up to `end` is played as recorded, at its recorded moment. Kinds the recording does
 * not hold (Events, Pods, ...) still appear at their creation, as in a timeline replay.
 */
function planRecorded(
  history: ClusterHistory,
  recorded: readonly ObjectRevision[],
  extra: readonly KindObject[],
  range: { readonly from?: Millis; readonly to?: Millis },
): ReplayPlan {
  const first = recorded[0]?.at ?? 0;
  const last = recorded[recorded.length - 1]?.at ?? first;
  const start = range.from ?? replayStart(history) ?? first;
  const end = range.to ?? Math.max(history.span?.to ?? last, last);
  const state = new Map<string, KindObject>();
  const revisions: Revision[] = [];
  for (const r of recorded) {
    if (r.at > end) break;
    const item = recordedItem(r);
    if (r.at <= start) {
      if (r.type === 'DELETED') state.delete(idOf(item));
      else state.set(idOf(item), item);
    } else {
      revisions.push({ at: r.at, type: r.type, item });
    }
  }
  const kinds = new Set(recorded.map((r) => r.kind));
  const initial = [...state.values()];
  const appear = [...appearing(history), ...extra.map((item) => ({ at: createdOf(item), item }))];
  for (const { at, item } of appear) {
    if (kinds.has(item.kind)) continue;
    if (at === undefined || at <= start) initial.push(item);
    else if (at <= end) revisions.push({ at, type: 'ADDED', item });
  }
  // Stable: revisions recorded at the same moment keep their recorded order.
  revisions.sort((a, b) => a.at - b.at);
  return { start, end, initial, revisions, ...replayedUpdate(history, range.from) };
}

function createdOf(item: KindObject): Millis | undefined {
  const t = Date.parse(String(item.object.metadata.creationTimestamp ?? ''));
  return Number.isNaN(t) ? undefined : t;
}

/** What the replay has done so far, for `/atlevel/replay` and the bench. */
export interface ReplayProgress {
  readonly start: Millis;
  readonly end: Millis;
  readonly speed: number;
  readonly applied: number;
  readonly total: number;
  /** The recorded moment being served now. */
  readonly now: Millis;
  readonly done: boolean;
  /** Worst delay of a change behind its schedule, wall-clock milliseconds. */
  readonly maxLagMs: number;
  readonly lagsMs: readonly number[];
}

/**
 * Plays revisions into `apply` at `speed`× real time. Changes due at the same recorded moment are
 * applied together. `now()` is the recorded moment being served (for ages in tables).
 */
export class Replayer {
  #applied = 0;
  #timer: NodeJS.Timeout | undefined;
  #wallStart = 0;
  #maxLag = 0;
  readonly #lags: number[] = [];
  #resolveDone!: () => void;
  readonly done: Promise<void>;

  constructor(
    readonly plan: ReplayPlan,
    readonly speed: number,
    private readonly apply: (r: Revision) => void,
  ) {
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  start(): void {
    this.#wallStart = performance.now();
    this.#schedule();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  now(): Millis {
    if (this.#wallStart === 0) return this.plan.start;
    const t = this.plan.start + (performance.now() - this.#wallStart) * this.speed;
    return Math.min(t, this.plan.end);
  }

  progress(): ReplayProgress {
    return {
      start: this.plan.start,
      end: this.plan.end,
      speed: this.speed,
      applied: this.#applied,
      total: this.plan.revisions.length,
      now: this.now(),
      done: this.#applied >= this.plan.revisions.length,
      maxLagMs: this.#maxLag,
      lagsMs: this.#lags,
    };
  }

  #due(r: Revision): number {
    return this.#wallStart + (r.at - this.plan.start) / this.speed;
  }

  #schedule(): void {
    const next = this.plan.revisions[this.#applied];
    if (!next) {
      this.#resolveDone();
      return;
    }
    const wait = Math.max(0, this.#due(next) - performance.now());
    this.#timer = setTimeout(() => this.#tick(), Math.min(wait, 2_147_000_000));
  }

  #tick(): void {
    const now = performance.now();
    const revisions = this.plan.revisions;
    let r = revisions[this.#applied];
    while (r && this.#due(r) <= now) {
      const lag = now - this.#due(r);
      this.#lags.push(lag);
      if (lag > this.#maxLag) this.#maxLag = lag;
      this.apply(r);
      this.#applied++;
      r = revisions[this.#applied];
    }
    this.#schedule();
  }
}
