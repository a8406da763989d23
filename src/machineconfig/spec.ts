/**
 * A MachineConfig spec normalised for comparison: the defaults the MCO applies when merging
 * (docs/domain.md 3.2: absent kernelType is `default`, null lists are empty, fips false) are made explicit,
 * and the Ignition config is decoded.
 */
import { type Budget, type MachineConfig, resolveDeferred, type SourceRef } from '../model/index.js';
import { canonicalJson, type NormalIgnition, normalizeIgnition } from './ignition.js';

export interface NormalSpec {
  readonly osImageURL?: string;
  readonly kernelArguments: readonly string[];
  readonly extensions: readonly string[];
  readonly fips: boolean;
  readonly kernelType: string;
  readonly ignition: NormalIgnition;
  /** Spec fields this model does not interpret, canonical JSON by field name. */
  readonly other: ReadonlyMap<string, string>;
}

const INTERPRETED_SPEC = new Set([
  'osImageURL',
  'config',
  'kernelArguments',
  'extensions',
  'fips',
  'kernelType',
]);

export function normalizeSpec(
  mc: MachineConfig,
  ref: SourceRef | undefined,
  maxFileBytes: number,
  budget?: Budget,
): NormalSpec {
  const spec = mc.spec ?? {};
  const other = new Map<string, string>();
  const file = ref?.file ?? `MachineConfig/${mc.metadata.name}`;
  for (const [key, value] of Object.entries(spec)) {
    if (INTERPRETED_SPEC.has(key)) continue;
    const json = canonicalJson(value, { ...(budget ? { budget } : {}), file });
    if (json !== undefined) other.set(key, json);
  }
  return {
    ...(spec.osImageURL ? { osImageURL: spec.osImageURL } : {}),
    kernelArguments: spec.kernelArguments ?? [],
    extensions: spec.extensions ?? [],
    fips: spec.fips === true,
    kernelType: spec.kernelType || 'default',
    ignition: normalizeIgnition(resolveDeferred(spec.config), {
      file,
      at: ref?.path ? `${ref.path}.spec.config` : 'spec.config',
      name: mc.metadata.name,
      maxFileBytes,
      ...(budget ? { budget } : {}),
    }),
    other,
  };
}
