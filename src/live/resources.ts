/**
 * The resources a live source reads, with their API paths: exactly the kinds docs/live.md's
 * ClusterRole grants get/list/watch on. Events are read only in the namespaces where the update's
 * controllers and nodes report (docs/domain.md: the CVO, the machine-config operator and its
 * daemons, and node events in `default`); Pods only in the namespaces a PodDisruptionBudget
 * protects, because the status assessment needs them only to name drain blockers.
 */
import type { KnownKind } from '../model/index.js';

export interface LiveResource {
  readonly kind: KnownKind;
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  /** Namespaced kinds are read per namespace (`namespaces`) or across all of them (`all`). */
  readonly scope: 'cluster' | 'namespaces' | 'all';
}

const MCO_GROUP = 'machineconfiguration.openshift.io';
const CONFIG_GROUP = 'config.openshift.io';

export const EVENT_NAMESPACES: readonly string[] = [
  'openshift-cluster-version',
  'openshift-machine-config-operator',
  'default',
];

export const RESOURCES: readonly LiveResource[] = [
  { kind: 'ClusterVersion', group: CONFIG_GROUP, version: 'v1', plural: 'clusterversions', scope: 'cluster' },
  {
    kind: 'ClusterOperator',
    group: CONFIG_GROUP,
    version: 'v1',
    plural: 'clusteroperators',
    scope: 'cluster',
  },
  {
    kind: 'MachineConfigPool',
    group: MCO_GROUP,
    version: 'v1',
    plural: 'machineconfigpools',
    scope: 'cluster',
  },
  // Nodes before MachineConfigs: watch keeps the contents of the configs pools and nodes name.
  { kind: 'Node', group: '', version: 'v1', plural: 'nodes', scope: 'cluster' },
  { kind: 'MachineConfig', group: MCO_GROUP, version: 'v1', plural: 'machineconfigs', scope: 'cluster' },
  {
    kind: 'ControllerConfig',
    group: MCO_GROUP,
    version: 'v1',
    plural: 'controllerconfigs',
    scope: 'cluster',
  },
  { kind: 'Event', group: '', version: 'v1', plural: 'events', scope: 'namespaces' },
  {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    version: 'v1',
    plural: 'poddisruptionbudgets',
    scope: 'all',
  },
  { kind: 'Pod', group: '', version: 'v1', plural: 'pods', scope: 'namespaces' },
];

/** `/apis/GROUP/VERSION/PLURAL` or `/api/v1/namespaces/NS/PLURAL`. */
export function resourcePath(r: LiveResource, namespace?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return namespace !== undefined
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`
    : `${base}/${r.plural}`;
}

/** `apiVersion` of the kind's objects, which lists leave out of their items. */
export function apiVersionOf(r: LiveResource): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** A rendered config (made by the render controller for a pool) rather than a source MachineConfig. */
export function isRendered(name: string): boolean {
  return name.startsWith('rendered-');
}
