/**
 * The flags every command that reads inputs shares for URL inputs (docs/urls.md): where the cache is,
 * offline mode, the storage endpoint, --verbose and --must-gather. One helper, so that each command
 * adds them with one line and reads them with one call.
 */
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { plural } from '../model/index.js';
import type { FetchStats, RemoteOptions } from '../sources/index.js';
import { ENDPOINT_ENV } from '../sources/words.js';

export interface RemoteFlags {
  cacheDir?: string | undefined;
  offline?: true | undefined;
  storageEndpoint?: string | undefined;
  verbose?: true | undefined;
  mustGather?: true | undefined;
}

/** Adds the shared URL flags to a command; the returned command's typed flags include them. */
export function remoteFlags<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd
    .option('--cache-dir <dir>', 'where URL downloads are cached (default $XDG_CACHE_HOME/atlevel)')
    .option('--offline', 'for URL inputs, use only the cache; never touch the network')
    .option(
      '--storage-endpoint <url>',
      `Cloud Storage JSON API endpoint for URL inputs (default $${ENDPOINT_ENV}, else https://storage.googleapis.com)`,
    )
    .option('-v, --verbose', 'say what was fetched, retried and skipped for URL inputs');
}

/** `--must-gather`, for the commands that read whole runs. */
export function mustGatherFlag<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(cmd: Command<Args, Opts, Globals>) {
  return cmd.option('--must-gather', "for a CI run's URL, also fetch and read its must-gather tarballs");
}

/** RemoteOptions from the shared flags: progress bar on a TTY, --verbose lines on stderr. */
export async function remoteOptions(
  flags: RemoteFlags,
): Promise<RemoteOptions & { onStats: (s: FetchStats) => void }> {
  const verbose = flags.verbose ? (line: string) => process.stderr.write(`atlevel: ${line}\n`) : undefined;
  // The bar (and cli-progress behind it) is loaded only for a terminal, where it is drawn at all:
  // a redirected stderr gets no bar, and its process no parse of cli-progress at start-up.
  const progress = process.stderr.isTTY ? (await import('./fetch-progress.js')).fetchProgress() : undefined;
  return {
    ...(flags.cacheDir !== undefined ? { cacheDir: flags.cacheDir } : {}),
    ...(flags.offline ? { offline: true } : {}),
    ...(flags.storageEndpoint !== undefined ? { endpoint: flags.storageEndpoint } : {}),
    ...(flags.mustGather ? { mustGather: true } : {}),
    ...(verbose ? { verbose } : {}),
    ...(progress ? { progress } : {}),
    onStats: (s) =>
      verbose?.(
        `URL inputs: ${plural(s.requests, 'request')}, ${plural(s.downloadedFiles, 'file')} downloaded (${s.downloadedBytes} bytes), ${s.cachedFiles} read from the cache`,
      ),
  };
}
