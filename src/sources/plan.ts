/**
 * An input's plan: for any argument (a folder, a file, a tarball, a URL, `-`, an oc examples case, a
 * live cluster), what it is and what atlevel does with it, before anything is read. The argument is
 * opened by the same openers (open/) as the loader opens it, and its files are planned by the same
 * decisions (planning.ts): the layouts found, each file claimed and by which reader and kind, the
 * files serve serves as they are, the files ignored and why, and the runs it holds (runs.ts).
 * `atlevel inputs` prints it; ingest takes its runs from it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ClaimedFile,
  InputError,
  type InputKind,
  type InputPlan,
  printable,
  STDIN_NAME,
} from '../model/index.js';
import { listArchive, looksLikeArchive } from './archive.js';
import { DEFAULT_MAX_FILE_BYTES } from './bytes.js';
import { isArchiveName } from './decoders/index.js';
import { baseName } from './layouts/index.js';
import {
  type LiveCluster,
  liveContext,
  type OpenContext,
  openArgument,
  planLive,
  STDIN,
} from './open/index.js';
import {
  caseNotes,
  claimFacts,
  type IgnoredFile,
  ignoredFiles,
  type ListingPlan,
  NO_INPUTS_HINT,
  planListing,
  planNotes,
  readerForGivenFile,
  servedFiles,
  UNKNOWN_CASE_FILE,
} from './planning.js';
import {
  BESIDE_RUNS,
  besideRels,
  type FindRunsOptions,
  type FoundRun,
  folderInput,
  runsOfFolder,
} from './runs.js';
import type { LoadOptions } from './types.js';
import type { RemoteInput } from './url/index.js';
import { looksLikeUrl } from './url/location.js';
import { lazySession } from './url-client.js';

export interface PlanOptions {
  /** Only what the argument is and its runs (ingest), without listing every file of a folder. */
  readonly runsOnly?: boolean;
  /** Each folder a symbolic link leads to, before it is walked for runs (ingest: not the run store). */
  readonly onLinked?: FindRunsOptions['onLinked'];
  /** How a URL is fetched (into the cache) to plan what it holds; defaults apply when absent. */
  readonly remote?: LoadOptions['remote'];
}

type Parts = Omit<InputPlan, 'input' | 'is' | 'runs' | 'from'>;

const NONE: Parts = { layouts: [], claimed: [], served: [], ignored: [], notes: [] };

function claimed(plan: ListingPlan, path: (rel: string) => string = (rel) => rel): ClaimedFile[] {
  const out: ClaimedFile[] = plan.files.map((f) => ({
    path: path(f.rel),
    layout: plan.claimedBy.get(f.rel) ?? '',
    ...claimFacts(f),
  }));
  // Read beside the layouts (formats/sim-revisions.ts): a simulated run's recorded object revisions.
  if (plan.revisions !== undefined)
    out.push({ path: path(plan.revisions), layout: 'simulated run', reader: 'sim-revisions' });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function ignored(list: readonly IgnoredFile[]): InputPlan['ignored'] {
  return list.map((i) => ({ path: i.rel, why: i.why }));
}

/** `rel (why)` as listFolder words what it skips. */
function skippedEntry(text: string): { path: string; why: string } {
  const m = /^(.*) \(([^()]*)\)$/.exec(text);
  return m ? { path: m[1] ?? text, why: m[2] ?? 'skipped' } : { path: text, why: 'skipped' };
}

/** The plan of a listing (a folder's, an archive's, a URL's), by the loader's decisions. */
function listingParts(display: string, rels: readonly string[], served: boolean): Parts {
  const plan = planListing(rels);
  const asIs = served ? servedFiles(rels, plan) : [];
  return {
    layouts: plan.layouts,
    claimed: claimed(plan),
    served: asIs.map((s) => ({
      path: s.rel,
      as: s.as,
      ...(s.guest !== undefined ? { guest: s.guest } : {}),
    })),
    ignored: ignored(ignoredFiles(plan, asIs)),
    notes: planNotes(display, plan),
  };
}

function oneFile(display: string, name: string): Parts {
  const spec =
    readerForGivenFile(name) ?? (display === STDIN_NAME ? { reader: 'oc-get', strict: true } : undefined);
  if (!spec) throw new InputError(display, 'not an atlevel input', NO_INPUTS_HINT);
  return { ...NONE, claimed: [{ path: display, layout: 'single file', ...claimFacts({ rel: name, spec }) }] };
}

/** The plan of one argument: a path, `-`, a URL, or a live cluster. */
export async function planInput(arg: string | LiveCluster, opts: PlanOptions = {}): Promise<InputPlan> {
  if (typeof arg !== 'string') return openArgument(arg, liveOnly);
  if (arg === '') throw new InputError('""', 'an empty input path', 'name a file, folder, tarball or URL');
  const stdin = arg === STDIN;
  const source = stdin ? STDIN_NAME : arg;
  const of = (is: InputKind, parts: Parts, runs: readonly FoundRun[]): InputPlan => ({
    input: arg,
    is,
    ...(stdin ? { from: 'stdin' as const } : {}),
    ...parts,
    runs,
  });
  // A URL is one run whatever it holds: ingest fetches it when it reads it, not to count it.
  if (opts.runsOnly && looksLikeUrl(arg)) return of('URL', NONE, [{ source: arg, kind: 'url' }]);
  if (opts.runsOnly && stdin)
    throw new InputError(
      STDIN_NAME,
      'standard input holds no runs to store',
      'give run folders, tarballs or CI URLs',
    );
  let tmp: string | undefined;
  const session = lazySession(opts.remote, DEFAULT_MAX_FILE_BYTES);
  const context: OpenContext<InputPlan> = {
    folder: async (dir) => {
      const runs = await runsOfFolder(dir, opts.onLinked ? { onLinked: opts.onLinked } : {});
      // A file beside runs belongs to no run: ingest skips it, and the loader does not read it.
      const ignoredBeside = (beside: ReadonlySet<string>) =>
        [...beside].sort().map((path) => ({ path, why: BESIDE_RUNS }));
      if (opts.runsOnly) {
        const ignored = ignoredBeside(besideRels(dir, runs));
        return of('folder', { ...NONE, ignored, notes: runs.notes }, runs.runs);
      }
      // The claims are the loader's, whose walk stays inside the folder (runs.ts folderInput).
      const { listing, beside } = await folderInput(dir);
      const besideIgnored = ignoredBeside(beside);
      const parts = listingParts(
        dir,
        listing.files.map((f) => f.rel).filter((rel) => !beside.has(rel)),
        true,
      );
      const skipped = listing.skipped.map(skippedEntry);
      return of(
        'folder',
        {
          ...parts,
          ignored: [...parts.ignored, ...besideIgnored, ...skipped],
          notes: [
            ...parts.notes,
            ...skipped.map((s) => `${dir}: skipped ${printable(s.path)} (${s.why})`),
            ...runs.notes,
          ],
        },
        runs.runs,
      );
    },
    archive: async (file, display) => {
      const run: FoundRun = { source: stdin ? STDIN : display, kind: 'archive' };
      if (opts.runsOnly) return of('archive', NONE, [run]);
      const { files, warnings } = await listArchive(file, display);
      const parts = listingParts(display, [...new Set(files.map((f) => f.rel))], false);
      const tar = warnings
        .slice(0, 3)
        .map((w) => `${display}: ${w.startsWith('ignored') ? w : `tar warning ${w}`}`);
      return of('archive', { ...parts, notes: [...parts.notes, ...tar] }, [run]);
    },
    file: async (_file, display) => {
      const run: FoundRun = { source: stdin ? STDIN : display, kind: 'file' };
      return of('file', opts.runsOnly ? NONE : oneFile(display, baseName(display)), [run]);
    },
    files: async (display, files) => {
      const run: FoundRun = { source: display, kind: 'case' };
      const rels = files.map((f) => f.rel);
      const plan = planListing(rels);
      if (!plan.layouts.includes('oc examples case'))
        throw new InputError(display, 'not an oc examples case', NO_INPUTS_HINT);
      if (opts.runsOnly) return of('oc examples case', NONE, [run]);
      const read = new Set(plan.files.map((f) => f.rel));
      return of(
        'oc examples case',
        {
          layouts: plan.layouts,
          claimed: claimed(plan),
          served: [],
          ignored: rels.filter((rel) => !read.has(rel)).map((path) => ({ path, why: UNKNOWN_CASE_FILE })),
          notes: caseNotes(display, rels, plan),
        },
        [run],
      );
    },
    remote: async (url) => (await session.open()).open(url),
    remoteInput: async (input: RemoteInput) => {
      const run: FoundRun = { source: arg, kind: 'url' };
      if (input.kind === 'file') {
        if (isArchiveName(input.name)) {
          const { files } = await listArchive(input.path, input.display);
          const parts = listingParts(input.display, [...new Set(files.map((f) => f.rel))], false);
          return of('URL', { ...parts, notes: [...input.notes, ...parts.notes] }, [run]);
        }
        const parts = oneFile(input.display, input.name);
        return of('URL', { ...parts, notes: input.notes }, [run]);
      }
      const parts = listingParts(
        input.display,
        input.files.map((f) => f.rel),
        false,
      );
      // A run's must-gather tarballs (--must-gather), each read as an input of its own.
      const archives: ClaimedFile[] = input.archives.map((a) => ({
        path: a.display,
        layout: 'must-gather tarball',
        reader: 'archive',
      }));
      return of(
        'URL',
        { ...parts, claimed: [...parts.claimed, ...archives], notes: [...input.notes, ...parts.notes] },
        [run],
      );
    },
    looksLikeArchive,
    tmpdir: async () => {
      tmp ??= await mkdtemp(join(tmpdir(), 'atlevel-'));
      return tmp;
    },
    live: async () => {
      throw new InputError(source, 'not a live cluster');
    },
  };
  try {
    return await openArgument(arg, context);
  } finally {
    session.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}

/** A live cluster's plan: only the live opener is expected to claim it. */
const liveOnly = liveContext<InputPlan>(async (cluster) => {
  const live = await planLive(cluster);
  return {
    input: live.server,
    is: 'live cluster',
    ...NONE,
    runs: [],
    notes: [`${live.server}: read live (context ${live.context}); only get, list and watch are sent`],
    live,
  };
});
