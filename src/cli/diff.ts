/** `atlevel diff`: what changes between two MachineConfigs, and which release components behind it. */
import type { Command } from '@commander-js/extra-typings';
import {
  diffMachineConfigs,
  PART_NAMES,
  parseParts,
  poolsWithRenderedConfigs,
  renderedConfigsAround,
  renderedConfigsOfPool,
} from '../machineconfig/index.js';
import type { Budget, MachineConfig, Observed, ReleasePayload } from '../model/index.js';
import { formatTime, InputError, type Millis, plural, printable, UsageError } from '../model/index.js';
import type { DiffReport } from '../report/index.js';
import { DIFF_FORMATS, render } from '../report/index.js';
import { loadMachineConfigFile, quickMachineConfigs } from '../sources/index.js';
import { examplePath } from './examples.js';
import { EXIT, type ExitBox, type ExitCode } from './exit.js';
import { addBudgetOptions, budgetFromFlags, loadParts } from './input.js';
import { formatOption, momentFlag, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { loadRelease } from './release.js';
import { warnReleaseFlag } from './release-warning.js';
import { readMaybeUrl, remoteFlags } from './remote-flags.js';
import { noStdin, stdinOnce } from './stdin.js';

interface Picked {
  a: Observed<MachineConfig>;
  b: Observed<MachineConfig>;
  releases: {
    from?: ReleasePayload;
    to?: ReleasePayload;
    /** A --release-from/--release-to file the inputs' ClusterVersion contradicts (sources/releases.ts). */
    setAside?: { from?: ReleasePayload; to?: ReleasePayload };
  };
  how?: string;
  selection: DiffReport['selection'];
}

function diffOptions(cmd: Command) {
  const c = addBudgetOptions(cmd)
    .argument('[a]', 'MachineConfig name in --from SOURCE, or a MachineConfig file')
    .argument('[b]', 'the other MachineConfig (name or file)')
    .option(
      '--from <source>',
      'where to find the names: machineconfigs.json List, must-gather, folder, tarball, or a URL of any of these',
    )
    .option('--pool <pool>', 'compare the two newest rendered configs of this pool in --from SOURCE')
    .option('--at <time>', 'with --pool: the rendered config in effect at TIME (RFC 3339) and the next one')
    .option('--only <parts>', `compare only these parts, comma-separated (${PART_NAMES.join(', ')})`)
    .option(
      '--path <glob>',
      'only changes whose path or unit name matches GLOB (e.g. /etc/crio/**, kubelet.service)',
    )
    .option(
      '--release-from <file>',
      'release of the older config (oc adm release info -o json, image-references, or payload folder; - for stdin)',
    )
    .option('--release-to <file>', 'release of the newer config')
    .addOption(formatOption(DIFF_FORMATS))
    .addOption(widthOption())
    .option('--out <file>', 'write the report to FILE instead of stdout');
  return remoteFlags(c);
}

type DiffFlags = ReturnType<ReturnType<typeof diffOptions>['opts']>;

export function defineDiff(cmd: Command, exit: ExitBox): void {
  // The examples name the packaged example run, so that they run as printed, from any directory.
  const example = examplePath('bug-2019850');
  diffOptions(cmd)
    .addHelpText(
      'after',
      '\nExit codes: 0 identical, 1 different, 2 bad input or usage.\n' +
        'Examples:\n' +
        `  atlevel diff --pool master --from ${example}\n` +
        `  atlevel diff rendered-master-78d4 rendered-master-ebc4 --from ${example} --only units\n` +
        `  atlevel diff --pool master --from ${example} --path kubelet.service \\\n` +
        `      --release-from ${example}/release/release-from.json --release-to ${example}/release/release-to.json`,
    )
    .action(async (a, b, flags) => {
      exit.code = await runDiff(a, b, flags);
    });
}

async function runDiff(a: string | undefined, b: string | undefined, flags: DiffFlags): Promise<ExitCode> {
  const only = flags.only !== undefined ? parseParts(flags.only) : undefined;
  textOnly(flags.output, { '--width': flags.width });
  const settings = textSettings(flags);
  const picked = await pick(a, b, flags);
  const diff = diffMachineConfigs(picked.a.object, picked.b.object, {
    ...(only ? { only } : {}),
    ...(flags.path !== undefined ? { path: flags.path } : {}),
    releases: picked.releases,
    refs: { from: picked.a.ref, to: picked.b.ref },
    budget: budgetFromFlags(flags),
  });
  warnReleaseMismatch(diff, picked.releases, flags);
  const report: DiffReport = {
    diff,
    releases: picked.releases,
    selection: picked.selection,
    ...(picked.how ? { how: picked.how } : {}),
  };
  await emit(await render(DIFF_FORMATS, flags.output, report, settings), flags.out);
  return diff.identical ? EXIT.ok : EXIT.failure;
}

/**
 * A --release-from/--release-to whose version is not the one its config was rendered for (the
 * config's release-image-version annotation): the images would be named from the wrong release.
 * Said on stderr, naming both versions, as analyze does; the diff goes on with the file.
 */
function warnReleaseMismatch(
  diff: ReturnType<typeof diffMachineConfigs>,
  releases: Picked['releases'],
  flags: DiffFlags,
): void {
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
    warnReleaseFlag(slot, file, `is release ${printable(given.version)}, but ${why}`, used);
  };
  check('from', flags.releaseFrom, diff.from, diff.fromInfo);
  check('to', flags.releaseTo, diff.to, diff.toInfo);
}

async function pick(a: string | undefined, b: string | undefined, flags: DiffFlags): Promise<Picked> {
  if (flags.at !== undefined && flags.pool === undefined) throw new UsageError('--at needs --pool');
  if (flags.pool !== undefined) {
    if (a !== undefined) throw new UsageError('give either two MachineConfigs or --pool, not both');
    if (flags.from === undefined) throw new UsageError('--pool needs --from SOURCE');
    // Read before the source is loaded: a bad --at is refused without reading anything.
    const at = flags.at !== undefined ? momentFlag('--at', flags.at) : undefined;
    return pickFromPool(flags.from, flags.pool, flags, at);
  }
  if (a === undefined || b === undefined) {
    throw new UsageError('name two MachineConfigs (A B), or use --pool P --from SOURCE');
  }
  if (flags.from === undefined) {
    noStdin(
      'diff',
      [a, b],
      'give the MachineConfigs as files, or a List on stdin with --from - and their names',
    );
  }
  if (flags.from !== undefined) {
    const { configs, releases } = await loadSource(flags.from, flags);
    return {
      a: byName(configs, a, flags.from),
      b: byName(configs, b, flags.from),
      releases,
      selection: { mode: 'names' },
    };
  }
  const [x, y, releases] = await Promise.all([
    onlyConfig(a, flags),
    onlyConfig(b, flags),
    explicitReleases(flags),
  ]);
  return { a: x, b: y, releases, selection: { mode: 'files' } };
}

async function loadSource(
  source: string,
  flags: DiffFlags,
): Promise<{ configs: Observed<MachineConfig>[]; releases: Picked['releases'] }> {
  // A machineconfigs.json is indexed, and only the configs compared are parsed; anything else, or
  // anything the quick reader is unsure of, is read the ordinary way (sources/quick-configs.ts).
  if (flags.releaseFrom === undefined && flags.releaseTo === undefined) {
    const quick = quickMachineConfigs(source, { budget: budgetFromFlags(flags) });
    if (quick) return { configs: quick.machineConfigs, releases: quick.releases };
  }
  const parts = await loadParts([source], flags, {
    ...(flags.releaseFrom ? { releaseFrom: flags.releaseFrom } : {}),
    ...(flags.releaseTo ? { releaseTo: flags.releaseTo } : {}),
  });
  const configs = parts.objects.machineConfigs;
  if (configs.length === 0) throw new InputError(source, 'no MachineConfigs found here');
  return { configs, releases: parts.releases };
}

async function explicitReleases(flags: DiffFlags): Promise<Picked['releases']> {
  // Either may be `-` (standard input), as for analyze; the pipe is read once.
  stdinOnce([], { '--release-from': flags.releaseFrom, '--release-to': flags.releaseTo });
  const [from, to] = await Promise.all([
    flags.releaseFrom ? loadRelease(flags.releaseFrom, flags, budgeted(flags)) : undefined,
    flags.releaseTo ? loadRelease(flags.releaseTo, flags, budgeted(flags)) : undefined,
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

/** The run's one budget, for the files diff reads itself (the same counters as the diff's). */
function budgeted(flags: DiffFlags): { budget: Budget } {
  return { budget: budgetFromFlags(flags) };
}

async function onlyConfig(file: string, flags: DiffFlags): Promise<Observed<MachineConfig>> {
  const configs = await readMaybeUrl(file, flags, (p) => loadMachineConfigFile(p, budgeted(flags)));
  if (configs.length > 1) {
    throw new InputError(
      file,
      `holds ${configs.length} MachineConfigs`,
      `name the two to compare: atlevel diff A B --from ${file}`,
    );
  }
  return configs[0]!;
}

async function pickFromPool(
  source: string,
  pool: string,
  flags: DiffFlags,
  at: Millis | undefined,
): Promise<Picked> {
  const { configs, releases } = await loadSource(source, flags);
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
