/**
 * Picking rendered configs of a pool out of a set of MachineConfigs: for `--pool P` (the two newest),
 * `--pool P --at TIME` (the one in effect before and the first after a moment), and for explain.
 */
import type { MachineConfig, Observed } from '../model/index.js';
import { parseTime } from '../model/index.js';

type MachineConfigLike = MachineConfig | Observed<MachineConfig>;

function objectOf(mc: MachineConfigLike): MachineConfig {
  // MachineConfig is a loose object, so test for the wrapper's shape rather than narrow on a key.
  return (mc as MachineConfig).kind === 'MachineConfig'
    ? (mc as MachineConfig)
    : (mc as Observed<MachineConfig>).object;
}

/** Whether a MachineConfig is a rendered config of `pool`: owned by that pool, or named `rendered-<pool>-…`. */
export function isRenderedConfigOf(mc: MachineConfig, pool: string): boolean {
  const name = mc.metadata.name;
  if (!name.startsWith('rendered-')) return false;
  const owner = mc.metadata.ownerReferences?.find((o) => o.kind === 'MachineConfigPool')?.name;
  if (owner !== undefined) return owner === pool;
  const rest = name.slice('rendered-'.length);
  // `rendered-<pool>-<32 hex>`: the pool name may itself contain dashes.
  return rest.startsWith(`${pool}-`) && /^[0-9a-f]{32}$/.test(rest.slice(pool.length + 1));
}

/**
 * The rendered configs of a pool, oldest first by creationTimestamp (configs without one first, by
 * name). Accepts bare objects or Observed wrappers and returns the same kind.
 */
export function renderedConfigsOfPool<T extends MachineConfigLike>(
  machineConfigs: readonly T[],
  pool: string,
): T[] {
  const withTime = machineConfigs
    .filter((mc) => isRenderedConfigOf(objectOf(mc), pool))
    .map((mc) => ({
      mc,
      at: parseTime(objectOf(mc).metadata.creationTimestamp) ?? Number.NEGATIVE_INFINITY,
    }));
  withTime.sort(
    (p, q) => p.at - q.at || objectOf(p.mc).metadata.name.localeCompare(objectOf(q.mc).metadata.name),
  );
  return withTime.map((x) => x.mc);
}

/** Pools that have rendered configs in this set, for a helpful error. */
export function poolsWithRenderedConfigs(machineConfigs: readonly MachineConfigLike[]): string[] {
  const pools = new Set<string>();
  for (const mc of machineConfigs) {
    const o = objectOf(mc);
    if (!o.metadata.name.startsWith('rendered-')) continue;
    const owner = o.metadata.ownerReferences?.find((r) => r.kind === 'MachineConfigPool')?.name;
    const m = /^rendered-(.+)-[0-9a-f]{32}$/.exec(o.metadata.name);
    const pool = owner ?? m?.[1];
    if (pool) pools.add(pool);
  }
  return [...pools].sort();
}

/**
 * Around a moment: the newest config created at or before `at` (in effect, as far as rendering goes)
 * and the first one created after it. Either may be missing.
 */
export function renderedConfigsAround<T extends MachineConfigLike>(
  configs: readonly T[],
  at: number,
): { before?: T; after?: T } {
  let before: T | undefined;
  let after: T | undefined;
  for (const mc of configs) {
    const t = parseTime(objectOf(mc).metadata.creationTimestamp);
    if (t === undefined || t <= at) before = mc;
    else if (after === undefined) after = mc;
  }
  return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
}
