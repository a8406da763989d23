/**
 * Which of a pool's MachineConfigs a rendered config took a changed file, unit, drop-in, kernel
 * argument, extension or osImageURL from. The render controller merges the pool's configs in name
 * order, and a later file or unit with the same path or name replaces an earlier one (docs/domain.md
 * 3.2), so a rendered file comes from the last config, by name, that holds its path. A carrier is
 * named only when its content is the rendered content itself: a config edited or deleted since the
 * render is not taken for the source of what the render holds.
 */
import { Budget, type MachineConfig, MCO } from '../model/index.js';
import { DEFAULT_MAX_DECODED_BYTES } from './dataurl.js';
import type { FileContents, StorageNode } from './ignition.js';
import { type NormalSpec, normalizeSpec } from './spec.js';
import type { ConfigChange } from './types.js';

export interface Carrier {
  /** The MachineConfig's name. */
  readonly name: string;
  /** Whether the machine-config controller generated it (its generated-by-controller-version annotation). */
  readonly generated: boolean;
}

interface Source {
  readonly name: string;
  readonly generated: boolean;
  readonly spec: NormalSpec;
}

/**
 * The carrier of each change of a rendered config's diff, by the change's index in `changes`; a change
 * whose carrier is not known (no source holds it, the last one that does holds other content, or the
 * part is one the merge does not take from one config) has no entry. Sources whose Ignition cannot be
 * decoded are left out: they are not what the verdict is about.
 */
export function carriersOf(
  rendered: MachineConfig,
  sources: readonly MachineConfig[],
  changes: readonly ConfigChange[],
): Map<number, Carrier> {
  const out = new Map<number, Carrier>();
  if (sources.length === 0 || changes.length === 0) return out;
  const target = normalized(rendered);
  if (target === undefined) return out;
  const specs: Source[] = [];
  // Last in name order first: that is the config whose file or unit the merge kept.
  for (const mc of [...sources].sort((a, b) => compareNames(b.metadata.name, a.metadata.name))) {
    if (mc.metadata.name === rendered.metadata.name) continue;
    const spec = normalized(mc);
    if (spec === undefined) continue;
    specs.push({
      name: mc.metadata.name,
      generated: mc.metadata.annotations?.[MCO.generatedByControllerVersion] !== undefined,
      spec,
    });
  }
  changes.forEach((change, i) => {
    const carrier = carrierOfChange(change, target, specs);
    if (carrier) out.set(i, { name: carrier.name, generated: carrier.generated });
  });
  return out;
}

function normalized(mc: MachineConfig): NormalSpec | undefined {
  try {
    return normalizeSpec(mc, undefined, DEFAULT_MAX_DECODED_BYTES, new Budget());
  } catch {
    return undefined;
  }
}

/** The merge's order: Go's sort.Strings, by code unit, not by locale. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function carrierOfChange(
  change: ConfigChange,
  target: NormalSpec,
  sources: readonly Source[],
): Source | undefined {
  if (change.change === 'removed' && change.part !== 'kernelArguments') return undefined;
  switch (change.part) {
    case 'files': {
      const node = target.ignition.storage.get(change.name);
      if (node === undefined) return undefined;
      const last = sources.find((s) => s.spec.ignition.storage.has(change.name));
      const theirs = last?.spec.ignition.storage.get(change.name);
      return theirs !== undefined && sameNode(theirs, node) ? last : undefined;
    }
    case 'units': {
      const unit = target.ignition.units.get(change.name);
      if (unit === undefined) return undefined;
      const last = sources.find((s) => s.spec.ignition.units.get(change.name)?.contents !== undefined);
      return last?.spec.ignition.units.get(change.name)?.contents === unit.contents ? last : undefined;
    }
    case 'dropins': {
      const slash = change.name.indexOf('/');
      const unit = change.name.slice(0, slash);
      const dropin = change.name.slice(slash + 1);
      const text = target.ignition.units.get(unit)?.dropins.get(dropin);
      if (text === undefined) return undefined;
      const last = sources.find((s) => s.spec.ignition.units.get(unit)?.dropins.has(dropin) === true);
      return last?.spec.ignition.units.get(unit)?.dropins.get(dropin) === text ? last : undefined;
    }
    case 'kernelArguments':
    case 'extensions': {
      // Arguments and extensions are appended from every config: the last that holds the value.
      // A removed one is carried by no config any more; its removal is not a carrier's.
      if (change.after === undefined || change.name.endsWith('(order)')) return undefined;
      const value = change.after;
      return sources.find((s) =>
        (change.part === 'extensions' ? s.spec.extensions : s.spec.kernelArguments).includes(value),
      );
    }
    case 'osImageURL': {
      // The ControllerConfig's osImageURL, unless (4.12 and later) a config sets another: docs/domain.md 3.2.
      const url = target.osImageURL;
      const last = sources.find((s) => s.spec.osImageURL !== undefined);
      return url !== undefined && last?.spec.osImageURL === url ? last : undefined;
    }
    default:
      return undefined;
  }
}

function sameNode(a: StorageNode, b: StorageNode): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return sameContents(a.contents, b.contents);
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target && a.hard === b.hard;
  return a.kind === 'directory' && b.kind === 'directory' && a.mode === b.mode;
}

function sameContents(a: FileContents | undefined, b: FileContents | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.bytes !== undefined && b.bytes !== undefined) return a.bytes.equals(b.bytes);
  return a.bytes === undefined && b.bytes === undefined && a.remote === b.remote;
}
