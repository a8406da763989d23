import type { Locator } from './history.js';
import { isKnownKind, KINDS } from './kinds/index.js';

/**
 * The one key of the object a locator is about: `ClusterOperator/machine-config`, `Node/ip-10-0-1-2`,
 * `MachineConfigPool/master`. Intervals, findings and the report's rows all use this key.
 */
export function objectKey(locator: Locator): string {
  const k = locator.keys;
  switch (locator.type) {
    case 'ClusterOperator':
      return `ClusterOperator/${k.clusteroperator ?? k.name ?? '?'}`;
    case 'ClusterVersion':
      return `ClusterVersion/${k.clusterversion ?? k.name ?? 'version'}`;
    case 'Node':
      return `Node/${k.node ?? k.name ?? '?'}`;
    case 'MachineConfigPool':
      return `MachineConfigPool/${k.machineconfigpool ?? k.name ?? '?'}`;
    case 'MachineConfig':
      return `MachineConfig/${k.machineconfig ?? k.name ?? '?'}`;
    case 'Pod':
      return `Pod/${k.namespace ?? ''}/${k.pod ?? k.name ?? '?'}`;
    default: {
      // Any other kind atlevel models: keyed as its rewinder keys it (`Deployment/ns/name`).
      if (isKnownKind(locator.type)) {
        const name = k[locator.type.toLowerCase()] ?? k.name ?? '?';
        return KINDS[locator.type].api.namespaced
          ? `${locator.type}/${k.namespace ?? ''}/${name}`
          : `${locator.type}/${name}`;
      }
      const parts = Object.entries(k)
        .map(([key, v]) => `${key}/${v}`)
        .join(' ');
      return `${locator.type}/${parts}`;
    }
  }
}

/** The locator of an object of a kind atlevel models: origin's keys, the kind's lower-case name and `namespace`. */
export function locatorOf(kind: string, name: string, namespace?: string): Locator {
  return {
    type: kind,
    keys:
      namespace !== undefined ? { namespace, [kind.toLowerCase()]: name } : { [kind.toLowerCase()]: name },
  };
}

export const locators = {
  clusterVersion: (name: string): Locator => ({ type: 'ClusterVersion', keys: { clusterversion: name } }),
  clusterOperator: (name: string): Locator => ({ type: 'ClusterOperator', keys: { clusteroperator: name } }),
  pool: (name: string): Locator => ({ type: 'MachineConfigPool', keys: { machineconfigpool: name } }),
  machineConfig: (name: string): Locator => ({ type: 'MachineConfig', keys: { machineconfig: name } }),
  node: (name: string): Locator => ({ type: 'Node', keys: { node: name } }),
};
