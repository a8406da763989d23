/**
 * Opening a URL input: recognise it, find what it names by listing (or from the cache), fetch the
 * objects a layout claims into the cache in parallel, and hand the loader local files with remote
 * display names (`gs://BUCKET/PATH`). A finished run is listed once: its listing is cached with the
 * objects, so a second run of the same URL sends no request at all.
 */
import { InputError, printable } from '../../model/index.js';
import { formatBytes } from '../bytes.js';
import { cacheRoot, ObjectCache, type TreeRecord } from './cache.js';
import { type Discovery, discover } from './discover.js';
import { type ObjectInfo, StorageClient, StorageError } from './gcs.js';
import { type GcsLocation, gsUri, parseCiUrl } from './location.js';
import { DEFAULT_CONCURRENCY, type RemoteOptions, storageEndpoint } from './options.js';
import { type Selected, selectObjects } from './select.js';

/** A fetched file: read it at `path`, call it `display`. */
interface LocalFile {
  readonly rel: string;
  readonly path: string;
  readonly size: number;
}

export type RemoteInput =
  | {
      readonly kind: 'file';
      readonly display: string;
      readonly name: string;
      readonly path: string;
      readonly size: number;
      readonly notes: string[];
    }
  | {
      readonly kind: 'tree';
      /** `gs://BUCKET/PREFIX` without the trailing slash: rel paths are joined to it for display. */
      readonly display: string;
      readonly files: LocalFile[];
      /** Must-gather tarballs fetched with --must-gather: each read as an input of its own. */
      readonly archives: { readonly display: string; readonly path: string }[];
      readonly notes: string[];
    };

/** What a session fetched, for notes and the bench. */
export interface FetchStats {
  requests: number;
  downloadedBytes: number;
  downloadedFiles: number;
  cachedFiles: number;
}

/** One per command: storage clients (one per endpoint) and the cache, closed together. */
export class RemoteSession {
  readonly cache: ObjectCache;
  readonly stats: FetchStats = { requests: 0, downloadedBytes: 0, downloadedFiles: 0, cachedFiles: 0 };
  readonly #clients = new Map<string, StorageClient>();

  constructor(readonly opts: RemoteOptions = {}) {
    this.cache = new ObjectCache(cacheRoot(opts.cacheDir, opts.env));
  }

  client(endpoint: string): StorageClient {
    let c = this.#clients.get(endpoint);
    if (!c) {
      c = new StorageClient({
        endpoint,
        concurrency: this.opts.concurrency ?? DEFAULT_CONCURRENCY,
        ...(this.opts.retry ? { retry: this.opts.retry } : {}),
        ...(this.opts.idleTimeoutMs ? { idleTimeoutMs: this.opts.idleTimeoutMs } : {}),
        ...(this.opts.deadlineBaseMs !== undefined ? { deadlineBaseMs: this.opts.deadlineBaseMs } : {}),
        onRetry: (url, reason, n) => this.opts.verbose?.(`retrying ${url} after attempt ${n}: ${reason}`),
        onBytes: (n) => this.opts.progress?.bytes(n),
      });
      this.#clients.set(endpoint, c);
    }
    return c;
  }

  close(): void {
    for (const c of this.#clients.values()) {
      this.stats.requests += c.requests;
      c.requests = 0;
      c.close();
    }
    this.#clients.clear();
  }

  /** Open one URL argument. Errors are InputErrors naming the URL (exit 2). */
  async open(arg: string): Promise<RemoteInput> {
    const loc = parseCiUrl(arg);
    try {
      return await this.#open(loc);
    } catch (err) {
      if (err instanceof StorageError) {
        throw new InputError(err.url, err.problem, storageHint(err.status, this.opts.offline));
      }
      throw err;
    }
  }

  async #open(loc: GcsLocation): Promise<RemoteInput> {
    const found = await this.#find(loc);
    const { discovery, cached } = found;
    const selection = selectObjects(discovery, this.opts.mustGather ? { mustGather: true } : {});
    const display = gsUri(discovery.bucket, discovery.prefix).replace(/\/+$/, '');
    if (discovery.kind !== 'object' && selection.fetch.length === 0) {
      throw new InputError(loc.given, nothingToRead(discovery, selection.skipped.length));
    }
    this.#checkSizes(selection.fetch, display);
    const endpoint = storageEndpoint(this.opts, loc.loopbackOrigin);
    const paths = await this.#fetchAll(selection.fetch, endpoint);
    // Cache the listing only once every object it leads to is cached too.
    if (!cached && (discovery.kind === 'object' || discovery.finished)) {
      await this.cache.writeTree(toRecord(loc.path, discovery));
    }
    const notes: string[] = [];
    const verbose = this.opts.verbose;
    if (verbose) {
      for (const s of selection.skipped)
        verbose(`skipped ${display}/${printable(s.rel, 300)} (${formatBytes(s.size)}): no reader needs it`);
      for (const u of discovery.unvisited)
        verbose(
          `skipped folder ${gsUri(discovery.bucket, printable(u, 300))}: not listed, nothing atlevel reads is kept there`,
        );
    }
    if (discovery.kind === 'object') {
      const only = selection.fetch[0];
      const path = only ? paths.get(only.object.name) : undefined;
      if (!only || !path) throw new InputError(loc.given, 'nothing fetched');
      return { kind: 'file', display, name: only.rel, path, size: only.object.size, notes };
    }
    const needed = selection.fetch.reduce((n, s) => n + s.object.size, 0);
    const skippedBytes = selection.skipped.reduce((n, s) => n + s.size, 0);
    notes.push(
      `${display}: ${discovery.kind === 'run' ? 'a CI run' : 'a folder'}; fetched ${selection.fetch.length} of ${discovery.objects.length} listed objects (${formatBytes(needed)}), skipped ${selection.skipped.length} (${formatBytes(skippedBytes)}) and ${discovery.unvisited.length} folders no reader needs${verbose ? '' : ' (--verbose lists them)'}`,
    );
    const files: LocalFile[] = [];
    const archives: { display: string; path: string }[] = [];
    for (const s of selection.fetch) {
      const path = paths.get(s.object.name);
      if (!path) continue;
      if (s.archive) archives.push({ display: `${display}/${s.rel}`, path });
      else files.push({ rel: s.rel, path, size: s.object.size });
    }
    return { kind: 'tree', display, files, archives, notes };
  }

  /** The listing of `loc`: from the cache when it holds a finished run's (or an object's), else listed. */
  async #find(loc: GcsLocation): Promise<{ discovery: Discovery; cached: boolean }> {
    const key = loc.path;
    const record = await this.cache.readTree(loc.bucket, key);
    if (record) {
      this.opts.verbose?.(`listing of ${gsUri(loc.bucket, key)} from the cache (listed ${record.listedAt})`);
      return {
        discovery: {
          bucket: record.bucket,
          prefix: record.kind === 'object' ? (record.objects[0]?.name ?? key) : record.prefix,
          kind: record.kind,
          objects: [...record.objects],
          unvisited: [...record.unvisited],
          finished: true,
        },
        cached: true,
      };
    }
    if (this.opts.offline) {
      const latest = key.endsWith('/') ? undefined : await this.cache.latest(loc.bucket, key);
      if (latest) {
        return {
          discovery: {
            bucket: loc.bucket,
            prefix: key,
            kind: 'object',
            objects: [latest.info],
            unvisited: [],
            finished: true,
          },
          cached: true,
        };
      }
      throw new InputError(
        loc.given,
        `not in the cache (${this.cache.root}), and --offline forbids fetching it`,
        'run once without --offline to fill the cache; a run still in progress is never cached whole',
      );
    }
    const endpoint = storageEndpoint(this.opts, loc.loopbackOrigin);
    const discovery = await discover(this.client(endpoint), loc.bucket, loc.path, loc.given);
    // The record is keyed by the path as given, so the same URL finds it again.
    return { discovery, cached: false };
  }

  #checkSizes(fetch: readonly Selected[], display: string): void {
    const max = this.opts.maxFileBytes;
    if (max === undefined) return;
    for (const s of fetch) {
      if (s.object.size > max) {
        throw new InputError(
          `${display}/${printable(s.rel, 300)}`,
          `size ${formatBytes(s.object.size)} exceeds ${formatBytes(max)}; not fetched`,
          'raise the limit with maxFileBytes if this file is genuine',
        );
      }
    }
  }

  /** Fetch (or find cached) every selected object, in parallel; name → cached file path. */
  async #fetchAll(fetch: readonly Selected[], endpoint: string): Promise<Map<string, string>> {
    const paths = new Map<string, string>();
    const missing: ObjectInfo[] = [];
    const hits = await Promise.all(fetch.map((s) => this.cache.lookup(s.object)));
    fetch.forEach((s, i) => {
      const hit = hits[i];
      if (hit) {
        paths.set(s.object.name, hit.path);
        this.stats.cachedFiles += 1;
      } else missing.push(s.object);
    });
    // The largest first: their slices take the slots first, and the small ones (and small slices)
    // fill in at the end, so that the connections finish together rather than one long transfer last.
    missing.sort((a, b) => b.size - a.size);
    if (missing.length === 0) return paths;
    if (this.opts.offline) {
      throw new InputError(
        gsUri(missing[0]!.bucket, missing[0]!.name),
        `not in the cache${missing.length > 1 ? ` (nor ${missing.length - 1} more)` : ''}, and --offline forbids fetching it`,
        'run once without --offline to fill the cache',
      );
    }
    const client = this.client(endpoint);
    const progress = this.opts.progress;
    progress?.start(
      missing.reduce((n, o) => n + o.size, 0),
      missing.length,
    );
    let failure: unknown;
    const tasks = missing.map((o) =>
      this.cache.fill(o, client).then(
        (entry) => {
          paths.set(o.name, entry.path);
          this.stats.downloadedBytes += o.size;
          this.stats.downloadedFiles += 1;
          progress?.fileDone();
        },
        (err: unknown) => {
          // The first failure stops the rest: their sockets close, their tmp folders are removed.
          if (failure === undefined) {
            failure = err;
            client.close();
          }
        },
      ),
    );
    await Promise.all(tasks);
    progress?.stop();
    if (failure !== undefined) throw failure;
    return paths;
  }
}

function toRecord(key: string, d: Discovery): TreeRecord {
  return {
    key,
    bucket: d.bucket,
    prefix: d.prefix,
    kind: d.kind,
    objects: d.objects,
    unvisited: d.unvisited,
    listedAt: new Date().toISOString(),
  };
}

function nothingToRead(d: Discovery, skipped: number): string {
  const what = d.kind === 'run' ? 'a CI run' : 'a folder';
  return `${what} with ${d.objects.length} listed object${d.objects.length === 1 ? '' : 's'} (${skipped} skipped) but no upgrade data atlevel reads: no gather-extra dumps, build-log.txt, e2e intervals or release-images files`;
}

function storageHint(status: number | undefined, offline: boolean | undefined): string | undefined {
  if (offline) return undefined;
  if (status === 404) return 'check the bucket and path; the run may have expired';
  if (status === 401 || status === 403)
    return 'atlevel reads public buckets anonymously; this one is not public';
  if (status === undefined)
    return `check the network or --storage-endpoint; a second try reads what is already cached`;
  return undefined;
}

/**
 * Fetch the one object a URL names into the cache, for commands that read a single file (a
 * MachineConfig, a release info file). Errors are InputErrors naming the URL.
 */
export async function fetchFile(
  arg: string,
  opts: RemoteOptions = {},
): Promise<{ readonly path: string; readonly display: string; readonly name: string }> {
  const session = new RemoteSession(opts);
  try {
    const input = await session.open(arg);
    if (input.kind !== 'file') {
      throw new InputError(input.display, 'a folder, not one file', 'give the URL of the file itself');
    }
    return { path: input.path, display: input.display, name: input.name };
  } finally {
    session.close();
  }
}
