/**
 * loadHistoryParts: detect what each path is (folder, archive, single file, oc examples prefix),
 * read every file that matters once, and put the results together in a stable order (so a folder
 * and a tar of it give the same parts).
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientLimits } from '../live/index.js';
import type {
  ClusterVersion,
  GuestParts,
  HistoryParts,
  InputFile,
  Interval,
  McoImage,
  ObjectRevision,
  ObjectSnapshot,
  ReleasePayload,
  TestLogEntry,
} from '../model/index.js';
import {
  Budget,
  dropEchoes,
  EchoIndex,
  InputError,
  Interner,
  type Millis,
  parseTime,
  printable,
  STDIN_NAME,
} from '../model/index.js';
import { append } from './append.js';
import { listArchive, looksLikeArchive, readArchive } from './archive.js';
import { DEFAULT_MAX_FILE_BYTES, MAX_PARSED_BYTES } from './bytes.js';
import { ciClockSkew, onClusterClock, testLogOnClusterClock } from './clock-skew.js';
import { isArchiveName } from './decoders/index.js';
import { EchoFilter } from './echoes.js';
import { fsProblem, type Listing, listFolder } from './folder.js';
import { loadSimRevisions } from './formats/index.js';
import { type GivenReleases, placeReleases, readGivenReleases } from './given-releases.js';
import { internedIdentity } from './intervals-json.js';
import {
  baseName,
  OC_EXAMPLE_SUFFIXES,
  type Plan,
  type PlannedFile,
  type ReaderSpec,
} from './layouts/index.js';
import {
  type LiveCluster,
  liveContext,
  type OpenContext,
  openArgument,
  readLive,
  STDIN,
} from './open/index.js';
import { caseNotes, NO_INPUTS_HINT, planListing, planNotes, readerForGivenFile } from './planning.js';
import { readMachineConfigList } from './quick-configs.js';
import { contribution, type FileResult, intervalCount, type ReadLimits, readInput } from './readers.js';
import { folderOfRunsError, withoutFilesBesideRuns } from './runs.js';
import { ObjectStore, TwoClustersError } from './store.js';
import type { LoadOptions } from './types.js';
import type { RemoteInput, RemoteSession } from './url/index.js';
import { looksLikeUrl } from './url/location.js';
import { lazySession } from './url-client.js';
import { type Resolved, resolveYears, runStartFromName, type YearHint } from './year.js';

/** Files are read in pieces of this size (the default 64 KiB makes many more small buffers). */
const READ_CHUNK_BYTES = 1024 * 1024;

interface PathResult {
  readonly results: FileResult[];
  readonly notes: string[];
  readonly echoes?: EchoFilter;
  /** A simulated run's recorded object revisions (formats/sim-revisions.ts), with the file read. */
  readonly revisions?: { readonly list: ObjectRevision[]; readonly input: InputFile };
}

/**
 * Read every input. With `dropEchoes` (for a history, which drops them anyway: timeline's
 * dropEchoes), a CI run folder's build log is read first and interval-file copies of its lines are
 * dropped as they are read; `monitorIntervals` then lacks them and `echoSpan` says when they were.
 */
export async function loadHistoryParts(
  paths: readonly string[],
  opts: LoadOptions,
  { streamEchoes = true }: { streamEchoes?: boolean } = {},
): Promise<HistoryParts> {
  if (paths.length === 0) throw new InputError('(no path)', 'no input given', NO_INPUTS_HINT);
  const limits: ReadLimits = {
    maxFileBytes: opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    ...(opts.budget ? { budget: opts.budget } : {}),
  };
  const intern = new Interner();
  const results: FileResult[] = [];
  const notes: string[] = [];
  let echoes: EchoFilter | undefined;
  let revisions: PathResult['revisions'];
  // URL inputs share one session (storage client and cache), closed when everything is read.
  const session = lazySession(opts.remote, limits.maxFileBytes);
  const remote = session.open;
  try {
    for (const path of paths) {
      // The log's years come from the first input's names only when it is the only input.
      const dropEchoes = streamEchoes && paths.length === 1;
      const one = await loadPath(path, limits, intern, dropEchoes, opts.now, remote);
      append(results, one.results);
      append(notes, one.notes);
      echoes ??= one.echoes;
      revisions ??= one.revisions;
    }
    const given = await readGivenReleases(opts, limits, remote);
    const extraInputs = revisions ? [revisions.input] : [];
    const guests = guestParts(results, intern, opts.now);
    for (const g of guests) {
      const n = Object.values(g.parts.objects).reduce((sum, list) => sum + list.length, 0);
      notes.push(
        `hostedcluster-${g.name}/: the hosted cluster ${g.name}'s own objects (${n}) are a cluster of their own, not the management cluster's (serve --guest ${g.name} serves them)`,
      );
    }
    const management = guests.length > 0 ? results.filter((r) => r.guest === undefined) : results;
    const parts = await assembleOneCluster(paths, () =>
      assemble(management, notes, given, extraInputs, intern, echoes, opts.now),
    );
    const withGuests = guests.length > 0 ? { ...parts, guests } : parts;
    return revisions ? { ...withGuests, revisions: revisions.list } : withGuests;
  } finally {
    session.close();
  }
}

/**
 * What assemble gives, or, when the objects are from two clusters whose files are two runs of one
 * folder given (a folder of CI runs or of must-gathers), that folder's error: name one run.
 */
async function assembleOneCluster<T>(paths: readonly string[], assembleAll: () => T): Promise<T> {
  try {
    return assembleAll();
  } catch (err) {
    if (!(err instanceof TwoClustersError)) throw err;
    for (const path of paths) {
      if (path === STDIN || looksLikeUrl(path)) continue;
      const folder = await folderOfRunsError(path, [err.second, err.first]);
      if (folder) throw folder;
    }
    throw err;
  }
}

/**
 * A live cluster's parts: the argument is opened by the live opener of the same registry as paths
 * (open/live.ts), and read by the live client (src/live), one snapshot.
 */
export function loadLiveParts(
  cluster: LiveCluster,
  limits: Partial<ClientLimits> = {},
): Promise<HistoryParts> {
  return openArgument(
    cluster,
    liveContext((c) => readLive(c, limits)),
  );
}

async function loadPath(
  path: string,
  limits: ReadLimits,
  intern: Interner,
  dropEchoes: boolean,
  now: Millis,
  remote: () => Promise<RemoteSession>,
): Promise<PathResult> {
  let tmp: string | undefined;
  const context: OpenContext<PathResult> = {
    folder: (dir) =>
      withoutFilesBesideRuns(dir, (listing) => loadFolder(dir, limits, intern, dropEchoes, now, listing)),
    archive: (file, display) => loadArchive(file, limits, intern, display),
    file: async (file, display, size) => {
      const name = baseName(display);
      const spec =
        readerForGivenFile(name) ?? (display === STDIN_NAME ? { reader: 'oc-get', strict: true } : undefined);
      if (!spec) throw new InputError(display, 'not an atlevel input', NO_INPUTS_HINT);
      const result = await readOne(spec, display, name, size, file, limits, intern);
      requireSomething(display, [result]);
      return { results: [result], notes: [] };
    },
    files: (display, files) => loadCase(display, files, limits, intern),
    remote: async (url) => (await remote()).open(url),
    remoteInput: (input) => loadRemote(input, limits, intern, dropEchoes, now),
    looksLikeArchive,
    live: async () => {
      throw new InputError(path, 'a live cluster is read by the live client (src/live), not as a path');
    },
    tmpdir: async () => {
      tmp ??= await mkdtemp(join(tmpdir(), 'atlevel-'));
      return tmp;
    },
  };
  return openArgument(path, context);
}

/**
 * A URL input, its objects fetched into the cache: read like the file or folder it names, under its
 * `gs://` name. A run's must-gather tarballs (with --must-gather) are read as inputs of their own.
 */
async function loadRemote(
  input: RemoteInput,
  limits: ReadLimits,
  intern: Interner,
  dropEchoes: boolean,
  now: Millis,
): Promise<PathResult> {
  if (input.kind === 'file') {
    if (isArchiveName(input.name)) {
      const one = await loadArchive(input.path, limits, intern, input.display);
      return { results: one.results, notes: [...input.notes, ...one.notes] };
    }
    const spec = readerForGivenFile(input.name);
    if (!spec) throw new InputError(input.display, 'not an atlevel input', NO_INPUTS_HINT);
    const result = await readOne(spec, input.display, input.name, input.size, input.path, limits, intern);
    requireSomething(input.display, [result]);
    return { results: [result], notes: input.notes };
  }
  const listing: Listing = {
    files: input.files.map((f) => ({ rel: f.rel, abs: f.path, size: f.size })),
    skipped: [],
  };
  const results: FileResult[] = [];
  const notes = [...input.notes];
  let echoes: EchoFilter | undefined;
  if (listing.files.length > 0) {
    const one = await loadFolder(input.display, limits, intern, dropEchoes, now, listing);
    append(results, one.results);
    append(notes, one.notes);
    echoes = one.echoes;
  }
  for (const a of input.archives) {
    const one = await loadArchive(a.path, limits, intern, a.display);
    append(results, one.results);
    append(notes, one.notes);
  }
  return echoes ? { results, notes, echoes } : { results, notes };
}

async function readOne(
  spec: ReaderSpec,
  display: string,
  name: string,
  size: number,
  abs: string,
  limits: ReadLimits,
  intern: Interner,
  echoes?: EchoFilter,
): Promise<FileResult> {
  const quick = quickConfigs(spec, display, name, size, abs, limits);
  if (quick) return quick;
  const files: LocalFile[] = [];
  const open = (): AsyncIterable<Buffer> => {
    const file = new LocalFile(abs);
    files.push(file);
    return file.chunks();
  };
  try {
    const source = open();
    return await readInput(spec, display, name, size, source, limits, {
      reopen: open,
      intern,
      ...(echoes ? { echoes } : {}),
    });
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code !== undefined) throw new InputError(display, fsProblem(err));
    throw err;
  } finally {
    for (const f of files) f.close();
  }
}

/**
 * A machineconfigs.json read whole and indexed, only the parts outside the configs parsed
 * (quick-configs.ts): the same FileResult as readInput's, at a fraction of the work. Undefined when
 * the quick reader is unsure, or the file cannot be read; readInput then reads it and says why.
 */
function quickConfigs(
  spec: ReaderSpec,
  display: string,
  name: string,
  size: number,
  abs: string,
  limits: ReadLimits,
): FileResult | undefined {
  if (spec.reader !== 'gather-extra' || spec.expect !== 'MachineConfig') return undefined;
  if (size > Math.min(limits.maxFileBytes, MAX_PARSED_BYTES)) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch {
    return undefined;
  }
  if (bytes.length !== size) return undefined;
  const opts = { budget: limits.budget ?? new Budget(), maxFileBytes: limits.maxFileBytes };
  return readMachineConfigList(bytes, name, display, opts, size)?.result;
}

/**
 * A file in a folder, read a chunk at a time with synchronous reads. A stream (createReadStream)
 * hands each chunk over from the thread pool, one turn of the event loop later: on the analyze
 * bench's large run those turns left the main thread idle for 60 ms in all, 4% of the run, while it
 * had nothing else to do. Each chunk is a buffer of its own, as a stream's are: readers keep pieces
 * of earlier chunks (a JSON item that spans two).
 */
class LocalFile {
  readonly #fd: number;
  #closed = false;

  constructor(abs: string) {
    this.#fd = openSync(abs, 'r');
  }

  async *chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.#closed) return;
      const chunk = Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
      const n = readSync(this.#fd, chunk, 0, READ_CHUNK_BYTES, null);
      if (n === 0) return;
      yield n === READ_CHUNK_BYTES ? chunk : chunk.subarray(0, n);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}

function joinDisplay(root: string, rel: string): string {
  return `${root.replace(/\/+$/, '') || '/'}/${rel}`.replace(/^\/\//, '/');
}

async function loadFolder(
  path: string,
  limits: ReadLimits,
  intern: Interner,
  dropEchoes: boolean,
  now: Millis,
  given?: Listing,
): Promise<PathResult> {
  const listing = given ?? (await listFolder(path));
  // A simulated run's object revisions are read beside the layouts (readRevisions below).
  const plan = planListing(listing.files.map((f) => f.rel));
  if (plan.files.length === 0) throw new InputError(path, 'no atlevel inputs found', NO_INPUTS_HINT);
  const byRel = new Map(listing.files.map((f) => [f.rel, f]));
  const read = (planned: PlannedFile, echoes?: EchoFilter): Promise<FileResult> | undefined => {
    const f = byRel.get(planned.rel);
    if (!f) return undefined;
    return readOne(
      planned.spec,
      joinDisplay(path, f.rel),
      baseName(f.rel),
      f.size,
      f.abs,
      limits,
      intern,
      echoes,
    ).then((r) => ofGuest(planned.spec, r));
  };
  const logs = dropEchoes ? await readLogsFirst(plan, read, now) : undefined;
  const results: FileResult[] = [];
  for (const [k, planned] of plan.files.entries()) {
    const result = logs?.results.get(k) ?? (await read(planned, logs?.echoes));
    if (result) results.push(result);
  }
  const notes = planNotes(path, plan);
  for (const s of listing.skipped.slice(0, 5)) notes.push(`${path}: skipped ${printable(s)}`);
  if (listing.skipped.length > 5)
    notes.push(
      `${path}: skipped ${listing.skipped.length - 5} more special files, symlinks to outside it, dangling symlinks or undecodable names`,
    );
  requireSomething(path, results, plan);
  const recorded = plan.revisions !== undefined ? byRel.get(plan.revisions) : undefined;
  const revisions = recorded
    ? await readRevisions(recorded, joinDisplay(path, recorded.rel), limits)
    : undefined;
  const out = logs ? { results, notes, echoes: logs.echoes } : { results, notes };
  return revisions ? { ...out, revisions } : out;
}

async function readRevisions(
  f: { readonly abs: string; readonly size: number },
  display: string,
  limits: ReadLimits,
): Promise<NonNullable<PathResult['revisions']>> {
  const list = await loadSimRevisions(f.abs, {
    display,
    maxBytes: limits.maxFileBytes,
    ...(limits.budget ? { budget: limits.budget } : {}),
  });
  return {
    list,
    input: {
      path: display,
      reader: 'sim-revisions',
      bytes: f.size,
      contributed: `${list.length} object revisions`,
    },
  };
}

/**
 * The build logs of a plan, read ahead of the other files with their years settled, and the
 * filter that drops their echoes from the interval files. Only when the years are known before the
 * other files are read, as assemble will settle them: each log's own dated lines, else the first
 * file name with a run start in plan order (with no such name, nothing is read ahead); and only when
 * the logs read cleanly; otherwise the files are read in plan order as usual and any error is the
 * one that order meets first.
 */
async function readLogsFirst(
  plan: Plan,
  read: (planned: PlannedFile) => Promise<FileResult> | undefined,
  now: Millis,
): Promise<{ results: Map<number, FileResult>; echoes: EchoFilter } | undefined> {
  let hint: YearHint | undefined;
  for (const f of plan.files) {
    const name = baseName(f.rel);
    const at = runStartFromName(name);
    if (at !== undefined) {
      hint = { at, from: `the run start in ${name}` };
      break;
    }
  }
  const logs = [...plan.files.entries()].filter(([, f]) => f.spec.reader === 'build-log');
  if (!hint || logs.length === 0 || logs.length === plan.files.length) return undefined;
  const results = new Map<number, FileResult>();
  const index = new EchoIndex();
  try {
    for (const [k, planned] of logs) {
      const result = await read(planned);
      if (!result) continue;
      results.set(k, result);
      const basis = result.ownYear ?? hint;
      const resolved = resolveYears(result.pending, basis, now);
      result.settled = { hint: basis, resolved };
      for (const i of resolved.intervals) index.add(i);
    }
  } catch (err) {
    if (err instanceof InputError) return undefined;
    throw err;
  }
  return { results, echoes: new EchoFilter(index) };
}

async function loadArchive(
  file: string,
  limits: ReadLimits,
  intern: Interner,
  path: string = file,
): Promise<PathResult> {
  const { files, warnings } = await listArchive(file, path);
  const plan = planListing([...new Set(files.map((f) => f.rel))]);
  if (plan.files.length === 0)
    throw new InputError(path, 'no atlevel inputs found in the archive', NO_INPUTS_HINT);
  const specs = new Map(plan.files.map((f) => [f.rel, f.spec]));
  const byRel = new Map<string, FileResult>();
  await readArchive(
    file,
    path,
    (rel) => specs.has(rel),
    async (rel, size, stream) => {
      const spec = specs.get(rel);
      if (!spec) return;
      byRel.set(
        rel,
        ofGuest(
          spec,
          await readInput(spec, `${path}!${rel}`, baseName(rel), size, stream, limits, { intern }),
        ),
      );
    },
    limits.maxFileBytes,
    limits.budget,
  );
  // Archive order is whatever the packer chose; use the plan's (sorted) order.
  const results = plan.files.map((f) => byRel.get(f.rel)).filter((r): r is FileResult => r !== undefined);
  const notes = planNotes(path, plan);
  for (const w of warnings.slice(0, 3))
    notes.push(`${path}: ${w.startsWith('ignored') ? w : `tar warning ${w}`}`);
  requireSomething(path, results, plan);
  return { results, notes };
}

/** A file of a hosted cluster's guest (layouts/hypershift-dump.ts) says so, for assemble to keep it apart. */
function ofGuest(spec: ReaderSpec, result: FileResult): FileResult {
  if (spec.reader === 'must-gather' && spec.guest !== undefined) result.guest = spec.guest;
  return result;
}

/** Files given one by one (an oc examples case, by its prefix): planned by the layouts as one input. */
async function loadCase(
  prefix: string,
  files: readonly { rel: string; abs: string; size: number }[],
  limits: ReadLimits,
  intern: Interner,
): Promise<PathResult> {
  const plan = planListing(files.map((f) => f.rel));
  if (!plan.layouts.includes('oc examples case'))
    throw new InputError(prefix, 'not an oc examples case', NO_INPUTS_HINT);
  const results: FileResult[] = [];
  const name = baseName(prefix);
  // In the case's own order (cv, co, mcp, mc, node, alerts), as oc lists them.
  const rank = (rel: string) => OC_EXAMPLE_SUFFIXES.indexOf(rel.slice(name.length));
  for (const planned of [...plan.files].sort((a, b) => rank(a.rel) - rank(b.rel))) {
    const f = files.find((x) => x.rel === planned.rel);
    if (f) results.push(await readOne(planned.spec, f.abs, f.rel, f.size, f.abs, limits, intern));
  }
  const notes = caseNotes(
    prefix,
    files.map((f) => f.rel),
    plan,
  );
  return { results, notes };
}

function isUseful(r: FileResult): boolean {
  return (
    r.objects.length > 0 ||
    intervalCount(r) > 0 ||
    r.releases.length > 0 ||
    r.alerts.length > 0 ||
    r.mcoImage !== undefined
  );
}

/** A file read for what its name says counts even when empty (an empty events List is still events.json). */
function hasContent(r: FileResult): boolean {
  return (
    (r.reader !== 'oc-get' && r.skippedBecause === undefined) ||
    r.objects.length > 0 ||
    intervalCount(r) > 0 ||
    r.pending.length > 0 ||
    r.releases.length > 0 ||
    r.alerts.length > 0 ||
    r.lines !== undefined
  );
}

/**
 * The readers count what they skip by kind, and by two stand-ins for what has none; said in words
 * here ("found only (not an object)" read as a slip).
 */
const SKIPPED_WORDS: ReadonlyMap<string, string> = new Map([
  ['(not an object)', 'text that is not a YAML or JSON object'],
  ['(no kind)', 'objects without a kind'],
]);

/** `Secret, Pod`, `Secret and objects without a kind`, `text that is not a YAML or JSON object`. */
function describeSkipped(keys: readonly string[]): string {
  const kinds = keys.filter((k) => !SKIPPED_WORDS.has(k));
  const others = keys.flatMap((k) => SKIPPED_WORDS.get(k) ?? []);
  return [...(kinds.length > 0 ? [kinds.join(', ')] : []), ...others].join(' and ');
}

/** A folder of YAML/JSON where nothing is of a kind atlevel reads is not an input. */
function requireSomething(path: string, results: readonly FileResult[], plan?: Plan): void {
  if (results.some(hasContent)) return;
  const kinds = new Map<string, number>();
  for (const r of results) for (const [k, n] of r.skippedKinds) kinds.set(k, (kinds.get(k) ?? 0) + n);
  const found = describeSkipped([...kinds.keys()].slice(0, 4));
  const layouts = plan?.layouts.length ? ` (${plan.layouts.join(' + ')})` : '';
  throw new InputError(
    path,
    `no atlevel inputs found${layouts}: read ${results.length} file${results.length === 1 ? '' : 's'}${found ? `, found only ${found}` : ''}`,
    NO_INPUTS_HINT,
  );
}

/**
 * The release of `--release-from`/`--release-to`: a file, a URL (fetched into the run's cache), or
 * `-`, standard input (copied to a private file as for `release info -`; the CLI lets `-` be given once).
 */
/**
 * The guests' files (a hypershift dump's `hostedcluster-NAME/`), each guest put together on its own:
 * a second cluster, never merged into the management cluster's objects (docs/hosted.md).
 */
function guestParts(results: readonly FileResult[], intern: Interner, now: Millis): GuestParts[] {
  const byName = new Map<string, FileResult[]>();
  for (const r of results) {
    if (r.guest === undefined) continue;
    const list = byName.get(r.guest) ?? [];
    list.push(r);
    byName.set(r.guest, list);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, list]) => ({
      name,
      parts: assemble(list, [], { payloads: {}, inputs: [] }, [], intern, undefined, now),
    }));
}

/** Put the per-file results together: dedupe, settle build-log years, assign releases. */
function assemble(
  results: readonly FileResult[],
  notes: string[],
  given: GivenReleases,
  extraInputs: readonly InputFile[],
  intern: Interner,
  echoes: EchoFilter | undefined,
  now: Millis,
): HistoryParts {
  const store = new ObjectStore();
  const monitorIntervals: Interval[] = [];
  const testLog: TestLogEntry[] = [];
  const found: ReleasePayload[] = [];
  const alerts: unknown[] = [];
  let mcoImage: McoImage | undefined;
  const inputs: InputFile[] = [];
  const seenIntervals = new Set<string>();
  let duplicateIntervals = echoes?.duplicates ?? 0;
  const skippedKinds = new Map<string, number>();
  let unused = 0;

  for (const r of results) {
    for (const o of r.objects) store.put(o.kind, o.object, o.ref);
    for (const i of r.intervals) {
      const id = internedIdentity(i, intern);
      if (seenIntervals.has(id)) {
        duplicateIntervals++;
        continue;
      }
      seenIntervals.add(id);
      monitorIntervals.push(i);
    }
    append(found, r.releases);
    append(alerts, r.alerts);
    if (r.mcoImage) mcoImage = r.mcoImage;
    for (const [k, n] of r.skippedKinds) skippedKinds.set(k, (skippedKinds.get(k) ?? 0) + n);
    append(notes, r.notes);
    if (r.skippedBecause !== undefined) notes.push(`${r.file}: skipped, ${r.skippedBecause}`);
    if (r.incidental && !isUseful(r)) {
      unused++;
      continue;
    }
    inputs.push({ path: r.file, reader: r.reader, bytes: r.bytes, contributed: contribution(r) });
  }
  if (unused > 0) {
    notes.push(
      `read ${unused} other YAML/JSON file${unused === 1 ? '' : 's'} that held nothing atlevel uses`,
    );
  }
  const objects = store.snapshot();
  if (store.duplicates > 0) {
    notes.push(
      `${store.duplicates} object${store.duplicates === 1 ? ' was' : 's were'} seen more than once; kept the newest snapshot of each`,
    );
  }
  if (duplicateIntervals > 0) {
    notes.push(
      `${duplicateIntervals} interval${duplicateIntervals === 1 ? '' : 's'} appeared in more than one intervals file; kept one copy`,
    );
  }
  if (skippedKinds.size > 0) {
    const total = [...skippedKinds.values()].reduce((a, b) => a + b, 0);
    const kinds = [...skippedKinds.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k]) => k);
    notes.push(
      `skipped ${total} object${total === 1 ? '' : 's'} of kinds atlevel does not read (${describeSkipped(kinds)})`,
    );
  }

  const logs = results.filter((r) => r.lines !== undefined);
  if (logs.length > 0) {
    const hint = yearHint(results, monitorIntervals, objects);
    for (const log of logs) {
      const resolved = settledYears(log, log.ownYear ?? hint, now);
      append(monitorIntervals, resolved.intervals);
      append(testLog, resolved.testLog);
      if (log.pending.length > 0) {
        notes.push(`${log.file}: lines carry no year; used ${resolved.year}, from ${resolved.basis}`);
      }
      if (resolved.impossibleDates > 0) {
        const n = resolved.impossibleDates;
        notes.push(
          `${log.file}: ${n} line${n === 1 ? '' : 's'} dated on a day that does not exist (${resolved.impossibleExample}); not read`,
        );
      }
      if ((log.duplicateLines ?? 0) > 0) {
        notes.push(
          `${log.file}: ${log.duplicateLines} repeated line${log.duplicateLines === 1 ? '' : 's'} read once`,
        );
      }
    }
  }

  // Echoes not dropped while reading (several inputs, an archive, no run start to date the log by).
  const kept = dropEchoes(monitorIntervals);
  const echoSpan = spanOf(echoes?.span, kept.droppedSpan);

  const cv = objects.clusterVersions[0]?.object as ClusterVersion | undefined;
  // The build log and interval files on the cluster's clock, when they run minutes off it.
  const skew = ciClockSkew(cv, kept.intervals);
  if (skew) notes.push(skew.note);
  const placed = placeReleases(found, given, cv, notes);
  const releases = placed.releases;
  append(inputs, placed.inputs);
  append(inputs, extraInputs);
  return {
    objects,
    monitorIntervals: skew ? onClusterClock(kept.intervals, skew.offset) : kept.intervals,
    testLog: skew ? testLogOnClusterClock(testLog, skew.offset) : testLog,
    releases,
    inputs,
    notes,
    ...(alerts.length > 0 ? { alerts } : {}),
    ...(mcoImage ? { mcoImage } : {}),
    ...(echoSpan
      ? { echoSpan: skew ? { from: echoSpan.from - skew.offset, to: echoSpan.to - skew.offset } : echoSpan }
      : {}),
  };
}

type Span = { from: Millis; to: Millis };

function spanOf(a: Span | undefined, b: Span | undefined): Span | undefined {
  if (!a || !b) return a ?? b;
  return { from: Math.min(a.from, b.from), to: Math.max(a.to, b.to) };
}

/**
 * The log's lines dated by `hint`: as readLogsFirst dated them when it used the same hint (the same
 * hint gives the same dates, and nothing has changed the entries since), else dated now.
 */
function settledYears(log: FileResult, hint: YearHint | undefined, now: Millis): Resolved {
  const settled = log.settled;
  if (settled && hint && settled.hint.at === hint.at && settled.hint.from === hint.from)
    return settled.resolved;
  return resolveYears(log.pending, hint, now);
}

/** When the other inputs say the run happened: run start in a file name, interval JSON, objects. */
function yearHint(
  results: readonly FileResult[],
  intervals: readonly Interval[],
  objects: ObjectSnapshot,
): YearHint | undefined {
  for (const r of results) if (r.hints[0]) return r.hints[0];
  let earliest: Interval | undefined;
  for (const i of intervals) if (!earliest || i.from < earliest.from) earliest = i;
  if (earliest) return { at: earliest.from, from: `the intervals in ${baseName(earliest.ref.file)}` };
  const latest = latestObjectTime(objects);
  if (latest) return latest;
  return undefined;
}

function latestObjectTime(objects: ObjectSnapshot): YearHint | undefined {
  let best: { at: Millis; file: string } | undefined;
  const see = (v: unknown, file: string) => {
    const t = parseTime(v);
    if (t !== undefined && (!best || t > best.at)) best = { at: t, file };
  };
  for (const list of Object.values(objects) as { object: unknown; ref: { file: string } }[][]) {
    for (const o of list) {
      const obj = o.object as {
        metadata?: { creationTimestamp?: unknown };
        status?: { conditions?: unknown; history?: unknown };
        lastTimestamp?: unknown;
        eventTime?: unknown;
      };
      see(obj.metadata?.creationTimestamp, o.ref.file);
      see(obj.lastTimestamp, o.ref.file);
      see(obj.eventTime, o.ref.file);
      const conditions = obj.status?.conditions;
      if (Array.isArray(conditions))
        for (const c of conditions)
          see((c as { lastTransitionTime?: unknown })?.lastTransitionTime, o.ref.file);
      const history = obj.status?.history;
      if (Array.isArray(history)) {
        for (const h of history) {
          see((h as { startedTime?: unknown })?.startedTime, o.ref.file);
          see((h as { completionTime?: unknown })?.completionTime, o.ref.file);
        }
      }
    }
  }
  const found = best as { at: Millis; file: string } | undefined;
  return found ? { at: found.at, from: `the object timestamps in ${baseName(found.file)}` } : undefined;
}
