/**
 * What a URL points at, found by listing (never by downloading): one object, a CI run, a folder
 * inside a run, or some other folder. A run is listed recursively (objects list with its prefix and
 * no delimiter, 1000 objects a page), and of what it holds only the objects in the folders where
 * ci-operator puts what atlevel reads are kept (docs/urls.md):
 *
 *   RUN/build-log.txt, started.json, finished.json, prowjob.json
 *   RUN/artifacts/release/artifacts/release-images-{initial,latest}   release payloads (ci-operator)
 *   RUN/artifacts/TARGET/STEP/build-log.txt                            step logs
 *   RUN/artifacts/TARGET/STEP/artifacts/*                              gather-extra's oc get dumps,
 *                                                                      must-gather tarballs
 *   RUN/artifacts/TARGET/STEP/artifacts/junit/*                        e2e intervals and timelines
 *
 * Everything else (pod logs, audit logs, metrics, must-gather contents) is listed by name only and
 * never fetched; the folders passed over are returned for --verbose. A folder that is not a run is
 * walked one level at a time (delimiter `/`), a few levels deep.
 */
import { InputError, printable } from '../../model/index.js';
import type { Listing, ObjectInfo, StorageClient } from './gcs.js';
import { gsUri } from './location.js';

export interface Discovery {
  readonly bucket: string;
  /** The folder walked ('' or ending in `/`), or the object's name. */
  readonly prefix: string;
  readonly kind: 'run' | 'folder' | 'object';
  /** Every object seen in the folders visited. */
  readonly objects: ObjectInfo[];
  /** Sub-folders not visited (full prefixes). */
  readonly unvisited: string[];
  /** A run whose finished.json exists: its listing will not change, so it may be cached. */
  readonly finished: boolean;
}

/** Markers of a Prow job run's root folder (Prow's started.json/finished.json, ci-operator's log). */
const RUN_MARKERS = new Set(['started.json', 'finished.json', 'build-log.txt', 'prowjob.json']);
/** Folders visited when a URL is some other folder: this deep, and at most this many listings. */
const FOLDER_DEPTH = 4;
const MAX_LISTINGS = 400;

/**
 * List what `path` names. Throws InputError (exit 2) with one line saying what was found when the
 * URL names nothing, or a folder of runs rather than one run.
 */
export async function discover(
  client: StorageClient,
  bucket: string,
  path: string,
  given: string,
): Promise<Discovery> {
  const trimmed = path.replace(/\/+$/, '');
  const root = trimmed === '' ? '' : `${trimmed}/`;
  // The first page of the folder's recursive listing (no delimiter) is sent at once, beside the one
  // that tells an object from a folder: for a run (the usual URL) it is most often the whole
  // listing, so that finding what to fetch costs one round trip; for an object it is one wasted.
  const firstPage = client.listPage(bucket, root);
  // Settled here: when the URL is an object (or nothing), this listing is never awaited.
  firstPage.catch(() => undefined);
  if (trimmed !== '' && !path.endsWith('/')) {
    // One listing tells an object from a folder: the object `trimmed` and the prefix `trimmed/`.
    const top = await client.list(bucket, trimmed, '/');
    const exact = top.items.find((o) => o.name === trimmed);
    const folder = top.prefixes.includes(`${trimmed}/`);
    if (exact && !folder) {
      return { bucket, prefix: trimmed, kind: 'object', objects: [exact], unvisited: [], finished: true };
    }
    if (!folder) throw nothingThere(given, bucket, trimmed, top.items, top.prefixes);
  }
  const page = await firstPage;
  if (page.items.length === 0) {
    throw new InputError(given, `nothing at ${gsUri(bucket, root)}: no objects or folders`);
  }
  const seen = runPlace(root, topLevel(root, page));
  if (seen !== undefined) {
    // A run, or a folder inside one: the rest of its recursive listing, page by page, keeping what
    // the folders a walk would enter hold (visitInRun), so that nothing else can be claimed.
    const all = await client.list(bucket, root, undefined, page);
    return { bucket, prefix: root, kind: 'run', ...inRun(root, seen, all.items) };
  }
  // Not recognisably a run from the first page: walk it folder by folder, as a folder of runs (an
  // error) or some other folder, starting from its first level.
  const first = await client.list(bucket, root, '/');
  if (first.items.length === 0 && first.prefixes.length === 0) {
    throw new InputError(given, `nothing at ${gsUri(bucket, root)}: no objects or folders`);
  }
  const place = runPlace(root, first);
  if (place === undefined) {
    const runs = first.prefixes.map((p) => p.slice(root.length, -1)).filter((s) => /^\d{6,}$/.test(s));
    if (runs.length > 0 && runs.length === first.prefixes.length && first.items.length <= 2) {
      const newest = runs.sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).at(-1);
      throw new InputError(
        given,
        `a job's folder of ${runs.length} run${runs.length === 1 ? '' : 's'}, not one run`,
        `add a run's ID to the URL, e.g. …/${newest}`,
      );
    }
  } else {
    // A run whose first page did not show it (over 1000 names sort before its artifacts/).
    const all = await client.list(bucket, root, undefined, page);
    return { bucket, prefix: root, kind: 'run', ...inRun(root, place, all.items) };
  }
  const walk = new Walk(client, bucket);
  walk.accept(root, first);
  await walk.drain();
  return {
    bucket,
    prefix: root,
    kind: 'folder',
    objects: walk.objects,
    unvisited: walk.unvisited,
    finished: false,
  };
}

/**
 * The first level of a recursive listing's page, as a listing with the delimiter `/` would give it
 * (as far as the page goes): the objects directly in `root` and the sub-folders seen.
 */
function topLevel(root: string, page: Listing): Listing {
  const items: ObjectInfo[] = [];
  const prefixes = new Set<string>();
  for (const o of page.items) {
    const cut = o.name.indexOf('/', root.length);
    if (cut < 0) items.push(o);
    else prefixes.add(o.name.slice(0, cut + 1));
  }
  return { items, prefixes: [...prefixes] };
}

/**
 * What a walk of the run from `root`, folder by folder, would have seen, from the recursive listing
 * of `root`: the objects whose every folder below `root` is one visitInRun enters, and the first
 * folder not entered on each other path (for --verbose).
 */
function inRun(
  root: string,
  place: RunPlace,
  all: readonly ObjectInfo[],
): Pick<Discovery, 'objects' | 'unvisited' | 'finished'> {
  const objects: ObjectInfo[] = [];
  const unvisited = new Set<string>();
  const entered = new Map<string, boolean>();
  const enters = (folder: string): boolean => {
    let yes = entered.get(folder);
    if (yes === undefined) {
      yes = visitInRun(folder.slice(place.runRoot.length));
      entered.set(folder, yes);
    }
    return yes;
  };
  for (const o of all) {
    let kept = true;
    // Each folder on the way down, shallowest first; a placeholder object (`dir/`) is a folder.
    for (let cut = o.name.indexOf('/', root.length); cut >= 0; cut = o.name.indexOf('/', cut + 1)) {
      const folder = o.name.slice(0, cut + 1);
      if (!enters(folder)) {
        unvisited.add(folder);
        kept = false;
        break;
      }
    }
    if (kept && !o.name.endsWith('/')) objects.push(o);
  }
  objects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    objects,
    unvisited: [...unvisited].sort(),
    finished: objects.some((o) => o.name === `${place.runRoot}finished.json`),
  };
}

interface RunPlace {
  /** The run's root folder ('' or ending in `/`). */
  readonly runRoot: string;
}

/**
 * Whether `root` is a run or inside one, and where the run's root is. A URL below a run has an
 * `artifacts` segment; the run root is the folder holding the first one.
 */
function runPlace(root: string, listing: Listing): RunPlace | undefined {
  const isRunRoot =
    listing.items.some((o) => RUN_MARKERS.has(o.name.slice(root.length))) ||
    listing.prefixes.includes(`${root}artifacts/`);
  if (isRunRoot) return { runRoot: root };
  const segments = root.split('/');
  const at = segments.indexOf('artifacts');
  if (at > 0) return { runRoot: `${segments.slice(0, at).join('/')}/` };
  return undefined;
}

/** Whether a folder below a run's root holds (or leads to) what atlevel reads. `rel` ends in `/`. */
export function visitInRun(rel: string): boolean {
  const s = rel.replace(/\/$/, '').split('/');
  if (s[0] !== 'artifacts') return false;
  switch (s.length) {
    case 1: // artifacts/
    case 2: // artifacts/TARGET/ (and artifacts/release/)
    case 3: // artifacts/TARGET/STEP/
      return true;
    case 4: // artifacts/TARGET/STEP/artifacts/
      return s[3] === 'artifacts';
    case 5: // artifacts/TARGET/STEP/artifacts/junit/
      return s[3] === 'artifacts' && /^junit/.test(s[4] ?? '');
    default:
      return false;
  }
}

class Walk {
  readonly objects: ObjectInfo[] = [];
  readonly unvisited: string[] = [];
  readonly #pending: Promise<void>[] = [];
  #listings = 1;
  #error: unknown;

  constructor(
    readonly client: StorageClient,
    readonly bucket: string,
  ) {}

  /** Take one folder's listing; start listing the sub-folders worth visiting. */
  accept(folder: string, listing: Listing, depth = 0): void {
    for (const o of listing.items) if (!o.name.endsWith('/')) this.objects.push(o);
    for (const sub of listing.prefixes) {
      if (depth + 1 >= FOLDER_DEPTH) {
        this.unvisited.push(sub);
        continue;
      }
      this.#listings += 1;
      if (this.#listings > MAX_LISTINGS) {
        throw new InputError(
          gsUri(this.bucket, folder),
          `more than ${MAX_LISTINGS} folders below it; give the URL of a run or of a step's folder`,
        );
      }
      // Caught at once (and rethrown by drain), so a failure while another batch is awaited is never
      // an unhandled rejection.
      this.#pending.push(
        this.client
          .list(this.bucket, sub, '/')
          .then((l) => this.accept(sub, l, depth + 1))
          .catch((err: unknown) => {
            this.#error ??= err;
          }),
      );
    }
  }

  async drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0);
      await Promise.all(batch);
      if (this.#error !== undefined) throw this.#error;
    }
    this.objects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.unvisited.sort();
  }
}

function nothingThere(
  given: string,
  bucket: string,
  path: string,
  items: readonly ObjectInfo[],
  prefixes: readonly string[],
): InputError {
  const near = [...items.map((o) => o.name), ...prefixes].filter((n) => n !== path).slice(0, 3);
  return new InputError(
    given,
    `no object or folder ${gsUri(bucket, path)}`,
    near.length > 0 ? `names starting the same: ${near.map((n) => printable(n, 120)).join(', ')}` : undefined,
  );
}
