/**
 * The runs a folder holds, for the input's plan (plan.ts; `atlevel ingest` and `atlevel inputs` take
 * them from there), answered with the knowledge analyze reads inputs with: the decoders say what is an
 * archive (`.tar.xz` as much as `.tar.gz`), the layouts say which names make a folder one input and
 * which files they would read. A folder is one run when it is an input's root (but two whole
 * must-gathers side by side are two runs), or when its only runs are a must-gather's image folders
 * (one must-gather, named by its own folder however many images it was taken with); else a folder of runs
 * (its subfolders, symbolic links to folders included, and its archives), walked a few levels down;
 * what the walk cannot follow below the folder (a link back above it, to `/`; a dangling link or a
 * link loop; a folder it may not list) is named in a note and skipped, never the end of the listing;
 * a file beside runs that a layout would read belongs to no run: it is ignored, with a note naming
 * it, by ingest, `inputs` and the loader alike (folderInput), and so is a link loop beside runs. And
 * every file of one run, for naming it by its content, the same whether the run is a folder or an
 * archive of that folder.
 */
import type { Dirent } from 'node:fs';
import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { InputError, type PlannedRun, printable } from '../model/index.js';
import { readArchive } from './archive.js';
import { isArchiveName } from './decoders/index.js';
import { fsProblem, type Listing, listFolder } from './folder.js';
import { readerByName } from './layouts/index.js';
import { planListing } from './planning.js';

export type FoundRun = PlannedRun;

export interface RunsFound {
  readonly runs: FoundRun[];
  /** Files skipped beside runs, symbolic links that lead nowhere, folders that hold no run. */
  readonly notes: string[];
  /** The files beside runs that a layout would read, which belong to no run, below the folder walked. */
  readonly beside: string[];
  /** The symbolic links skipped because they loop (a link loop, a link back to a folder above it). */
  readonly loops: string[];
}

/** Why a file beside runs is ignored (`inputs`' reason; the note adds `: skipped`). */
export const BESIDE_RUNS = 'a file beside runs, not a run';

export interface FindRunsOptions {
  /** Each folder a symbolic link leads to, before it is walked (ingest: not the run store). */
  readonly onLinked?: (real: string) => void;
  /** Follow a symbolic link only to a folder inside the one walked, as the loader lists a folder (folder.ts). */
  readonly within?: string;
}

/** The runs found only because their files are `oc get` files (no input root, nothing below them), reached through no link. */
const loose = new WeakSet<FoundRun>();

/** How deep a folder of runs is walked: enough for logs/JOB/BUILD_ID under any prefix. */
const MAX_DEPTH = 8;

/** Files Prow and the simulator put at a run's root (docs/runs.md), besides what the CI layout reads. */
const RUN_FILES = new Set([
  'prowjob.json',
  'finished.json',
  'started.json',
  'atlevel-simulation.json',
  'atlevel-revisions.jsonl',
]);
/** Folders that sit at an input's root: CI's `artifacts/`, gather-extra, a must-gather's resources. */
const RUN_FOLDERS = new Set(['artifacts', 'gather-extra', 'cluster-scoped-resources', 'namespaces']);
/** The folders a must-gather's image folder (`<image-name>/`, what the must-gather layout reads) holds. */
const GATHER_FOLDERS = new Set(['cluster-scoped-resources', 'namespaces']);

/** The runs that are a must-gather's image folder (a folder holding cluster-scoped-resources/ or namespaces/). */
const imageFolders = new WeakSet<FoundRun>();

/**
 * A must-gather with one image folder, named by its own folder: that image folder's name. Such a
 * must-gather was the run its image folder is, before, and a store made then holds it under the
 * image folder's content hash (ingest's identity.ts keeps that id: the store does not count it twice).
 */
const formerImage = new WeakMap<FoundRun, string>();

/** The one image folder (its name) of a must-gather run that used to be named by it, if it is one. */
export function formerImageFolder(run: FoundRun): string | undefined {
  return formerImage.get(run);
}

interface Entry {
  readonly name: string;
  readonly path: string;
  readonly dir: boolean;
  readonly file: boolean;
  readonly linked: boolean;
}

/**
 * Whether a folder with these entries is the root of one input: what the CI layout reads by name
 * (build-log.txt, gather-extra Lists, interval files), Prow's and the simulator's files, CI's and a
 * must-gather's folders, or a must-gather's own folder.
 */
function isInputRoot(entries: readonly Entry[]): boolean {
  return entries.some((e) =>
    e.dir
      ? RUN_FOLDERS.has(e.name) || e.name.startsWith('must-gather')
      : e.file && (RUN_FILES.has(e.name) || readerByName(e.name) !== undefined),
  );
}

const isImageFolder = (entries: readonly Entry[]): boolean =>
  entries.some((e) => e.dir && GATHER_FOLDERS.has(e.name));

/** The entries of a folder, links to folders included, or none when it cannot be listed (a probe: no note). */
async function peek(dir: string): Promise<Entry[]> {
  const raw = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  const out: Entry[] = [];
  for (const d of raw) {
    const path = join(dir, d.name);
    const info = d.isSymbolicLink() ? await stat(path).catch(() => undefined) : d;
    if (info)
      out.push({
        name: d.name,
        path,
        dir: info.isDirectory(),
        file: info.isFile(),
        linked: d.isSymbolicLink(),
      });
  }
  return out;
}

/** Whether the walk follows this folder entry (a link only to inside `within`, when given). */
async function isFollowed(e: Entry, within: string | undefined): Promise<boolean> {
  if (!e.linked || within === undefined) return true;
  const target = await realpath(e.path).catch(() => undefined);
  return target !== undefined && isInside(target, within);
}

/**
 * Whether a folder is a whole must-gather as `oc adm must-gather` leaves it (`must-gather.local.NNN/`):
 * not an input's root itself, and holding an image folder (`<image-name>/cluster-scoped-resources/`).
 * A folder holding two of them is a folder of two runs, not one must-gather; a must-gather taken with
 * several images holds several image folders, never two whole must-gathers.
 */
async function isWholeMustGather(e: Entry, within: string | undefined): Promise<boolean> {
  if (!e.dir || !(await isFollowed(e, within))) return false;
  const entries = await peek(e.path);
  if (isInputRoot(entries.filter((c) => !c.name.startsWith('must-gather')))) return false;
  for (const c of entries) if (c.dir && !c.linked && isImageFolder(await peek(c.path))) return true;
  return false;
}

/** The files among `names` that some layout would read if they were one input. */
function readable(names: readonly string[]): Set<string> {
  return new Set(planListing(names).files.map((f) => f.rel));
}

/**
 * The entries of a folder, or undefined when it cannot be listed: the folder walked is refused then,
 * a folder below it is named in a note and skipped, so that one unreadable corner (a link out of the
 * folder into /proc, a folder a run's owner closed) does not hide every other run.
 */
async function entriesOf(dir: string, found: RunsFound, top: boolean): Promise<Entry[] | undefined> {
  const notes = found.notes;
  let raw: Dirent[];
  try {
    raw = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (top) throw new InputError(dir, fsProblem(err));
    notes.push(`${dir}: ${fsProblem(err)}: skipped`);
    return undefined;
  }
  const out: Entry[] = [];
  for (const d of raw.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, d.name);
    if (d.isSymbolicLink()) {
      const info = await stat(path).catch((err: unknown) => err as NodeJS.ErrnoException);
      if (info instanceof Error) {
        const why = info.code === 'ENOENT' ? 'dangling symbolic link' : fsProblem(info);
        notes.push(`${path}: ${why}: skipped`);
        if (info.code === 'ELOOP') found.loops.push(path);
        continue;
      }
      out.push({ name: d.name, path, dir: info.isDirectory(), file: info.isFile(), linked: true });
    } else out.push({ name: d.name, path, dir: d.isDirectory(), file: d.isFile(), linked: false });
  }
  return out;
}

async function walk(
  dir: string,
  depth: number,
  ancestors: Set<string>,
  found: RunsFound,
  opts: FindRunsOptions,
  real?: string,
  viaLink = false,
): Promise<void> {
  const entries = await entriesOf(dir, found, depth === 0);
  if (entries === undefined) return;
  const folder = (): FoundRun => ({ source: dir, kind: 'folder', ...(real ? { real } : {}) });
  if (isInputRoot(entries) && !(await holdsMustGathers(entries, opts))) {
    const run = folder();
    // An image folder that is itself a link is no part of the folder holding the link (folder.ts
    // follows no link out of a folder); one inside a must-gather reached through a link is.
    if (isImageFolder(entries) && real === undefined) imageFolders.add(run);
    found.runs.push(run);
    return;
  }
  const before = found.runs.length;
  const files = entries.filter((e) => e.file);
  for (const e of entries) {
    if (e.file && isArchiveName(e.name)) found.runs.push({ source: e.path, kind: 'archive' });
    if (!e.dir || depth >= MAX_DEPTH) continue;
    const target = await realpath(e.path).catch((err: unknown) => err as Error);
    if (target instanceof Error) {
      found.notes.push(`${e.path}: ${fsProblem(target)}: skipped`);
      continue;
    }
    if (e.linked && opts.within !== undefined && !isInside(target, opts.within)) continue;
    // A link to a folder on the way down, or to one holding it (`/`, a parent), would walk this
    // folder again: a loop, however deep the walk is allowed to go.
    if ([...ancestors].some((a) => isInside(a, target))) {
      found.notes.push(`${e.path}: symbolic link back to a folder above it: skipped`);
      found.loops.push(e.path);
      continue;
    }
    if (e.linked) opts.onLinked?.(target);
    ancestors.add(target);
    await walk(e.path, depth + 1, ancestors, found, opts, e.linked ? target : undefined, viaLink || e.linked);
    ancestors.delete(target);
  }
  const others = files.filter((e) => !isArchiveName(e.name));
  const read = readable(others.map((e) => e.name));
  const below = found.runs.slice(before);
  // Image folders here, one or several, and no other run: one must-gather (its `must-gather.local.NNN/`,
  // or the folder the user named), read as one input as analyze reads it, and named by this folder
  // however many images it was taken with. Two extracted image folders of two must-gathers look the
  // same: if in doubt it is one run (analyze then says if it holds two clusters).
  if (below.length >= 1 && below.every((r) => imageFolders.has(r) && dirname(r.source) === dir)) {
    const [only, second] = below;
    found.runs.splice(before);
    const run = folder();
    // One image folder used to be the run itself: ingest looks for the id it was stored under then.
    if (only && !second) formerImage.set(run, basename(only.source));
    found.runs.push(run);
    return;
  }
  if (below.length === 0 || (read.size > 0 && below.every((r) => loose.has(r)))) {
    // No run below: the folder is one input if the layouts read any of its files (a folder of
    // `oc get` files), else it holds nothing to ingest. Only folders of `oc get` files below, and
    // such files here too: one folder of `oc get` files at any depth, as the loader reads it.
    found.runs.splice(before);
    if (read.size > 0) {
      const run = folder();
      // Reached through a symbolic link, its files may be none of a listing's above it (folder.ts
      // follows no link out of a folder): it stays a run of its own.
      if (!viaLink) loose.add(run);
      found.runs.push(run);
    }
    return;
  }
  // Runs below: a file beside them is not one of them. Those a layout would read are named, so a
  // stray snapshot is not silently lost; the rest (READMEs, timestamps) are what analyze ignores too.
  for (const e of others)
    if (read.has(e.name)) {
      found.beside.push(e.path);
      found.notes.push(`${e.path}: ${BESIDE_RUNS}: skipped`);
    }
}

/**
 * Whether a folder named an input's root only by its `must-gather*` folders holds two whole
 * must-gathers or more (two `must-gather.local.NNN/` side by side), or its one `must-gather*` folder
 * does (`case/must-gather/must-gather.local.NNN/`): a folder of runs then, as that folder is.
 */
async function holdsMustGathers(
  entries: readonly Entry[],
  opts: FindRunsOptions,
  nested = false,
): Promise<boolean> {
  const named = entries.filter((e) => e.dir && e.name.startsWith('must-gather'));
  if (named.length === 0 || isInputRoot(entries.filter((e) => !named.includes(e)))) return false;
  if (named.length === 1) {
    const [only] = named;
    if (nested || !only || !(await isFollowed(only, opts.within))) return false;
    return holdsMustGathers(await peek(only.path), opts, true);
  }
  let whole = 0;
  for (const e of named) if (await isWholeMustGather(e, opts.within)) whole++;
  return whole >= 2;
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root === sep ? sep : `${root}${sep}`);
}

/**
 * Two clusters met while reading a folder given as one input: when their files are in two of the
 * runs it holds, the problem is that the folder is a folder of runs (as `inputs` lists them), and
 * the error says so, in one line naming the folder; else undefined (the files' own words stand).
 */
export async function folderOfRunsError(
  dir: string,
  clusters: { readonly file: string; readonly id: string }[],
): Promise<InputError | undefined> {
  const root = await realpath(dir).catch(() => undefined);
  const info = root === undefined ? undefined : await stat(root).catch(() => undefined);
  if (root === undefined || !info?.isDirectory()) return undefined;
  const found = await runsOfFolder(dir, { within: root }).catch(() => undefined);
  if (!found || found.runs.length < 2) return undefined;
  const runOf = (file: string) => found.runs.find((r) => r.kind === 'folder' && isInside(file, r.source));
  const [a, b] = clusters.map((c) => ({ ...c, run: runOf(c.file) }));
  if (!a?.run || !b?.run || a.run === b.run) return undefined;
  const name = (r: FoundRun) => printable(relative(dir, r.source).split(sep).join('/'), 80);
  return new InputError(
    dir,
    `a folder of ${found.runs.length} runs, from two clusters (${name(a.run)}: clusterID ${printable(a.id, 80)}; ${name(b.run)}: clusterID ${printable(b.id, 80)})`,
    `name one run: atlevel inputs ${printable(dir)} lists them, atlevel ingest takes each`,
  );
}

/** The runs a folder holds, and what was skipped on the way. */
export async function runsOfFolder(arg: string, opts: FindRunsOptions = {}): Promise<RunsFound> {
  const found: RunsFound = { runs: [], notes: [], beside: [], loops: [] };
  const root = await realpath(arg).catch((err: unknown) => {
    throw new InputError(arg, fsProblem(err));
  });
  await walk(arg, 0, new Set([root]), found, opts);
  if (found.runs.length === 0) found.notes.push(`${arg}: holds no run (no file a layout reads)`);
  return found;
}

/** The files beside runs found in `dir`, relative to it and `/`-separated as a listing names them. */
export function besideRels(dir: string, found: RunsFound): Set<string> {
  return new Set(found.beside.map((path) => relative(dir, path).split(sep).join('/')));
}

/** A folder as the loader reads it: its listing, and the files beside its runs, which it leaves out. */
interface FolderInput {
  readonly listing: Listing;
  /** Relative to the folder, as the listing names them. */
  readonly beside: ReadonlySet<string>;
  /** The note naming each, and each link loop beside runs the listing skips, as ingest words them. */
  readonly notes: readonly string[];
}

/**
 * The link loops a folder's listing skips: those beside its runs, in a folder that is no run's (ingest
 * skips them the same way). A loop inside a run's own files stays the listing's error.
 */
function loopsBesideRuns(found: RunsFound): string[] {
  return found.loops.filter((loop) => !found.runs.some((r) => isInside(loop, r.source)));
}

/**
 * A folder read as one input (the loader, and the plan's claims) leaves out the files beside its
 * runs, which belong to no run. Its walk stays inside the folder, as its listing does (folder.ts):
 * runs behind a link out of it are not its own. What the walk cannot read (a name that is not UTF-8,
 * a folder it may not list) the listing skips or refuses in its own words: then no file is taken for
 * one beside runs. A run folder (one readdir: its top says it is one) has none.
 */
export async function folderInput(dir: string): Promise<FolderInput> {
  const root = await realpath(dir).catch(() => undefined);
  const found =
    root &&
    (await runsOfFolder(dir, { within: root }).catch((err: unknown) => {
      if (err instanceof InputError) return undefined;
      throw err;
    }));
  const loops = found ? loopsBesideRuns(found) : [];
  const listing = await listFolder(dir, new Set(loops));
  if (!found || (found.beside.length === 0 && loops.length === 0))
    return { listing, beside: new Set(), notes: [] };
  return {
    listing,
    beside: besideRels(dir, found),
    notes: found.notes.filter(
      (n) => n.endsWith(`: ${BESIDE_RUNS}: skipped`) || loops.some((l) => n.startsWith(`${l}: `)),
    ),
  };
}

/** The loader's read of a folder: without the files beside its runs, and with the notes naming them. */
export async function withoutFilesBesideRuns<T extends { readonly notes: string[] }>(
  dir: string,
  read: (listing: Listing) => Promise<T>,
): Promise<T> {
  const { listing, beside, notes } = await folderInput(dir);
  if (notes.length === 0) return read(listing);
  const result = await read({ ...listing, files: listing.files.filter((f) => !beside.has(f.rel)) });
  result.notes.push(...notes);
  return result;
}

/** A file of a run: its path inside the run and its bytes. */
export type RunFileVisitor = (rel: string, size: number, bytes: AsyncIterable<Buffer>) => Promise<void>;

/**
 * Every regular file of a run, each once, in no set order: a folder's (as analyze lists it), an
 * archive's entries, or the one file. Paths are relative to the run, `/`-separated.
 */
export async function eachRunFile(run: FoundRun, visit: RunFileVisitor): Promise<void> {
  if (run.kind === 'url') throw new Error('eachRunFile: a URL is not read here');
  if (run.kind === 'case') {
    // The case's files beside its prefix, named within the run as the layouts see them.
    const prefix = `${basename(run.source)}-`;
    for (const name of (await readdir(dirname(run.source))).filter((n) => n.startsWith(prefix)).sort()) {
      const path = join(dirname(run.source), name);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile()) await visit(name, info.size, createReadStream(path));
    }
    return;
  }
  if (run.kind === 'archive') {
    await readArchive(run.source, run.source, () => true, visit, Number.MAX_SAFE_INTEGER);
    return;
  }
  if (run.kind === 'file') {
    const size = (await stat(run.source)).size;
    await visit(run.source.slice(run.source.lastIndexOf('/') + 1), size, createReadStream(run.source));
    return;
  }
  const { files } = await listFolder(run.source);
  for (const f of files) await visit(f.rel, f.size, createReadStream(f.abs));
}
