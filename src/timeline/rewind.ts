/**
 * The cluster as the timeline says it was at one moment: the last snapshot of every object, wound
 * back through the transitions the inputs recorded. Pure, so `status --at`, the Kubernetes API
 * server that serves a past moment, and the tests all rebuild the same cluster.
 *
 * A field is rewound only from evidence: a condition's lastTransitionTime at or before the moment
 * (it has not changed since), a recorded transition at or before it, or a recorded change after it
 * (for a True/False condition the status before a change is the other one). Anything else is said in
 * `unrewound`, per object and field, and is never silently taken from the later snapshot: such a
 * condition reads `Unknown` with reason `NotRewound`.
 *
 * A condition's reason and message are another matter: operators change them without a status
 * transition (the CVO's Progressing message counts manifests, its Available message names the release
 * it applied), and every monitor (origin's, and `atlevel watch`'s) records a condition only when its
 * status changes. So a reason or message is known at the moment only from an observation at that
 * very moment (a recorded transition then, the snapshot when the moment is its end) or from a record
 * of every revision (a simulated run's). Otherwise the condition keeps its rewound status and time but
 * reads reason `NotRewound`, and its message is the one recorded with its last change, dated (see
 * `earlierMessage`), or says it is not known (`unknownMessage`).
 */
import type {
  ClusterHistory,
  ClusterOperator,
  ClusterVersion,
  Condition,
  MachineConfigPool,
  Node,
  ObjectRevision,
  ObjectSnapshot,
  Observed,
} from '../model/index.js';
import { formatTime, MCO, type Millis, parseTime, plural } from '../model/index.js';
import { poolHistory, poolStateAt } from './pools.js';
import {
  type ConditionTransition,
  conditionTransitions,
  earliestPrecise,
  intervalsOf,
  versionChanges,
} from './query.js';

/**
 * The ClusterOperators whose own (`operator`) version at the moment could not be placed: it is left
 * out of the rewound object, and status counts their progress as unknown, not as not updated.
 */
export function operatorVersionUnknown(unrewound: readonly Unrewound[]): ReadonlySet<string> {
  return namesWithout(unrewound, 'ClusterOperator', OPERATOR_VERSION_FIELD);
}

const OPERATOR_VERSION_FIELD = 'status.versions[operator]';

/** The Nodes whose MCO config annotations the rewind removed (it could not tell their config then). */
export function nodeConfigUnknown(unrewound: readonly Unrewound[]): ReadonlySet<string> {
  return namesWithout(unrewound, 'Node', `metadata.annotations[${MCO.currentConfig}]`);
}

/** The names of the objects of `kind` whose `field` is among the unrewound. */
function namesWithout(unrewound: readonly Unrewound[], kind: string, field: string): ReadonlySet<string> {
  const prefix = `${kind}/`;
  const out = new Set<string>();
  for (const u of unrewound) {
    if (u.field === field && u.object.startsWith(prefix)) out.add(u.object.slice(prefix.length));
  }
  return out;
}

/** One field of one object that the inputs do not let atlevel rewind. */
export interface Unrewound {
  /** `ClusterOperator/dns`, `Node/ip-10-0-1-2`, or a kind (`Pod`) when it holds for every object of it. */
  readonly object: string;
  /** `status.conditions[Degraded]`, `metadata.annotations[…/currentConfig]`, `*` for the whole object. */
  readonly field: string;
  /** Why, in words, and what the field holds instead. */
  readonly why: string;
}

export interface Rewound {
  readonly at: Millis;
  /** Same shapes as the history's snapshot; objects created after `at` are left out. */
  readonly objects: ObjectSnapshot;
  readonly unrewound: readonly Unrewound[];
}

/** The moments a history can be rewound to: its span. */
export function rewindSpan(history: ClusterHistory): { from: Millis; to: Millis } | undefined {
  return history.span;
}

/** Thrown when `at` lies outside the inputs' span: there is nothing to rebuild the cluster from. */
export class OutsideSpanError extends Error {
  override readonly name = 'OutsideSpanError';
  constructor(
    readonly at: Millis,
    readonly span: { from: Millis; to: Millis } | undefined,
  ) {
    super(
      span
        ? `${formatTime(at)} is outside the inputs' span, ${formatTime(span.from)} to ${formatTime(span.to)}`
        : `the inputs carry no times, so ${formatTime(at)} cannot be placed on their timeline`,
    );
  }
}

/**
 * The reason of a condition whose reason and message the inputs do not give at the moment. With status
 * `Unknown` the status is not known either; with `True` or `False` the status is known (see
 * conditionStatusKnown).
 */
const NOT_REWOUND = 'NotRewound';

/** False only for a condition whose status the rewind could not tell (it reads Unknown, NotRewound). */
export function conditionStatusKnown(c: Condition | undefined): boolean {
  return !(c?.reason === NOT_REWOUND && c.status === 'Unknown');
}

/** False for a condition whose reason and message the rewind could not tell (reason NotRewound). */
export function conditionTextKnown(c: Condition | undefined): boolean {
  return c?.reason !== NOT_REWOUND;
}

/** The fields of a condition the rewind sets itself; any other (lastHeartbeatTime, ...) is the snapshot's. */
const CONDITION_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'status',
  'lastTransitionTime',
  'reason',
  'message',
]);

export function objectsAt(history: ClusterHistory, at: Millis): Rewound {
  const span = rewindSpan(history);
  if (!span || at < span.from || at > span.to) throw new OutsideSpanError(at, span);
  const r = new Rewinder(history, at);
  const s = history.objects;
  const objects: ObjectSnapshot = {
    clusterVersions: s.clusterVersions.filter(r.existed).map((o) => r.clusterVersion(o)),
    clusterOperators: s.clusterOperators.filter(r.existed).map((o) => r.clusterOperator(o)),
    machineConfigs: s.machineConfigs.filter((o) => {
      if (parseTime(o.object.metadata.creationTimestamp) === undefined) {
        r.note(
          `MachineConfig/${o.object.metadata.name}`,
          'metadata.creationTimestamp',
          'no creation time: kept, though it may not have existed yet',
        );
      }
      return r.existed(o);
    }),
    nodes: [],
    machineConfigPools: [],
    events: s.events.filter((e) => {
      const first =
        parseTime(e.object.firstTimestamp) ??
        parseTime(e.object.eventTime) ??
        parseTime(e.object.metadata.creationTimestamp);
      return first === undefined || first <= at;
    }),
    pods: s.pods,
    podDisruptionBudgets: s.podDisruptionBudgets,
    controllerConfigs: s.controllerConfigs,
  };
  objects.nodes = s.nodes.filter(r.existed).map((o) => r.node(o));
  objects.machineConfigPools = s.machineConfigPools.filter(r.existed).map((o) => r.pool(o, objects.nodes));
  if (s.pods.length > 0)
    r.note(
      'Pod',
      '*',
      `${plural(s.pods.length, 'pod is', 'pods are')} as last seen: the inputs do not record their changes`,
    );
  if (s.podDisruptionBudgets.length > 0) {
    r.note('PodDisruptionBudget', '*', 'as last seen: the inputs do not record their changes');
  }
  if (s.controllerConfigs.length > 0) {
    r.note('ControllerConfig', '*', 'as last seen: the inputs do not record their changes');
  }
  r.finish();
  return { at, objects, unrewound: r.unrewound };
}

/**
 * The history as it stood at `at`: rewound objects, and only the intervals and test lines that had
 * begun by then. Analyses that take a history (status) run on it unchanged.
 */
export function historyAt(
  history: ClusterHistory,
  at: Millis,
): { history: ClusterHistory; unrewound: readonly Unrewound[] } {
  const { objects, unrewound } = objectsAt(history, at);
  const notes = [...history.notes];
  const { alerts: _alerts, mcoImage: _mcoImage, ...rest } = history;
  const extra: Unrewound[] = [];
  if (history.mcoImage) {
    extra.push({
      object: 'Deployment/openshift-machine-config-operator/machine-config-operator',
      field: 'spec.template.spec.containers[machine-config-operator].image',
      why: 'known only as the inputs were taken: left out',
    });
  }
  if (history.alerts && history.alerts.length > 0) {
    extra.push({
      object: 'Alert',
      field: '*',
      why: 'alerts are known only as firing when the inputs were taken: left out',
    });
  }
  return {
    history: {
      ...rest,
      objects,
      intervals: history.intervals.filter((i) => i.from <= at),
      testLog: history.testLog.filter((e) => e.at <= at),
      span: { from: history.span?.from ?? at, to: at },
      notes,
    },
    unrewound: [...unrewound, ...extra],
  };
}

interface Transition {
  readonly at: Millis;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

/** One condition at the moment, and what of it the inputs do not give. */
interface ConditionRewind {
  readonly condition: Condition;
  /** A note on the status or its time. */
  readonly unrewound?: Unrewound;
  /** Its other fields not known at the moment (`reason`, `message`, `lastHeartbeatTime`, ...). */
  readonly unknown: readonly string[];
}

/** Per object: its conditions' types, those whose status is unknown, and per field the types whose field is. */
interface ConditionNotes {
  readonly types: Set<string>;
  readonly whole: Set<string>;
  readonly fields: Map<string, Set<string>>;
}

const REACHED_RE = /cluster reached (\S+)/;

const RELATED_OBJECTS = 'status.relatedObjects';

type ObjectReferences = NonNullable<NonNullable<ClusterOperator['status']>['relatedObjects']>;

/** A recorded `status.relatedObjects` as the ClusterOperator schema reads one: revisions are not validated. */
function isObjectReferences(v: unknown): v is ObjectReferences {
  return (
    Array.isArray(v) &&
    v.every((o: { resource?: unknown; name?: unknown } | null) => {
      return (
        typeof o === 'object' && o !== null && typeof o.resource === 'string' && typeof o.name === 'string'
      );
    })
  );
}

/**
 * The message of a condition whose status is known and whose message was last recorded earlier, with
 * the change into that status: said with its time, since a message changes without a transition.
 */
function earlierMessage(recorded: { readonly at: Millis; readonly message: string }): string {
  return `as last recorded, at ${formatTime(recorded.at)} (it may have changed since): ${recorded.message}`;
}

/** The message of a condition whose status is known and whose reason and message are not. */
function unknownMessage(at: Millis): string {
  return `atlevel cannot tell this condition's message at ${formatTime(at)} from the inputs`;
}

function fieldWhy(field: string): string {
  if (field === 'reason')
    return `the inputs record a condition's reason only when its status changes, and it changes without one: reads ${NOT_REWOUND}`;
  if (field === 'message')
    return "the inputs record a condition's message only when its status changes, and it changes without one: shows the one recorded with the last change, dated, or says it is not known";
  return 'changes without a status change and is not recorded: left out';
}

interface WithConditions {
  metadata: { name: string; creationTimestamp?: string | null | undefined };
  status?: { conditions?: Condition[] | null | undefined } | undefined;
}

class Rewinder {
  readonly unrewound: Unrewound[] = [];
  /** The moment is the end of the span: the snapshot is the cluster then. */
  readonly #final: boolean;
  /** Every recorded revision of each object (a simulated run's), oldest first, by `Kind/name`. */
  readonly #revisions = new Map<string, ObjectRevision[]>();
  readonly #conditionNotes = new Map<string, ConditionNotes>();
  /** Monitor sources watched the cluster through this stretch: a change they did not record did not happen. */
  readonly #watched: { from: Millis; to: Millis } | undefined;
  /** Versions of updates that had not completed by `at` (begun or not): operators reach them later. */
  readonly #unfinishedTargets = new Set<string>();
  /** The ClusterOperators rewound, and those whose relatedObjects are the snapshot's (finish() names them). */
  #operators = 0;
  readonly #relatedAsLastSeen: string[] = [];

  constructor(
    readonly history: ClusterHistory,
    readonly at: Millis,
  ) {
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const i of history.intervals) {
      if (i.source.startsWith('derived:')) continue;
      if (i.from < from) from = i.from;
      if (i.to > to) to = i.to;
    }
    this.#watched = Number.isFinite(from) ? { from, to } : undefined;
    this.#final = history.span !== undefined && at >= history.span.to;
    // The kinds rewound here are cluster-scoped: `Kind/name`, as the condition keys.
    for (const r of history.revisions ?? []) {
      if (r.namespace) continue;
      const key = `${r.kind}/${r.name}`;
      const list = this.#revisions.get(key);
      if (list) list.push(r);
      else this.#revisions.set(key, [r]);
    }
    const entries = history.objects.clusterVersions[0]?.object.status?.history ?? [];
    entries.forEach((h, index) => {
      if (index === entries.length - 1 || !h.version) return; // the install
      const completed = parseTime(h.completionTime);
      if (completed === undefined || completed > at) this.#unfinishedTargets.add(h.version);
    });
  }

  note(object: string, field: string, why: string): void {
    this.unrewound.push({ object, field, why });
  }

  /** Whether a monitor watched the cluster from `at` to the end, so that silence means "no change". */
  get watched(): boolean {
    return this.#watched !== undefined && this.#watched.from <= this.at;
  }

  readonly existed = (
    o: Observed<{ metadata: { creationTimestamp?: string | null | undefined } }>,
  ): boolean => {
    const created = parseTime(o.object.metadata.creationTimestamp);
    return created === undefined || created <= this.at;
  };

  conditions(kind: string, object: WithConditions): Condition[] | undefined {
    const list = object.status?.conditions;
    if (!list) return undefined;
    const key = `${kind}/${object.metadata.name}`;
    return list.map((c) => this.condition(key, c));
  }

  condition(key: string, c: Condition, extra: readonly Transition[] = []): Condition {
    const rewound = this.rewindCondition(key, c, extra);
    this.commit(key, c.type, rewound);
    return rewound.condition;
  }

  /** Keep what rewinding one condition of `key` could not tell, for finish() to put in words. */
  commit(key: string, type: string, rewound: ConditionRewind): void {
    if (rewound.unrewound) this.unrewound.push(rewound.unrewound);
    let notes = this.#conditionNotes.get(key);
    if (!notes) {
      notes = { types: new Set(), whole: new Set(), fields: new Map() };
      this.#conditionNotes.set(key, notes);
    }
    notes.types.add(type);
    if (!conditionStatusKnown(rewound.condition)) notes.whole.add(type);
    for (const field of rewound.unknown) {
      const types = notes.fields.get(field) ?? new Set<string>();
      types.add(type);
      notes.fields.set(field, types);
    }
  }

  rewindCondition(key: string, c: Condition, extra: readonly Transition[]): ConditionRewind {
    const since = parseTime(c.lastTransitionTime);
    // Only the object's own recorded transitions witness its reason and message; `extra` (a node's
    // NodeReady/NodeNotReady events) gives the status alone, in the event's words, not the condition's.
    const own = conditionTransitions(this.history, key, c.type).filter(
      (t) => !t.source.startsWith('derived:'),
    );
    // A lastTransitionTime in whole seconds (metav1.Time) puts the change somewhere in that second; a
    // record of it to the millisecond says where, and before that the condition had not changed yet.
    const stamp = c.lastTransitionTime;
    const precise =
      since !== undefined && typeof stamp === 'string' && !/\.\d/.test(stamp)
        ? own.find((t) => t.status === c.status && t.at > since && t.at < since + 1000)
        : undefined;
    let status: string;
    let lastTransitionTime: string | null | undefined;
    let unrewound: Unrewound | undefined;
    if (since !== undefined && since <= this.at && !(precise && precise.at > this.at)) {
      // The snapshot describes the moment itself: nothing to wind back.
      if (this.#final) return { condition: c, unknown: [] };
      status = c.status;
      // The stamp itself stays the snapshot's, as status without --at reads it.
      lastTransitionTime = stamp;
    } else {
      const recorded: Transition[] = [...own, ...extra].sort((a, b) => a.at - b.at);
      const before = recorded.filter((t) => t.at <= this.at).pop();
      const after = recorded.find((t) => t.at > this.at);
      if (before) {
        status = before.status;
        lastTransitionTime = formatTime(before.at);
      } else if (after && (after.status === 'True' || after.status === 'False')) {
        status = after.status === 'True' ? 'False' : 'True';
        lastTransitionTime = null;
        unrewound = {
          object: key,
          field: `status.conditions[${c.type}].lastTransitionTime`,
          why: `the status before the change to ${after.status} at ${formatTime(after.at)} is known, not when it began`,
        };
      } else {
        return {
          condition: {
            type: c.type,
            status: 'Unknown',
            lastTransitionTime: null,
            reason: NOT_REWOUND,
            message: `atlevel cannot tell this condition's status at ${formatTime(this.at)} from the inputs`,
          },
          unrewound: {
            object: key,
            field: `status.conditions[${c.type}]`,
            why:
              since === undefined
                ? 'the condition carries no transition time and no change of it is recorded: reads Unknown'
                : `last changed at ${formatTime(since)} and no earlier state is recorded: reads Unknown`,
          },
          unknown: [],
        };
      }
    }
    const text = this.textAt(key, c.type, status, own);
    const earlier = text ? undefined : this.#lastRecorded(status, own);
    // lastHeartbeatTime and the like move without a status change and are never recorded: the
    // snapshot's value is later than the moment, so it is left out.
    const dropped = Object.keys(c).filter((k) => !CONDITION_FIELDS.has(k));
    return {
      condition: {
        type: c.type,
        status,
        lastTransitionTime,
        // Not blanked: an empty reason or message would read as the operator's own (many conditions
        // have none), so the condition says in its own fields that they are not known (docs/serve.md).
        // The message recorded with the change into this status is shown, dated and marked as
        // possibly changed since: it is what the inputs know, and the reason stays NotRewound.
        reason: text ? text.reason : NOT_REWOUND,
        message: text ? text.message : earlier ? earlierMessage(earlier) : unknownMessage(this.at),
      },
      ...(unrewound ? { unrewound } : {}),
      unknown: [...(text ? [] : ['reason', 'message']), ...dropped],
    };
  }

  /**
   * The last recorded change of the condition at or before the moment, when it is the change into
   * `status` (so nothing recorded changed the condition in between) and carries a message.
   */
  #lastRecorded(status: string, own: readonly ConditionTransition[]): ConditionTransition | undefined {
    let last: ConditionTransition | undefined;
    for (const t of own) if (t.at <= this.at && (last === undefined || t.at >= last.at)) last = t;
    return last && last.status === status && last.message !== '' ? last : undefined;
  }

  /**
   * A condition's reason and message at the moment, when something observed them at that moment: the
   * object's recorded revision (a simulated run records every one, so the last at or before the
   * moment is the object then), or a transition recorded at the moment itself. A transition recorded
   * earlier is not enough: monitors record a condition only when its status changes, and its reason
   * and message change without one.
   */
  textAt(
    key: string,
    type: string,
    status: string,
    own: readonly ConditionTransition[],
  ): { reason: string; message: string } | undefined {
    const revision = this.#revisionAt(key);
    if (revision) {
      const conditions = (revision.status as { conditions?: unknown } | undefined)?.conditions;
      const found = Array.isArray(conditions)
        ? (conditions as { type?: unknown; status?: unknown; reason?: unknown; message?: unknown }[]).find(
            (x) => x?.type === type,
          )
        : undefined;
      if (found && found.status === status)
        return {
          reason: typeof found.reason === 'string' ? found.reason : '',
          message: typeof found.message === 'string' ? found.message : '',
        };
    }
    // Of the records of that moment, the most precise, and one that carries a reason: origin 4.10's
    // condition intervals (`… - 123s … reason/<message>`) put the message where the reason goes.
    const exact = own.filter((t) => t.at === this.at && t.status === status);
    const withReason = exact.filter((t) => t.reason !== '');
    const then = earliestPrecise(withReason.length > 0 ? withReason : exact);
    return then ? { reason: then.reason, message: then.message } : undefined;
  }

  /** The object `key` as its last recorded revision at or before the moment, when revisions are recorded. */
  #revisionAt(key: string): Record<string, unknown> | undefined {
    let last: ObjectRevision | undefined;
    for (const r of this.#revisions.get(key) ?? []) {
      if (r.at > this.at) break;
      last = r;
    }
    return last && last.type !== 'DELETED' ? last.object : undefined;
  }

  /**
   * Put the condition fields that could not be rewound in words: per condition, per object
   * (`status.conditions[*].message`) when it holds for every condition of the object, and per kind
   * when it holds for every object of the kind (before the end of the span it usually does, so the
   * list stays readable).
   */
  finish(): void {
    const kinds = new Map<string, { objects: number; starred: Map<string, string[]> }>();
    const single: Unrewound[] = [];
    for (const [object, notes] of this.#conditionNotes) {
      const kind = object.slice(0, object.indexOf('/'));
      const k = kinds.get(kind) ?? { objects: 0, starred: new Map<string, string[]>() };
      kinds.set(kind, k);
      k.objects++;
      for (const [field, types] of notes.fields) {
        if ([...notes.types].every((t) => types.has(t) || notes.whole.has(t))) {
          k.starred.set(field, [...(k.starred.get(field) ?? []), object]);
        } else {
          for (const t of types)
            single.push({ object, field: `status.conditions[${t}].${field}`, why: fieldWhy(field) });
        }
      }
    }
    for (const [kind, k] of kinds) {
      for (const [field, objects] of k.starred) {
        if (objects.length === k.objects) this.note(kind, `status.conditions[*].${field}`, fieldWhy(field));
        else for (const o of objects) this.note(o, `status.conditions[*].${field}`, fieldWhy(field));
      }
    }
    this.unrewound.push(...single);
    // Every operator lists related objects, so this is usually said once for the kind.
    const related = this.#relatedAsLastSeen;
    const why =
      "the inputs do not record its changes (an operator's later release may list others): as last seen";
    if (related.length > 0 && related.length === this.#operators)
      this.note('ClusterOperator', RELATED_OBJECTS, why);
    else for (const o of related) this.note(o, RELATED_OBJECTS, why);
  }

  clusterVersion(seen: Observed<ClusterVersion>): Observed<ClusterVersion> {
    const cv = seen.object;
    const key = `ClusterVersion/${cv.metadata.name}`;
    // The monitor's `cluster reached X`, to the millisecond: where in its whole second a completion
    // time falls (see rewindCondition).
    const reached = intervalsOf(this.history, key).filter(
      (i) => !i.source.startsWith('derived:') && REACHED_RE.test(i.message.humanMessage),
    );
    const entries = (cv.status?.history ?? []).flatMap((h) => {
      const started = parseTime(h.startedTime);
      if (started === undefined) {
        this.note(
          key,
          'status.history[].startedTime',
          `entry ${h.version || h.image || '?'} has no start: kept`,
        );
        return [h];
      }
      if (started > this.at) return [];
      const completed = parseTime(h.completionTime);
      const stamp = h.completionTime;
      const target = h.version || h.image;
      const precise =
        completed !== undefined && typeof stamp === 'string' && !/\.\d/.test(stamp) && target
          ? reached.find(
              (i) =>
                i.from > completed &&
                i.from < completed + 1000 &&
                REACHED_RE.exec(i.message.humanMessage)?.[1] === target,
            )
          : undefined;
      // The stamp itself stays the snapshot's, as status without --at reads it.
      const at = precise?.from ?? completed;
      if (at !== undefined && at > this.at) return [{ ...h, state: 'Partial', completionTime: null }];
      return [h];
    });
    const newest = entries[0];
    const dropped = (cv.status?.history?.length ?? 0) - entries.length;
    // With no entry begun by then, the release the CVO wanted is not known: the snapshot's is later.
    const desiredUnknown = !newest && !this.#final && cv.status?.desired !== undefined;
    if (desiredUnknown)
      this.note(
        key,
        'status.desired',
        'no history entry had begun by then, so the release is not known: left out',
      );
    const desired = newest
      ? { version: newest.version ?? '', image: newest.image ?? '' }
      : desiredUnknown
        ? undefined
        : cv.status?.desired;
    let spec = cv.spec;
    // A request the CVO had not taken up by the end (refused, or not yet loaded) may have come after
    // the moment as well: handled as a later update is.
    const wanted = cv.spec?.desiredUpdate;
    const pending =
      !this.#final &&
      newest !== undefined &&
      wanted !== undefined &&
      wanted !== null &&
      ((!!wanted.version && wanted.version !== newest.version) ||
        (!!wanted.image && wanted.image !== newest.image));
    if ((dropped > 0 || pending) && cv.spec?.desiredUpdate) {
      spec = {
        ...cv.spec,
        desiredUpdate: {
          ...(newest?.version ? { version: newest.version } : {}),
          ...(newest?.image ? { image: newest.image } : {}),
        },
      };
      this.note(
        key,
        'spec.desiredUpdate',
        'when the later update was requested is not recorded: taken as the release the CVO was on',
      );
    }
    // The payload hash and the generations change when a new update is asked for and taken up: with
    // an update requested or begun after the moment, the snapshot's are that later update's.
    if (dropped > 0 || pending) {
      const later: [string, unknown][] = [
        ['status.versionHash', cv.status?.versionHash],
        ['status.observedGeneration', cv.status?.observedGeneration],
        ['metadata.generation', cv.metadata.generation],
      ];
      for (const [field, value] of later)
        if (value !== undefined && value !== null)
          this.note(key, field, 'a later update changed it and its value then is not recorded: as last seen');
    }
    const available = cv.status?.availableUpdates;
    if (!this.#final && Array.isArray(available) && available.length > 0)
      this.note(key, 'status.availableUpdates', 'the update graph is not recorded over time: as last seen');
    const conditions = this.conditions('ClusterVersion', cv);
    const { desired: _lastDesired, ...status } = cv.status ?? {};
    const object: ClusterVersion = {
      ...cv,
      ...(spec ? { spec } : {}),
      status: {
        ...status,
        history: entries,
        ...(desired ? { desired } : {}),
        ...(conditions ? { conditions } : {}),
      },
    };
    return { object, ref: seen.ref };
  }

  clusterOperator(seen: Observed<ClusterOperator>): Observed<ClusterOperator> {
    const co = seen.object;
    const name = co.metadata.name;
    const key = `ClusterOperator/${name}`;
    const changes = versionChanges(this.history, name);
    const recorded = (v: { name: string }) => changes.some((c) => c.name === v.name);
    // The operator reports its operands' versions with its own: when its own cannot be placed, an
    // operand version with no record of its own (kube-apiserver's `1.23.0`, an image) cannot be either.
    const own = co.status?.versions?.find((v) => v.name === 'operator');
    const ownLost = own !== undefined && !recorded(own) && this.#unfinishedTargets.has(own.version);
    const versions = co.status?.versions?.flatMap((v) => {
      const mine = changes.filter((c) => c.name === v.name);
      const before = mine.filter((c) => c.at <= this.at).pop();
      if (before) return [{ ...v, version: before.to }];
      const after = mine.find((c) => c.at > this.at);
      if (after) return [{ ...v, version: after.from }];
      // A version that an update not finished by then brought cannot be placed without a record.
      if (this.#unfinishedTargets.has(v.version)) {
        this.note(
          key,
          `status.versions[${v.name}]`,
          `reported ${v.version} by the end, and when it did is not recorded: left out`,
        );
        return [];
      }
      if (ownLost) {
        this.note(
          key,
          `status.versions[${v.name}]`,
          "the operator's own version cannot be placed, so neither can this one it reports with it: left out",
        );
        return [];
      }
      return [v];
    });
    const conditions = this.conditions('ClusterOperator', co);
    this.#operators++;
    const { relatedObjects: _related, extension: _extension, ...status } = co.status ?? {};
    return {
      object: {
        ...co,
        status: {
          ...status,
          ...this.#operatorExtras(key, co.status),
          ...(versions ? { versions } : {}),
          ...(conditions ? { conditions } : {}),
        },
      },
      ref: seen.ref,
    };
  }

  /**
   * A ClusterOperator's `status.relatedObjects` and `status.extension` at the moment. No monitor line
   * or interval carries either, so before the end of the span they are known only from the object's
   * recorded revision (a simulated run records every one). Otherwise:
   * - relatedObjects (the namespaces and resources `oc adm inspect` and must-gather collect for the
   *   operator) changes only when the operator's manifests do: kept as last seen and listed, as the
   *   ClusterVersion's availableUpdates and a node's nodeInfo are. Left out, it would have a client
   *   of `serve --at` collect nothing for the operator, which is further from the moment than the
   *   snapshot's list.
   * - extension is the operator's free-form status (machine-config's: one line per pool naming the
   *   rendered config its nodes are at, and lastSyncError), rewritten without any condition changing,
   *   as a condition's message is. The snapshot's describes the end (on bug-2019850 at 03:25 it says
   *   all 3 masters are at the config they were still rolling out to), so it is left out and listed,
   *   as a heartbeat and a pool's configuration.source of a later config are. It is not replaced by
   *   words saying it is not known, as a message is: it is any JSON, and its readers look for keys.
   */
  #operatorExtras(
    key: string,
    last: ClusterOperator['status'],
  ): Pick<NonNullable<ClusterOperator['status']>, 'relatedObjects' | 'extension'> {
    const related = last?.relatedObjects;
    const extension = last?.extension;
    // The snapshot describes the moment itself: nothing to wind back.
    if (this.#final)
      return {
        ...(related !== undefined ? { relatedObjects: related } : {}),
        ...(extension !== undefined ? { extension } : {}),
      };
    const then = this.#revisionAt(key);
    const recorded = then ? ((then.status ?? {}) as Record<string, unknown>) : undefined;
    const out: Pick<NonNullable<ClusterOperator['status']>, 'relatedObjects' | 'extension'> = {};
    if (recorded) {
      if (recorded.extension !== undefined) out.extension = recorded.extension;
    } else if (extension === null) {
      // Most operators never set one: none by the end is taken as none then, and not listed (it would
      // be listed for nearly every operator), as an empty availableUpdates is not.
      out.extension = null;
    } else if (extension !== undefined) {
      this.note(
        key,
        'status.extension',
        'the operator rewrites it without a condition changing, and the inputs do not record it: left out',
      );
    }
    const list = recorded?.relatedObjects;
    if (recorded && (list === undefined || list === null || isObjectReferences(list))) {
      if (list !== undefined) out.relatedObjects = list;
    } else if (related !== undefined) {
      out.relatedObjects = related;
      if (related !== null) this.#relatedAsLastSeen.push(key);
    }
    return out;
  }

  node(seen: Observed<Node>): Observed<Node> {
    const node = seen.object;
    const name = node.metadata.name;
    const key = `Node/${name}`;
    const events = intervalsOf(this.history, key).filter((i) => !i.source.startsWith('derived:'));
    const before = events.filter((i) => i.from <= this.at);
    const after = events.filter((i) => i.from > this.at);
    const a = { ...(node.metadata.annotations ?? {}) };
    const lastOf = (list: typeof events, reason: string) =>
      list.filter((i) => i.message.reason === reason).pop();
    const firstOf = (list: typeof events, reason: string) => list.find((i) => i.message.reason === reason);

    const changed = lastOf(before, 'MachineConfigChange');
    const reached = lastOf(before, 'MachineConfigReached');
    const laterChange = firstOf(after, 'MachineConfigChange');
    const laterReach = firstOf(after, 'MachineConfigReached');
    let desired = a[MCO.desiredConfig];
    let current = a[MCO.currentConfig];
    let known = true;
    if (changed?.message.annotations.config) desired = changed.message.annotations.config;
    else if (laterChange) {
      // Before its first recorded change, the node wanted what it ran.
      desired =
        reached?.message.annotations.config ?? this.previousConfig(laterChange.message.annotations.config);
      if (desired === undefined) known = false;
    } else if (!this.watched && a[MCO.desiredConfig] !== undefined) known = false;
    if (reached?.message.annotations.config && (!changed || reached.from >= changed.from)) {
      current = reached.message.annotations.config;
    } else if (laterReach) {
      current =
        this.previousConfig(laterReach.message.annotations.config) ?? reached?.message.annotations.config;
      if (current === undefined) known = false;
    } else if (reached?.message.annotations.config) current = reached.message.annotations.config;
    else if (!this.watched && a[MCO.currentConfig] !== undefined) known = false;
    // A config that did not exist yet cannot have been on the node.
    for (const value of [current, desired]) {
      const created = this.createdAt(value);
      if (created !== undefined && created > this.at) known = false;
    }
    if (!known) {
      for (const field of [MCO.currentConfig, MCO.desiredConfig, MCO.state]) {
        this.note(
          key,
          `metadata.annotations[${field}]`,
          'the inputs do not record when the node changed config: removed',
        );
        delete a[field];
      }
    } else {
      if (current !== undefined) a[MCO.currentConfig] = current;
      if (desired !== undefined) a[MCO.desiredConfig] = desired;
      if (current !== undefined && desired !== undefined) {
        const rebooting = lastOf(before, 'Reboot');
        a[MCO.state] =
          current === desired
            ? 'Done'
            : rebooting && changed && rebooting.from >= changed.from
              ? 'Rebooting'
              : 'Working';
        // The drain annotations as they were then (status/nodes.ts reads them as oc does): the daemon
        // asks for a drain (desiredDrain `drain-…`) and the controller records it done
        // (lastAppliedDrain) when the drain ends, which is when the daemon moves on to its reboot.
        // Between its Drain event and its Reboot event, a node was draining.
        const drain = lastOf(before, 'Drain');
        const draining =
          current !== desired &&
          drain !== undefined &&
          (!changed || drain.from >= changed.from) &&
          !(rebooting && rebooting.from >= drain.from);
        const asked = current !== desired ? `drain-${desired}` : `uncordon-${current}`;
        a[MCO.desiredDrain] = asked;
        a[MCO.lastAppliedDrain] = draining ? `uncordon-${current}` : asked;
      }
    }
    const ready = events
      .filter((i) => i.message.reason === 'NodeReady' || i.message.reason === 'NodeNotReady')
      .map((i) => ({
        at: i.from,
        status: i.message.reason === 'NodeReady' ? 'True' : 'False',
        reason: i.message.reason === 'NodeReady' ? 'KubeletReady' : 'NodeStatusUnknown',
        message: i.message.humanMessage,
      }));
    const conditions = node.status?.conditions?.map((c) =>
      this.condition(key, c, c.type === 'Ready' ? ready : []),
    );
    // A node that booted again after the moment (its recorded Reboot, or a config it reached later)
    // may have run another OS image, kubelet and boot then: the snapshot's nodeInfo is of its last boot.
    const lastCurrent = node.metadata.annotations?.[MCO.currentConfig];
    const rebooted = after.some((i) => i.message.reason === 'Reboot') || a[MCO.currentConfig] !== lastCurrent;
    if (!this.#final && node.status?.nodeInfo && rebooted)
      this.note(
        key,
        'status.nodeInfo',
        'the node booted again later and its earlier boot is not recorded: as last seen',
      );
    const unschedulable = node.spec?.unschedulable;
    if (unschedulable !== undefined && (after.length > 0 || !this.watched)) {
      this.note(key, 'spec.unschedulable', 'cordons are not recorded: kept as last seen');
    }
    return {
      object: {
        ...node,
        metadata: { ...node.metadata, annotations: a },
        status: { ...node.status, ...(conditions ? { conditions } : {}) },
      },
      ref: seen.ref,
    };
  }

  pool(seen: Observed<MachineConfigPool>, nodes: readonly Observed<Node>[]): Observed<MachineConfigPool> {
    const pool = seen.object;
    const name = pool.metadata.name;
    const key = `MachineConfigPool/${name}`;
    const ph = poolHistory(this.history, name);
    const state = poolStateAt(ph, this.at);
    const conditions = pool.status?.conditions?.map((c) => {
      const inferred =
        c.type === 'Updated' ? state.updated : c.type === 'Updating' ? state.updating : undefined;
      const rewound = this.rewindCondition(key, c, []);
      const status = inferred === undefined ? undefined : inferred ? 'True' : 'False';
      if (status === undefined || rewound.condition.status === status) {
        this.commit(key, c.type, rewound);
        return rewound.condition;
      }
      // The pool's own record beats an Unknown: poolStateAt reasons from renders and observations.
      // That gives the status alone; the message says so, and gives the reasoning.
      const condition: Condition = {
        type: c.type,
        status,
        lastTransitionTime: null,
        reason: NOT_REWOUND,
        message: `inferred by atlevel (the condition's own message at ${formatTime(this.at)} is not known): ${state.reasoning.join('; ')}`,
      };
      this.commit(key, c.type, {
        condition,
        unrewound: {
          object: key,
          field: `status.conditions[${c.type}].lastTransitionTime`,
          why: "the status is inferred from the pool's rollouts, not when it began: reads null",
        },
        unknown: ['reason', 'message'],
      });
      return condition;
    });
    const target =
      state.target?.name ??
      this.configIfExisted(pool.spec?.configuration?.name, key, 'spec.configuration.name');
    const current =
      state.current?.name ??
      (state.updated === true
        ? target
        : this.configIfExisted(pool.status?.configuration?.name, key, 'status.configuration.name'));
    const prefix = `rendered-${name}-`;
    const members = nodes.filter((n) => {
      const a = n.object.metadata.annotations ?? {};
      return (a[MCO.currentConfig] ?? a[MCO.desiredConfig] ?? '').startsWith(prefix);
    });
    // A node whose configs could not be rewound cannot be counted, nor placed in a pool.
    const lost = nodes.some(
      (n) =>
        n.object.metadata.annotations?.[MCO.currentConfig] === undefined &&
        this.history.objects.nodes.some(
          (o) =>
            o.object.metadata.name === n.object.metadata.name &&
            o.object.metadata.annotations?.[MCO.currentConfig] !== undefined,
        ),
    );
    const countsKnown = !lost;
    const status: NonNullable<MachineConfigPool['status']> = { ...pool.status };
    if (current !== undefined)
      status.configuration = this.configurationAt(
        key,
        'status.configuration',
        pool.status?.configuration,
        current,
      );
    if (conditions) status.conditions = conditions;
    if (countsKnown) {
      const on = (n: Observed<Node>, cfg: string | undefined) =>
        n.object.metadata.annotations?.[MCO.currentConfig] === cfg;
      const done = (n: Observed<Node>) => {
        const a = n.object.metadata.annotations ?? {};
        return a[MCO.currentConfig] === a[MCO.desiredConfig] && a[MCO.state] === 'Done';
      };
      status.machineCount = members.length;
      status.updatedMachineCount = members.filter((n) => on(n, target) && done(n)).length;
      status.readyMachineCount = members.filter((n) => on(n, target) && done(n)).length;
      status.unavailableMachineCount = members.filter((n) => !done(n)).length;
      status.degradedMachineCount = members.filter(
        (n) => n.object.metadata.annotations?.[MCO.state] === 'Degraded',
      ).length;
    } else {
      this.note(
        key,
        'status.*MachineCount',
        "the pool's nodes cannot all be rewound: counts kept as last seen",
      );
    }
    return {
      object: {
        ...pool,
        spec: {
          ...pool.spec,
          ...(target !== undefined
            ? {
                configuration: this.configurationAt(
                  key,
                  'spec.configuration',
                  pool.spec?.configuration,
                  target,
                ),
              }
            : {}),
        },
        status,
      },
      ref: seen.ref,
    };
  }

  /**
   * A pool's configuration reference naming `name` at the moment. Its `source` (the MachineConfigs the
   * rendered config was made from) is the snapshot's config's: for another config it is not known.
   */
  configurationAt(
    key: string,
    field: string,
    last: NonNullable<MachineConfigPool['spec']>['configuration'] | undefined,
    name: string,
  ): NonNullable<NonNullable<MachineConfigPool['spec']>['configuration']> {
    if (last?.name === name || !last) return { ...last, name };
    const { source, ...rest } = last;
    if (source !== undefined && source !== null)
      this.note(
        key,
        `${field}.source`,
        `the MachineConfigs ${name} was made from are not recorded: left out`,
      );
    return { ...rest, name };
  }

  /** The rendered config of the same pool made just before `name`. */
  previousConfig(name: string | undefined): string | undefined {
    if (!name) return undefined;
    const m = /^rendered-(.+)-[0-9a-f]{32}$/.exec(name);
    if (!m?.[1]) return undefined;
    const rendered = poolHistory(this.history, m[1]).rendered;
    const i = rendered.findIndex((r) => r.name === name);
    return i > 0 ? rendered[i - 1]?.name : undefined;
  }

  createdAt(name: string | undefined): Millis | undefined {
    if (!name) return undefined;
    const mc = this.history.objects.machineConfigs.find((m) => m.object.metadata.name === name);
    return parseTime(mc?.object.metadata.creationTimestamp);
  }

  configIfExisted(name: string | undefined, key: string, field: string): string | undefined {
    const created = this.createdAt(name);
    if (name === undefined) return undefined;
    if (created === undefined || created > this.at) {
      this.note(
        key,
        field,
        created === undefined
          ? `${name} is not among the inputs' MachineConfigs, so when the pool took it is unknown: kept`
          : `${name} did not exist yet and no earlier config is known: kept`,
      );
    }
    return name;
  }
}
