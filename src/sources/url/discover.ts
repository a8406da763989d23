/**
 * What a URL points at, found by listing (never by downloading): one object, a CI run, a folder
 * inside a run, or some other folder. A run is walked one folder level at a time (objects list with
 * delimiter `/`), descending only into the folders where ci-operator puts what atlevel reads
 * (docs/urls.md):
 *
 *   RUN/build-log.txt, started.json, finished.json, prowjob.json
 *   RUN/artifacts/release/artifacts/release-images-{initial,latest}   release payloads (ci-operator)
 *   RUN/artifacts/TARGET/STEP/build-log.txt                            step logs
 *   RUN/artifacts/TARGET/STEP/artifacts/*                              gather-extra's oc get dumps,
 *                                                                      must-gather tarballs
 *   RUN/artifacts/TARGET/STEP/artifacts/junit/*                        e2e intervals and timelines
 *
 * Everything else (pod logs, audit logs, metrics, must-gather contents) is never listed, let alone
 * fetched; the folders passed over are returned for --verbose.
 */
import { InputError, printable } from '../../model/index.js';
import type { ObjectInfo, StorageClient } from './gcs.js';
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
  // The folder's own listing is sent at once, beside the one that tells an object from a folder, so
  // that a run (the usual URL) costs one round trip less; for an object it is one listing wasted.
  const folderListing = client.list(bucket, root, '/');
  // Settled here: when the URL is an object (or nothing), this listing is never awaited.
  folderListing.catch(() => undefined);
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
  const first = await folderListing;
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
  }
  const walk = new Walk(client, bucket);
  walk.accept(root, first, place);
  await walk.drain();
  const finished =
    place !== undefined && walk.objects.some((o) => o.name === `${place.runRoot}finished.json`);
  return {
    bucket,
    prefix: root,
    kind: place === undefined ? 'folder' : 'run',
    objects: walk.objects,
    unvisited: walk.unvisited,
    finished,
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
function runPlace(root: string, listing: { items: ObjectInfo[]; prefixes: string[] }): RunPlace | undefined {
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
  accept(
    folder: string,
    listing: { items: ObjectInfo[]; prefixes: string[] },
    place: RunPlace | undefined,
    depth = 0,
  ): void {
    for (const o of listing.items) if (!o.name.endsWith('/')) this.objects.push(o);
    for (const sub of listing.prefixes) {
      const visit = place ? visitInRun(sub.slice(place.runRoot.length)) : depth + 1 < FOLDER_DEPTH;
      if (!visit) {
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
          .then((l) => this.accept(sub, l, place, depth + 1))
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
