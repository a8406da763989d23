/**
 * Server-side printing: the `meta.k8s.io/v1` Table that `kubectl get` asks for. The columns are the
 * ones the real server prints: the CRD printer columns of the OpenShift kinds (openshift/api
 * config/v1 ClusterVersion and ClusterOperator; the MCO's machineconfigpool and machineconfig CRDs,
 * docs/domain.md), and kubectl's own printers for Node, Pod and Event (kubernetes
 * pkg/printers/internalversion). Ages and "since" times are counted from the served moment, not
 * from the wall clock: a recorded cluster is shown as it looked then.
 */
import { resolveDeferred } from '../model/index.js';
import type { KubeObject } from './store.js';

interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

interface Column extends ColumnDefinition {
  readonly cell: (o: Loose, now: number) => unknown;
}

type Loose = Record<string, unknown>;

function get(o: unknown, ...path: (string | number)[]): unknown {
  let cur = o;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    // A rendered config's spec.config may still be its bytes (model/deferred-json.ts).
    cur = resolveDeferred((cur as Record<string | number, unknown>)[p]);
  }
  return cur;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

function arr(v: unknown): Loose[] {
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as Loose[]) : [];
}

function condition(o: Loose, type: string): Loose | undefined {
  return arr(get(o, 'status', 'conditions')).find((c) => c.type === type);
}

/** kubectl's duration.HumanDuration (k8s.io/apimachinery pkg/util/duration). */
function humanDuration(ms: number): string {
  if (ms < -1000) return '<invalid>';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 24 * 8) return h % 24 === 0 ? `${Math.floor(h / 24)}d` : `${Math.floor(h / 24)}d${h % 24}h`;
  if (h < 24 * 365 * 2) return `${Math.floor(h / 24)}d`;
  const y = Math.floor(h / 24 / 365);
  const d = Math.floor(h / 24) - y * 365;
  if (h < 24 * 365 * 8) return d === 0 ? `${y}y` : `${y}y${d}d`;
  return `${y}y`;
}

function age(value: unknown, now: number): string {
  const t = Date.parse(str(value));
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

function col(
  name: string,
  cell: Column['cell'],
  opts: { type?: string; format?: string; priority?: number; description?: string } = {},
): Column {
  return {
    name,
    type: opts.type ?? 'string',
    format: opts.format ?? '',
    description: opts.description ?? '',
    priority: opts.priority ?? 0,
    cell,
  };
}

const NAME = col('Name', (o) => str(get(o, 'metadata', 'name')), {
  format: 'name',
  description: 'Name must be unique within a namespace.',
});
const AGE = col('Age', (o, now) => age(get(o, 'metadata', 'creationTimestamp'), now), {
  type: 'date',
  description: 'CreationTimestamp of the object, counted from the served moment.',
});

const condStatus = (type: string) => (o: Loose) => str(condition(o, type)?.status);

const CLUSTER_VERSION: Column[] = [
  NAME,
  col('Version', (o) => str(arr(get(o, 'status', 'history')).find((h) => h.state === 'Completed')?.version)),
  col('Available', condStatus('Available')),
  col('Progressing', condStatus('Progressing')),
  col('Since', (o, now) => age(condition(o, 'Progressing')?.lastTransitionTime, now), { type: 'date' }),
  col('Status', (o) => str(condition(o, 'Progressing')?.message)),
];

const CLUSTER_OPERATOR: Column[] = [
  NAME,
  col('Version', (o) => str(arr(get(o, 'status', 'versions')).find((v) => v.name === 'operator')?.version)),
  col('Available', condStatus('Available')),
  col('Progressing', condStatus('Progressing')),
  col('Degraded', condStatus('Degraded')),
  col('Since', (o, now) => age(condition(o, 'Available')?.lastTransitionTime, now), { type: 'date' }),
];

const count = (field: string) => (o: Loose) => {
  const v = get(o, 'status', field);
  return typeof v === 'number' ? v : str(v);
};

const MACHINE_CONFIG_POOL: Column[] = [
  NAME,
  col('Config', (o) => str(get(o, 'status', 'configuration', 'name'))),
  col('Updated', condStatus('Updated')),
  col('Updating', condStatus('Updating')),
  col('Degraded', condStatus('Degraded')),
  col('MachineCount', count('machineCount'), { type: 'number' }),
  col('ReadyMachineCount', count('readyMachineCount'), { type: 'number' }),
  col('UpdatedMachineCount', count('updatedMachineCount'), { type: 'number' }),
  col('DegradedMachineCount', count('degradedMachineCount'), { type: 'number' }),
  AGE,
];

const MACHINE_CONFIG: Column[] = [
  NAME,
  col('GeneratedByController', (o) =>
    str(
      get(o, 'metadata', 'annotations', 'machineconfiguration.openshift.io/generated-by-controller-version'),
    ),
  ),
  col('IgnitionVersion', (o) => str(get(o, 'spec', 'config', 'ignition', 'version'))),
  AGE,
];

function nodeStatus(o: Loose): string {
  const ready = condition(o, 'Ready')?.status;
  const parts = [ready === 'True' ? 'Ready' : ready === 'False' ? 'NotReady' : 'Unknown'];
  if (get(o, 'spec', 'unschedulable') === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(o: Loose): string {
  const labels = get(o, 'metadata', 'labels');
  const roles: string[] = [];
  if (labels && typeof labels === 'object') {
    for (const key of Object.keys(labels)) {
      if (key.startsWith('node-role.kubernetes.io/'))
        roles.push(key.slice('node-role.kubernetes.io/'.length));
      else if (key === 'kubernetes.io/role') roles.push(str((labels as Loose)[key]));
    }
  }
  return roles.length === 0 ? '<none>' : roles.sort().join(',');
}

function nodeAddress(o: Loose, type: string): string {
  return str(arr(get(o, 'status', 'addresses')).find((a) => a.type === type)?.address) || '<none>';
}

const NODE: Column[] = [
  NAME,
  col('Status', nodeStatus),
  col('Roles', nodeRoles),
  AGE,
  col('Version', (o) => str(get(o, 'status', 'nodeInfo', 'kubeletVersion'))),
  col('Internal-IP', (o) => nodeAddress(o, 'InternalIP'), { priority: 1 }),
  col('External-IP', (o) => nodeAddress(o, 'ExternalIP'), { priority: 1 }),
  col('OS-Image', (o) => str(get(o, 'status', 'nodeInfo', 'osImage')) || '<unknown>', { priority: 1 }),
  col('Kernel-Version', (o) => str(get(o, 'status', 'nodeInfo', 'kernelVersion')) || '<unknown>', {
    priority: 1,
  }),
  col(
    'Container-Runtime',
    (o) => str(get(o, 'status', 'nodeInfo', 'containerRuntimeVersion')) || '<unknown>',
    {
      priority: 1,
    },
  ),
];

function podReady(o: Loose): string {
  const statuses = arr(get(o, 'status', 'containerStatuses'));
  const total = arr(get(o, 'spec', 'containers')).length || statuses.length;
  return `${statuses.filter((s) => s.ready === true).length}/${total}`;
}

function podStatus(o: Loose): string {
  if (get(o, 'metadata', 'deletionTimestamp')) return 'Terminating';
  let reason = str(get(o, 'status', 'reason')) || str(get(o, 'status', 'phase')) || 'Unknown';
  for (const s of arr(get(o, 'status', 'containerStatuses'))) {
    const waiting = str(get(s, 'state', 'waiting', 'reason'));
    const terminated = str(get(s, 'state', 'terminated', 'reason'));
    if (waiting) reason = waiting;
    else if (terminated && reason !== 'Running') reason = terminated;
  }
  return reason;
}

function podRestarts(o: Loose): number {
  let n = 0;
  for (const s of arr(get(o, 'status', 'containerStatuses'))) {
    const r = s.restartCount;
    if (typeof r === 'number') n += r;
  }
  return n;
}

const POD: Column[] = [
  NAME,
  col('Ready', podReady),
  col('Status', podStatus),
  col('Restarts', podRestarts, { type: 'integer' }),
  AGE,
  col('IP', (o) => str(get(o, 'status', 'podIP')) || '<none>', { priority: 1 }),
  col('Node', (o) => str(get(o, 'spec', 'nodeName')) || '<none>', { priority: 1 }),
  col('Nominated Node', (o) => str(get(o, 'status', 'nominatedNodeName')) || '<none>', { priority: 1 }),
  col('Readiness Gates', (o) => (arr(get(o, 'spec', 'readinessGates')).length === 0 ? '<none>' : ''), {
    priority: 1,
  }),
];

/** translateTimestampSince and translateMicroTimestampSince: a zero (missing) time is "<unknown>". */
function since(value: unknown, now: number): string {
  return str(value) === '' ? '<unknown>' : age(value, now);
}

function isObject(v: unknown): v is Loose {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * FIRST SEEN and LAST SEEN as kubectl's event printer works them out (kubernetes
 * pkg/printers/internalversion/printers.go printEvent), so events written by the events.k8s.io API
 * (eventTime, series, no firstTimestamp) print as on a real server: first seen is firstTimestamp, else
 * eventTime; last seen is lastTimestamp, else first seen, and series.lastObservedTime whenever there
 * is a series.
 */
function eventFirstSeen(o: Loose, now: number): string {
  return str(o.firstTimestamp) !== '' ? since(o.firstTimestamp, now) : since(o.eventTime, now);
}

function eventLastSeen(o: Loose, now: number): string {
  if (isObject(o.series)) return since(o.series.lastObservedTime, now);
  return str(o.lastTimestamp) !== '' ? since(o.lastTimestamp, now) : eventFirstSeen(o, now);
}

/** series.count when there is a series; else count, and 1 for a singleton that has none (printEvent). */
function eventCount(o: Loose): number {
  if (isObject(o.series)) return typeof o.series.count === 'number' ? o.series.count : 0;
  return typeof o.count === 'number' && o.count !== 0 ? o.count : 1;
}

/**
 * formatEventSource: source.component, else reportingComponent (reportingController in Go), then
 * ", " and source.host, else reportingInstance, when there is one.
 */
function eventSource(o: Loose): string {
  const component = str(get(o, 'source', 'component')) || str(o.reportingComponent);
  const instance = str(get(o, 'source', 'host')) || str(o.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

function eventObject(o: Loose): string {
  const kind = str(get(o, 'involvedObject', 'kind')).toLowerCase();
  const name = str(get(o, 'involvedObject', 'name'));
  return name === '' ? kind : `${kind}/${name}`;
}

const EVENT: Column[] = [
  col('Last Seen', eventLastSeen),
  col('Type', (o) => str(o.type)),
  col('Reason', (o) => str(o.reason)),
  col('Object', eventObject),
  col('Subobject', (o) => str(get(o, 'involvedObject', 'fieldPath')), { priority: 1 }),
  col('Source', eventSource, { priority: 1 }),
  col('Message', (o) => str(o.message).trim()),
  col('First Seen', eventFirstSeen, { priority: 1 }),
  col('Count', eventCount, { type: 'integer', priority: 1 }),
  col('Name', (o) => str(get(o, 'metadata', 'name')), { priority: 1 }),
];

const BY_KIND: ReadonlyMap<string, readonly Column[]> = new Map([
  ['ClusterVersion', CLUSTER_VERSION],
  ['ClusterOperator', CLUSTER_OPERATOR],
  ['MachineConfigPool', MACHINE_CONFIG_POOL],
  ['MachineConfig', MACHINE_CONFIG],
  ['Node', NODE],
  ['Pod', POD],
  ['Event', EVENT],
]);

const DEFAULT: readonly Column[] = [NAME, AGE];

function columnsOf(kind: string): readonly Column[] {
  return BY_KIND.get(kind) ?? DEFAULT;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(value: string | null): IncludeObject | undefined {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  return undefined;
}

function rowObject(o: KubeObject, include: IncludeObject, apiVersion: string): unknown {
  if (include === 'Object') return o;
  if (include === 'None') return undefined;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata };
}

export interface TableOptions {
  readonly now: number;
  readonly include: IncludeObject;
  readonly resourceVersion: string;
  readonly continueToken?: string;
  readonly remaining?: number;
  /** meta.k8s.io/v1 (the default) or meta.k8s.io/v1beta1, as the client asked: the table's and its rows' objects'. */
  readonly apiVersion?: string;
  /** Watch events after the first leave the column definitions out, as the real server does not; kubectl copes with both. */
  readonly withColumns?: boolean;
}

export function toTable(
  kind: string,
  objects: readonly KubeObject[],
  opts: TableOptions,
): Record<string, unknown> {
  const columns = columnsOf(kind);
  const apiVersion = opts.apiVersion ?? 'meta.k8s.io/v1';
  return {
    kind: 'Table',
    apiVersion,
    metadata: {
      resourceVersion: opts.resourceVersion,
      ...(opts.continueToken ? { continue: opts.continueToken } : {}),
      ...(opts.remaining !== undefined ? { remainingItemCount: opts.remaining } : {}),
    },
    columnDefinitions:
      opts.withColumns === false
        ? []
        : columns.map(({ name, type, format, description, priority }) => ({
            name,
            type,
            format,
            description,
            priority,
          })),
    rows: objects.map((o) => {
      const object = rowObject(o, opts.include, apiVersion);
      return { cells: columns.map((c) => c.cell(o, opts.now)), ...(object !== undefined ? { object } : {}) };
    }),
  };
}
