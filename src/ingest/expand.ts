/**
 * From `atlevel ingest`'s arguments to the list of runs to ingest, read as analyze reads inputs: the
 * input's plan (sources' planInput, the answer `atlevel inputs` prints) says which runs an argument holds (a URL, an archive in any compression
 * analyze reads, a run folder, or a folder of runs, symbolic links included, with a note for each
 * stray file beside them); a listing file (`.txt`, `.list`) names one run per line. Then `--shard I/N` keeps its part:
 * a run belongs to the shard its key (Prow id, else its path) hashes to, so every ingester given the
 * same inputs agrees on the split whatever the order it sees them in.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError, type InputPlan, UsageError } from '../model/index.js';
import { type FoundRun, formerImageFolder, looksLikeUrl, planInput } from '../sources/index.js';
import { type ProwId, prowIdOf } from './identity.js';

export interface RunInput {
  /** What loadHistory is given: a path or a URL. */
  readonly source: string;
  readonly kind: FoundRun['kind'];
  readonly prow?: ProwId;
  /**
   * A must-gather with one image folder: that folder's name. Such a run used to be named by its image
   * folder, and a store made then holds it under that folder's content hash (identity.ts).
   */
  readonly image?: string;
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

const LISTING = /\.(txt|list|lst)$/i;

function shardKey(r: RunInput): string {
  return r.prow ? `${r.prow.job}/${r.prow.buildId}` : r.source;
}

export function inShard(r: RunInput, shard: Shard): boolean {
  const h = createHash('sha256').update(shardKey(r)).digest();
  return h.readUInt32BE(0) % shard.count === shard.index - 1;
}

function input(run: FoundRun): RunInput {
  // A run reached through a symbolic link may be named by where it really is (logs/JOB/BUILD_ID).
  const prow = prowIdOf(run.source) ?? (run.real !== undefined ? prowIdOf(run.real) : undefined);
  const image = formerImageFolder(run);
  return {
    source: run.source,
    kind: run.kind,
    ...(prow ? { prow } : {}),
    ...(image !== undefined ? { image } : {}),
  };
}

interface Walk {
  readonly seen: Set<string>;
  readonly out: RunInput[];
  readonly onListed: ((path: string) => void) | undefined;
  readonly onNote: ((note: string) => void) | undefined;
}

/** The lines of a listing file: one path or URL each; `#` starts a comment; relative paths are from the listing's folder. */
async function readListing(file: string, w: Walk): Promise<void> {
  const text = await readFile(file, 'utf8');
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\s+#.*$|^#.*$/, '').trim();
    if (line === '') continue;
    const arg = looksLikeUrl(line) ? line : resolve(dirname(file), line);
    try {
      if (!looksLikeUrl(line)) w.onListed?.(arg);
      await expandOne(arg, w, false);
    } catch (err) {
      if (err instanceof InputError) throw new InputError(`${file}:${i + 1}`, err.message);
      throw err;
    }
  }
}

async function expandOne(arg: string, w: Walk, listingAllowed: boolean): Promise<void> {
  // A listing names runs, one a line: ingest's own input, which analyze does not take.
  if (listingAllowed && !looksLikeUrl(arg) && LISTING.test(arg)) {
    const path = resolve(arg);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) {
      if (w.seen.has(path)) return;
      w.seen.add(path);
      await readListing(path, w);
      return;
    }
  }
  // Everything else as analyze reads it: the input's plan says which runs the argument holds.
  let found: InputPlan;
  try {
    found = await planInput(looksLikeUrl(arg) ? arg : resolve(arg), {
      runsOnly: true,
      ...(w.onListed ? { onLinked: w.onListed } : {}),
    });
  } catch (err) {
    if (err instanceof InputError && /no such file/.test(err.message))
      throw new InputError(
        arg,
        'no such file or folder',
        'give run folders, tarballs, listing files or CI URLs',
      );
    throw err;
  }
  for (const r of found.runs) w.out.push(input(r));
  for (const n of found.notes) w.onNote?.(n);
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
  onNote?: (note: string) => void,
): Promise<RunInput[]> {
  const out: RunInput[] = [];
  const w: Walk = { seen: new Set<string>(), out, onListed, onNote };
  for (const a of args) await expandOne(a, w, true);
  const bySource = new Map<string, RunInput>();
  for (const r of out) if (!bySource.has(r.source)) bySource.set(r.source, r);
  return [...bySource.values()];
}
