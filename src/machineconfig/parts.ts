/**
 * `--only` vocabulary: the contract's part names plus the short names people type
 * (`kargs`, `os`, `users`, ...). `units` includes drop-ins, as a unit's drop-ins are part of the unit.
 */
import { UsageError } from '../model/index.js';
import type { ConfigPart } from './types.js';

const ALIASES: Readonly<Record<string, readonly ConfigPart[]>> = {
  files: ['files'],
  storage: ['files'],
  units: ['units', 'dropins'],
  systemd: ['units', 'dropins'],
  dropins: ['dropins'],
  kernelarguments: ['kernelArguments'],
  kargs: ['kernelArguments'],
  osimageurl: ['osImageURL'],
  os: ['osImageURL'],
  extensions: ['extensions'],
  fips: ['fips'],
  kerneltype: ['kernelType'],
  kernel: ['kernelArguments', 'kernelType'],
  passwd: ['passwd'],
  users: ['passwd'],
  ssh: ['passwd'],
  ignitionversion: ['ignitionVersion'],
  ignition: ['ignitionVersion'],
  other: ['other'],
};

export const PART_NAMES: readonly string[] = Object.keys(ALIASES);

/** `files,units` → the parts; throws UsageError naming an unknown part. */
export function parseParts(value: string): ConfigPart[] {
  const out = new Set<ConfigPart>();
  for (const raw of value.split(/[,\s]+/)) {
    if (raw === '') continue;
    // Own keys only: `--only constructor` must not find Object.prototype's.
    const key = raw.toLowerCase();
    const parts = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
    if (!parts) throw new UsageError(`--only: unknown part "${raw}" (known: ${PART_NAMES.join(', ')})`);
    for (const p of parts) out.add(p);
  }
  if (out.size === 0) throw new UsageError('--only: no parts given');
  return [...out];
}
