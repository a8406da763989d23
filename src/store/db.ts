/**
 * The two engines behind one small interface: PGlite (PostgreSQL compiled to WASM, file-backed, no
 * server) and a real PostgreSQL through `pg`. Both speak the same SQL; the differences kept here are
 * how a transaction is held and how values come back (pg returns bigint and numeric as strings, so
 * every query casts counts to integer and measures to double precision).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { InputError } from '../model/index.js';
import { pgParams } from './text.js';

export type Row = Record<string, unknown>;

/** What the store needs of a connection: parameterised queries, one-statement-or-many scripts, transactions. */
export interface Sql {
  query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<R[]>;
  exec(script: string): Promise<void>;
}

export interface Db extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Where it is: the PGlite folder, or the PostgreSQL URL without its password. */
  readonly where: string;
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `--db`, else ATLEVEL_DB, else $XDG_DATA_HOME/atlevel/runs, else ~/.local/share/atlevel/runs. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ATLEVEL_DB) return env.ATLEVEL_DB;
  const xdg = env.XDG_DATA_HOME;
  // The XDG base directory spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const base = xdg?.startsWith('/') ? xdg : join(homedir(), '.local', 'share');
  return join(base, 'atlevel', 'runs');
}

export function isPostgresUrl(spec: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(spec);
}

/** Whether a store is there to read: a postgres:// URL is taken to be; a folder must hold a PGlite database. */
export function storeExists(spec: string): boolean {
  return isPostgresUrl(spec) || existsSync(join(resolve(spec), 'pgdata'));
}

/** The URL with any password replaced, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/**
 * Set on every connection, so that no query depends on which pooled client it gets:
 * - extra_float_digits above 0 makes float8's text form the shortest that reads back exactly
 *   (stats reads stored durations as text, src/stats/query.ts);
 * - work_mem: percentiles over the detail tables (stats --operators with a filter) sort every kept
 *   value; past the default 4 MB a sort goes to disk, which in PGlite is an emulated file system
 *   (about a third slower).
 */
const SESSION_SETTINGS = "SET extra_float_digits = 1; SET work_mem = '64MB'";

/** Open the store a `--db` value names: a postgres:// URL, or a folder for PGlite. */
export async function openDb(spec: string, use: StoreUse = 'query'): Promise<Db> {
  return isPostgresUrl(spec) ? openPostgres(spec) : openPglite(resolve(spec), use);
}

async function openPostgres(url: string): Promise<Db> {
  const pg = (await import('pg')).default;
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // An idle connection the server ends (a restart, an admin's terminate) must not crash atlevel;
  // the next query on it fails and says so instead.
  pool.on('error', () => undefined);
  // Queued on the new client ahead of the query it was connected for.
  pool.on('connect', (client) => {
    client.query(SESSION_SETTINGS).catch(() => undefined);
  });
  const where = redactUrl(url);
  try {
    const c = await pool.connect();
    c.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new InputError(
      where,
      `cannot connect to PostgreSQL: ${(err as Error).message}`,
      'check the --db URL and that the server is running',
    );
  }
  const run = async <R extends Row>(
    client: { query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[] }> },
    text: string,
    params?: readonly unknown[],
  ): Promise<R[]> => (await client.query(text, pgParams(params))).rows as R[];
  return {
    kind: 'postgres',
    where,
    query: (text, params) => run(pool, text, params),
    exec: async (script) => {
      await pool.query(script);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Sql = {
          query: (text, params) => run(client, text, params),
          exec: async (script) => {
            await client.query(script);
          },
        };
        const out = await fn(tx);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

const LOCK_FILE = 'atlevel.lock';

/** A lock file held by a live process other than this one. */
class Held extends Error {
  constructor(readonly pid: number) {
    super(`held by process ${pid}`);
  }
}

function readLock(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Sleep this thread (the lock is taken before anything else runs, while a contender finishes). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Take the lock file `path` atomically, or throw Held. The file appears whole or not at all: its
 * content (pid and a random nonce) is written to a file of this process's own and hard-linked to
 * `path`, and link(2) fails if `path` exists, so two processes can never both create it, and nobody
 * ever reads a half-written lock. A lock whose process is gone is taken over under a second lock
 * named after that lock's exact content (`path.takeover-HASH`, taken the same way, recursively):
 * only its holder removes the stale file, and only after reading it again and finding it unchanged.
 * A contender that read the same stale content and comes later finds a different file, or none, and
 * competes for the new one with link(2) again. Deleting and re-creating without that second lock let
 * two ingesters both take a dead process's lock (4 in about 70 tries) and corrupt the store.
 */
function acquire(path: string, depth: number): () => void {
  const mine = `${process.pid} ${randomBytes(12).toString('hex')}\n`;
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, mine);
  } finally {
    closeSync(fd);
  }
  try {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      try {
        linkSync(tmp, path);
        return () => {
          // Only a lock that is still this one: never another process's.
          if (readLock(path) === mine) rmSync(path, { force: true });
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const seen = readLock(path);
      if (seen === undefined) continue;
      const pid = Number(seen.trim().split(/\s+/)[0]);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new Held(pid);
      if (depth >= 3) break;
      const marker = `${path}.takeover-${createHash('sha256').update(seen).digest('hex').slice(0, 16)}`;
      let release: () => void;
      try {
        release = acquire(marker, depth + 1);
      } catch (err) {
        // Another process is taking this stale lock over: see what it made of it.
        if (!(err instanceof Held)) throw err;
        pause(10);
        continue;
      }
      try {
        if (readLock(path) === seen) rmSync(path, { force: true });
      } finally {
        release();
      }
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  throw new Error('contended');
}

/**
 * PGlite is one process's database: two processes writing one data folder would corrupt it. A lock
 * file holding the owner's pid keeps a second atlevel out; a lock whose process is gone (a kill) is
 * taken over, so an ingest resumes after a crash. Taking it and taking it over are atomic (acquire).
 * Exported for test/hostile/lock-race.ts, whose contender processes import it from dist/ (knip cannot
 * see that import: @public keeps the export).
 *
 * @public
 */
export function takeLock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  try {
    return acquire(path, 0);
  } catch (err) {
    if (err instanceof Held)
      throw new InputError(
        dir,
        `the run store is in use by process ${err.pid}`,
        'wait for it to finish, or use a shared PostgreSQL (--db postgres://…) for parallel ingesters',
      );
    if ((err as Error).message === 'contended')
      throw new InputError(dir, 'could not lock the run store', `remove ${path} if no atlevel is running`);
    throw err;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite runs each statement synchronously on this thread, and a chain of awaited statements never
 * leaves the microtask queue: a worker's finished run would wait for the whole transaction before
 * the next run is handed to it. One turn of the event loop before each statement lets those messages in.
 */
const letEventsIn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * How the store will be used, for what only PGlite lets atlevel choose: `write` (ingest's batches)
 * opens with 32 MB of shared buffers instead of PostgreSQL's 128 MB. PGlite zeroes its buffers in
 * WebAssembly at every start, a third of opening a store (about 930 ms → 570 ms), and a batch of new
 * runs touches little (1,000 simulated runs were written in the same time either way). `query`
 * (stats) keeps 128 MB: on a 100,000-run store a --since cut inside a day took 142 ms with them and
 * 253 ms with 32 MB (npm run bench -- stats).
 */
export type StoreUse = 'write' | 'query';

const PGLITE_SHARED_BUFFERS: Record<StoreUse, string[]> = {
  write: ['-c', 'shared_buffers=32MB'],
  query: [],
};

/** The store's folder, made when missing, and its lock; a path that cannot be either is bad input. */
function claimFolder(dir: string): () => void {
  try {
    mkdirSync(dir, { recursive: true });
    return takeLock(dir);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(
      dir,
      `cannot keep a run store here: ${(err as Error).message}`,
      'pass --db a folder you can write to',
    );
  }
}

async function openPglite(dir: string, use: StoreUse): Promise<Db> {
  const unlock = claimFolder(dir);
  let db: import('@electric-sql/pglite').PGlite;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const startParams = [...PGlite.defaultStartParams, ...PGLITE_SHARED_BUFFERS[use]];
    // The data folder sits beside the lock file, so the lock names the folder a user passed.
    db = await PGlite.create(join(dir, 'pgdata'), { startParams });
    await db.exec(SESSION_SETTINGS);
  } catch (err) {
    unlock();
    throw new InputError(
      dir,
      `cannot open the run store: ${(err as Error).message}`,
      'pass another --db folder',
    );
  }
  let queue: Promise<unknown> = Promise.resolve();
  // PGlite runs one statement at a time; a transaction must not interleave with other queries.
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    kind: 'pglite',
    where: dir,
    query: (text, params) => serial(async () => (await db.query(text, pgParams(params))).rows as never),
    exec: (script) =>
      serial(async () => {
        await db.exec(script);
      }),
    transaction: (fn) =>
      serial(() =>
        db.transaction((t) =>
          fn({
            query: async (text, params) => {
              await letEventsIn();
              return (await t.query(text, pgParams(params))).rows as never;
            },
            exec: async (script) => {
              await letEventsIn();
              await t.exec(script);
            },
          }),
        ),
      ),
    async close() {
      await queue;
      await db.close();
      unlock();
    },
  };
}
