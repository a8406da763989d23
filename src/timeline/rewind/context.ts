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
  Condition,
  ObjectRevision,
  ObjectSnapshot,
  Observed,
} from '../../model/index.js';
import { formatTime, type Millis, parseTime } from '../../model/index.js';
import { type ConditionTransition, conditionTransitions, earliestPrecise } from '../query.js';

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
export const NOT_REWOUND = 'NotRewound';

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

export interface Transition {
  readonly at: Millis;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

/** One condition at the moment, and what of it the inputs do not give. */
export interface ConditionRewind {
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

/**
 * What every rewinder shares for one rewind: the moment, whether it is the end of the span, whether a
 * monitor watched, the recorded revisions, the conditions' rewinding, and the notes of what could not
 * be rewound (finish() puts the conditions' in words, then each kind's rewinder its own).
 */
export class RewindContext {
  readonly unrewound: Unrewound[] = [];
  /** The moment is the end of the span: the snapshot is the cluster then. */
  readonly final: boolean;
  /** Every recorded revision of each object (a simulated run's), oldest first, by `Kind/name`. */
  readonly #revisions = new Map<string, ObjectRevision[]>();
  readonly #conditionNotes = new Map<string, ConditionNotes>();
  /** Monitor sources watched the cluster through this stretch: a change they did not record did not happen. */
  readonly #watched: { from: Millis; to: Millis } | undefined;
  /** What each kind's rewinder says once every object is rewound (finish() calls them in turn). */
  readonly finishers: (() => void)[] = [];

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
    this.final = history.span !== undefined && at >= history.span.to;
    // The kinds rewound here are cluster-scoped: `Kind/name`, as the condition keys.
    for (const r of history.revisions ?? []) {
      if (r.namespace) continue;
      const key = `${r.kind}/${r.name}`;
      const list = this.#revisions.get(key);
      if (list) list.push(r);
      else this.#revisions.set(key, [r]);
    }
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

  /** The object's conditions at the moment; `kind` is its kind, or its whole key (`Pod/ns/name`) when namespaced. */
  conditions(kind: string, object: WithConditions): Condition[] | undefined {
    const list = object.status?.conditions;
    if (!list) return undefined;
    const key = kind.includes('/') ? kind : `${kind}/${object.metadata.name}`;
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
      if (this.final) return { condition: c, unknown: [] };
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
    const revision = this.revisionAt(key);
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
  revisionAt(key: string): Record<string, unknown> | undefined {
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
    for (const f of this.finishers) f();
  }
}
