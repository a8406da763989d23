/** `atlevel status`: the state of an update at one moment, as `oc adm upgrade status` shows it. */
import { type Command, Option } from '@commander-js/extra-typings';
import { type StatusRequest, status } from '../app/status.js';
import { type Millis, UsageError } from '../model/index.js';
import type { StatusDetails } from '../report/index.js';
import { HOSTED_STATUS_FORMATS, render, STATUS_FORMATS } from '../report/index.js';
import { examplePath } from './examples.js';
import { type ExitBox, type ExitCode, exitOf } from './exit.js';
import { addBudgetOptions, checkInputs, READ_LIMITS, readOptions } from './input.js';
import { liveFlags, liveTarget, wantsLive } from './live-flags.js';
import { formatOption, momentFlag, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { mustGatherFlag, remoteFlags } from './remote-flags.js';

const DETAILS = ['none', 'nodes', 'health', 'operators', 'all'] as const satisfies readonly StatusDetails[];

function statusOptions(cmd: Command) {
  const c = addBudgetOptions(cmd, READ_LIMITS)
    .argument(
      '<paths...>',
      'must-gather, CI run folder, folder of oc get YAML/JSON, a .tar/.tar.gz of these, DIR/CASE of oc examples, or a CI URL',
    )
    .addOption(formatOption(STATUS_FORMATS))
    .addOption(
      new Option(
        '--details <what>',
        'text output: list every node, describe insights, show updating operators',
      ).choices(DETAILS),
    )
    .option(
      '--at <time>',
      'rebuild the cluster as the timeline says it was at this RFC 3339 time and assess it (default: the latest condition change in the snapshot)',
    )
    .option('--now <time>', 'the same as --at')
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .option(
      '--hosted-cluster <namespace/name>',
      'a hosted cluster (HyperShift): the HostedCluster to show when the inputs hold several (docs/hosted.md)',
    )
    .option(
      '--guest-kubeconfig <file>',
      "with --kubeconfig of a management cluster: also read the hosted cluster's own API (its ClusterOperators and Nodes)",
    )
    .addOption(widthOption());
  return liveFlags(mustGatherFlag(remoteFlags(c)));
}

type StatusFlags = ReturnType<ReturnType<typeof statusOptions>['opts']>;

export function defineStatus(cmd: Command, exit: ExitBox): void {
  statusOptions(cmd)
    .addHelpText(
      'after',
      '\nExit codes: 0 progressing or complete and healthy, 1 an Error or Critical insight, 2 bad input or usage.\n' +
        `JSON schema: docs/status.md. Example: atlevel status ${examplePath('bug-2019850')} -o json`,
    )
    .action(async (paths, flags) => {
      exit.code = await runStatus(paths, flags);
    });
}

/** The request the flags ask for: the inputs or the live cluster (and a hosted cluster's own API), the moment. */
export function statusRequest(paths: string[], flags: StatusFlags): StatusRequest {
  const at = assessAt(flags.at, flags.now);
  if (flags.guestKubeconfig !== undefined && !wantsLive(flags)) {
    throw new UsageError('--guest-kubeconfig goes with --kubeconfig of the management cluster');
  }
  const common = {
    inputs: paths,
    ...(at !== undefined ? { at } : {}),
    ...(flags.hostedCluster !== undefined ? { hostedCluster: flags.hostedCluster } : {}),
  };
  if (!wantsLive(flags)) {
    checkInputs(paths);
    return common;
  }
  const live = liveTarget(paths, flags);
  // The guest's API server, with the management cluster's request deadline.
  const guest =
    flags.guestKubeconfig !== undefined
      ? liveTarget([], { ...flags, kubeconfig: flags.guestKubeconfig, context: undefined })
      : undefined;
  return { ...common, live, ...(guest ? { guest } : {}) };
}

async function runStatus(paths: string[], flags: StatusFlags): Promise<ExitCode> {
  textOnly(flags.output, { '--details': flags.details, '--width': flags.width });
  const settings = { ...textSettings(flags), details: flags.details ?? 'none' };
  const request = statusRequest(paths, flags);
  const outcome = await status(request, readOptions(flags));
  const text =
    outcome.kind === 'hosted'
      ? await render(HOSTED_STATUS_FORMATS, flags.output, outcome.status, settings)
      : await render(STATUS_FORMATS, flags.output, outcome.status, settings);
  await emit(text, flags.out);
  return exitOf(outcome.conclusion);
}

/** `--at` or `--now` (the same option), read as a moment. */
function assessAt(at: string | undefined, now: string | undefined): Millis | undefined {
  const given = at ?? now;
  if (given === undefined) return undefined;
  const flag = at !== undefined ? '--at' : '--now';
  if (at !== undefined && now !== undefined && at !== now) {
    throw new UsageError('--at and --now are the same option: give one of them');
  }
  return momentFlag(flag, given);
}
