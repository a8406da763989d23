/**
 * The ingest loop: name every run (Prow id, else content hash), skip the ones the store has, analyse
 * the rest in parallel (the caller passes the analyser: a worker pool in the CLI, a plain call in
 * tests), and write the runs as their analyses come back (those that came back while the last write
 * ran go in one transaction), so that a kill loses at most the runs in flight or waiting to be
 * written and the next ingest resumes where this one stopped. A run whose analysis throws, or that
 * the store refuses to hold, is recorded as an ingest error and the batch goes on.
 */
import type { PutOutcome, RunRecord, RunStore, SameUpdate } from '../store/index.js';
import type { RunInput } from './expand.js';
import { prowRunId, runContent, urlHash } from './identity.js';
import type { RunIdentity } from './record.js';

/**
 * Analyse one run: load it, run analyze, build its record. Must not need anything but its arguments.
 * `started` is to be called when the run's work begins (in-process: at once; a worker pool: when a
 * worker takes the task, not while it waits in the pool's queue): the run timeout counts from then,
 * so a run queued behind a slow one is not given up for the other's slowness. `signal` aborts when the
 * run's time is up; an analyser that can stop its work (a worker pool terminates the worker) should,
 * and the batch goes on either way.
 */
export type Analyser = (who: RunIdentity, signal: AbortSignal, started: () => void) => Promise<RunRecord>;

export interface IngestProgress {
  readonly total: number;
  readonly done: number;
  readonly stored: number;
  readonly skipped: number;
  readonly errors: number;
}

export interface IngestOptions {
  /**
   * The store, or its opening: opening PGlite takes about a second, and the first runs are
   * identified and analysed meanwhile. Their results are dropped if the store turns out to have
   * them; if it cannot be opened, ingestRuns rejects with that error at once.
   */
  readonly store: RunStore | Promise<RunStore>;
  readonly analyse: Analyser;
  /** Runs in flight at once (the pool's size; a little more keeps every worker busy). */
  readonly parallel: number;
  /** Analyse and replace runs already stored (after atlevel's analysis changed). */
  readonly reanalyse?: boolean;
  /**
   * A run whose analysis has not come back after this many ms (from when the analyser said it
   * started it) is given up and recorded as an ingest error, so that a URL that never answers cannot
   * stall the batch. 0 or absent: no limit.
   */
  readonly runTimeoutMs?: number;
  readonly onProgress?: (p: IngestProgress) => void;
  /** Said once per run that failed: its source and the error's first line. */
  readonly onError?: (source: string, message: string) => void;
  /** Said once per run written (or found already there by a concurrent ingester). */
  readonly onStored?: (who: RunIdentity, outcome: PutOutcome) => void;
}

/** Each run once, with its first partner in id order; a pair of runs both written now, once. */
async function pairedOnce(found: Promise<SameUpdate[]>): Promise<SameUpdate[]> {
  const said = new Set<string>();
  const out: SameUpdate[] = [];
  for (const s of await found) {
    if (said.has(s.runId) || said.has(`${s.other}\0${s.runId}`)) continue;
    said.add(s.runId);
    said.add(`${s.runId}\0${s.other}`);
    out.push(s);
  }
  return out;
}

export interface IngestSummary extends IngestProgress {
  /** Runs named twice in the inputs (same Prow id or content), ingested once. */
  readonly duplicates: number;
  /**
   * Runs stored now whose update another stored run has too (same start, end and versions), each
   * pair once: one update stored under two ids, which stats counts twice (RunStore.sameUpdates).
   */
  readonly sameUpdates: readonly SameUpdate[];
  readonly replaced: number;
}

export async function identify(r: RunInput): Promise<RunIdentity> {
  // What the run is: its Prow id (from its path, else from its own Prow files), else its files' hash.
  const content = r.prow || r.kind === 'url' ? undefined : await runContent(r, r.image);
  const prow = r.prow ?? content?.prow;
  if (prow) {
    return { id: prowRunId(prow), source: r.source, identity: 'prow', job: prow.job, buildId: prow.buildId };
  }
  return {
    id: content?.hash ?? urlHash(r.source),
    source: r.source,
    identity: 'content',
    ...(content?.former !== undefined ? { formerly: content.former } : {}),
  };
}

/**
 * The runs the store holds under their former id and not under their own (a must-gather with one
 * image folder ingested when that folder was the run: docs/runs.md): each run's id → the id it keeps.
 * So a re-ingest skips it as already there, and `--reanalyze` replaces it in place, never a second copy.
 */
async function keptIds(store: RunStore, ids: readonly RunIdentity[]): Promise<Map<string, string>> {
  const renamed = ids.flatMap((w) => (w.formerly === undefined ? [] : [{ id: w.id, formerly: w.formerly }]));
  if (renamed.length === 0) return new Map();
  const stored = await store.storedIds(renamed.flatMap((w) => [w.id, w.formerly]));
  return new Map(
    renamed.filter((w) => !stored.has(w.id) && stored.has(w.formerly)).map((w) => [w.id, w.formerly]),
  );
}

/** A timeout for messages: a whole number of hours, minutes or seconds (`1h`, `10m`, `90s`). */
function formatTimeout(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}

/**
 * Analyse one run within `timeoutMs` of its start (0: no limit); past it, abort the analyser and
 * throw. The timer starts when the analyser calls `started`, not when the run is handed to it.
 */
async function withinTime(analyse: Analyser, who: RunIdentity, timeoutMs: number): Promise<RunRecord> {
  const ac = new AbortController();
  if (timeoutMs <= 0) return analyse(who, ac.signal, () => undefined);
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  let expire: (err: Error) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = reject;
  });
  const started = () => {
    if (timer !== undefined || settled) return;
    timer = setTimeout(() => {
      const err = new Error(
        `no result after ${formatTimeout(timeoutMs)}: the run was given up (--run-timeout ${formatTimeout(timeoutMs)}; raise it for very large runs)`,
      );
      expire(err);
      ac.abort(err);
    }, timeoutMs);
  };
  const work = analyse(who, ac.signal, started);
  // An analyser aborted late rejects after the race is decided; nothing is waiting for it then.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, expired]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').slice(0, 2000) || 'unknown error';
}

/** Most runs written in one transaction (and waiting for it, analysed, in memory). */
const MAX_BATCH = 64;
/**
 * How long an analysed run may wait for others to share its transaction. A store's cost is per
 * statement more than per row (store.ts, putRuns), and analyses come back one at a time: written as
 * they came, every batch held one run (1,000 simulated runs on two workers, all batches of 1).
 */
const LINGER_MS = 1500;

/** Run `fn` over `items` with at most `limit` calls in flight. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await fn(item);
    }
  });
  await Promise.all(lanes);
}

export async function ingestRuns(inputs: readonly RunInput[], opts: IngestOptions): Promise<IngestSummary> {
  const ids: RunIdentity[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  // Hashing reads every file of a run; a few at a time keeps the disk busy without thrashing it.
  const named: (RunIdentity | Error)[] = new Array(inputs.length);
  await eachLimited(
    inputs.map((r, i) => ({ r, i })),
    4,
    async ({ r, i }) => {
      named[i] = await identify(r).catch((err: unknown) => new Error(firstLine(err)));
    },
  );
  const unreadable: { source: string; error: Error }[] = [];
  // A must-gather's one image folder named beside the must-gather itself: the same run twice.
  const former = new Set(named.flatMap((n) => (n instanceof Error || !n.formerly ? [] : [n.formerly])));
  named.forEach((n, i) => {
    if (n instanceof Error) unreadable.push({ source: (inputs[i] as RunInput).source, error: n });
    else if (seen.has(n.id) || former.has(n.id)) duplicates += 1;
    else {
      seen.add(n.id);
      ids.push(n);
    }
  });
  const p = {
    total: ids.length + unreadable.length,
    done: 0,
    stored: 0,
    skipped: 0,
    errors: 0,
  };
  let replaced = 0;
  // The ids this ingest wrote, to find the updates another stored run has too.
  const written: string[] = [];
  opts.onProgress?.({ ...p });
  const opening = Promise.resolve(opts.store);
  // What the store already has, once it is open; until then the lanes analyse speculatively.
  let stored: ReadonlySet<string> | undefined;
  // Runs stored under their former id: its id → that one (the record is written under it).
  let kept = new Map<string, string>();
  const known = opening.then(async (store) => {
    const have = opts.reanalyse ? new Set<string>() : await store.storedIds(ids.map((w) => w.id));
    kept = await keptIds(store, ids);
    if (!opts.reanalyse) for (const id of kept.keys()) have.add(id);
    stored = have;
    // A source that names a run the store has is no error any more, whatever failed there before.
    await store.forgetErrors(ids.filter((w) => have.has(w.id)).map((w) => w.source));
    p.skipped += have.size;
    p.done += have.size;
    opts.onProgress?.({ ...p });
    for (const u of unreadable) {
      // Without an identity there is no run id: the error is kept under the source's own name.
      await store.putError(`source:${u.source}`, u.source, u.error.message);
      opts.onError?.(u.source, u.error.message);
      p.errors += 1;
      p.done += 1;
    }
    return { store, have };
  });
  // Awaited below; this keeps a failed open from being reported as unhandled meanwhile.
  known.catch(() => undefined);
  // One writer. A batch is written when MAX_BATCH runs wait, or LINGER_MS after the first of them
  // came back, or at the end. The lanes do not wait for the write (the workers keep analysing), only
  // when the backlog is full. A kill loses the runs in flight and the backlog; the next ingest does them.
  const backlog: { who: RunIdentity; record: RunRecord }[] = [];
  let writing: Promise<void> | undefined;
  let writeError: unknown;
  let linger: NodeJS.Timeout | undefined;
  let finishing = false;
  const keptRecord = (r: RunRecord): RunRecord => {
    const id = kept.get(r.id);
    return id === undefined ? r : { ...r, id };
  };
  const keptWho = (w: RunIdentity): RunIdentity => {
    const id = kept.get(w.id);
    return id === undefined ? w : { ...w, id };
  };
  const write = async (all: boolean) => {
    while (backlog.length >= (all ? 1 : MAX_BATCH) && writeError === undefined) {
      const batch = backlog.splice(0, MAX_BATCH);
      const store = await opening;
      const counted = (part: typeof batch, outcomes: readonly PutOutcome[]) =>
        part.forEach((b, i) => {
          const outcome = outcomes[i] ?? 'present';
          if (outcome === 'present') p.skipped += 1;
          else p.stored += 1;
          if (outcome === 'replaced') replaced += 1;
          if (outcome !== 'present') written.push(keptWho(b.who).id);
          opts.onStored?.(keptWho(b.who), outcome);
          p.done += 1;
          opts.onProgress?.({ ...p });
        });
      try {
        counted(
          batch,
          await store.putRuns(
            batch.map((b) => keptRecord(b.record)),
            opts.reanalyse === true,
          ),
        );
        continue;
      } catch (err) {
        if (batch.length === 1 && !(await refused(store, batch[0] as (typeof batch)[number], err)))
          writeError = err;
        if (batch.length === 1) continue;
      }
      // The batch was refused as a whole (its transaction rolled back): one run at a time finds the
      // run the store cannot take, which becomes an ingest error; the others are stored.
      for (const b of batch) {
        if (writeError !== undefined) break;
        try {
          counted([b], await store.putRuns([keptRecord(b.record)], opts.reanalyse === true));
        } catch (err) {
          if (!(await refused(store, b, err))) writeError = err;
        }
      }
    }
    writing = undefined;
    // What came back during the write waits for company again.
    if (backlog.length > 0) flushLater();
  };
  /**
   * A run the store refused: recorded as an ingest error with the store's reason, when the store can
   * still record one (then the fault is the run's, and the batch goes on); false when it cannot (the
   * store itself is gone: the ingest ends with that error).
   */
  const refused = async (store: RunStore, b: { who: RunIdentity }, err: unknown): Promise<boolean> => {
    const reason = `the run store refused the run: ${firstLine(err)}`;
    try {
      await store.putError(keptWho(b.who).id, b.who.source, reason);
    } catch {
      return false;
    }
    opts.onError?.(b.who.source, reason);
    p.errors += 1;
    p.done += 1;
    opts.onProgress?.({ ...p });
    return true;
  };
  const flushLater = () => {
    if (finishing || writing || linger) return;
    if (backlog.length >= MAX_BATCH) writing = write(false);
    else
      linger = setTimeout(() => {
        linger = undefined;
        writing ??= write(true);
      }, LINGER_MS);
  };
  const lanes = eachLimited(ids, opts.parallel, async (who) => {
    if (writeError !== undefined || stored?.has(who.id)) return;
    let record: RunRecord | undefined;
    let failure: string | undefined;
    try {
      record = await withinTime(opts.analyse, who, opts.runTimeoutMs ?? 0);
    } catch (err) {
      failure = firstLine(err);
    }
    // Analysed before the store said what it has: a run it has is dropped (counted as skipped).
    const { store, have } = await known;
    if (have.has(who.id)) return;
    if (failure !== undefined) {
      await store.putError(keptWho(who).id, who.source, failure);
      opts.onError?.(who.source, failure);
      p.errors += 1;
      p.done += 1;
      opts.onProgress?.({ ...p });
    } else if (record) {
      backlog.push({ who, record });
      if (backlog.length >= MAX_BATCH && linger) {
        clearTimeout(linger);
        linger = undefined;
      }
      flushLater();
      // Backpressure: the records wait in memory, so not too many of them.
      while (backlog.length >= MAX_BATCH && writing) await writing;
    }
  });
  // Rejects as soon as either does: a store that cannot be opened ends the ingest without waiting
  // for the runs in flight (the caller stops its workers).
  await Promise.all([lanes, known]);
  finishing = true;
  clearTimeout(linger);
  while (writing) await writing;
  // The rest, without waiting for company that is not coming.
  if (backlog.length > 0) await write(true);
  if (writeError !== undefined) throw writeError;
  return { ...p, duplicates, replaced, sameUpdates: await pairedOnce((await opening).sameUpdates(written)) };
}
