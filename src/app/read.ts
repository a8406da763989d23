/**
 * How a use case reads its inputs: with the request's one budget, and URL inputs fetched as the
 * caller says. The CLI builds these options from its flags (budget flags, --cache-dir, --offline…);
 * a library caller builds them itself.
 */
import {
  type Budget,
  type ClusterHistory,
  type HistoryParts,
  InputError,
  type ReleasePayload,
} from '../model/index.js';
import {
  fetchFile,
  type LoadOptions,
  loadHistoryParts,
  loadReleasePayload,
  looksLikeUrl,
  readStdin,
  STDIN,
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
  const remote = paths.some(looksLikeUrl) ? await remoteOf(read) : undefined;
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
