import { type Command, Option } from '@commander-js/extra-typings';
import { InputError, UsageError } from '../model/errors.js';
import type { ClusterHistory } from '../model/history.js';
import { type Millis, parseTime } from '../model/time.js';
import { renderStatusJson } from '../report/status-json.js';
import { renderStatusText, type StatusDetails } from '../report/status-text.js';
import { loadHistory } from '../sources/index.js';
import {
  assessStatus,
  assessStatusAt,
  isSerious,
  type StatusOptions,
  statusPrerequisites,
  type UpdateStatus,
} from '../status/index.js';
import { OutsideSpanError } from '../timeline/index.js';
import { EXIT, type ExitBox } from './main.js';
import { emit, useColour } from './output.js';

const FORMATS = ['text', 'json'] as const;
const DETAILS = ['none', 'nodes', 'health', 'operators', 'all'] as const;
/** Width for text that does not go to a terminal: wide enough that tables keep one line per row. */
const PIPE_WIDTH = 200;

export interface StatusFlags {
  output: (typeof FORMATS)[number];
  details: StatusDetails;
  now?: string;
  at?: string;
  out?: string;
  width?: string;
}

export function registerStatus(program: Command, exit: ExitBox): void {
  program
    .command('status')
    .description('assess the state of an update at one moment, as oc adm upgrade status does, offline')
    .argument(
      '<paths...>',
      'must-gather, CI run folder, folder of oc get YAML/JSON, a .tar/.tar.gz of these, or DIR/CASE of oc examples',
    )
    .addOption(new Option('-o, --output <format>', 'report format').choices(FORMATS).default('text' as const))
    .addOption(
      new Option(
        '--details <what>',
        'text output: list every node, describe insights, show updating operators',
      )
        .choices(DETAILS)
        .default('none' as StatusDetails),
    )
    .option(
      '--at <time>',
      'rebuild the cluster as the timeline says it was at this RFC 3339 time and assess it (default: the latest condition change in the snapshot)',
    )
    .option('--now <time>', 'the same as --at')
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .option(
      '--width <columns>',
      'text output: wrap to this many columns (default: the terminal width, 200 in a pipe)',
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 progressing or complete and healthy, 1 an Error or Critical insight, 2 bad input or usage.\n' +
        'JSON schema: docs/status.md. Example: atlevel status must-gather.local.123/ -o json',
    )
    .action(async (paths, flags) => {
      exit.code = await runStatus(paths, flags as StatusFlags, loadHistory);
    });
}

export type HistoryLoader = (paths: string[], opts: object) => Promise<ClusterHistory>;

/** The status command with its loader passed in, so tests can run it on any history. */
export async function runStatus(paths: string[], flags: StatusFlags, load: HistoryLoader): Promise<number> {
  const options = statusOptions(flags);
  const width = textWidth(flags.width);
  const history = await load(paths, {});
  const missing = statusPrerequisites(history, options);
  if (missing !== undefined) {
    throw new InputError(
      paths.join(' '),
      missing,
      'give a cluster snapshot with a ClusterVersion and ClusterOperators',
    );
  }
  const status =
    options.now === undefined ? assessStatus(history, options) : rewoundStatus(history, options.now, paths);
  const text =
    flags.output === 'json'
      ? renderStatusJson(status)
      : renderStatusText(status, {
          width,
          details: flags.details,
          colour: flags.out === undefined && useColour(),
        });
  await emit(text, flags.out);
  return status.insights.some(isSerious) ? EXIT.failure : EXIT.ok;
}

function rewoundStatus(history: ClusterHistory, at: Millis, paths: readonly string[]): UpdateStatus {
  try {
    return assessStatusAt(history, at);
  } catch (err) {
    if (err instanceof OutsideSpanError) {
      throw new InputError(paths.join(' '), err.message, 'give a --at time inside that span');
    }
    throw err;
  }
}

function statusOptions(flags: StatusFlags): StatusOptions {
  const given = flags.at ?? flags.now;
  if (given === undefined) return {};
  const flag = flags.at !== undefined ? '--at' : '--now';
  if (flags.at !== undefined && flags.now !== undefined && flags.at !== flags.now) {
    throw new UsageError('--at and --now are the same option: give one of them');
  }
  const now = parseTime(given);
  if (now === undefined) {
    throw new UsageError(
      `${flag} ${JSON.stringify(given)} is not a time (use RFC 3339, e.g. 2024-02-07T16:31:09Z)`,
    );
  }
  return { now };
}

function textWidth(value: string | undefined): number {
  if (value !== undefined) {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 40 || n > 1000) {
      throw new UsageError(
        `--width ${JSON.stringify(value)} must be a whole number of columns from 40 to 1000`,
      );
    }
    return n;
  }
  return process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : PIPE_WIDTH;
}
