/** `atlevel status`: the state of an update at one moment, as `oc adm upgrade status` shows it. */
import { type Command, Option } from '@commander-js/extra-typings';
import type { ClusterHistory } from '../model/index.js';
import { InputError, type Millis, STDIN_NAME, UsageError } from '../model/index.js';
import type { StatusDetails } from '../report/index.js';
import { HOSTED_STATUS_FORMATS, render, STATUS_FORMATS } from '../report/index.js';
import {
  assessHostedStatus,
  assessHostedStatusAt,
  assessStatus,
  assessStatusAt,
  type HostedObjects,
  type HostedStatus,
  hostedSnapshotNow,
  isSerious,
  pickHostedCluster,
  type StatusOptions,
  statusPrerequisites,
  type UpdateStatus,
} from '../status/index.js';
import { OutsideSpanError } from '../timeline/index.js';
import { examplePath } from './examples.js';
import { EXIT, type ExitBox, type ExitCode } from './exit.js';
import { addBudgetOptions, loadHistory, READ_LIMITS } from './input.js';
import { liveFlags, liveHistory, wantsLive } from './live-flags.js';
import { formatOption, momentFlag, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { mustGatherFlag, remoteFlags } from './remote-flags.js';
import { STDIN } from './stdin.js';

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

async function runStatus(paths: string[], flags: StatusFlags): Promise<ExitCode> {
  textOnly(flags.output, { '--details': flags.details, '--width': flags.width });
  const options = assessAt(flags.at, flags.now);
  const settings = { ...textSettings(flags), details: flags.details ?? 'none' };
  if (flags.guestKubeconfig !== undefined && !wantsLive(flags)) {
    throw new UsageError('--guest-kubeconfig goes with --kubeconfig of the management cluster');
  }
  const history = wantsLive(flags) ? await liveHistory(paths, flags) : await loadHistory(paths, flags);
  if (history.objects.hostedClusters.length > 0 || flags.hostedCluster !== undefined) {
    const status = await hostedStatus(history, flags, options, paths);
    await emit(await render(HOSTED_STATUS_FORMATS, flags.output, status, settings), flags.out);
    return status.insights.some(isSerious) ? EXIT.failure : EXIT.ok;
  }
  const missing = statusPrerequisites(history, options);
  if (missing !== undefined) {
    throw new InputError(
      paths.length > 0 ? inputNames(paths) : liveSource(history),
      missing,
      'give a cluster snapshot with a ClusterVersion and ClusterOperators',
    );
  }
  const status =
    options.now === undefined ? assessStatus(history, options) : rewoundStatus(history, options.now, paths);
  await emit(await render(STATUS_FORMATS, flags.output, status, settings), flags.out);
  return status.insights.some(isSerious) ? EXIT.failure : EXIT.ok;
}

function rewoundStatus(history: ClusterHistory, at: Millis, paths: readonly string[]): UpdateStatus {
  try {
    return assessStatusAt(history, at);
  } catch (err) {
    if (err instanceof OutsideSpanError) {
      throw new InputError(inputNames(paths), err.message, 'give a --at time inside that span');
    }
    throw err;
  }
}

/**
 * A hosted cluster (docs/hosted.md): the inputs hold HostedClusters. The management side is
 * `history`; the guest is read from --guest-kubeconfig, or else from the dump's guest folder.
 */
async function hostedStatus(
  history: ClusterHistory,
  flags: StatusFlags,
  options: StatusOptions,
  paths: readonly string[],
): Promise<HostedStatus> {
  const source = paths.length > 0 ? inputNames(paths) : liveSource(history);
  const pick = (objects: HostedObjects) => {
    const picked = pickHostedCluster(objects, flags.hostedCluster);
    if (typeof picked === 'string') {
      throw new InputError(source, picked, 'name one with --hosted-cluster NAMESPACE/NAME');
    }
    return picked;
  };
  // The guest: its own API server (--guest-kubeconfig), or the dump's hostedcluster-NAME/ folder.
  const name = pick(history.objects).object.metadata.name;
  const guest =
    flags.guestKubeconfig !== undefined
      ? await liveHistory([], { ...flags, kubeconfig: flags.guestKubeconfig, context: undefined })
      : history.guests?.find((g) => g.name === name)?.history;
  const guestStatus = (g: ClusterHistory, now?: Millis) => {
    // The insights about the guest's operators, as the ordinary status gives them (it needs the guest's
    // ClusterVersion); its pools are the NodePools, shown from the management side.
    if (statusPrerequisites(g, now !== undefined ? { now } : {}) !== undefined) return { insights: [] };
    const s = assessStatus(g, now !== undefined ? { now } : {});
    return {
      insights: s.insights.filter((i) => i.kind === 'operator-unavailable' || i.kind === 'operator-degraded'),
    };
  };
  if (options.now === undefined) {
    // The guest assessed at the management snapshot's moment: one moment for the whole document.
    const g = guest ? guestStatus(guest, hostedSnapshotNow(history.objects)) : undefined;
    return assessHostedStatus(history.objects, pick(history.objects), {
      ...(guest ? { guest } : {}),
      ...(g ? { guestInsights: g.insights } : {}),
    });
  }
  const at = options.now;
  try {
    return assessHostedStatusAt(
      { management: history, pick, ...(guest ? { guest } : {}), guestStatus: (g) => guestStatus(g, at) },
      at,
    );
  } catch (err) {
    if (err instanceof OutsideSpanError) {
      throw new InputError(source, err.message, 'give a --at time inside that span');
    }
    throw err;
  }
}

function assessAt(at: string | undefined, now: string | undefined): StatusOptions {
  const given = at ?? now;
  if (given === undefined) return {};
  const flag = at !== undefined ? '--at' : '--now';
  if (at !== undefined && now !== undefined && at !== now) {
    throw new UsageError('--at and --now are the same option: give one of them');
  }
  return { now: momentFlag(flag, given) };
}

/** The cluster a live history was read from (its API server), to name in a message. */
function liveSource(history: ClusterHistory): string {
  const read = history.inputs.find((i) => i.reader === 'live')?.path;
  if (read === undefined) return 'the live cluster';
  try {
    return `the live cluster at ${new URL(read).origin}`;
  } catch {
    return 'the live cluster';
  }
}

/** The inputs, as the other messages name them: `-` is `(stdin)`, as sources/ says it. */
function inputNames(paths: readonly string[]): string {
  return paths.map((p) => (p === STDIN ? STDIN_NAME : p)).join(' ');
}
