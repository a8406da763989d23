/**
 * From `atlevel ingest`'s arguments to the list of runs to ingest: a URL is one run; a tarball is one
 * run; a folder is one run when it holds a run's files, else a folder of runs (walked down to a few
 * levels); a listing file (`.txt`, `.list`) names one run per line. Then `--shard I/N` keeps its part:
 * a run belongs to the shard its key (Prow id, else its path) hashes to, so every ingester given the
 * same inputs agrees on the split whatever the order it sees them in.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { InputError, UsageError } from '../model/index.js';
import { looksLikeUrl } from '../sources/index.js';
import { type ProwId, prowIdOf } from './identity.js';

export interface RunInput {
  /** What loadHistory is given: a path or a URL. */
  readonly source: string;
  readonly kind: 'url' | 'archive' | 'folder';
  readonly prow?: ProwId;
}

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count || !Number.isSafeInteger(count)) {
    throw new UsageError(`--shard ${JSON.stringify(text)}: want I/N with 1 ≤ I ≤ N, e.g. --shard 2/4`);
  }
  return { index, count };
}

const ARCHIVE = /\.(tar|tgz|tar\.gz|tar\.zst|tzst)$/i;
const LISTING = /\.(txt|list|lst)$/i;

/** Names whose presence makes a folder one run (a CI run, a must-gather, a folder of `oc get` files, a simulated run). */
const RUN_MARKERS = new Set([
  'build-log.txt',
  'artifacts',
  'prowjob.json',
  'finished.json',
  'started.json',
  'atlevel-simulation.json',
  'gather-extra',
  'must-gather.local',
  'cluster-scoped-resources',
  'namespaces',
]);
const SNAPSHOT_FILE = /\.(json|ya?ml)$/i;
/** How deep a folder of runs is walked: enough for logs/JOB/BUILD_ID under any prefix. */
const MAX_DEPTH = 8;

function shardKey(r: RunInput): string {
  return r.prow ? `${r.prow.job}/${r.prow.buildId}` : r.source;
}

export function inShard(r: RunInput, shard: Shard): boolean {
  const h = createHash('sha256').update(shardKey(r)).digest();
  return h.readUInt32BE(0) % shard.count === shard.index - 1;
}

function input(source: string, kind: RunInput['kind']): RunInput {
  const prow = prowIdOf(source);
  return { source, kind, ...(prow ? { prow } : {}) };
}

async function isRunFolder(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.some(
    (e) =>
      RUN_MARKERS.has(e.name) ||
      e.name.startsWith('must-gather') ||
      (e.isFile() && SNAPSHOT_FILE.test(e.name)),
  );
}

async function walk(dir: string, depth: number, out: RunInput[]): Promise<void> {
  if (await isRunFolder(dir)) {
    out.push(input(dir, 'folder'));
    return;
  }
  if (depth >= MAX_DEPTH) return;
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) await walk(path, depth + 1, out);
    else if (e.isFile() && ARCHIVE.test(e.name)) out.push(input(path, 'archive'));
  }
}

/** The lines of a listing file: one path or URL each; `#` starts a comment; relative paths are from the listing's folder. */
async function readListing(
  file: string,
  seen: Set<string>,
  out: RunInput[],
  onListed: ((path: string) => void) | undefined,
): Promise<void> {
  const text = await readFile(file, 'utf8');
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\s+#.*$|^#.*$/, '').trim();
    if (line === '') continue;
    const arg = looksLikeUrl(line) ? line : resolve(dirname(file), line);
    try {
      if (!looksLikeUrl(line)) onListed?.(arg);
      await expandOne(arg, seen, out, false);
    } catch (err) {
      if (err instanceof InputError) throw new InputError(`${file}:${i + 1}`, err.message);
      throw err;
    }
  }
}

async function expandOne(
  arg: string,
  seen: Set<string>,
  out: RunInput[],
  listingAllowed: boolean,
  onListed?: (path: string) => void,
): Promise<void> {
  if (looksLikeUrl(arg)) {
    out.push(input(arg, 'url'));
    return;
  }
  const path = resolve(arg);
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(path);
  } catch {
    throw new InputError(
      arg,
      'no such file or folder',
      'give run folders, tarballs, listing files or CI URLs',
    );
  }
  if (st.isDirectory()) {
    await walk(path, 0, out);
  } else if (ARCHIVE.test(path)) {
    out.push(input(path, 'archive'));
  } else if (LISTING.test(path) && listingAllowed) {
    if (seen.has(path)) return;
    seen.add(path);
    await readListing(path, seen, out, onListed);
  } else {
    throw new InputError(
      arg,
      'not a run folder, a .tar/.tar.gz/.tgz/.tar.zst run, or a .txt/.list listing of runs',
    );
  }
}

/**
 * Every run the arguments name, each once (by source), in argument order. `onListed` is given each
 * path a listing file names (resolved), before it is read or walked: the command line does not show
 * them, so the caller checks them here (ingest: not the run store, nor holding it). What it throws
 * is said with the listing's file and line.
 */
export async function expandInputs(
  args: readonly string[],
  onListed?: (path: string) => void,
): Promise<RunInput[]> {
  const out: RunInput[] = [];
  const seen = new Set<string>();
  for (const a of args) await expandOne(a, seen, out, true, onListed);
  const bySource = new Map<string, RunInput>();
  for (const r of out) if (!bySource.has(r.source)) bySource.set(r.source, r);
  return [...bySource.values()];
}
