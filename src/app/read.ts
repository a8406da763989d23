/**
 * How a use case reads its inputs: with the request's one budget, and URL inputs fetched as the
 * caller says. The CLI builds these options from its flags (budget flags, --cache-dir, --offline…);
 * a library caller builds them itself.
 */
import {
  type Budget,
  type ClusterHistory,
  emptySnapshot,
  type HistoryParts,
  InputError,
  type ReleasePayload,
} from '../model/index.js';
import {
  fetchFile,
  type LoadOptions,
  loadHistoryParts,
  loadLiveParts,
  loadReleasePayload,
  looksLikeUrl,
  readStdin,
  STDIN,
  withGivenReleases,
} from '../sources/index.js';
import { buildHistory } from '../timeline/index.js';

export interface ReadOptions {
  /** The request's resource budget (model/budget.ts), shared by every file it reads; the defaults when absent. */
  readonly budget?: Budget;
  /**
   * How URL inputs are fetched (docs/urls.md): the options, or a function that makes them, called
   * only when an input is a URL (the CLI's progress bar is made then).
   */
  readonly remote?: LoadOptions['remote'] | (() => Promise<NonNullable<LoadOptions['remote']>>);
}

/**
 * A live cluster to read instead of files (docs/live.md): the kubeconfig and context (both absent:
 * $KUBECONFIG, ~/.kube/config or the in-cluster config), and the request deadline.
 */
export interface LiveTarget {
  readonly kubeconfig?: string;
  readonly context?: string;
  /** Give up a request not answered in full within this many ms; 0: never (the client's default when absent). */
  readonly requestTimeoutMs?: number;
}

/** The release files given beside the inputs (`--release-from`/`--release-to`): files, URLs or `-`. */
export interface GivenReleases {
  readonly releaseFrom?: string;
  readonly releaseTo?: string;
}

async function remoteOf(read: ReadOptions): Promise<LoadOptions['remote']> {
  return typeof read.remote === 'function' ? read.remote() : read.remote;
}

function budgeted(read: ReadOptions): { budget?: Budget } {
  return read.budget ? { budget: read.budget } : {};
}

/**
 * `read` on a file argument that may be a URL: a URL is fetched into the cache first, and errors
 * about the cached copy are reported under the URL's gs:// name.
 */
export async function readMaybeUrl<T>(
  arg: string,
  read: ReadOptions,
  readFile: (path: string) => Promise<T>,
): Promise<T> {
  if (!looksLikeUrl(arg)) return readFile(arg);
  const file = await fetchFile(arg, (await remoteOf(read)) ?? {});
  try {
    return await readFile(file.path);
  } catch (err) {
    if (err instanceof InputError && err.file.startsWith(file.path)) {
      throw new InputError(file.display + err.file.slice(file.path.length), err.problem, err.hint);
    }
    throw err;
  }
}

/** A release from a file, a folder, a URL, or `-` (standard input: one release file). */
export function loadRelease(arg: string, read: ReadOptions): Promise<ReleasePayload> {
  const opts = budgeted(read);
  if (arg === STDIN)
    return readStdin('a release file', (path, display) => loadReleasePayload(path, { ...opts, display }));
  return readMaybeUrl(arg, read, (path) => loadReleasePayload(path, opts));
}

/** The inputs' history parts, read at the moment of the call. */
export async function readParts(
  paths: readonly string[],
  read: ReadOptions,
  opts: Partial<Omit<LoadOptions, 'now' | 'budget' | 'remote'>> = {},
): Promise<HistoryParts> {
  // URL inputs and URL release files are fetched as the caller says; nothing else needs the options.
  const urls = [...paths, opts.releaseFrom, opts.releaseTo].some((p) => p !== undefined && looksLikeUrl(p));
  const remote = urls ? await remoteOf(read) : undefined;
  return loadHistoryParts(paths, {
    ...opts,
    ...(remote ? { remote } : {}),
    ...budgeted(read),
    now: Date.now(),
  });
}

/** The ClusterHistory of the inputs, as every analysis reads it. */
export async function readHistory(paths: readonly string[], read: ReadOptions): Promise<ClusterHistory> {
  return buildHistory(await readParts(paths, read));
}

/** The live client's limits: the target's deadline and the request's budget (its tree limits). */
export function liveLimits(
  live: LiveTarget,
  read: ReadOptions,
): { requestTimeoutMs?: number; budget?: Budget } {
  return {
    ...(live.requestTimeoutMs !== undefined ? { requestTimeoutMs: live.requestTimeoutMs } : {}),
    ...budgeted(read),
  };
}

/**
 * The ClusterHistory of a live cluster, with the payloads of the given release files (a cluster
 * holds no payload contents; they name the cause chain's components). The client library is loaded
 * only here, so file inputs never load it.
 */
export async function readLiveHistory(
  live: LiveTarget,
  releases: GivenReleases,
  read: ReadOptions,
): Promise<ClusterHistory> {
  // Opened by the sources' live opener (sources/open/live.ts), as paths are by theirs; the client is loaded only then.
  const parts = await loadLiveParts(
    {
      live: {
        ...(live.kubeconfig !== undefined ? { kubeconfig: live.kubeconfig } : {}),
        ...(live.context !== undefined ? { context: live.context } : {}),
      },
    },
    liveLimits(live, read),
  );
  return buildHistory(await withReleases(parts, releases, read));
}

/** The payloads of the given release files alone, undefined when none is given (a watch's: docs/live.md). */
export async function readGivenReleases(
  releases: GivenReleases,
  read: ReadOptions,
): Promise<HistoryParts['releases'] | undefined> {
  if (releases.releaseFrom === undefined && releases.releaseTo === undefined) return undefined;
  const none: HistoryParts = {
    objects: emptySnapshot(),
    monitorIntervals: [],
    testLog: [],
    releases: {},
    inputs: [],
    notes: [],
  };
  return (await withReleases(none, releases, read)).releases;
}

async function withReleases(
  parts: HistoryParts,
  releases: GivenReleases,
  read: ReadOptions,
): Promise<HistoryParts> {
  if (releases.releaseFrom === undefined && releases.releaseTo === undefined) return parts;
  const remote = await remoteOf(read);
  return withGivenReleases(parts, {
    ...(releases.releaseFrom !== undefined ? { releaseFrom: releases.releaseFrom } : {}),
    ...(releases.releaseTo !== undefined ? { releaseTo: releases.releaseTo } : {}),
    ...(remote ? { remote } : {}),
    ...budgeted(read),
  });
}
