/**
 * The model's own view of the cluster's objects: only the fields the controllers read or write,
 * immutable once written (a writer builds a new object; the store stamps its resourceVersion).
 * src/sim/artifacts turns them into full Kubernetes JSON at the end of a run.
 */

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Cond {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
  /** Virtual ms. */
  readonly lastTransitionTime: number;
}

export interface Meta {
  readonly name: string;
  /** Set by the store on every write. */
  rv: number;
  /** Virtual ms (negative: before the run started, e.g. at install time). */
  readonly createdAt: number;
  readonly generation: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

interface UpdateRef {
  readonly version: string;
  readonly image: string;
}

interface HistoryEntry {
  readonly state: 'Partial' | 'Completed';
  readonly startedTime: number;
  readonly completionTime: number | undefined;
  readonly version: string;
  readonly image: string;
  readonly verified: boolean;
}

export interface ClusterVersionObj {
  readonly kind: 'ClusterVersion';
  readonly meta: Meta;
  readonly clusterID: string;
  readonly channel: string;
  readonly desiredUpdate: (UpdateRef & { readonly force: boolean }) | undefined;
  readonly desired: UpdateRef;
  readonly history: readonly HistoryEntry[];
  readonly conditions: readonly Cond[];
  readonly observedGeneration: number;
}

export interface OperandVersion {
  readonly name: string;
  readonly version: string;
}

export interface ClusterOperatorObj {
  readonly kind: 'ClusterOperator';
  readonly meta: Meta;
  readonly conditions: readonly Cond[];
  readonly versions: readonly OperandVersion[];
  readonly relatedObjects: readonly {
    readonly group: string;
    readonly resource: string;
    readonly name: string;
  }[];
  /** machine-config's status.extension (pool name → summary, lastSyncError). */
  readonly extension: Readonly<Record<string, string>> | undefined;
}

interface PoolConfiguration {
  readonly name: string;
  readonly source: readonly string[];
}

export interface PoolObj {
  readonly kind: 'MachineConfigPool';
  readonly meta: Meta;
  readonly paused: boolean;
  readonly maxUnavailable: number | string;
  /** Nodes with label `node-role.kubernetes.io/<nodeRole>` belong here. */
  readonly nodeRole: string;
  /** MachineConfigs whose `machineconfiguration.openshift.io/role` is one of these feed the pool. */
  readonly mcRoles: readonly string[];
  readonly spec: PoolConfiguration;
  readonly status: PoolStatus;
}

export interface PoolStatus {
  readonly observedGeneration: number;
  readonly configuration: PoolConfiguration;
  readonly machineCount: number;
  readonly updatedMachineCount: number;
  readonly readyMachineCount: number;
  readonly unavailableMachineCount: number;
  readonly degradedMachineCount: number;
  readonly conditions: readonly Cond[];
}

/** Ignition 3.2 as the templates produce it. */
export interface IgnFile {
  readonly path: string;
  readonly mode: number;
  readonly contents: string;
}
export interface IgnUnit {
  readonly name: string;
  readonly enabled: boolean | undefined;
  readonly contents: string | undefined;
  readonly dropins: readonly { readonly name: string; readonly contents: string }[];
}
interface IgnConfig {
  readonly files: readonly IgnFile[];
  readonly units: readonly IgnUnit[];
  readonly sshKeys: readonly string[];
}

export interface MachineConfigSpec {
  readonly osImageURL: string;
  readonly config: IgnConfig;
  readonly kernelArguments: readonly string[];
  readonly extensions: readonly string[];
  readonly fips: boolean;
  readonly kernelType: string;
}

export interface MachineConfigObj {
  readonly kind: 'MachineConfig';
  readonly meta: Meta;
  readonly owner:
    | { readonly kind: 'ControllerConfig' | 'MachineConfigPool'; readonly name: string }
    | undefined;
  readonly spec: MachineConfigSpec;
  /** Identity of the spec's content (equal keys, equal specs); lets rendering be memoised across runs. */
  readonly contentKey: string;
}

type DaemonState = 'Done' | 'Working' | 'Degraded' | 'Unreconcilable';

export interface NodeObj {
  readonly kind: 'Node';
  readonly meta: Meta;
  /** `master`, `worker`, or a custom role (which also carries `worker`). */
  readonly roles: readonly string[];
  readonly zone: string;
  readonly currentConfig: string;
  readonly desiredConfig: string;
  readonly state: DaemonState;
  readonly reason: string;
  readonly unschedulable: boolean;
  readonly ready: boolean;
  readonly readySince: number;
  readonly updateTaint: boolean;
  readonly osImage: string;
  readonly kubeletVersion: string;
}

interface ControllerConfigObj {
  readonly kind: 'ControllerConfig';
  readonly meta: Meta;
  readonly images: Readonly<Record<string, string>>;
  readonly osImageURL: string;
  readonly releaseImage: string;
  readonly observedGeneration: number;
  readonly conditions: readonly Cond[];
}

interface ConfigMapObj {
  readonly kind: 'ConfigMap';
  readonly meta: Meta;
  readonly data: Readonly<Record<string, string>>;
}

export interface KindMap {
  ClusterVersion: ClusterVersionObj;
  ClusterOperator: ClusterOperatorObj;
  MachineConfigPool: PoolObj;
  MachineConfig: MachineConfigObj;
  Node: NodeObj;
  ControllerConfig: ControllerConfigObj;
  ConfigMap: ConfigMapObj;
}
export type Kind = keyof KindMap;
export type AnyObj = KindMap[Kind];

export const KINDS: readonly Kind[] = [
  'ClusterVersion',
  'ClusterOperator',
  'MachineConfigPool',
  'MachineConfig',
  'Node',
  'ControllerConfig',
  'ConfigMap',
];

export function meta(
  name: string,
  createdAt: number,
  extra: { generation?: number; labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): Meta {
  return {
    name,
    rv: 0,
    createdAt,
    generation: extra.generation ?? 1,
    labels: extra.labels ?? {},
    annotations: extra.annotations ?? {},
  };
}

/** A copy of `m` for the next write (the store will stamp a new resourceVersion). */
export function nextMeta(
  m: Meta,
  change: { generation?: number; labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): Meta {
  return {
    name: m.name,
    rv: m.rv,
    createdAt: m.createdAt,
    generation: change.generation ?? m.generation,
    labels: change.labels ?? m.labels,
    annotations: change.annotations ?? m.annotations,
  };
}

export function findCond(conds: readonly Cond[], type: string): Cond | undefined {
  for (const c of conds) if (c.type === type) return c;
  return undefined;
}

export function isTrue(conds: readonly Cond[], type: string): boolean {
  return findCond(conds, type)?.status === 'True';
}

/**
 * Set a condition the way Kubernetes helpers do: lastTransitionTime moves only when the status
 * changes. Returns the same array when nothing changed, so writers can skip no-op writes.
 */
export function setCond(
  conds: readonly Cond[],
  type: string,
  status: ConditionStatus,
  reason: string,
  message: string,
  now: number,
): readonly Cond[] {
  let i = 0;
  for (; i < conds.length; i++) if ((conds[i] as Cond).type === type) break;
  const old = conds[i];
  if (old && old.status === status && old.reason === reason && old.message === message) return conds;
  const next: Cond = {
    type,
    status,
    reason,
    message,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now,
  };
  const out = conds.slice();
  if (old) out[i] = next;
  else out.push(next);
  return out;
}
