/**
 * The CI-URL client (./url/), loaded on first use. It is a third of what a command that reads inputs
 * would otherwise parse at start-up, with node:http and node:https behind it, and a run on folders or
 * archives never uses it: only a URL argument, or the cache and ingest commands, load it.
 */
import type { FetchStats, RemoteOptions, RemoteSession } from './url/index.js';

export type UrlClient = typeof import('./url/index.js');

export const urlClient = (): Promise<UrlClient> => import('./url/index.js');

/** ./url/ fetchFile, loaded on the first call. */
export async function fetchFile(
  arg: string,
  opts: RemoteOptions & { readonly onStats?: (stats: FetchStats) => void },
): ReturnType<UrlClient['fetchFile']> {
  return (await urlClient()).fetchFile(arg, opts);
}

type SessionOptions = RemoteOptions & { readonly onStats?: (stats: FetchStats) => void };

/**
 * One remote session for a whole load, opened (and its client loaded) only when a URL is met:
 * `open()` gives it, `close()` ends it and reports its statistics, if it was ever opened.
 */
export function lazySession(
  opts: SessionOptions | undefined,
  maxFileBytes: number,
): { open: () => Promise<RemoteSession>; close: () => void } {
  let session: RemoteSession | undefined;
  return {
    open: async () => {
      if (session === undefined) {
        const { RemoteSession } = await urlClient();
        session ??= new RemoteSession({ ...opts, maxFileBytes });
      }
      return session;
    },
    close: () => {
      session?.close();
      if (session && opts?.onStats) opts.onStats(session.stats);
    },
  };
}
