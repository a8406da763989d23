/**
 * `atlevel serve PATH...`: a read-only Kubernetes API over the inputs (docs/serve.md). It runs until
 * SIGINT, SIGTERM or SIGHUP (the terminal closing), then closes every connection, removes its temporary
 * kubeconfig and exits 0.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { type ServeRequest, serve } from '../app/serve.js';
import { plural, printable, terminalSafe, UsageError } from '../model/index.js';
import { examplePath } from './examples.js';
import { EXIT, type ExitBox, type ExitCode } from './exit.js';
import { addBudgetOptions, checkInputs, READ_LIMITS, readOptions } from './input.js';
import { momentFlag } from './options.js';
import { checkOutFile, writeOutFile } from './output.js';
import { mustGatherFlag, remoteFlags } from './remote-flags.js';

function serveOptions(cmd: Command) {
  // URL inputs (docs/urls.md) take the same flags as in analyze.
  return (
    mustGatherFlag(remoteFlags(addBudgetOptions(cmd, READ_LIMITS)))
      .argument(
        '<paths...>',
        'must-gather, CI run folder or its URL, folder of oc get YAML/JSON, a .tar/.tar.gz of these, a simulator run',
      )
      .option(
        '--guest <name>',
        'serve the hosted cluster NAME of a hypershift dump (its hostedcluster-NAME/ folder) instead of the management cluster',
      )
      .option('--at <time>', 'serve the cluster as it was at this RFC 3339 time')
      .option('--replay', 'serve the state at the update start, then replay the timeline as watch events')
      // --speed and --start-after have no commander default: given without --replay they are refused.
      .option('--speed <n>', 'with --replay: recorded seconds per wall-clock second (default 1)')
      .option('--port <port>', 'TCP port (0 picks a free one)', '0')
      .option(
        '--bind <addr>',
        'address to listen on (anything but 127.0.0.1 exposes the inputs)',
        '127.0.0.1',
      )
      .option(
        '--start-after <seconds>',
        'with --replay: wait this long before replaying (time to start your watches; default 0)',
      )
      .option(
        '--serve-secrets',
        "serve Secrets with their values (by default they are emptied, as oc adm inspect's cleaning does)",
      )
      .option(
        '--kubeconfig-out <file>',
        'write a kubeconfig for the server here (default: print its path in a temp dir)',
      )
  );
}

type ServeFlags = ReturnType<ReturnType<typeof serveOptions>['opts']>;

export function defineServe(cmd: Command, exit: ExitBox): void {
  serveOptions(cmd)
    // serve runs until it is stopped, so the client goes in a second terminal: chained after it with
    // `&&`, kubectl would never start.
    .addHelpText(
      'after',
      '\nExample, in two terminals (serve runs until Ctrl-C; --start-after leaves time to start the watch):\n' +
        `  atlevel serve ${examplePath('bug-2019850')} --replay --speed 60 --start-after 10 --kubeconfig-out kc\n` +
        '  kubectl --kubeconfig kc get mcp -w',
    )
    .action(async (paths, flags) => {
      exit.code = await runServe(paths, flags);
    });
}

/**
 * A plain decimal number (`10`, `0.5`): Number() would also take `""` as 0, `0x10` as 16 and `1e3`,
 * none of which a user means as seconds or a speed.
 */
function decimal(text: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** The request the flags ask for, and how long to wait before the replay starts (ms). */
export function serveRequest(
  paths: readonly string[],
  flags: ServeFlags,
): { readonly request: ServeRequest; readonly startAfterMs: number } {
  for (const [flag, value] of [
    ['--speed', flags.speed],
    ['--start-after', flags.startAfter],
  ] as const) {
    if (value !== undefined && !flags.replay) throw new UsageError(`${flag} needs --replay`);
  }
  const startAfter = decimal(flags.startAfter ?? '0');
  if (startAfter === undefined)
    throw new UsageError(
      `--start-after ${JSON.stringify(printable(flags.startAfter ?? '', 40))}: expected a number of seconds`,
    );
  const speed = decimal(flags.speed ?? '1');
  if (speed === undefined || speed <= 0)
    throw new UsageError(
      `--speed ${JSON.stringify(printable(flags.speed ?? '', 40))}: expected a positive number`,
    );
  const port = /^\d{1,5}$/.test(flags.port) ? Number(flags.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port ${JSON.stringify(printable(flags.port, 40))}: expected 0-65535`);
  if (flags.at !== undefined && flags.replay) throw new UsageError('--at and --replay cannot be combined');
  const at = flags.at !== undefined ? momentFlag('--at', flags.at) : undefined;
  return {
    request: {
      inputs: paths,
      ...(flags.guest !== undefined ? { guest: flags.guest } : {}),
      ...(at !== undefined ? { at } : {}),
      replay: flags.replay === true,
      speed,
      port,
      bind: flags.bind,
      serveSecrets: flags.serveSecrets === true,
    },
    startAfterMs: startAfter * 1000,
  };
}

async function runServe(paths: readonly string[], flags: ServeFlags): Promise<ExitCode> {
  const { request, startAfterMs } = serveRequest(paths, flags);
  // Refused before anything listens: the same rules as --out (a regular file, not an input).
  if (flags.kubeconfigOut !== undefined) checkOutFile(flags.kubeconfigOut, '--kubeconfig-out');
  checkInputs(paths);
  const server = await serve(request, readOptions(flags));
  // Listen for the stop before the kubeconfig exists and its line is printed: a signal that comes
  // between the two (a supervisor or a script that stops serve as soon as it reads the line) would
  // otherwise find no handler and end the process at once, leaving the folder behind.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    // SIGHUP is the terminal closing: without a handler Node exits at once (129) and the temporary
    // kubeconfig folder stays behind.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
  });
  // The default kubeconfig goes in a folder of our own (mkdtemp: a name nobody can guess or plant a
  // link at), removed when the server stops, since it then points at nothing. One named by
  // --kubeconfig-out is the user's and stays; it is written as --out writes (temp file, rename).
  const ownFolder =
    flags.kubeconfigOut === undefined ? await mkdtemp(join(tmpdir(), 'atlevel-serve-')) : undefined;
  const kubeconfig = flags.kubeconfigOut ?? join(ownFolder as string, 'kubeconfig');
  try {
    if (ownFolder) await writeFile(kubeconfig, server.kubeconfig, { mode: 0o600, flag: 'wx' });
    else await writeOutFile(server.kubeconfig, kubeconfig, '--kubeconfig-out');
  } catch (err) {
    await server.close();
    if (ownFolder) await rm(ownFolder, { recursive: true, force: true });
    throw err;
  }
  process.stdout.write(
    `atlevel serve: ${server.url}  (${plural(server.objects, 'object')}, ${plural(server.resourceTypes, 'resource type')})\n`,
  );
  process.stdout.write(
    `kubeconfig: ${kubeconfig}   e.g. kubectl --kubeconfig ${kubeconfig} get ${server.hosted ? 'hostedclusters,nodepools -A' : 'clusterversion,co,mcp'}\n`,
  );
  if (server.replay) {
    const p = server.replay.plan;
    process.stdout.write(
      `replay: ${new Date(p.start).toISOString()} → ${new Date(p.end).toISOString()}, ${plural(p.revisions.length, 'change')} at ${request.speed}×\n`,
    );
    // Without an update to start at, the replay plays everything recorded, from the first record.
    if (p.update === undefined && p.revisions.length > 0)
      process.stderr.write(
        'atlevel: note: the inputs hold no update to replay; this replays every recorded change from the first\n',
      );
    void server.replay.done.then(() => process.stdout.write('replay: done; serving the final state\n'));
  }
  const replay = server.replay;
  const timer = replay ? setTimeout(() => replay.start(), startAfterMs) : undefined;
  for (const note of server.notes.slice(0, 5)) process.stderr.write(`atlevel: note: ${terminalSafe(note)}\n`);
  await stopped;
  if (timer) clearTimeout(timer);
  await server.close();
  if (ownFolder) await rm(ownFolder, { recursive: true, force: true });
  process.stdout.write('atlevel serve: stopped\n');
  return EXIT.ok;
}
