/**
 * The CI-URL client (./url/), loaded on first use. It is a third of what a command that reads inputs
 * would otherwise parse at start-up, with node:http and node:https behind it, and a run on folders or
 * archives never uses it: only a URL argument, or the cache and ingest commands, load it.
 */
import type { FetchStats, RemoteOptions } from './url/index.js';

export type UrlClient = typeof import('./url/index.js');

export const urlClient = (): Promise<UrlClient> => import('./url/index.js');

/** ./url/ fetchFile, loaded on the first call. */
export async function fetchFile(
  arg: string,
  opts: RemoteOptions & { readonly onStats?: (stats: FetchStats) => void },
): ReturnType<UrlClient['fetchFile']> {
  return (await urlClient()).fetchFile(arg, opts);
}
