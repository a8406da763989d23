/**
 * `atlevel-revisions.jsonl`: every revision of every object the simulated API server stored, oldest
 * first, one JSON object a line: `{"type","at","kind","name","object"}` (`namespace` too for a
 * namespaced kind: the workloads). `type` is the watch event a client would have seen (ADDED,
 * MODIFIED; DELETED for a pod once gone), `at` the simulated moment (RFC 3339 with milliseconds),
 * `object` the object at that revision in the JSON form the gather-extra Lists use (k8s.ts,
 * workloads-json.ts), with its resourceVersion. An object's seeded state is an ADDED at the run's
 * start. A CI run has no such record; with it, `atlevel serve --replay` plays a simulated run exactly
 * (docs/simulate.md), workloads included, so a replay's watcher can check operator-level-before-operands.
 */
import type { AnyObj, Kind } from '../objects.js';
import type { RunResult } from '../run.js';
import { type PodRec, podAt } from '../workloads.js';
import {
  type Clock,
  clusterOperatorJson,
  clusterVersionJson,
  machineConfigJson,
  nodeJson,
  poolJson,
} from './k8s.js';
import { daemonSetJson, deploymentJson, podJson, replicaSetJson } from './workloads-json.js';

export const REVISIONS_FILE = 'atlevel-revisions.jsonl';

/** The kinds recorded: those the gather-extra Lists carry (ControllerConfig and ConfigMap are internal). */
const RECORDED: ReadonlySet<Kind> = new Set<Kind>([
  'ClusterVersion',
  'ClusterOperator',
  'MachineConfigPool',
  'MachineConfig',
  'Node',
]);

function toJson(clock: Clock, obj: AnyObj, nodeIndex: ReadonlyMap<string, number>): unknown {
  switch (obj.kind) {
    case 'ClusterVersion':
      return clusterVersionJson(clock, obj);
    case 'ClusterOperator':
      return clusterOperatorJson(clock, obj);
    case 'MachineConfigPool':
      return poolJson(clock, obj);
    case 'MachineConfig':
      return machineConfigJson(clock, obj);
    case 'Node':
      return nodeJson(clock, obj, nodeIndex.get(obj.meta.name) ?? 0);
    default:
      return undefined;
  }
}

interface Line {
  readonly at: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly object: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const metaOf = (o: Json): Json => o.metadata as Json;

const nameOf = (o: Json): string => String(metaOf(o).name);

/**
 * The revisions of one object from its states, oldest first (`undefined` while it does not exist):
 * an ADDED when it appears, a MODIFIED when it changes, a DELETED with its last state when it goes.
 */
class ObjectRevisions {
  #previous: { json: string; object: Json } | undefined;

  constructor(
    private readonly kind: string,
    private readonly namespace: string,
    private readonly out: Line[],
  ) {}

  state(t: number, object: Json | undefined): void {
    const { kind, namespace, out } = this;
    const previous = this.#previous;
    if (object === undefined) {
      if (previous)
        out.push({
          at: t,
          type: 'DELETED',
          kind,
          namespace,
          name: nameOf(previous.object),
          object: previous.object,
        });
      this.#previous = undefined;
      return;
    }
    // The resourceVersion is the List's; the revision's is given in file order (revisionsJsonl).
    const json = JSON.stringify({ ...object, metadata: { ...metaOf(object), resourceVersion: '' } });
    if (previous?.json === json) return;
    out.push({ at: t, type: previous ? 'MODIFIED' : 'ADDED', kind, namespace, name: nameOf(object), object });
    this.#previous = { json, object };
  }
}

/**
 * The workloads' revisions (Deployment, DaemonSet, ReplicaSet, Pod), as the final Lists print them
 * (workloads-json.ts), from the run's start to its end. A Deployment, DaemonSet or ReplicaSet is
 * rebuilt at every moment its workload changed (a template or rollout field, any pod's creation,
 * start, readiness, termination or removal: its counts follow its pods); a pod at each moment of its
 * own lifecycle (its object depends on nothing else). The installed state is an ADDED at the start.
 */
function workloadRevisions(run: RunResult, epoch: number): Line[] {
  const out: Line[] = [];
  const inRun = (times: Iterable<number | undefined>): number[] =>
    [...new Set([0, ...times])]
      .filter((t): t is number => t !== undefined && t >= 0 && t <= run.endAt)
      .sort((a, b) => a - b);
  const lifecycle = (p: PodRec) => [p.createdAt, p.startedAt, p.readyAt, p.terminatingAt, p.goneAt];
  for (const w of run.workloads.all) {
    const ns = w.spec.namespace;
    const own = new ObjectRevisions(w.kind, ns, out);
    const sets = w.replicaSets.map((rs) => ({
      name: rs.name,
      revisions: new ObjectRevisions('ReplicaSet', ns, out),
    }));
    for (const t of inRun([...w.changedAt, ...w.pods.flatMap(lifecycle)])) {
      const clock = { epoch, end: t };
      const v = w.asOf(t);
      own.state(t, v.kind === 'Deployment' ? deploymentJson(clock, v, 0) : daemonSetJson(clock, v, 0));
      for (const rs of sets) {
        const now = v.replicaSets.find((r) => r.name === rs.name);
        rs.revisions.state(t, now ? replicaSetJson(clock, v, now, 0) : undefined);
      }
    }
    for (const p of w.pods) {
      const pod = new ObjectRevisions('Pod', ns, out);
      for (const t of inRun(lifecycle(p))) {
        const present = p.createdAt <= t && (p.goneAt === undefined || p.goneAt > t);
        pod.state(t, present ? podJson({ epoch, end: t }, w, podAt(p, t), 0) : undefined);
      }
    }
  }
  return out;
}

export function revisionsJsonl(run: RunResult, epoch: number): string {
  const rec = run.rec;
  if (!rec) throw new Error('revisionsJsonl needs a run made with { record: true }');
  // The same node index the gather-extra Node List uses (nodes sorted by name).
  const nodeNames = [...run.store.list('Node')].map((n) => n.meta.name).sort();
  const nodeIndex = new Map(nodeNames.map((name, i) => [name, i]));
  const written = new Set(rec.revisions.map((r) => `${r.obj.kind}/${r.obj.meta.name}`));
  // Objects never written after seeding: their seeded state is their only revision.
  const seeded: { at: number; obj: AnyObj; added: boolean }[] = [];
  for (const kind of RECORDED) {
    const objs = [...run.store.list(kind)].sort((a, b) => (a.meta.name < b.meta.name ? -1 : 1));
    for (const obj of objs) {
      if (!written.has(`${kind}/${obj.meta.name}`)) seeded.push({ at: 0, obj, added: true });
    }
  }
  // Stable: by time, then in write order (seeds first at time 0, as the store held them), the
  // workloads' after the store's at the same moment.
  const all: Line[] = [...seeded, ...rec.revisions]
    .filter((r) => RECORDED.has(r.obj.kind))
    .map((r) => ({
      at: r.at,
      type: r.added ? 'ADDED' : 'MODIFIED',
      kind: r.obj.kind,
      name: r.obj.meta.name,
      object: toJson({ epoch, end: r.at }, r.obj, nodeIndex) as Json,
    }));
  all.push(...workloadRevisions(run, epoch));
  all.sort((a, b) => a.at - b.at);
  // The workloads' resourceVersions follow the store's (which start at 20,000), in file order.
  let rv = 700_000;
  const lines: string[] = [];
  for (const r of all) {
    const object =
      r.namespace === undefined
        ? r.object
        : { ...r.object, metadata: { ...metaOf(r.object), resourceVersion: String(rv++) } };
    lines.push(
      JSON.stringify({
        type: r.type,
        at: new Date(Math.floor(epoch + r.at)).toISOString(),
        kind: r.kind,
        ...(r.namespace === undefined ? {} : { namespace: r.namespace }),
        name: r.name,
        object,
      }),
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
