/** What the node and pool rewinders ask of the rendered MachineConfigs: their order and creation times. */
import type { MachineConfigPool } from '../../model/index.js';
import { type Millis, parseTime } from '../../model/index.js';
import { poolHistory } from '../pools.js';
import type { RewindContext } from './context.js';

/**
 * A pool's configuration reference naming `name` at the moment. Its `source` (the MachineConfigs the
 * rendered config was made from) is the snapshot's config's: for another config it is not known.
 */
export function configurationAt(
  r: RewindContext,
  key: string,
  field: string,
  last: NonNullable<MachineConfigPool['spec']>['configuration'] | undefined,
  name: string,
): NonNullable<NonNullable<MachineConfigPool['spec']>['configuration']> {
  if (last?.name === name || !last) return { ...last, name };
  const { source, ...rest } = last;
  if (source !== undefined && source !== null)
    r.note(key, `${field}.source`, `the MachineConfigs ${name} was made from are not recorded: left out`);
  return { ...rest, name };
}

/** The rendered config of the same pool made just before `name`. */
export function previousConfig(r: RewindContext, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const m = /^rendered-(.+)-[0-9a-f]{32}$/.exec(name);
  if (!m?.[1]) return undefined;
  const rendered = poolHistory(r.history, m[1]).rendered;
  const i = rendered.findIndex((r) => r.name === name);
  return i > 0 ? rendered[i - 1]?.name : undefined;
}

export function configCreatedAt(r: RewindContext, name: string | undefined): Millis | undefined {
  if (!name) return undefined;
  const mc = r.history.objects.machineConfigs.find((m) => m.object.metadata.name === name);
  return parseTime(mc?.object.metadata.creationTimestamp);
}

export function configIfExisted(
  r: RewindContext,
  name: string | undefined,
  key: string,
  field: string,
): string | undefined {
  const created = configCreatedAt(r, name);
  if (name === undefined) return undefined;
  if (created === undefined || created > r.at) {
    r.note(
      key,
      field,
      created === undefined
        ? `${name} is not among the inputs' MachineConfigs, so when the pool took it is unknown: kept`
        : `${name} did not exist yet and no earlier config is known: kept`,
    );
  }
  return name;
}
