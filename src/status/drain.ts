/**
 * What keeps a node from draining. oc only sees PDB alerts and the daemon's "failed to drain node
 * … after 1 hour" message (docs/domain.md 9.3); when the snapshot holds Pods, PodDisruptionBudgets or
 * Events (must-gather, gather-extra), atlevel names the pod and the budget that refuse eviction.
 */
import type {
  ClusterHistory,
  KubeEvent,
  Node,
  Observed,
  Pod,
  PodDisruptionBudget,
  SourceRef,
} from '../model/index.js';
import { formatTime, MCO, type Millis, parseTime, plural } from '../model/index.js';
import { REFERENCES } from './insights.js';
import { selectorMatches } from './selector.js';
import type { Insight, InsightObject, NodeStatus } from './types.js';

const HOUR = 3_600_000;
const TOPOLOGY = 'machineconfiguration.openshift.io/controlPlaneTopology';

/** kubectl's drain library: `error when evicting pods/"p" -n "ns" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.` */
const EVICTION_REFUSED =
  /pods\/"?([a-z0-9][a-z0-9.-]*)"? -n "?([a-z0-9][a-z0-9.-]*)"?[^\n]*disruption budget/gi;

interface Eviction {
  readonly pod: string;
  readonly namespace: string;
  readonly node?: string;
  readonly at?: Millis;
  readonly ref: SourceRef;
}

/** A pod name and the budget that protects it, with zero disruptions allowed. */
interface Blocker {
  readonly pod: Observed<Pod>;
  readonly pdb: Observed<PodDisruptionBudget>;
}

function pdbSelects(pdb: PodDisruptionBudget, pod: Pod): boolean {
  if (pdb.metadata.namespace !== pod.metadata.namespace) return false;
  const selector = pdb.spec?.selector;
  if (!selector) return false;
  const empty =
    Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
  // policy/v1: an empty selector selects every pod in the namespace.
  return empty || selectorMatches(selector, pod.metadata.labels ?? {});
}

function eventText(e: KubeEvent): string {
  return e.message ?? e.note ?? '';
}

interface NodeEvent {
  readonly at?: Millis;
  readonly ref: SourceRef;
}

/**
 * What drainInsights reads of the events, gathered in one walk over them (a CI run has tens of thousands).
 * A node drains once per config it is given: an update's rollout and each later change (a day-2
 * MachineConfig) drain it again, and events keep an hour or more of them, so the drain in progress is
 * the newest one started, never the node's first.
 */
interface DrainEvents {
  /** The newest `FailedToDrain` per node (MCO 4.11+: the drain did not finish within the hour it waits). */
  readonly failed: Map<string, NodeEvent>;
  /** The newest `Drain` per node: the daemon started draining it. */
  readonly started: Map<string, NodeEvent>;
  /** Every eviction a drain was refused, in the events' order. */
  readonly evictions: Eviction[];
}

function drainEvents(events: readonly Observed<KubeEvent>[]): DrainEvents {
  const out: DrainEvents = { failed: new Map(), started: new Map(), evictions: [] };
  for (const seen of events) {
    const reason = seen.object.reason;
    if (reason === 'FailedToDrain') noteNodeEvent(out.failed, seen);
    else if (reason === 'Drain') noteNodeEvent(out.started, seen);
    noteEvictions(out.evictions, seen);
  }
  return out;
}

/**
 * Keep the event in `out` when it is about a node and the newest seen of its node, dated by its last
 * occurrence (a repeated event, counted on one object, last happened at lastTimestamp).
 */
function noteNodeEvent(out: Map<string, NodeEvent>, { object: e, ref }: Observed<KubeEvent>): void {
  const subject = e.involvedObject ?? e.regarding;
  if (subject?.kind !== 'Node' || !subject.name) return;
  const at = parseTime(e.lastTimestamp) ?? parseTime(e.eventTime) ?? parseTime(e.firstTimestamp);
  const known = out.get(subject.name);
  if (!known || (at !== undefined && (known.at === undefined || at > known.at))) {
    out.set(subject.name, { ...(at !== undefined ? { at } : {}), ref });
  }
}

/** The evictions an event says a disruption budget refused. */
function noteEvictions(out: Eviction[], { object: e, ref }: Observed<KubeEvent>): void {
  const message = eventText(e);
  if (!message.includes('disruption budget')) return;
  const subject = e.involvedObject ?? e.regarding;
  const node = subject?.kind === 'Node' ? subject.name : undefined;
  const at = parseTime(e.lastTimestamp) ?? parseTime(e.eventTime) ?? parseTime(e.firstTimestamp);
  for (const m of message.matchAll(EVICTION_REFUSED)) {
    out.push({
      pod: m[1] ?? '',
      namespace: m[2] ?? '',
      ...(node ? { node } : {}),
      ...(at !== undefined ? { at } : {}),
      ref,
    });
  }
}

/** The node asked for a drain that the drain controller has not finished (MCO 4.11+ annotations). */
function drainRequested(node: Node): boolean {
  const a = node.metadata.annotations ?? {};
  const desired = a[MCO.desiredDrain] ?? '';
  return desired.startsWith('drain-') && desired !== (a[MCO.lastAppliedDrain] ?? '');
}

class SnapshotIndex {
  readonly podsByNode = new Map<string, Observed<Pod>[]>();
  readonly pdbsByNamespace = new Map<string, Observed<PodDisruptionBudget>[]>();
  readonly podsByKey = new Map<string, Observed<Pod>>();

  constructor(history: ClusterHistory) {
    for (const seen of history.objects.pods) {
      const pod = seen.object;
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      this.podsByKey.set(`${pod.metadata.namespace}/${pod.metadata.name}`, seen);
      const nodeName = pod.spec?.nodeName;
      if (!nodeName) continue;
      const list = this.podsByNode.get(nodeName) ?? [];
      list.push(seen);
      this.podsByNode.set(nodeName, list);
    }
    for (const seen of history.objects.podDisruptionBudgets) {
      const ns = seen.object.metadata.namespace ?? '';
      const list = this.pdbsByNamespace.get(ns) ?? [];
      list.push(seen);
      this.pdbsByNamespace.set(ns, list);
    }
  }

  /** Budgets at their limit that protect a pod on this node. */
  blockersOn(node: string): Blocker[] {
    const out: Blocker[] = [];
    for (const pod of this.podsByNode.get(node) ?? []) {
      for (const pdb of this.pdbsByNamespace.get(pod.object.metadata.namespace ?? '') ?? []) {
        if (pdb.object.status?.disruptionsAllowed === 0 && pdbSelects(pdb.object, pod.object))
          out.push({ pod, pdb });
      }
    }
    return out;
  }
}

function key(o: { metadata: { namespace?: string | undefined; name: string } }): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

function describeBudget(pdb: PodDisruptionBudget): string {
  const s = pdb.status ?? {};
  const facts = [
    s.currentHealthy !== undefined ? `${s.currentHealthy} healthy` : undefined,
    s.desiredHealthy !== undefined ? `${s.desiredHealthy} required` : undefined,
    s.expectedPods !== undefined ? `${s.expectedPods} expected` : undefined,
  ].filter((x): x is string => x !== undefined);
  return `PodDisruptionBudget ${key(pdb)} allows 0 disruptions${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

/**
 * For each node that is draining (or whose daemon gave up draining), the pods that cannot be evicted
 * and the budgets that refuse them; and, during an update, the budgets that will stop the drain of
 * nodes still waiting their turn.
 */
export function drainInsights(
  history: ClusterHistory,
  nodes: readonly NodeStatus[],
  nodeObjects: ReadonlyMap<string, Observed<Node>>,
  updating: boolean,
): Insight[] {
  const { pods, podDisruptionBudgets, events } = history.objects;
  if (pods.length === 0 && podDisruptionBudgets.length === 0 && events.length === 0) return [];
  const index = new SnapshotIndex(history);
  const { evictions, failed, started } = drainEvents(events);
  const insights: Insight[] = [];
  const willBlock = new Map<
    string,
    { pdb: Observed<PodDisruptionBudget>; pods: Set<string>; nodes: Set<string> }
  >();

  for (const n of nodes) {
    const seen = nodeObjects.get(n.name);
    if (!seen) continue;
    const draining =
      n.phase === 'Draining' || drainRequested(seen.object) || (n.degraded && /drain/i.test(n.message));
    if (draining) {
      const insight = blockedDrain(n, seen, index, evictions, {
        started: started.get(n.name),
        failed: failed.get(n.name),
      });
      if (insight) insights.push(insight);
      continue;
    }
    const singleReplica = seen.object.metadata.annotations?.[TOPOLOGY] === 'SingleReplica';
    if (!updating || n.phase !== 'Pending' || singleReplica) continue;
    for (const b of index.blockersOn(n.name)) {
      const k = key(b.pdb.object);
      const entry = willBlock.get(k) ?? { pdb: b.pdb, pods: new Set<string>(), nodes: new Set<string>() };
      entry.pods.add(key(b.pod.object));
      entry.nodes.add(n.name);
      willBlock.set(k, entry);
    }
  }

  for (const [k, { pdb, pods: podKeys, nodes: nodeNames }] of willBlock) {
    const nodeList = [...nodeNames].sort();
    const podList = [...podKeys].sort();
    insights.push({
      kind: 'drain-will-block',
      level: 'Warning',
      impact: 'Update Speed',
      scope: 'WorkerPool',
      message: `PodDisruptionBudget ${k} allows no disruption; draining ${plural(nodeList.length, 'node')} will wait for it`,
      description:
        `${describeBudget(pdb.object)}. It protects ${podList.join(', ')} on ${nodeList.join(', ')}, ` +
        `${nodeList.length === 1 ? 'which is' : 'which are'} still to be updated: draining cannot evict ` +
        `${podList.length === 1 ? 'this pod' : 'these pods'} until the budget allows it.`,
      reference: REFERENCES.podDisruptionBudget,
      objects: [
        {
          kind: 'PodDisruptionBudget',
          name: pdb.object.metadata.name,
          namespace: pdb.object.metadata.namespace ?? '',
        },
        ...nodeList.map((name) => ({ kind: 'Node', name })),
      ],
      refs: [pdb.ref],
    });
  }
  return insights;
}

function blockedDrain(
  n: NodeStatus,
  seen: Observed<Node>,
  index: SnapshotIndex,
  evictions: readonly Eviction[],
  drainEvents: { readonly started: NodeEvent | undefined; readonly failed: NodeEvent | undefined },
): Insight | undefined {
  const blockers = index.blockersOn(n.name);
  // What happened before the drain in progress began (an earlier drain's refusals or give-up, one of
  // the update's before a day-2 change's) is not about this drain.
  const begun = drainEvents.started?.at;
  const current = (at: Millis | undefined): boolean => begun === undefined || at === undefined || at >= begun;
  const refused = evictions.filter((e) => {
    if (!current(e.at)) return false;
    if (e.node !== undefined) return e.node === n.name;
    return index.podsByKey.get(`${e.namespace}/${e.pod}`)?.object.spec?.nodeName === n.name;
  });
  if (blockers.length === 0 && refused.length === 0) return undefined;

  const objects: InsightObject[] = [{ kind: 'Node', name: n.name }];
  const refs: SourceRef[] = [seen.ref];
  const seenObjects = new Set<string>();
  const add = (kind: string, namespace: string, name: string, ref?: SourceRef): void => {
    const id = `${kind}/${namespace}/${name}`;
    if (seenObjects.has(id)) return;
    seenObjects.add(id);
    objects.push({ kind, name, namespace });
    if (ref) refs.push(ref);
  };
  const lines: string[] = [];
  for (const b of blockers) {
    add('Pod', b.pod.object.metadata.namespace ?? '', b.pod.object.metadata.name, b.pod.ref);
    add('PodDisruptionBudget', b.pdb.object.metadata.namespace ?? '', b.pdb.object.metadata.name, b.pdb.ref);
    lines.push(`${describeBudget(b.pdb.object)} and protects pod ${key(b.pod.object)} on this node.`);
  }
  for (const e of refused) {
    add('Pod', e.namespace, e.pod);
    refs.push(e.ref);
  }
  if (refused.length > 0) {
    const podsRefused = [...new Set(refused.map((e) => `${e.namespace}/${e.pod}`))].sort();
    lines.push(
      `Events record refused evictions of ${podsRefused.join(', ')} (would violate the disruption budget).`,
    );
  }
  const drainStarted = drainEvents.started;
  const failedDrain = drainEvents.failed && current(drainEvents.failed.at) ? drainEvents.failed : undefined;
  if (drainStarted) {
    refs.push(drainStarted.ref);
    if (drainStarted.at !== undefined)
      lines.push(`The drain began at ${formatTime(drainStarted.at)} (event Drain).`);
  }
  if (failedDrain) {
    refs.push(failedDrain.ref);
    const when = failedDrain.at !== undefined ? ` at ${formatTime(failedDrain.at)}` : '';
    lines.push(
      `The machine-config daemon gave up waiting for it after an hour (event FailedToDrain${when}).`,
    );
  }
  const budgets = [...new Set(blockers.map((b) => key(b.pdb.object)))];
  const podsNamed = [
    ...new Set([...blockers.map((b) => key(b.pod.object)), ...refused.map((e) => `${e.namespace}/${e.pod}`)]),
  ];
  // The daemon waits exactly one hour before FailedToDrain, so that event dates the drain's start too.
  const failedStart = failedDrain?.at !== undefined ? failedDrain.at - HOUR : undefined;
  const since = [...refused.map((e) => e.at), drainStarted?.at, failedStart].reduce<Millis | undefined>(
    (min, at) => (at !== undefined && (min === undefined || at < min) ? at : min),
    undefined,
  );
  const by =
    budgets.length > 0
      ? `PodDisruptionBudget ${budgets.join(', ')} (pod ${podsNamed.join(', ')})`
      : `the disruption budget of pod ${podsNamed.join(', ')}`;
  return {
    kind: 'drain-blocked',
    level: n.degraded || failedDrain ? 'Error' : 'Warning',
    impact: 'Update Stalled',
    scope: n.pool === 'master' ? 'ControlPlane' : 'WorkerPool',
    ...(since !== undefined ? { since } : {}),
    message: `Drain of node ${n.name} is blocked by ${by}`,
    description: lines.join(' '),
    reference: REFERENCES.podDisruptionBudget,
    objects,
    refs,
  };
}
