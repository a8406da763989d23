import { type Command, Option } from '@commander-js/extra-typings';
import { analyzeHistory } from '../analyze/index.js';
import { RULES } from '../invariants/index.js';
import { UsageError } from '../model/errors.js';
import { renderAnalysisJson } from '../report/analyze-json.js';
import { renderAnalysisJunit } from '../report/analyze-junit.js';
import { renderAnalysisText } from '../report/analyze-text.js';
import { renderHtmlReport } from '../report/html/index.js';
import { loadHistory } from '../sources/index.js';
import { EXIT, type ExitBox } from './main.js';
import { emit, useColour } from './output.js';

const FORMATS = ['text', 'json', 'junit', 'html'] as const;
type Format = (typeof FORMATS)[number];

interface AnalyzeFlags {
  output: Format;
  out?: string;
  releaseFrom?: string;
  releaseTo?: string;
  rule?: string[];
  brief?: boolean;
  exitZero?: boolean;
}

export function registerAnalyze(program: Command, exit: ExitBox): void {
  program
    .command('analyze')
    .description('read a CI run or a snapshot, check the update invariants, explain each violation')
    .argument(
      '<paths...>',
      'CI run folder, must-gather, folder of oc get YAML/JSON, or a .tar/.tar.gz of these',
    )
    .addOption(
      new Option('-o, --output <format>', 'report format').choices(FORMATS).default('text' as Format),
    )
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .option(
      '--release-from <file>',
      'release info of the version updated from (oc adm release info -o json, or image-references)',
    )
    .option('--release-to <file>', 'release info of the version updated to')
    .option('--rule <id...>', `check only these rules (${RULES.map((r) => r.info.id).join(', ')})`)
    .option('--brief', 'text output: summaries only, no evidence or cause chain')
    .option('--exit-zero', 'exit 0 even when violations are found (bad input still exits 2)')
    .addHelpText(
      'after',
      '\nExit codes: 0 no failure found, 1 an invariant was violated, 2 bad input or usage.\n' +
        'Example: atlevel analyze examples/bug-2019850',
    )
    .action(async (paths, flags) => {
      exit.code = await runAnalyze(paths, flags as AnalyzeFlags);
    });

  program
    .command('report')
    .description('write the HTML timeline report of a CI run or snapshot (short for analyze -o html)')
    .argument('<paths...>', 'inputs, as for analyze')
    .option('--out <file>', 'where to write the report', 'atlevel-report.html')
    .option('--release-from <file>', 'release info of the version updated from')
    .option('--release-to <file>', 'release info of the version updated to')
    .action(async (paths, flags) => {
      exit.code = await runAnalyze(paths, { ...flags, output: 'html', exitZero: true });
      if (exit.code === EXIT.ok) process.stderr.write(`atlevel: wrote ${flags.out}\n`);
    });
}

async function runAnalyze(paths: string[], flags: AnalyzeFlags): Promise<number> {
  if (flags.rule) {
    const unknown = flags.rule.filter((id) => !RULES.some((r) => r.info.id === id));
    if (unknown.length > 0)
      throw new UsageError(
        `unknown rule ${unknown.join(', ')} (rules: ${RULES.map((r) => r.info.id).join(', ')})`,
      );
  }
  const history = await loadHistory(paths, {
    ...(flags.releaseFrom ? { releaseFrom: flags.releaseFrom } : {}),
    ...(flags.releaseTo ? { releaseTo: flags.releaseTo } : {}),
  });
  const result = analyzeHistory(history, flags.rule ? { rules: flags.rule } : {});
  let text: string;
  switch (flags.output) {
    case 'json':
      text = renderAnalysisJson(result);
      break;
    case 'junit':
      text = renderAnalysisJunit(result);
      break;
    case 'html':
      text = renderHtmlReport({
        history,
        findings: result.findings,
        rules: result.outcomes.map((o) => o.rule),
        title: `atlevel: ${paths.join(' ')}`,
        generatedFrom: paths,
      });
      break;
    default:
      text = renderAnalysisText(result, {
        colour: flags.out === undefined && useColour(),
        brief: flags.brief === true,
      });
  }
  await emit(text, flags.out);
  if (flags.exitZero) return EXIT.ok;
  return result.verdict === 'fail' ? EXIT.failure : EXIT.ok;
}
