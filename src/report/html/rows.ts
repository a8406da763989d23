import { KINDS, KNOWN_KINDS, type Locator } from '../../model/index.js';

/** Which chart row an interval belongs to, and which group that row sits in. */
export interface RowIdentity {
  readonly key: string;
  readonly group: string;
  readonly label: string;
  /** The operator row an operand's row sits under (its key). */
  readonly parent?: string;
}

/** An operand's row: in its operator's group, under the operator, labelled by kind and namespace/name. */
export function operandRow(operator: string, kind: string, namespace: string, name: string): RowIdentity {
  return {
    key: `${kind}/${namespace}/${name}`,
    group: 'ClusterOperator',
    label: `${kind} ${namespace}/${name}`,
    parent: `ClusterOperator/${operator}`,
  };
}

/** Group id of the upgrade test's own log lines (they carry no locator). */
export const TEST_GROUP = 'UpgradeTest';

/** The objects an update is about come first, in the order the update touches them; then the rest. */
const GROUP_ORDER = [
  'ClusterVersion',
  'ClusterOperator',
  'MachineConfigPool',
  'MachineConfig',
  'Node',
  // A hosted cluster (docs/hosted.md): the control plane, then each NodePool's rollout down to its Machines.
  'HostedCluster',
  'ControlPlaneComponent',
  'NodePool',
  'MachineDeployment',
  'MachineSet',
  'Machine',
  TEST_GROUP,
  'KubeEvent',
];

/** The kinds atlevel models by their descriptors' labels (model/kinds/); the other locator types here. */
const GROUP_LABELS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(KNOWN_KINDS.map((k) => [k, KINDS[k].label])),
  [TEST_GROUP]: 'Upgrade test',
  KubeEvent: 'Events',
  Alert: 'Alerts',
  Disruption: 'Disruption',
  E2ETest: 'E2E tests',
};

export function groupLabel(group: string): string {
  return (Object.hasOwn(GROUP_LABELS, group) ? GROUP_LABELS[group] : undefined) ?? group;
}

/** Sort key for groups: known kinds in GROUP_ORDER, unknown ones after them by name. */
export function compareGroups(a: string, b: string): number {
  const ia = GROUP_ORDER.indexOf(a);
  const ib = GROUP_ORDER.indexOf(b);
  if (ia !== -1 || ib !== -1)
    return (ia === -1 ? GROUP_ORDER.length : ia) - (ib === -1 ? GROUP_ORDER.length : ib);
  return compareText(a, b);
}

/** The row of an object key (`Kind/rest`), for objects a finding names that have no interval. */
export function rowOfKey(key: string, nodeRoles: ReadonlyMap<string, string>): RowIdentity {
  const slash = key.indexOf('/');
  const group = slash === -1 ? key : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  let label = name;
  if (group === 'Node') {
    const roles = nodeRoles.get(name);
    if (roles) label = `${name} (${roles})`;
  } else if (group === 'KubeEvent') {
    label = eventLabel(name);
  }
  return { key, group, label };
}

/**
 * The locator text of an object known only by key (a finding's object, a pool the upgrade test
 * polled): `MachineConfigPool/master` → `machineconfigpool/master`, as origin would write it.
 */
export function locatorTextOfKey(key: string): string {
  const slash = key.indexOf('/');
  if (slash === -1) return key;
  const group = key.slice(0, slash);
  const name = key.slice(slash + 1);
  return group === 'KubeEvent' || group === TEST_GROUP ? name : `${group.toLowerCase()}/${name}`;
}

/** `namespace/openshift-mco machineconfigpool/master` → `machineconfigpool/master (openshift-mco)`. */
function eventLabel(keys: string): string {
  const parts = keys.split(' ');
  const ns = parts.find((p) => p.startsWith('namespace/'));
  const rest = parts.filter((p) => p !== ns);
  const what = rest.length > 0 ? rest.join(' ') : keys;
  return ns ? `${what} (${ns.slice('namespace/'.length)})` : what;
}

/** Rank of a row inside its group; rows of equal rank are ordered by `compareRows`' later keys. */
export function rowRank(row: RowIdentity, nodeRoles: ReadonlyMap<string, string>): number {
  const name = row.key.slice(row.key.indexOf('/') + 1);
  if (row.group === 'MachineConfigPool') return name === 'master' ? 0 : name === 'worker' ? 1 : 2;
  if (row.group === 'Node') {
    const roles = nodeRoles.get(name) ?? '';
    if (/\b(master|control-plane)\b/.test(roles)) return 0;
    if (/\bworker\b/.test(roles)) return 1;
    return 2;
  }
  return 0;
}

/**
 * origin's locator text: `key/value` pairs, with namespace, node, pod, uid, server, container,
 * shutdown and row first, then the other keys alphabetically (docs/domain.md 7.1).
 */
export function locatorText(locator: Locator): string {
  const keys = Object.keys(locator.keys);
  if (keys.length === 1) return `${keys[0]}/${locator.keys[keys[0] as string] ?? ''}`;
  keys.sort(compareLocatorKeys);
  if (keys.length === 0) return locator.type;
  return keys.map((k) => `${k}/${locator.keys[k] ?? ''}`).join(' ');
}

const FIRST_KEYS = ['namespace', 'node', 'pod', 'uid', 'server', 'container', 'shutdown', 'row'];

function compareLocatorKeys(a: string, b: string): number {
  const ia = FIRST_KEYS.indexOf(a);
  const ib = FIRST_KEYS.indexOf(b);
  if (ia !== -1 || ib !== -1)
    return (ia === -1 ? FIRST_KEYS.length : ia) - (ib === -1 ? FIRST_KEYS.length : ib);
  return compareText(a, b);
}

/** Roles of each node from its `node-role.kubernetes.io/<role>` labels, joined: `master,worker`. */
export function nodeRolesOf(
  nodes: readonly {
    readonly object: {
      readonly metadata: {
        readonly name: string;
        readonly labels?: Record<string, string> | null | undefined;
      };
    };
  }[],
): Map<string, string> {
  const out = new Map<string, string>();
  const prefix = 'node-role.kubernetes.io/';
  for (const { object } of nodes) {
    const roles = Object.keys(object.metadata.labels ?? {})
      .filter((l) => l.startsWith(prefix))
      .map((l) => l.slice(prefix.length))
      .filter((r) => r !== '')
      .sort(compareText);
    if (roles.length > 0) out.set(object.metadata.name, roles.join(','));
  }
  return out;
}

/** Locale-independent ordering, so the report data is the same on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
