/**
 * What a live source holds: the last version of every object it listed or watched, by resource and
 * namespace/name, and how it becomes HistoryParts (src/model) exactly as the file sources make them:
 * each object validated by its kind's schema (model/kinds.ts) and normalized, in name order, with a
 * SourceRef naming the API path it was read from.
 */
import {
  emptySnapshot,
  type HistoryParts,
  type InputFile,
  type Interval,
  KINDS,
  type KindFacts,
  type KnownKind,
  type Observed,
  plural,
} from '../model/index.js';
import type { AnswerReading, RawObject } from './client.js';
import { apiVersionOf, isRendered, type LiveResource, resourcePath } from './resources.js';

/**
 * Events held before a flood is trimmed: far above the few hundred a real cluster keeps in the
 * namespaces watched (Events expire after an hour), and a bound on what a flood can cost.
 */
export const MAX_EVENTS = 10_000;
/** Past MAX_EVENTS only the events the analyses read are kept, up to this many. */
const MAX_NEEDED_EVENTS = 50_000;

/**
 * The Event reasons an analysis reads (the timeline's node rewind, the drain and eviction
 * assessment, explain's cause chains, the operators' level reports): past MAX_EVENTS, only these
 * are kept.
 */
const NEEDED_EVENT_REASONS = new Set([
  'OperatorVersionChanged',
  'MachineConfigChange',
  'MachineConfigReached',
  'NodeReady',
  'NodeNotReady',
  'Reboot',
  'Drain',
  'FailedToDrain',
  'RenderedConfigGenerated',
  'SetDesiredConfig',
]);

function neededEvent(raw: RawObject): boolean {
  const reason = raw.reason;
  if (typeof reason === 'string' && NEEDED_EVENT_REASONS.has(reason)) return true;
  // An eviction refused by a PodDisruptionBudget is known by its message (status/drain.ts).
  const message =
    typeof raw.message === 'string' ? raw.message : typeof raw.note === 'string' ? raw.note : '';
  return message.includes('disruption budget');
}

export function keyOf(o: RawObject): string {
  const m = o.metadata;
  return `${m?.namespace ?? ''}/${m?.name ?? ''}`;
}

interface Held {
  raw: RawObject;
  /** Validated form, made when first needed and dropped when the object changes. */
  valid?: Observed<unknown>;
}

export class LiveState {
  readonly #byKind = new Map<KnownKind, Map<string, Held>>();
  readonly #resources = new Map<KnownKind, LiveResource>();
  readonly #bytes = new Map<KnownKind, number>();
  /** Events not kept because of a flood (MAX_EVENTS). */
  droppedEvents = 0;

  constructor(
    readonly server: string,
    resources: readonly LiveResource[],
    /** Each object checked by its kind's schema, as the sources check every file's (AnswerReading). */
    readonly validate: AnswerReading['validate'],
    /** Keep a MachineConfig's contents (spec) only when this says so; metadata always. */
    readonly keepContent: (name: string, state: LiveState) => boolean = () => true,
  ) {
    for (const r of resources) {
      this.#resources.set(r.kind, r);
      this.#byKind.set(r.kind, new Map());
    }
  }

  get(kind: KnownKind, key: string): RawObject | undefined {
    return this.#byKind.get(kind)?.get(key)?.raw;
  }

  all(kind: KnownKind): IterableIterator<RawObject> {
    const m = this.#byKind.get(kind) ?? new Map<string, Held>();
    return (function* () {
      for (const h of m.values()) yield h.raw;
    })();
  }

  count(kind: KnownKind): number {
    return this.#byKind.get(kind)?.size ?? 0;
  }

  /**
   * Put an object (ADDED or MODIFIED); returns the version it replaces. It is validated by its
   * kind's schema first, as the file sources validate theirs: a bad one is one clear InputError
   * naming its API path. An Event past the flood bound (MAX_EVENTS) is not kept: `kept` says so.
   */
  put(kind: KnownKind, raw: RawObject, bytes = 0): RawObject | undefined {
    return this.store(kind, raw, bytes).before;
  }

  store(kind: KnownKind, raw: RawObject, bytes = 0): { before: RawObject | undefined; kept: boolean } {
    const file = this.#file(kind);
    const withKind = this.#withKind(kind, raw);
    // Validated before anything reads a field of it (#trim reads the name).
    const valid = this.validate(kind, withKind, file, '');
    const stored = kind === 'MachineConfig' ? this.#trim(withKind) : withKind;
    const map = this.#byKind.get(kind) as Map<string, Held>;
    const key = keyOf(raw);
    const before = map.get(key)?.raw;
    if (kind === 'Event' && before === undefined && !this.#roomForEvent(stored)) {
      this.droppedEvents++;
      return { before, kept: false };
    }
    const facts: KindFacts = KINDS[kind];
    const held: Held = { raw: stored };
    if (stored === withKind) {
      const object = facts.normalize ? facts.normalize(valid) : valid;
      held.valid = { object, ref: { file, path: key.startsWith('/') ? key.slice(1) : key } };
    }
    map.set(key, held);
    this.#bytes.set(kind, (this.#bytes.get(kind) ?? 0) + bytes);
    return { before, kept: true };
  }

  #file(kind: KnownKind): string {
    return `${this.server}${resourcePath(this.#resources.get(kind) as LiveResource)}`;
  }

  /** Lists leave `apiVersion` and `kind` out of their items. */
  #withKind(kind: KnownKind, raw: RawObject): RawObject {
    const given = raw.apiVersion;
    const r = this.#resources.get(kind) as LiveResource;
    return { ...raw, apiVersion: typeof given === 'string' ? given : apiVersionOf(r), kind };
  }

  #roomForEvent(raw: RawObject): boolean {
    const held = this.count('Event');
    if (held < MAX_EVENTS) return true;
    return held < MAX_NEEDED_EVENTS && neededEvent(raw);
  }

  delete(kind: KnownKind, raw: RawObject): RawObject | undefined {
    const map = this.#byKind.get(kind);
    this.validate(kind, this.#withKind(kind, raw), this.#file(kind), '');
    const key = keyOf(raw);
    const before = map?.get(key)?.raw;
    map?.delete(key);
    return before;
  }

  /** Drop a config's contents when it is not one the analyses need (docs/live.md, "Memory"). */
  #trim(mc: RawObject): RawObject {
    const name = mc.metadata?.name ?? '';
    if (isRendered(name) && this.keepContent(name, this)) return mc;
    if (!isRendered(name)) return { ...mc, spec: {} };
    return {
      ...mc,
      spec: {},
      metadata: {
        ...mc.metadata,
        annotations: {
          ...(mc.metadata?.annotations as object | undefined),
          'atlevel.io/content-not-kept': 'true',
        },
      },
    };
  }

  /** Whether a rendered config's contents were dropped (and must be fetched to be kept). */
  contentDropped(name: string): boolean {
    const mc = this.get('MachineConfig', `/${name}`);
    const a = mc?.metadata?.annotations as Record<string, unknown> | undefined;
    return a?.['atlevel.io/content-not-kept'] === 'true';
  }

  /** Every object validated: a bad one is one clear InputError naming its API path. */
  parts(monitorIntervals: Interval[], notes: string[]): HistoryParts {
    const objects = emptySnapshot() as unknown as Record<string, Observed<unknown>[]>;
    const inputs: InputFile[] = [];
    for (const [kind, map] of this.#byKind) {
      const r = this.#resources.get(kind) as LiveResource;
      const file = `${this.server}${resourcePath(r)}`;
      const facts: KindFacts = KINDS[kind];
      const list: Observed<unknown>[] = [];
      const keys = [...map.keys()].sort();
      for (const key of keys) {
        const held = map.get(key) as Held;
        if (!held.valid) {
          const name = held.raw.metadata?.name ?? '';
          const valid = this.validate(kind, held.raw, file, name);
          const object = facts.normalize ? facts.normalize(valid) : valid;
          held.valid = { object, ref: { file, path: key.startsWith('/') ? key.slice(1) : key } };
        }
        list.push(held.valid);
      }
      objects[facts.field] = list;
      if (kind === 'Event' && this.droppedEvents > 0) {
        notes.push(
          `${file}: ${plural(this.droppedEvents, 'Event')} not kept (a flood: past ${MAX_EVENTS} Events only those the analyses read are kept, up to ${MAX_NEEDED_EVENTS})`,
        );
      }
      inputs.push({
        path: file,
        reader: 'live',
        bytes: this.#bytes.get(kind) ?? 0,
        contributed: plural(list.length, 'object'),
      });
    }
    return {
      objects: objects as unknown as HistoryParts['objects'],
      monitorIntervals,
      testLog: [],
      releases: {},
      inputs,
      notes,
    };
  }
}
