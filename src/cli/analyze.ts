/** `atlevel analyze` and its HTML shorthand `atlevel report`. */
import { type Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { type AnalyzeOutcome, type AnalyzeRequest, analyze } from '../app/analyze.js';
import { report } from '../app/report.js';
import { RULE_IDS, RULE_RECORD } from '../invariants/index.js';
import { printable } from '../model/index.js';
import { ANALYZE_FORMATS, render } from '../report/index.js';
import { examplePath } from './examples.js';
import { type ExitBox, type ExitCode, exitOf } from './exit.js';
import { addBudgetOptions, checkInputs, readOptions } from './input.js';
import { type LiveFlags, liveFlags, liveTarget, wantsLive } from './live-flags.js';
import { writeNotes } from './notes.js';
import { formatOption, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { warnReleaseFlag } from './release-warning.js';
import { mustGatherFlag, remoteFlags } from './remote-flags.js';

function analyzeOptions(cmd: Command) {
  const c = addBudgetOptions(cmd)
    .argument(
      '<paths...>',
      'CI run folder, must-gather, folder of oc get YAML/JSON, a .tar/.tar.gz of these, or a CI URL (Prow, gcsweb, storage.googleapis.com, gs://: docs/urls.md)',
    )
    .addOption(formatOption(ANALYZE_FORMATS))
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .option(
      '--release-from <file>',
      'release info of the version updated from (oc adm release info -o json, or image-references; - for stdin)',
    )
    .option('--release-to <file>', 'release info of the version updated to')
    .addOption(ruleOption())
    .option('--brief', 'text output: summaries only, no evidence or cause chain')
    .addOption(widthOption())
    .option('--exit-zero', 'exit 0 even when violations are found (bad input still exits 2)');
  return liveFlags(mustGatherFlag(remoteFlags(c)));
}

/**
 * `--rule`, validated against the rule record (invariants/ RULE_RECORD): its ids are the choices help
 * and completion list, and an unknown id is refused in the house's words.
 */
function ruleOption() {
  return new Option('--rule <id...>', 'check only these rules')
    .choices(RULE_IDS)
    .argParser((id: string, previous: string[] | undefined) => {
      if (!RULE_RECORD.has(id)) {
        throw new InvalidArgumentError(`unknown rule ${id} (rules: ${RULE_IDS.join(', ')})`);
      }
      return [...(previous ?? []), id];
    });
}

type AnalyzeFlags = ReturnType<ReturnType<typeof analyzeOptions>['opts']>;

export function defineAnalyze(cmd: Command, exit: ExitBox): void {
  analyzeOptions(cmd)
    .addHelpText(
      'after',
      '\nExit codes: 0 pass or no update, 1 an invariant was violated, 2 bad input or usage, 3 internal error, 4 inconclusive (a rule that applies could not be checked, or held on too little of what it applies to).\n' +
        `Example: atlevel analyze ${examplePath('bug-2019850')}`,
    )
    .action(async (paths, flags) => {
      exit.code = await runAnalyze(paths, flags);
    });
}

export function defineReport(cmd: Command, exit: ExitBox): void {
  const c = addBudgetOptions(cmd)
    .argument('<paths...>', 'inputs, as for analyze')
    .option('--out <file>', 'where to write the report', 'atlevel-report.html')
    .option('--release-from <file>', 'release info of the version updated from')
    .option('--release-to <file>', 'release info of the version updated to')
    .option('--exit-zero', 'exit 0 whatever the verdict (bad input still exits 2)');
  // The same exit codes as `analyze -o html`: the page is written whatever the verdict.
  mustGatherFlag(remoteFlags(c))
    .addHelpText(
      'after',
      '\nExit codes: as for analyze (0 pass or no update, 1 fail, 2 bad input, 3 internal error, 4 inconclusive).',
    )
    .action(async (paths, flags) => {
      const outcome = await report(analyzeRequest(paths, flags), readOptions(flags));
      exit.code = await finish(outcome, outcome.html, flags);
      process.stderr.write(`atlevel: wrote ${printable(flags.out, 1000)}\n`);
    });
}

/** The request the flags ask for: the inputs or the live cluster, the release files, the rules. */
function analyzeRequest(
  paths: string[],
  flags: Partial<Pick<AnalyzeFlags, 'releaseFrom' | 'releaseTo' | 'rule' | keyof LiveFlags>>,
): AnalyzeRequest {
  const releases = {
    ...(flags.releaseFrom !== undefined ? { releaseFrom: flags.releaseFrom } : {}),
    ...(flags.releaseTo !== undefined ? { releaseTo: flags.releaseTo } : {}),
  };
  const rules = flags.rule ? { rules: flags.rule } : {};
  if (wantsLive(flags))
    return { inputs: paths, live: liveTarget(paths, flags, releases), ...releases, ...rules };
  checkInputs(paths, releases);
  return { inputs: paths, ...releases, ...rules };
}

async function runAnalyze(paths: string[], flags: AnalyzeFlags): Promise<ExitCode> {
  textOnly(flags.output, { '--brief': flags.brief, '--width': flags.width });
  const request = analyzeRequest(paths, flags);
  const outcome = await analyze(request, readOptions(flags));
  const text = await render(ANALYZE_FORMATS, flags.output, outcome, {
    ...textSettings(flags),
    brief: flags.brief === true,
  });
  return finish(outcome, text, flags);
}

/** The release files' warnings, the report, then the notes; the exit code of the verdict. */
async function finish(
  outcome: AnalyzeOutcome,
  text: string,
  flags: { readonly out?: string | undefined; readonly exitZero?: true | undefined },
): Promise<ExitCode> {
  for (const m of outcome.releaseMismatches) warnReleaseFlag(m.slot, m.file, m.problem, m.usedInstead);
  await emit(text, flags.out);
  // How the inputs were read: on stderr in every format, after the report, where the text report
  // had them (notes.ts); JSON keeps them in `notes` too.
  writeNotes(outcome.result.notes);
  return exitOf(outcome.conclusion, flags.exitZero === true);
}
