import type {
  Condition,
  Interval,
  IntervalLevel,
  KubeEvent,
  Locator,
  ObjectSnapshot,
  Observed,
  SourceRef,
} from '../model/index.js';
import {
  Interner,
  isKnownKind,
  KINDS,
  KNOWN_KINDS,
  type KnownKind,
  kindFacts,
  locatorOf,
  locators,
  type Millis,
  parseTime,
} from '../model/index.js';

/**
 * Intervals that objects imply. A snapshot holds only the last transition of each condition, so a
 * derived condition interval runs from its lastTransitionTime to the end of the observed span; what
 * came before that transition is unknown and is not invented here.
 */
export function deriveIntervals(
  objects: ObjectSnapshot,
  end?: Millis,
  events?: readonly Interval[],
): Interval[] {
  const out: Interval[] = [];
  const until = end ?? latestTime(objects);
  const intern = new Interner();
  // Every kind whose descriptor puts it on the timeline (model/kinds/ `timeline`), in KINDS order.
  for (const kind of KNOWN_KINDS) {
    const facts = kindFacts(kind).timeline;
    if (!facts) continue;
    const namespaced = KINDS[kind].api.namespaced;
    for (const o of objects[KINDS[kind].field] as readonly Observed<Derivable>[]) {
      const meta = o.object.metadata;
      const loc = locatorOf(kind, meta.name, namespaced ? (meta.namespace ?? '') : undefined);
      if (facts.conditions) conditionIntervals(out, loc, o, kind, until, intern);
      if (kind === 'ClusterVersion') historyIntervals(out, loc, o, until);
      if (kind === 'HostedCluster') controlPlaneHistoryIntervals(out, loc, o, until);
      if (kind === 'Machine') machineLifeIntervals(out, loc, o, until);
      const rollout = facts.rollout?.(o.object as never);
      if (rollout && Number.isFinite(until)) rolloutInterval(out, loc, o, rollout, until);
    }
  }
  for (const mc of objects.machineConfigs) {
    const created = parseTime(mc.object.metadata.creationTimestamp);
    if (created === undefined) continue;
    const owner = mc.object.metadata.ownerReferences?.find((o) => o.kind === 'MachineConfigPool')?.name;
    const annotations: Record<string, string> = { reason: 'Created' };
    if (owner) annotations.pool = owner;
    const rv = mc.object.metadata.annotations?.['machineconfiguration.openshift.io/release-image-version'];
    if (rv) annotations.releaseImageVersion = rv;
    out.push({
      from: created,
      to: created,
      level: 'Info',
      locator: locators.machineConfig(mc.object.metadata.name),
      message: { reason: 'Created', humanMessage: `created ${mc.object.metadata.name}`, annotations },
      source: 'derived:creationTimestamp',
      ref: withPath(mc.ref, 'metadata.creationTimestamp'),
    });
  }
  // Pushed last, as they always were: the stable sort in buildHistory keeps this order on ties.
  for (const i of events ?? deriveEventIntervals(objects.events).intervals) out.push(i);
  return out;
}

/**
 * A node whose own clock stamps its Events minutes off the cluster's. The daemon and the kubelet record
 * Events with their node's clock (`firstTimestamp`, `lastTimestamp`, `eventTime` are set by the
 * recorder, client-go `tools/record`), while `metadata.creationTimestamp` is set by the API server when
 * it stores the Event. Recording comes before storing, so an Event stamped more than a second after
 * the API server stored it can only come from a clock ahead of the cluster's; one stamped long before
 * may be late (a retry while the API was down) or from a clock behind. Over a host's Events the median
 * tells which: a clock is off for all of them, a late write for one or two.
 */
interface HostClockSkew {
  readonly host: string;
  /** How far the host's stamps run ahead of the API server's (negative: behind). */
  readonly offset: Millis;
  /** Events of the host with both stamps, the median's basis. */
  readonly events: number;
}

/** creationTimestamp has whole seconds and firstTimestamp too: one second of rounding either way. */
const AHEAD_MS = 2_000;
/** Later than a write retried while the API server restarts: the clock is behind, not the write late. */
const BEHIND_MS = 30_000;
/**
 * How late a write can be. client-go's recorder (`tools/record/event.go`) tries an Event up to 12 times,
 * 10 s apart (the first wait randomised), then drops it: an Event stored more than about 2 minutes after
 * it was stamped cannot be a late write. Inside that window, a burst of late writes (a node's kubelet
 * recording its static pods while the API server on the same node is not up yet, on a single-node
 * cluster) looks like a clock behind.
 */
const RETRY_WINDOW_MS = 130_000;
/** A clock's offset is the same for every Event of its host, give or take the stamps' rounding and the write. */
const SAME_OFFSET_MS = 3_000;

/** The recorder's node: core/v1's source.host, events.k8s.io/v1's reportingInstance. */
function eventHost(e: KubeEvent): string | undefined {
  const host = e.source?.host ?? (e as { reportingInstance?: unknown }).reportingInstance;
  return typeof host === 'string' && host !== '' ? host : undefined;
}

/**
 * An Event seen once. A repeated one (count above 1, or an events.k8s.io series) keeps its first stamp
 * when its copy on the server expired and the recorder creates it anew (`tools/record/event.go`: a patch
 * answered NotFound is retried as a create), so its creation can be hours after that stamp.
 */
function seenOnce(e: KubeEvent): boolean {
  return (e.count ?? 1) <= 1 && (e as { series?: unknown }).series == null;
}

/** The hosts whose Events run off the API server's clock, by the median of their stamps' gaps. */
function hostClockSkews(events: readonly Observed<KubeEvent>[]): HostClockSkew[] {
  const gaps = new Map<string, { gap: number; created: number }[]>();
  for (const { object: e } of events) {
    const host = eventHost(e);
    if (host === undefined || !seenOnce(e)) continue;
    const first = parseTime(e.firstTimestamp) ?? parseTime(e.eventTime);
    const created = parseTime(e.metadata.creationTimestamp);
    if (first === undefined || created === undefined) continue;
    const list = gaps.get(host);
    const pair = { gap: first - created, created };
    if (list) list.push(pair);
    else gaps.set(host, [pair]);
  }
  const out: HostClockSkew[] = [];
  for (const [host, list] of gaps) {
    list.sort((a, b) => a.gap - b.gap);
    const offset = (list[Math.floor((list.length - 1) / 2)] as { gap: number }).gap;
    if (offset > AHEAD_MS || (offset < -BEHIND_MS && clockBehind(list, offset)))
      out.push({ host, offset, events: list.length });
  }
  return out.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
}

/**
 * Whether a median gap behind the API server's clock is the host's clock and not its writes being late.
 * Beyond the recorder's retry window it can only be the clock. Inside it, a clock shows the same gap on
 * most of its host's Events, stored over more than one retry window; late writes are stored together,
 * within seconds of the API server's return, with gaps spread over the time it was away.
 */
function clockBehind(list: readonly { gap: number; created: number }[], offset: number): boolean {
  if (offset < -RETRY_WINDOW_MS) return true;
  const same = list.filter((p) => Math.abs(p.gap - offset) <= SAME_OFFSET_MS);
  if (same.length * 2 <= list.length) return false;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const p of same) {
    if (p.created < first) first = p.created;
    if (p.created > last) last = p.created;
  }
  return last - first > RETRY_WINDOW_MS;
}

/**
 * The intervals of Kubernetes Events, and the latest time they mention (what latestTime takes from
 * them). Both in one pass that parses each stamp once: a gather-extra events.json holds tens of
 * thousands of Events, and latestTime and the intervals read the same stamps. An event's interval
 * does not depend on the end of the span, so it can be made before that end is known. The Events of
 * a host whose clock runs off the API server's (hostClockSkews) are moved onto the API server's clock:
 * a NodeDone stamped by a node minutes ahead would otherwise place its pool's finish after a CVO
 * completion it preceded, and one minutes behind before a completion it followed.
 */
export function deriveEventIntervals(events: readonly Observed<KubeEvent>[]): {
  intervals: Interval[];
  latest: Millis;
  skews: HostClockSkew[];
} {
  const intervals: Interval[] = [];
  let latest = Number.NEGATIVE_INFINITY;
  const skews = hostClockSkews(events);
  const offsets = new Map(skews.map((s) => [s.host, s.offset]));
  // Tens of thousands of events about a few hundred objects: share their locators and annotations.
  const intern = new Interner();
  for (const ev of events) {
    const e = ev.object;
    const host = offsets.size === 0 ? undefined : eventHost(e);
    const shift = host === undefined ? 0 : (offsets.get(host) ?? 0);
    const lastStamp = moved(parseTime(e.lastTimestamp), shift);
    const eventTime = moved(parseTime(e.eventTime), shift);
    if (lastStamp !== undefined && lastStamp > latest) latest = lastStamp;
    if (eventTime !== undefined && eventTime > latest) latest = eventTime;
    const first =
      moved(parseTime(e.firstTimestamp), shift) ?? eventTime ?? parseTime(e.metadata.creationTimestamp);
    if (first === undefined) continue;
    const last = lastStamp ?? first;
    const involved = e.involvedObject ?? e.regarding ?? {};
    const keys: Record<string, string> = {};
    if (involved.namespace) keys.namespace = involved.namespace;
    keys[(involved.kind ?? 'object').toLowerCase()] = involved.name ?? '?';
    const reason = e.reason ?? '';
    const count = e.count ?? 1;
    intervals.push({
      from: first,
      to: Math.max(first, last),
      level: e.type === 'Warning' ? 'Warning' : 'Info',
      locator: intern.locator('KubeEvent', keys),
      message: {
        reason,
        humanMessage: `${e.message ?? e.note ?? ''}${count > 1 ? ` (${count} times)` : ''}`,
        annotations: intern.record({ reason, kind: involved.kind ?? '', name: involved.name ?? '' }),
      },
      source: 'derived:event',
      ref: ev.ref,
    });
  }
  return { intervals, latest, skews };
}

function moved(t: Millis | undefined, shift: Millis): Millis | undefined {
  return t === undefined ? undefined : t - shift;
}

interface WithStatusConditions {
  status?: { conditions?: Condition[] | null | undefined } | undefined;
}

type Derivable = WithStatusConditions & {
  metadata: { name: string; namespace?: string | undefined };
  status?: { history?: HistoryEntry[] | null | undefined } | undefined;
};

interface HistoryEntry {
  state: string;
  startedTime?: string | null | undefined;
  completionTime?: string | null | undefined;
  version?: string | undefined;
  image?: string | undefined;
}

/**
 * A kind's rollout as last seen (a Deployment's updated and available replicas, ...): an instant at the
 * end of the span, when the snapshot says it held. Nothing is said of earlier moments.
 */
function rolloutInterval(
  out: Interval[],
  locator: Locator,
  observed: Observed<unknown>,
  rollout: { readonly level: IntervalLevel; readonly message: string },
  until: Millis,
): void {
  out.push({
    from: until,
    to: until,
    level: rollout.level,
    locator,
    message: { reason: 'Rollout', humanMessage: rollout.message, annotations: { reason: 'Rollout' } },
    source: 'derived:rollout',
    ref: withPath(observed.ref, 'status'),
  });
}

function conditionIntervals(
  out: Interval[],
  locator: Locator,
  observed: Observed<WithStatusConditions>,
  kind: KnownKind,
  until: Millis,
  intern: Interner,
): void {
  const list = observed.object.status?.conditions ?? [];
  list.forEach((c, index) => {
    const since = parseTime(c.lastTransitionTime);
    if (since === undefined) return;
    const annotations: Record<string, string> = { condition: c.type, status: c.status };
    if (c.reason) annotations.reason = c.reason;
    out.push({
      from: since,
      to: Math.max(since, until),
      level: conditionLevel(kind, c.type, c.status),
      locator,
      message: {
        reason: c.reason ?? '',
        humanMessage: c.message ?? '',
        annotations: intern.record(annotations),
      },
      source: 'derived:condition',
      ref: withPath(observed.ref, `status.conditions[${index}]`),
    });
  });
}

/**
 * A HostedCluster's `status.controlPlaneVersion` history (the management-side components' updates,
 * docs/hosted.md): one interval per entry, as the ClusterVersion's, under its own reason so that no
 * analysis takes it for the guest's update.
 */
function controlPlaneHistoryIntervals(
  out: Interval[],
  locator: Locator,
  hc: Observed<unknown>,
  until: Millis,
): void {
  const status = (
    hc.object as { status?: { controlPlaneVersion?: { history?: HistoryEntry[] | null } | null } }
  ).status;
  versionHistoryIntervals(out, locator, status?.controlPlaneVersion?.history ?? [], until, {
    reason: 'ControlPlaneVersion',
    what: () => 'control plane update to',
    ref: (index) => withPath(hc.ref, `status.controlPlaneVersion.history[${index}]`),
  });
}

/**
 * A Machine's life in a NodePool rollout: its creation (an instant) and, when its deletion began,
 * the deletion up to the end of the span (a Replace rollout removes the old MachineSet's Machines).
 */
function machineLifeIntervals(out: Interval[], locator: Locator, m: Observed<unknown>, until: Millis): void {
  const meta = (
    m.object as {
      metadata: {
        name: string;
        creationTimestamp?: string | null;
        deletionTimestamp?: string | null;
        annotations?: Record<string, string> | null;
        ownerReferences?: { kind: string; name: string }[] | null;
      };
    }
  ).metadata;
  const release = meta.annotations?.['hypershift.openshift.io/release-version'];
  const set = meta.ownerReferences?.find((o) => o.kind === 'MachineSet')?.name;
  const created = parseTime(meta.creationTimestamp);
  if (created !== undefined) {
    out.push({
      from: created,
      to: created,
      level: 'Info',
      locator,
      message: {
        reason: 'Created',
        humanMessage: `created ${meta.name}${set ? ` in MachineSet ${set}` : ''}${release ? ` (release ${release})` : ''}`,
        annotations: {
          reason: 'Created',
          ...(set ? { machineSet: set } : {}),
          ...(release ? { release } : {}),
        },
      },
      source: 'derived:creationTimestamp',
      ref: withPath(m.ref, 'metadata.creationTimestamp'),
    });
  }
  const deleting = parseTime(meta.deletionTimestamp);
  if (deleting !== undefined) {
    out.push({
      from: deleting,
      to: Math.max(deleting, until),
      level: 'Warning',
      locator,
      message: {
        reason: 'Deleting',
        humanMessage: `deleting ${meta.name}${set ? ` of MachineSet ${set}` : ''}`,
        annotations: { reason: 'Deleting' },
      },
      source: 'derived:deletionTimestamp',
      ref: withPath(m.ref, 'metadata.deletionTimestamp'),
    });
  }
}

function historyIntervals(
  out: Interval[],
  locator: Locator,
  cv: Observed<{ status?: { history?: HistoryEntry[] | null | undefined } | undefined }>,
  until: Millis,
): void {
  const history = cv.object.status?.history ?? [];
  versionHistoryIntervals(out, locator, history, until, {
    reason: 'UpdateHistory',
    // history is newest first; its last entry is the install
    what: (index) => (index === history.length - 1 ? 'install of' : 'update to'),
    ref: (index) => withPath(cv.ref, `status.history[${index}]`),
  });
}

/**
 * One interval per entry of a version history (ClusterVersion's `status.history`, a HostedCluster's
 * `status.controlPlaneVersion.history`): from its start to its completion, or to the end of the span
 * while it is open.
 */
function versionHistoryIntervals(
  out: Interval[],
  locator: Locator,
  history: readonly HistoryEntry[],
  until: Millis,
  how: { reason: string; what: (index: number) => string; ref: (index: number) => Interval['ref'] },
): void {
  history.forEach((h, index) => {
    const started = parseTime(h.startedTime);
    if (started === undefined) return;
    const completed = parseTime(h.completionTime);
    const version = h.version || h.image || '<unknown>';
    out.push({
      from: started,
      to: completed ?? Math.max(started, until),
      level: h.state === 'Completed' ? 'Info' : 'Warning',
      locator,
      message: {
        reason: how.reason,
        humanMessage: `${how.what(index)} ${version} (${h.state})`,
        annotations: { state: h.state, version, ...(completed === undefined ? { open: 'true' } : {}) },
      },
      source: 'derived:history',
      ref: how.ref(index),
    });
  });
}

/** Which condition states are bad, by origin's monitor rules (docs/domain.md 7.2), extended to pools and nodes. */
function conditionLevel(kind: string, type: string, status: string): IntervalLevel {
  const own = isKnownKind(kind) ? kindFacts(kind).timeline?.conditionLevel?.(type, status) : undefined;
  if (own) return own;
  if (type === 'Available' && status === 'False') return 'Error';
  if ((type === 'Degraded' || type === 'Failing') && status === 'True') return 'Error';
  if (
    kind === 'MachineConfigPool' &&
    (type === 'NodeDegraded' || type === 'RenderDegraded') &&
    status === 'True'
  )
    return 'Error';
  if (kind === 'Node' && type === 'Ready' && status !== 'True') return 'Error';
  if ((type === 'Progressing' || type === 'Updating') && status === 'True') return 'Warning';
  if (type === 'Upgradeable' && status === 'False') return 'Warning';
  return 'Info';
}

function withPath(ref: SourceRef, path: string): SourceRef {
  return { ...ref, path: ref.path ? `${ref.path}.${path}` : path };
}

/** The latest timestamp any object mentions: the best guess for when the snapshot was taken. */
function latestTime(objects: ObjectSnapshot): Millis {
  return Math.max(latestObjectTime(objects), deriveEventIntervals(objects.events).latest);
}

/** latestTime without the Events (see deriveEventIntervals for theirs). */
export function latestObjectTime(objects: ObjectSnapshot): Millis {
  let latest = Number.NEGATIVE_INFINITY;
  const see = (v: unknown): void => {
    const t = parseTime(v);
    if (t !== undefined && t > latest) latest = t;
  };
  // The kinds on the timeline (model/kinds/ `timeline`) and the MachineConfigs: Events count apart
  // (deriveEventIntervals), and Pods and the like, kept as last seen, are not dated by the span.
  const all: Observed<
    WithStatusConditions & { metadata: { creationTimestamp?: string | null | undefined } }
  >[] = [...objects.machineConfigs];
  for (const kind of KNOWN_KINDS)
    if (kindFacts(kind).timeline) all.push(...(objects[KINDS[kind].field] as typeof all));
  for (const o of all) {
    see(o.object.metadata.creationTimestamp);
    for (const c of o.object.status?.conditions ?? []) see(c.lastTransitionTime);
  }
  for (const cv of objects.clusterVersions) {
    for (const h of cv.object.status?.history ?? []) {
      see(h.startedTime);
      see(h.completionTime);
    }
  }
  return latest;
}
