import { describe, expect, it } from 'vitest';
import type { MachineConfig } from '../model/objects.js';
import {
  isRenderedConfigOf,
  poolsWithRenderedConfigs,
  renderedConfigsAround,
  renderedConfigsOfPool,
} from './pools.js';

const H = (c: string) => c.repeat(32);
function mc(name: string, created?: string, owner?: string): MachineConfig {
  return {
    kind: 'MachineConfig',
    metadata: {
      name,
      ...(created ? { creationTimestamp: created } : {}),
      ...(owner ? { ownerReferences: [{ kind: 'MachineConfigPool', name: owner }] } : {}),
    },
  };
}

const configs = [
  mc(`rendered-master-${H('b')}`, '2021-11-03T03:23:11Z', 'master'),
  mc(`rendered-master-${H('a')}`, '2021-11-03T02:30:53Z', 'master'),
  mc('00-master', '2021-11-03T02:00:00Z'),
  mc(`rendered-worker-${H('c')}`, '2021-11-03T02:30:53Z'),
  mc(`rendered-infra-gpu-${H('d')}`, '2021-11-03T02:31:00Z'),
  // Owned by worker despite its name: the owner reference decides.
  mc(`rendered-master-${H('e')}`, '2021-11-03T04:00:00Z', 'worker'),
];

describe('rendered configs of a pool', () => {
  it('sorts by creationTimestamp and follows the owner reference', () => {
    expect(renderedConfigsOfPool(configs, 'master').map((c) => c.metadata.name)).toEqual([
      `rendered-master-${H('a')}`,
      `rendered-master-${H('b')}`,
    ]);
    expect(renderedConfigsOfPool(configs, 'worker').map((c) => c.metadata.name)).toEqual([
      `rendered-worker-${H('c')}`,
      `rendered-master-${H('e')}`,
    ]);
    expect(isRenderedConfigOf(mc(`rendered-infra-gpu-${H('d')}`), 'infra-gpu')).toBe(true);
    expect(isRenderedConfigOf(mc(`rendered-infra-gpu-${H('d')}`), 'infra')).toBe(false);
    expect(poolsWithRenderedConfigs(configs)).toEqual(['infra-gpu', 'master', 'worker']);
  });

  it('accepts Observed wrappers and returns them', () => {
    const observed = configs.map((object, i) => ({ object, ref: { file: 'mcs.json', path: `items[${i}]` } }));
    expect(renderedConfigsOfPool(observed, 'master').map((o) => o.ref.path)).toEqual([
      'items[1]',
      'items[0]',
    ]);
  });

  it('around a moment: the one in effect and the next', () => {
    const master = renderedConfigsOfPool(configs, 'master');
    const at = (t: string) => renderedConfigsAround(master, Date.parse(t));
    expect(at('2021-11-03T03:23:10Z').before?.metadata.name).toBe(`rendered-master-${H('a')}`);
    expect(at('2021-11-03T03:23:10Z').after?.metadata.name).toBe(`rendered-master-${H('b')}`);
    expect(at('2021-11-03T03:23:11Z').after).toBeUndefined();
    expect(at('2021-11-03T01:00:00Z').before).toBeUndefined();
  });
});
