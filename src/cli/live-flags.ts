/**
 * `--kubeconfig` and `--context` for the commands that can read a live cluster instead of files
 * (status, analyze, watch; docs/live.md), read into a request's LiveTarget (src/app reads the
 * cluster, loading the client library only then, so file commands start as fast as before).
 */
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { GivenReleases, LiveTarget } from '../app/read.js';
import { UsageError } from '../model/index.js';
import { stdinOnce } from './stdin.js';

export interface LiveFlags {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  live?: true | undefined;
  requestTimeout?: string | undefined;
}

/**
 * `--request-timeout` as kubectl reads it (client-go's clientcmd): a whole number is seconds, else a
 * Go duration (`30s`, `1m30s`, `500ms`, `2h`); `0` means no deadline. Returns milliseconds.
 */
export function parseRequestTimeout(value: string): number {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const units: Readonly<Record<string, number>> = {
    ns: 1e-6,
    us: 1e-3,
    µs: 1e-3,
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
  };
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let ms = 0;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m) break;
    ms += Number(m[1]) * (units[m[2] ?? ''] ?? Number.NaN);
    at = part.lastIndex;
  }
  if (text === '' || at !== text.length || !Number.isFinite(ms) || ms > 2 ** 31 - 1) {
    throw new UsageError(
      `--request-timeout ${JSON.stringify(value)} is not a duration (e.g. 30s, 1m, 0 for none)`,
    );
  }
  return Math.ceil(ms);
}

/** Adds --kubeconfig and --context; the paths argument becomes optional (a live cluster needs none). */
export function liveFlags<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  for (const a of cmd.registeredArguments) (a as { required: boolean }).required = false;
  // As a kubectl/oc plugin (bin/kubectl-atlevel), a command given no paths reads the cluster of
  // $KUBECONFIG or ~/.kube/config, as kubectl does.
  cmd.hook('preAction', (c) => {
    if (process.env.ATLEVEL_LIVE_DEFAULT === '1' && c.args.length === 0) c.setOptionValue('live', true);
  });
  return cmd
    .option(
      '--kubeconfig <file>',
      'read a live cluster through this kubeconfig instead of files (docs/live.md)',
    )
    .option('--context <name>', 'with a live cluster: the kubeconfig context to use')
    .option('--live', 'read the live cluster of $KUBECONFIG, ~/.kube/config or the in-cluster config')
    .option(
      '--request-timeout <duration>',
      'with a live cluster: give up on a request not answered in full within this long (e.g. 30s; 0: never; default 60s)',
    );
}

export function wantsLive(flags: LiveFlags): boolean {
  return flags.kubeconfig !== undefined || flags.context !== undefined || flags.live === true;
}

/** The live-cluster flag the command line gave, to name in an error (the first of them). */
function liveFlagGiven(flags: LiveFlags): string {
  if (flags.kubeconfig !== undefined) return '--kubeconfig';
  if (flags.context !== undefined) return '--context';
  return '--live';
}

/**
 * The live cluster the flags name, as a request's target (paths must then be empty); `releases`, the
 * --release-from/--release-to files read beside it, may take standard input once.
 */
export function liveTarget(
  paths: readonly string[],
  flags: LiveFlags,
  releases: GivenReleases = {},
): LiveTarget {
  if (paths.length > 0) throw new UsageError(`give input paths or ${liveFlagGiven(flags)}, not both`);
  stdinOnce([], { '--release-from': releases.releaseFrom, '--release-to': releases.releaseTo });
  return {
    ...(flags.kubeconfig !== undefined ? { kubeconfig: flags.kubeconfig } : {}),
    ...(flags.context !== undefined ? { context: flags.context } : {}),
    ...(flags.requestTimeout !== undefined
      ? { requestTimeoutMs: parseRequestTimeout(flags.requestTimeout) }
      : {}),
  };
}
