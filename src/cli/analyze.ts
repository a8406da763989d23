/** `atlevel analyze` and its HTML shorthand `atlevel report`. */
import { type Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { type AnalysisResult, analyzeHistory, type Verdict } from '../analyze/index.js';
import { RULE_IDS, RULE_RECORD } from '../invariants/index.js';
import { type ClusterHistory, printable } from '../model/index.js';
import { ANALYZE_FORMATS, render } from '../report/index.js';
import { examplePath } from './examples.js';
import { EXIT, type ExitBox, type ExitCode } from './exit.js';
import { addBudgetOptions, budgetFromFlags, loadHistory } from './input.js';
import { liveFlags, liveHistory, wantsLive } from './live-flags.js';
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
      '\nExit codes: 0 pass or no update, 1 an invariant was violated, 2 bad input or usage, 3 internal error, 4 inconclusive (a rule that applies could not be checked).\n' +
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
      exit.code = await runAnalyze(paths, { ...flags, output: 'html' });
      process.stderr.write(`atlevel: wrote ${printable(flags.out, 1000)}\n`);
    });
}

async function runAnalyze(paths: string[], flags: AnalyzeFlags): Promise<ExitCode> {
  textOnly(flags.output, { '--brief': flags.brief, '--width': flags.width });
  const givenReleases = {
    ...(flags.releaseFrom ? { releaseFrom: flags.releaseFrom } : {}),
    ...(flags.releaseTo ? { releaseTo: flags.releaseTo } : {}),
  };
  const history = wantsLive(flags)
    ? await liveHistory(paths, flags, givenReleases)
    : await loadHistory(paths, flags, givenReleases);
  // The cause-chain diffs honour the same --max-data-url, --max-diff-time, ... flags.
  const diffLimits = budgetFromFlags(flags).limits;
  const result = analyzeHistory(history, { diffLimits, ...(flags.rule ? { rules: flags.rule } : {}) });
  warnReleaseMismatch(result, history, flags);
  const text = await render(
    ANALYZE_FORMATS,
    flags.output,
    { result, history, inputs: paths },
    { ...textSettings(flags), brief: flags.brief === true },
  );
  await emit(text, flags.out);
  // How the inputs were read: on stderr in every format, after the report, where the text report
  // had them (notes.ts); JSON keeps them in `notes` too.
  writeNotes(result.notes);
  if (flags.exitZero) return EXIT.ok;
  return verdictExit(result.verdict);
}

/**
 * A --release-from/--release-to file whose version is not the update's: the cause chain would name
 * components of the wrong release. Said on stderr, naming both versions; the analysis goes on, with
 * the file, or without it when a release among the inputs has the update's version (assignReleases).
 */
function warnReleaseMismatch(
  result: AnalysisResult,
  history: ClusterHistory,
  flags: { readonly releaseFrom?: string | undefined; readonly releaseTo?: string | undefined },
): void {
  const update = result.updates[result.updates.length - 1];
  if (!update) return;
  const check = (slot: 'from' | 'to', file: string | undefined, wanted: string | undefined) => {
    const aside = history.releases.setAside?.[slot];
    const given = aside ?? history.releases[slot];
    if (file === undefined || given === undefined || wanted === undefined || given.version === wanted) return;
    // A file without a version (an operator's own image-references) may or may not be the update's.
    const what =
      given.version === undefined
        ? `carries no version; cannot check it against ${printable(wanted)}, ${slot === 'to' ? "the update's target" : 'the release the update is from'}`
        : `is release ${printable(given.version)}, but the update in the inputs is ${slot} ${printable(wanted)}`;
    // Set aside only for a release among the inputs with the update's version (assignReleases).
    warnReleaseFlag(slot, file, what, aside ? history.releases[slot] : undefined);
  };
  check('from', flags.releaseFrom, update.previous);
  check('to', flags.releaseTo, update.target);
}

/** The exit code of a verdict (README.md, "Exit codes"): the same for analyze, report and simulate. */
export function verdictExit(verdict: Verdict): ExitCode {
  return verdict === 'fail' ? EXIT.failure : verdict === 'inconclusive' ? EXIT.inconclusive : EXIT.ok;
}
