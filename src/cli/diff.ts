/** `atlevel diff`: what changes between two MachineConfigs, and which release components behind it. */
import type { Command } from '@commander-js/extra-typings';
import { type DiffRequest, diffConfigs } from '../app/diff.js';
import { PART_NAMES, parseParts } from '../machineconfig/index.js';
import { UsageError } from '../model/index.js';
import { DIFF_FORMATS, render } from '../report/index.js';
import { examplePath } from './examples.js';
import { type ExitBox, type ExitCode, exitOf } from './exit.js';
import { addBudgetOptions, readOptions } from './input.js';
import { formatOption, momentFlag, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { warnReleaseFlag } from './release-warning.js';
import { remoteFlags } from './remote-flags.js';
import { noStdin, stdinOnce } from './stdin.js';

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
        `  atlevel diff rendered-master-5d1c rendered-master-08a4 --from ${example} --only units\n` +
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
  if (flags.at !== undefined && flags.pool === undefined) throw new UsageError('--at needs --pool');
  // Read before the source is loaded: a bad --at is refused without reading anything.
  const at = flags.at !== undefined ? momentFlag('--at', flags.at) : undefined;
  if (flags.pool === undefined && flags.from === undefined) {
    noStdin(
      'diff',
      [a, b],
      'give the MachineConfigs as files, or a List on stdin with --from - and their names',
    );
  }
  // Either release flag may be `-` (standard input), as for analyze; the pipe is read once.
  stdinOnce(flags.from !== undefined ? [flags.from] : [], {
    '--release-from': flags.releaseFrom,
    '--release-to': flags.releaseTo,
  });
  const request: DiffRequest = {
    ...(a !== undefined ? { a } : {}),
    ...(b !== undefined ? { b } : {}),
    ...(flags.from !== undefined ? { from: flags.from } : {}),
    ...(flags.pool !== undefined ? { pool: flags.pool } : {}),
    ...(at !== undefined ? { at } : {}),
    ...(only ? { only } : {}),
    ...(flags.path !== undefined ? { path: flags.path } : {}),
    ...(flags.releaseFrom !== undefined ? { releaseFrom: flags.releaseFrom } : {}),
    ...(flags.releaseTo !== undefined ? { releaseTo: flags.releaseTo } : {}),
  };
  const outcome = await diffConfigs(request, readOptions(flags));
  for (const m of outcome.releaseMismatches) warnReleaseFlag(m.slot, m.file, m.problem, m.usedInstead);
  await emit(await render(DIFF_FORMATS, flags.output, outcome.report, settings), flags.out);
  return exitOf(outcome.conclusion);
}
