/**
 * The `diff` use case: pick two MachineConfigs (two files, two names in a source, or a pool's
 * rendered configs, newest or around a moment), diff them, and name the release components behind
 * each change. A typed request in, the report and what the caller should be warned of out.
 */
import {
  diffMachineConfigs,
  poolsWithRenderedConfigs,
  renderedConfigsAround,
  renderedConfigsOfPool,
} from '../machineconfig/index.js';
import {
  Budget,
  type ConfigPart,
  formatTime,
  InputError,
  type MachineConfig,
  type MachineConfigDiff,
  type Millis,
  type Observed,
  plural,
  printable,
  type ReleasePayload,
  UsageError,
} from '../model/index.js';
import type { DiffReport } from '../report/index.js';
// Directly, not through sources/index.ts: the quick reader of a machineconfigs.json is all that
// `diff --pool P --from FILE` reads with, and the barrel (every reader, layout and decoder, js-yaml)
// and read.ts (the timeline) are loaded only when a request needs them (docs/performance.md,
// "diff's start-up").
import { quickMachineConfigs } from '../sources/quick-configs.js';
import type { Conclusion } from './conclusion.js';
import type { ReadOptions } from './read.js';

export interface DiffRequest {
  /** A MachineConfig name in `from`, or a MachineConfig file (or URL) when there is no `from`. */
  readonly a?: string;
  readonly b?: string;
  /** Where the names are: a machineconfigs.json List, must-gather, folder, tarball or URL. */
  readonly from?: string;
  /** Compare this pool's rendered configs in `from`: the two newest, or those around `at`. */
  readonly pool?: string;
  readonly at?: Millis;
  readonly only?: readonly ConfigPart[];
  /** Only changes whose path or unit name matches this glob. */
  readonly path?: string;
  /** Release files (or URLs, or `-`) of the older and the newer config. */
  readonly releaseFrom?: string;
  readonly releaseTo?: string;
}

/** A --release-from/--release-to file whose release is not the one its config was rendered for. */
export interface ReleaseMismatch {
  readonly slot: 'from' | 'to';
  readonly file: string;
  readonly problem: string;
  /** The inputs' own release, used instead of the file (sources/releases.ts), if any. */
  readonly usedInstead: ReleasePayload | undefined;
}

export interface DiffOutcome {
  readonly report: DiffReport;
  readonly identical: boolean;
  readonly releaseMismatches: readonly ReleaseMismatch[];
  /** ok when the configs are identical (as far as the request compares them), a failure when they differ. */
  readonly conclusion: Conclusion;
}

type Releases = DiffReport['releases'] & {
  /** A release file the inputs' ClusterVersion contradicts (sources/releases.ts). */
  setAside?: { from?: ReleasePayload; to?: ReleasePayload };
};

interface Picked {
  a: Observed<MachineConfig>;
  b: Observed<MachineConfig>;
  releases: Releases;
  how?: string;
  selection: DiffReport['selection'];
}

/** ReadOptions with the one budget every file of the request is charged to. */
type Read = ReadOptions & { readonly budget: Budget };

export async function diffConfigs(request: DiffRequest, options: ReadOptions = {}): Promise<DiffOutcome> {
  const read: Read = { ...options, budget: options.budget ?? new Budget() };
  const picked = await pick(request, read);
  const diff = diffMachineConfigs(picked.a.object, picked.b.object, {
    ...(request.only ? { only: request.only } : {}),
    ...(request.path !== undefined ? { path: request.path } : {}),
    releases: picked.releases,
    refs: { from: picked.a.ref, to: picked.b.ref },
    budget: read.budget,
  });
  const report: DiffReport = {
    diff,
    releases: picked.releases,
    selection: picked.selection,
    ...(picked.how ? { how: picked.how } : {}),
  };
  return {
    report,
    identical: diff.identical,
    conclusion: diff.identical ? 'ok' : 'failure',
    releaseMismatches: releaseMismatches(diff, picked.releases, request),
  };
}

/**
 * A release file whose version is not the one its config was rendered for (the config's
 * release-image-version annotation): the images would be named from the wrong release.
 */
function releaseMismatches(
  diff: MachineConfigDiff,
  releases: Releases,
  request: DiffRequest,
): ReleaseMismatch[] {
  const out: ReleaseMismatch[] = [];
  const check = (
    slot: 'from' | 'to',
    file: string | undefined,
    config: string,
    info: typeof diff.fromInfo,
  ) => {
    const aside = releases.setAside?.[slot];
    const given = aside ?? releases[slot];
    const used = aside ? releases[slot] : undefined;
    // The config's own annotation says best; a config without one (the bug's) has the ClusterVersion's
    // word, by which the file was set aside.
    const stamped = info?.releaseImageVersion;
    const wanted = stamped ?? used?.version;
    if (file === undefined || given?.version === undefined || wanted === undefined) return;
    if (given.version === wanted) return;
    const why =
      stamped !== undefined
        ? `${printable(config)} was rendered for release ${printable(wanted)}`
        : `the update in the inputs is ${slot} ${printable(wanted)}`;
    out.push({
      slot,
      file,
      problem: `is release ${printable(given.version)}, but ${why}`,
      usedInstead: used,
    });
  };
  check('from', request.releaseFrom, diff.from, diff.fromInfo);
  check('to', request.releaseTo, diff.to, diff.toInfo);
  return out;
}

async function pick(request: DiffRequest, read: Read): Promise<Picked> {
  const { a, b, from, pool } = request;
  if (request.at !== undefined && pool === undefined) throw new UsageError('--at needs --pool');
  if (pool !== undefined) {
    if (a !== undefined) throw new UsageError('give either two MachineConfigs or --pool, not both');
    if (from === undefined) throw new UsageError('--pool needs --from SOURCE');
    return pickFromPool(from, pool, request, read);
  }
  if (a === undefined || b === undefined) {
    throw new UsageError('name two MachineConfigs (A B), or use --pool P --from SOURCE');
  }
  if (from !== undefined) {
    const { configs, releases } = await loadSource(from, request, read);
    return {
      a: byName(configs, a, from),
      b: byName(configs, b, from),
      releases,
      selection: { mode: 'names' },
    };
  }
  const [x, y, releases] = await Promise.all([
    onlyConfig(a, read),
    onlyConfig(b, read),
    explicitReleases(request, read),
  ]);
  return { a: x, b: y, releases, selection: { mode: 'files' } };
}

async function loadSource(
  source: string,
  request: DiffRequest,
  read: Read,
): Promise<{ configs: Observed<MachineConfig>[]; releases: Releases }> {
  // A machineconfigs.json is indexed, and only the configs compared are parsed; anything else, or
  // anything the quick reader is unsure of, is read the ordinary way (sources/quick-configs.ts).
  if (request.releaseFrom === undefined && request.releaseTo === undefined) {
    const quick = quickMachineConfigs(source, { budget: read.budget });
    if (quick) return { configs: quick.machineConfigs, releases: quick.releases };
  }
  const { readParts } = await import('./read.js');
  const parts = await readParts([source], read, {
    ...(request.releaseFrom ? { releaseFrom: request.releaseFrom } : {}),
    ...(request.releaseTo ? { releaseTo: request.releaseTo } : {}),
  });
  const configs = parts.objects.machineConfigs;
  if (configs.length === 0) throw new InputError(source, 'no MachineConfigs found here');
  return { configs, releases: parts.releases };
}

async function explicitReleases(request: DiffRequest, read: Read): Promise<Releases> {
  const { loadRelease } = await import('./read.js');
  const [from, to] = await Promise.all([
    request.releaseFrom ? loadRelease(request.releaseFrom, read) : undefined,
    request.releaseTo ? loadRelease(request.releaseTo, read) : undefined,
  ]);
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** An exact name, or a prefix that names exactly one config (`rendered-master-78d4`). */
function byName(
  configs: readonly Observed<MachineConfig>[],
  name: string,
  source: string,
): Observed<MachineConfig> {
  const exact = configs.find((c) => c.object.metadata.name === name);
  if (exact) return exact;
  const prefixed = configs.filter((c) => c.object.metadata.name.startsWith(name));
  if (prefixed.length === 1) return prefixed[0]!;
  if (prefixed.length > 1) {
    const names = prefixed.slice(0, 5).map((c) => c.object.metadata.name);
    throw new InputError(
      source,
      `"${printable(name, 80)}" matches ${prefixed.length} MachineConfigs (${names.join(', ')}${prefixed.length > 5 ? ', …' : ''})`,
    );
  }
  throw new InputError(
    source,
    `no MachineConfig named "${printable(name, 80)}" (${plural(configs.length, 'MachineConfig')} here)`,
  );
}

async function onlyConfig(file: string, read: Read): Promise<Observed<MachineConfig>> {
  const [{ readMaybeUrl }, { loadMachineConfigFile }] = await Promise.all([
    import('./read.js'),
    import('../sources/index.js'),
  ]);
  const configs = await readMaybeUrl(file, read, (p) => loadMachineConfigFile(p, { budget: read.budget }));
  if (configs.length > 1) {
    throw new InputError(
      file,
      `holds ${configs.length} MachineConfigs`,
      `name the two to compare: atlevel diff A B --from ${file}`,
    );
  }
  return configs[0]!;
}

async function pickFromPool(source: string, pool: string, request: DiffRequest, read: Read): Promise<Picked> {
  const { configs, releases } = await loadSource(source, request, read);
  const rendered = renderedConfigsOfPool(configs, pool);
  if (rendered.length === 0) {
    const pools = poolsWithRenderedConfigs(configs);
    throw new InputError(
      source,
      `no rendered config of pool "${printable(pool, 60)}"`,
      pools.length
        ? `pools with rendered configs: ${pools.join(', ')}`
        : 'there are no rendered configs here',
    );
  }
  const at = request.at;
  if (at !== undefined) {
    const { before, after } = renderedConfigsAround(rendered, at);
    if (!before || !after) {
      const span = rendered.map((c) => c.object.metadata.creationTimestamp ?? '?');
      throw new InputError(
        source,
        `pool ${pool} has no rendered config ${before ? 'created after' : 'created at or before'} ${formatTime(at)}`,
        `its ${rendered.length} rendered configs were created ${span[0]} to ${span.at(-1)}`,
      );
    }
    return {
      a: before,
      b: after,
      releases,
      how: `pool ${pool} at ${formatTime(at)}: the rendered config in effect then, and the next one (${rendered.length} rendered configs)`,
      selection: { mode: 'pool-at', pool, at: formatTime(at) },
    };
  }
  if (rendered.length < 2) {
    throw new InputError(
      source,
      `pool ${pool} has only one rendered config (${rendered[0]!.object.metadata.name}); nothing to compare`,
    );
  }
  return {
    a: rendered[rendered.length - 2]!,
    b: rendered[rendered.length - 1]!,
    releases,
    how: `pool ${pool}: the two newest of ${rendered.length} rendered configs`,
    selection: { mode: 'pool', pool },
  };
}
