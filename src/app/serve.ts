/**
 * The `serve` use case: the inputs served as a read-only Kubernetes API (docs/serve.md), at a moment
 * or with the update replayed. It starts the server and returns a handle: the URL, a kubeconfig for
 * it, what is served, the replay to start, and close(); the caller decides how long it runs.
 */
import { type ClusterHistory, formatTime, type Millis, printable, UsageError } from '../model/index.js';
import type { RunningServer } from '../serve/index.js';
import { readServedExtras } from '../sources/index.js';
import { buildHistory } from '../timeline/index.js';
import { type ReadOptions, readParts } from './read.js';

export interface ServeRequest {
  /** Must-gathers, CI run folders or their URLs, folders of oc get output, tarballs, simulator runs. */
  readonly inputs: readonly string[];
  /** Serve the hosted cluster of this name (a hypershift dump's hostedcluster-NAME/ folder) instead of the management cluster. */
  readonly guest?: string;
  /** Serve the cluster as it was at this moment (not with `replay`). */
  readonly at?: Millis;
  /** Serve the state at the update's start; the handle's replay plays the timeline as watch events. */
  readonly replay?: boolean;
  /** Recorded seconds per wall-clock second of the replay; 1 when absent. */
  readonly speed?: number;
  /** TCP port; 0 (a free one) when absent. */
  readonly port?: number;
  /** Address to listen on; 127.0.0.1 when absent (anything else exposes the inputs). */
  readonly bind?: string;
  /** Serve Secrets with their values (by default they are emptied, as oc adm inspect's cleaning does). */
  readonly serveSecrets?: boolean;
}

export interface ServeHandle {
  readonly url: string;
  /** A kubeconfig for the server (no credentials: it is read-only and listens where it was told). */
  readonly kubeconfig: string;
  readonly objects: number;
  readonly resourceTypes: number;
  /** Whether the served cluster is a hosted cluster's management side (its HostedClusters, NodePools). */
  readonly hosted: boolean;
  /** With `replay`: the plan, start() (the replay waits for it) and done. */
  readonly replay: RunningServer['replay'];
  /** What reading the inputs' served-as-is files noted. */
  readonly notes: readonly string[];
  close(): Promise<void>;
}

const LISTEN_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN']);

export async function serve(request: ServeRequest, read: ReadOptions = {}): Promise<ServeHandle> {
  if (request.at !== undefined && request.replay)
    throw new UsageError('--at and --replay cannot be combined');
  const loaded = buildHistory(await readParts(request.inputs, read));
  const history = request.guest === undefined ? loaded : guestHistory(loaded, request.guest);
  // The same budget the history was read with: serve's extras are input like any other.
  const extras = await readServedExtras(
    request.inputs,
    read.budget ? { budget: read.budget } : {},
    request.guest,
  );
  // The server (node:http and the API's tables) is loaded only when one starts: the other use cases
  // share this module's folder, and analyze's start-up must not load a network stack (test/cli/startup.test.ts).
  const { kubeconfigFor, startServer } = await import('../serve/index.js');
  const port = request.port ?? 0;
  const bind = request.bind ?? '127.0.0.1';
  let server: RunningServer;
  try {
    server = await startServer({
      history,
      extra: extras.objects,
      logs: extras.logs,
      ...(request.at !== undefined ? { at: request.at } : {}),
      replay: request.replay === true,
      speed: request.speed ?? 1,
      port,
      bind,
      holdReplay: true,
      serveSecrets: request.serveSecrets === true,
    });
  } catch (err) {
    if (err instanceof Error && err.name === 'OutsideSpanError' && request.at !== undefined)
      throw new UsageError(`--at ${formatTime(request.at)}: ${err.message}`);
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined && LISTEN_ERRORS.has(code)) {
      throw new UsageError(`cannot listen on ${bind}:${port} (${code}); choose another --port or --bind`);
    }
    throw err;
  }
  const types = server.store.types();
  return {
    url: server.url,
    kubeconfig: kubeconfigFor(server.url),
    objects: types.reduce((n, t) => n + server.store.list(`${t.group}/${t.version}/${t.plural}`).length, 0),
    resourceTypes: types.length,
    hosted: history.objects.hostedClusters.length > 0,
    replay: server.replay,
    notes: extras.notes,
    close: () => server.close(),
  };
}

/**
 * A hypershift dump holds two clusters: serve gives one per endpoint, the management cluster by
 * default and the guest NAME on request (docs/hosted.md).
 */
function guestHistory(history: ClusterHistory, name: string): ClusterHistory {
  const guest = history.guests?.find((g) => g.name === name);
  if (guest) return guest.history;
  const names = (history.guests ?? []).map((g) => g.name);
  throw new UsageError(
    `--guest ${JSON.stringify(printable(name, 60))}: ${names.length === 0 ? 'the inputs hold no hosted cluster (a hypershift dump with --dump-guest-cluster has a hostedcluster-NAME/ folder)' : `the inputs hold the hosted cluster${names.length === 1 ? '' : 's'} ${names.join(', ')}`}`,
  );
}
