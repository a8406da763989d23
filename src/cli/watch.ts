/** `atlevel watch`: follow an update on a live cluster (docs/live.md). */
import { type Command, Option } from '@commander-js/extra-typings';
import { type WatchRequest, watch } from '../app/watch.js';
import { printable, UsageError } from '../model/index.js';
import { ANALYZE_FORMATS, render, yamlPrinter } from '../report/index.js';
import { type ExitBox, type ExitCode, exitOf } from './exit.js';
import { addBudgetOptions, readOptions } from './input.js';
import { liveFlags, liveTarget } from './live-flags.js';
import { useColour } from './output.js';

/** The signals that stop a watch the way Ctrl-C does (docs/live.md). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function watchOptions(cmd: Command) {
  const c = addBudgetOptions(cmd, ['treeNodes', 'treeDepth'])
    .addOption(
      new Option('-o, --output <format>', 'text lines, NDJSON events, or the same events as a YAML stream')
        .choices(['text', 'json', 'yaml'])
        .default('text'),
    )
    .option(
      '--record <dir>',
      'write what was seen to DIR in the CI layout analyze reads (atomically, on completion or Ctrl-C)',
    )
    .option(
      '--release-from <file>',
      'release info of the version updated from (oc adm release info -o json, or image-references; - for stdin): tells operator-level-before-operands which images are old',
    )
    .option('--release-to <file>', 'release info of the version updated to')
    .option('--until-complete', 'stop when the update completes, with the analyze verdict (the default)')
    .option('--forever', 'keep watching across updates; stop with Ctrl-C');
  return liveFlags(c);
}

type WatchFlags = ReturnType<ReturnType<typeof watchOptions>['opts']>;

export function defineWatch(cmd: Command, exit: ExitBox): void {
  watchOptions(cmd)
    .addHelpText(
      'after',
      '\nPrints each meaningful transition as it happens and each finding the moment its rule can decide; when the update completes, the analyze verdict.\n' +
        'Exit codes: as for analyze (0 pass or no update, 1 fail, 2 bad input or usage, 3 internal error, 4 inconclusive).\n' +
        'Only get, list and watch are sent; docs/live.md has the ClusterRole it needs.\n' +
        'Example: atlevel watch --kubeconfig ~/.kube/config --record run-1/',
    )
    .action(async (flags) => {
      exit.code = await runWatch(flags);
    });
}

/** The request the flags ask for: the live cluster, the release files, what to record, how long. */
function watchRequest(flags: WatchFlags): WatchRequest {
  if (flags.forever && flags.untilComplete)
    throw new UsageError('--forever and --until-complete contradict: give one');
  const releases = {
    ...(flags.releaseFrom !== undefined ? { releaseFrom: flags.releaseFrom } : {}),
    ...(flags.releaseTo !== undefined ? { releaseTo: flags.releaseTo } : {}),
  };
  return {
    live: liveTarget([], flags, releases),
    ...releases,
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.forever ? { forever: true } : {}),
  };
}

export async function runWatch(flags: WatchFlags, signal?: AbortSignal): Promise<ExitCode> {
  const request = watchRequest(flags);
  const { jsonLine, textLine } = await import('../watch/index.js');
  const colour = useColour();
  const json = flags.output !== 'text';
  // -o yaml: each event as one YAML document of a stream (`---` before each), as `kubectl get -w -o
  // yaml` prints; the same document as its JSON line (watch/lines.ts builds the events as JSON text).
  const safeYaml = flags.output === 'yaml' ? await yamlPrinter() : undefined;
  const event = (line: string) => (safeYaml ? `---\n${safeYaml(JSON.parse(line)).trimEnd()}` : line);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  // SIGHUP is the terminal closing (or a supervisor's stop): the watch ends as on Ctrl-C, record
  // written, rather than by Node's default of dying on the spot with the record unwritten.
  for (const s of STOP_SIGNALS) process.once(s, onSignal);
  signal?.addEventListener('abort', onSignal, { once: true });
  const write = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const outcome = await watch(
      request,
      {
        onEvent: (o) => {
          if (json) write(event(jsonLine(o)));
          else {
            const line = textLine(o, colour);
            if (line !== undefined) write(line);
          }
        },
      },
      stop.signal,
      readOptions(flags),
    );
    const { result } = outcome;
    if (!json) {
      const text = await render(
        ANALYZE_FORMATS,
        'text',
        { result, history: outcome.history, inputs: [outcome.server] },
        { colour, width: process.stdout.columns || 200, brief: true },
      );
      const head =
        outcome.activeAtStop !== undefined
          ? 'stopped before the update completed'
          : 'stopped with no update in progress';
      write(outcome.interrupted ? `${head}; what was seen:\n${text}` : text);
    } else if (outcome.interrupted) {
      write(
        event(JSON.stringify({ type: 'stopped', verdict: result.verdict, reason: result.verdictReason })),
      );
    }
    if (outcome.recorded !== undefined)
      process.stderr.write(`atlevel: recorded to ${printable(outcome.recorded, 1000)}\n`);
    return exitOf(outcome.conclusion);
  } finally {
    for (const s of STOP_SIGNALS) process.removeListener(s, onSignal);
  }
}
