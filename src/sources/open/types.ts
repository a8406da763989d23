/**
 * What one opener is: it claims an argument (a path, `-`, a URL) and turns it into what was read from
 * it, through the reading the pipeline hands it (a folder's listing, an archive, one file), so an
 * opener never knows about formats or layouts.
 */
import type { Stats } from 'node:fs';
import type { RemoteInput } from '../url/index.js';

/** The live cluster an argument names (open/live.ts): the kubeconfig and context kubectl would use. */
export interface LiveCluster {
  readonly live: { readonly kubeconfig?: string; readonly context?: string };
}

/** What the reading gives back for one argument: the loader's results (load.ts), or its plan (plan.ts). */
export type Opened = object;

/** The argument as found on disk: its stat, or why there is none. */
export interface Found {
  readonly info?: Stats;
  readonly error?: NodeJS.ErrnoException;
}

/** The reading an opener may ask for. `display` is the name errors and notes use. */
export interface OpenContext<R extends Opened = Opened> {
  /** Every file below a folder, listed and planned by the layouts. */
  readonly folder: (path: string) => Promise<R>;
  /** A tar archive (in any compression of DECODERS) on disk. */
  readonly archive: (file: string, display: string) => Promise<R>;
  /** One file named as an input, read by what its name (or content) says. */
  readonly file: (file: string, display: string, size: number) => Promise<R>;
  /** Files a layout should plan as one input, given by absolute path (an oc examples case). */
  readonly files: (
    display: string,
    files: readonly { rel: string; abs: string; size: number }[],
  ) => Promise<R>;
  /** A URL, fetched into the cache. */
  readonly remote: (url: string) => Promise<RemoteInput>;
  /** A URL input, once fetched. */
  readonly remoteInput: (input: RemoteInput) => Promise<R>;
  /** Whether the file's first decoded bytes are an archive's (DECODERS with `archive`). */
  readonly looksLikeArchive: (file: string, display: string) => Promise<boolean>;
  /** Where a spooled copy of standard input may be written (a private temporary folder). */
  readonly tmpdir: () => Promise<string>;
  /** A live cluster (open/live.ts), read as the caller reads one. */
  readonly live: (cluster: LiveCluster) => Promise<R>;
}

/** `A`: a path, `-` or a URL (`string`), or a live cluster. */
export interface Opener<A = string> {
  readonly name: string;
  /** What arguments it is asked about: paths and URLs, or live clusters. */
  readonly takes: A extends string ? 'path' : 'live';
  /** Whether this opener takes the argument. Openers are asked in OPENERS order. */
  readonly claims: (arg: A, found: Found) => boolean | Promise<boolean>;
  readonly open: <R extends Opened>(arg: A, found: Found, context: OpenContext<R>) => Promise<R>;
}
