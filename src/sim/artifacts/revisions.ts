/**
 * `atlevel-revisions.jsonl`: every revision of every object the simulated API server stored, oldest
 * first, one JSON object a line: `{"type","at","kind","name","object"}` (`namespace` too for a
 * namespaced kind; none of the recorded kinds is). `type` is the watch event a client would have seen
 * (ADDED, MODIFIED; the model never deletes), `at` the simulated moment (RFC 3339 with milliseconds),
 * `object` the object at that revision in the JSON form the gather-extra Lists use (k8s.ts), with
 * its resourceVersion. An object's seeded state is an ADDED at the run's start. A CI run has no such
 * record; with it, `atlevel serve --replay` plays a simulated run exactly (docs/simulate.md).
 */
import type { AnyObj, Kind } from '../objects.js';
import type { RunResult } from '../run.js';
import {
  type Clock,
  clusterOperatorJson,
  clusterVersionJson,
  machineConfigJson,
  nodeJson,
  poolJson,
} from './k8s.js';

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
  // Stable: by time, then in write order (seeds first at time 0, as the store held them).
  const all = [...seeded, ...rec.revisions].filter((r) => RECORDED.has(r.obj.kind));
  all.sort((a, b) => a.at - b.at);
  const lines: string[] = [];
  for (const r of all) {
    const object = toJson({ epoch, end: r.at }, r.obj, nodeIndex);
    lines.push(
      JSON.stringify({
        type: r.added ? 'ADDED' : 'MODIFIED',
        at: new Date(Math.floor(epoch + r.at)).toISOString(),
        kind: r.obj.kind,
        name: r.obj.meta.name,
        object,
      }),
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
