/**
 * The download cache, under `$XDG_CACHE_HOME/atlevel` (or `--cache-dir`). CI artifacts never change
 * once written, and Cloud Storage gives every version of an object its own generation number, so an
 * entry keyed by bucket, name and generation (ETag when a server gives no generation) is valid forever.
 *
 * Layout (docs/urls.md):
 *   v1/objects/BUCKET/HH/HASH/KEY/meta.json   the object resource, when it was fetched
 *   v1/objects/BUCKET/HH/HASH/KEY/NAME        the stored bytes (NAME: the object's base name, made safe)
 *   v1/trees/HASH.json                         what a run's listing found (only for finished runs)
 *   tmp/                                       downloads in progress
 *
 * An entry is written in tmp/ and renamed into place in one step, after its bytes were checked
 * against the object's size and MD5/CRC32C: a killed download leaves only a tmp/ folder (removed by
 * `atlevel cache prune`), never a partial entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import * as z from 'zod';
import type { ObjectInfo, StorageClient } from './gcs.js';

const VERSION = 'v1';

export interface CachedObject {
  readonly info: ObjectInfo;
  /** The cached bytes: a file whose base name is the object's. */
  readonly path: string;
  readonly fetchedAt: string;
  /** True when this run downloaded it, false when it was already cached. */
  readonly fresh: boolean;
}

/** What the walk of a finished run found: enough to plan and read it again with no request. */
export interface TreeRecord {
  /** The object path as the URL gave it: what the same URL looks up next time. */
  readonly key: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly kind: 'run' | 'folder' | 'object';
  readonly objects: readonly ObjectInfo[];
  readonly unvisited: readonly string[];
  readonly listedAt: string;
}

/** `--cache-dir`, else ATLEVEL_CACHE_DIR, else $XDG_CACHE_HOME/atlevel, else ~/.cache/atlevel. */
export function cacheRoot(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.ATLEVEL_CACHE_DIR) return resolve(env.ATLEVEL_CACHE_DIR);
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
  const base = xdg?.startsWith('/') ? xdg : join(homedir(), '.cache');
  return join(base, 'atlevel');
}

const OBJECT_INFO = z.object({
  bucket: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  generation: z.string().optional(),
  etag: z.string().optional(),
  md5Hash: z.string().optional(),
  crc32c: z.string().optional(),
  contentEncoding: z.string().optional(),
  updated: z.string().optional(),
});
const META = z.object({ object: OBJECT_INFO, fetchedAt: z.string() });
const TREE = z.object({
  key: z.string(),
  bucket: z.string(),
  prefix: z.string(),
  kind: z.enum(['run', 'folder', 'object']),
  objects: z.array(OBJECT_INFO),
  unvisited: z.array(z.string()),
  listedAt: z.string(),
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The version part of an entry's key: the generation, else the ETag, else the digests. */
export function versionKey(o: ObjectInfo): string {
  if (o.generation !== undefined) return `g${o.generation}`;
  if (o.etag !== undefined) return `e${sha256(o.etag).slice(0, 24)}`;
  return `d${sha256(JSON.stringify([o.size, o.md5Hash, o.crc32c, o.updated])).slice(0, 24)}`;
}

/** A file name that keeps what readers look at (`machineconfigs.json`, `.tar.gz`) and nothing unsafe. */
export function safeBaseName(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const clean = base.replace(/[^A-Za-z0-9._+-]/g, '_').slice(-120);
  if (clean === '' || clean === '.' || clean === '..' || clean === 'meta.json') return `_${clean}`;
  return clean;
}

export class ObjectCache {
  constructor(readonly root: string) {}

  #nameDir(bucket: string, name: string): string {
    const h = sha256(name);
    return join(this.root, VERSION, 'objects', safeBaseName(bucket), h.slice(0, 2), h);
  }

  #entryDir(o: ObjectInfo): string {
    return join(this.#nameDir(o.bucket, o.name), versionKey(o));
  }

  /** The cached copy of exactly this version of the object, if there is a sound one. */
  async lookup(o: ObjectInfo): Promise<CachedObject | undefined> {
    return this.#read(this.#entryDir(o), o.bucket, o.name);
  }

  /** The most recently fetched cached version of a name (single-object URLs, --offline). */
  async latest(bucket: string, name: string): Promise<CachedObject | undefined> {
    const dir = this.#nameDir(bucket, name);
    const keys = await readdir(dir).catch(() => [] as string[]);
    let best: CachedObject | undefined;
    for (const key of keys) {
      const entry = await this.#read(join(dir, key), bucket, name);
      if (entry && (!best || entry.fetchedAt > best.fetchedAt)) best = entry;
    }
    return best;
  }

  async #read(dir: string, bucket: string, name: string): Promise<CachedObject | undefined> {
    let meta: z.infer<typeof META>;
    try {
      const parsed = META.safeParse(JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')));
      if (!parsed.success) return undefined;
      meta = parsed.data;
    } catch {
      return undefined;
    }
    if (meta.object.bucket !== bucket || meta.object.name !== name) return undefined;
    const info = stripUndefined(meta.object);
    const path = join(dir, safeBaseName(name));
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    // Written atomically, so a size mismatch means someone edited the cache: ignore the entry.
    if (size !== info.size) return undefined;
    // Mark it used, for `cache prune --older-than`.
    const now = new Date();
    await utimes(join(dir, 'meta.json'), now, now).catch(() => undefined);
    return { info, path, fetchedAt: meta.fetchedAt, fresh: false };
  }

  /** Download `o` through `client` into the cache (atomically), unless it is already there. */
  async fill(o: ObjectInfo, client: StorageClient): Promise<CachedObject> {
    const have = await this.lookup(o);
    if (have) return have;
    const tmp = await this.#tmpDir();
    const file = join(tmp, safeBaseName(o.name));
    try {
      // A large object comes in slices over several connections; a server that ignores ranges
      // (false) gets the single-stream download.
      const sliced = client.sliceable(o) ? await client.downloadSliced(o, file) : false;
      if (sliced === false) await this.#stream(o, client, file);
      const handle = await open(file, 'r+');
      await handle.sync().finally(() => handle.close());
      const fetchedAt = new Date().toISOString();
      await writeFile(join(tmp, 'meta.json'), `${JSON.stringify({ object: o, fetchedAt })}\n`);
      const final = this.#entryDir(o);
      await mkdir(join(final, '..'), { recursive: true });
      try {
        await rename(tmp, final);
      } catch (err) {
        // Another atlevel filled the same entry first; theirs is as good as ours.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
        await rm(tmp, { recursive: true, force: true });
      }
      return { info: o, path: join(final, safeBaseName(o.name)), fetchedAt, fresh: true };
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      throw err;
    }
  }

  /** The object as one stream into `file`, through the client's checks. */
  async #stream(o: ObjectInfo, client: StorageClient, file: string): Promise<void> {
    await client.download(
      o,
      async () => {
        // A deep write buffer lets the socket be read while the disk writes: with the default
        // 16 KiB every network chunk waited for the previous write to finish.
        const sink = createWriteStream(file, { flags: 'w', highWaterMark: 4 * 1024 * 1024 });
        // Errors reach the download through write/end callbacks; a discarded sink's late ones are moot.
        sink.on('error', () => undefined);
        return sink;
      },
      async (sink: Writable) => {
        await new Promise<void>((resolve) => {
          if (sink.destroyed) resolve();
          else sink.once('close', () => resolve()).destroy();
        });
      },
    );
  }

  async #tmpDir(): Promise<string> {
    const dir = join(this.root, 'tmp', `${Date.now()}-${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  #treePath(bucket: string, key: string): string {
    return join(this.root, VERSION, 'trees', `${sha256(`${bucket}\0${key}`)}.json`);
  }

  async readTree(bucket: string, key: string): Promise<TreeRecord | undefined> {
    try {
      const parsed = TREE.safeParse(JSON.parse(await readFile(this.#treePath(bucket, key), 'utf8')));
      if (!parsed.success || parsed.data.bucket !== bucket || parsed.data.key !== key) return undefined;
      const now = new Date();
      await utimes(this.#treePath(bucket, key), now, now).catch(() => undefined);
      return { ...parsed.data, objects: parsed.data.objects.map(stripUndefined) };
    } catch {
      return undefined;
    }
  }

  async writeTree(record: TreeRecord): Promise<void> {
    const path = this.#treePath(record.bucket, record.key);
    await mkdir(join(path, '..'), { recursive: true });
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, `${JSON.stringify(record)}\n`);
    await rename(tmp, path);
  }

  /** Every sound entry, for `atlevel cache ls` and `prune`. */
  async list(): Promise<{ objects: CacheEntry[]; trees: TreeEntry[]; partial: PartialEntry[] }> {
    const objects: CacheEntry[] = [];
    const base = join(this.root, VERSION, 'objects');
    for (const bucket of await dirs(base)) {
      for (const hh of await dirs(join(base, bucket))) {
        for (const h of await dirs(join(base, bucket, hh))) {
          for (const key of await dirs(join(base, bucket, hh, h))) {
            const dir = join(base, bucket, hh, h, key);
            const entry = await readEntry(dir);
            objects.push(entry ?? { dir, broken: true, bytes: 0, usedAt: 0 });
          }
        }
      }
    }
    const trees: TreeEntry[] = [];
    const treeDir = join(this.root, VERSION, 'trees');
    for (const f of await readdir(treeDir).catch(() => [] as string[])) {
      const path = join(treeDir, f);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      let record: TreeRecord | undefined;
      try {
        const parsed = TREE.safeParse(JSON.parse(await readFile(path, 'utf8')));
        if (parsed.success) record = parsed.data as TreeRecord;
      } catch {
        record = undefined;
      }
      trees.push({ path, usedAt: info.mtimeMs, ...(record ? { record } : {}) });
    }
    const partial: PartialEntry[] = [];
    const tmp = join(this.root, 'tmp');
    for (const d of await readdir(tmp).catch(() => [] as string[])) {
      const info = await stat(join(tmp, d)).catch(() => undefined);
      if (info) partial.push({ dir: join(tmp, d), usedAt: info.mtimeMs });
    }
    return { objects, trees, partial };
  }
}

export interface CacheEntry {
  readonly dir: string;
  readonly object?: ObjectInfo;
  readonly fetchedAt?: string;
  readonly bytes: number;
  /** Last use (ms since the epoch). */
  readonly usedAt: number;
  readonly broken?: boolean;
}

export interface TreeEntry {
  readonly path: string;
  readonly record?: TreeRecord;
  readonly usedAt: number;
}

export interface PartialEntry {
  readonly dir: string;
  readonly usedAt: number;
}

async function dirs(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

async function readEntry(dir: string): Promise<CacheEntry | undefined> {
  try {
    const metaPath = join(dir, 'meta.json');
    const parsed = META.safeParse(JSON.parse(await readFile(metaPath, 'utf8')));
    if (!parsed.success) return undefined;
    const info = stripUndefined(parsed.data.object);
    const data = await stat(join(dir, safeBaseName(info.name)));
    if (data.size !== info.size) return undefined;
    const used = await stat(metaPath);
    return { dir, object: info, fetchedAt: parsed.data.fetchedAt, bytes: data.size, usedAt: used.mtimeMs };
  } catch {
    return undefined;
  }
}

/** zod gives `prop: undefined` for absent optionals; exactOptionalPropertyTypes wants them gone. */
function stripUndefined(o: z.infer<typeof OBJECT_INFO>): ObjectInfo {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as unknown as ObjectInfo;
}
