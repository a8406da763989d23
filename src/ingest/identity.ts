/**
 * A run's identity, so that ingesting it twice, from two shards or after a kill stores it once. A
 * Prow run is named by its job and build id, read from the shape every Prow artifact path and URL
 * has (`…/logs/JOB/BUILD_ID/…`, `…/pr-logs/pull/ORG_REPO/PR/JOB/BUILD_ID/…`: docs/urls.md); anything
 * else by a SHA-256 of its content (every file's relative path and bytes, or the archive's bytes).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface ProwId {
  readonly job: string;
  readonly buildId: string;
}

/** Prow build ids are decimal snowflakes (19 digits today); older ones are shorter, never tiny. */
const BUILD_ID = /^\d{6,25}$/;
/** A job name: what Prow allows in a ProwJob name, with at least one letter. */
const JOB = /^(?=.*[a-z])[a-z0-9][a-z0-9._-]*$/i;

/** The job and build id in a path or URL, the last `JOB/BUILD_ID` pair in it. */
export function prowIdOf(pathOrUrl: string): ProwId | undefined {
  let path = pathOrUrl;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathOrUrl)) path = new URL(pathOrUrl).pathname;
  } catch {
    // Not a URL after all: read it as a path.
  }
  const parts = path.split('/').filter((p) => p !== '');
  for (let i = parts.length - 1; i >= 1; i -= 1) {
    const build = parts[i] as string;
    const job = parts[i - 1] as string;
    if (BUILD_ID.test(build) && JOB.test(job) && !BUILD_ID.test(job)) return { job, buildId: build };
  }
  return undefined;
}

export function prowRunId(p: ProwId): string {
  return `prow:${p.job}/${p.buildId}`;
}

/** SHA-256 of a file's bytes, streamed. */
async function hashFile(path: string, h = createHash('sha256')): Promise<ReturnType<typeof createHash>> {
  await new Promise<void>((done, fail) => {
    createReadStream(path)
      .on('data', (chunk) => h.update(chunk))
      .on('error', fail)
      .on('end', () => done());
  });
  return h;
}

/** Every regular file under a folder, relative paths sorted (so the hash does not depend on listing order). */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

/** `sha256:<hex>` of a folder (each file's path, size and bytes) or a file (its bytes). */
export async function contentHash(path: string): Promise<string> {
  const st = await stat(path);
  if (!st.isDirectory()) return `sha256:${(await hashFile(path)).digest('hex')}`;
  const h = createHash('sha256');
  for (const rel of await filesUnder(path)) {
    const size = (await stat(join(path, rel))).size;
    h.update(`${rel}\0${size}\0`);
    await hashFile(join(path, rel), h);
  }
  return `sha256:${h.digest('hex')}`;
}

/** A URL without a Prow id: its normalised text stands in for the content, which is not fetched yet. */
export function urlHash(url: string): string {
  return `sha256:${createHash('sha256').update(url.replace(/\/+$/, '')).digest('hex')}`;
}
