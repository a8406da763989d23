/**
 * A run's identity, so that ingesting it twice, from two shards, after a kill, or as a folder and as
 * its own tarball stores it once. A run is named by what it is, never by its container's bytes: a
 * Prow run by its job and build id, read from the shape every Prow artifact path and URL has
 * (`…/logs/JOB/BUILD_ID/…`, `…/pr-logs/pull/ORG_REPO/PR/JOB/BUILD_ID/…`: docs/urls.md) or from its
 * own prowjob.json (started.json, finished.json); anything else by a SHA-256 of its files (each
 * one's path inside the run and its bytes), which a folder and an archive of it share. A must-gather
 * with one image folder also gets the id that folder alone has, which it was stored under when the
 * image folder was the run (ingest keeps that id where a store has it: run.ts).
 */
import { createHash } from 'node:crypto';
import { eachRunFile, type FoundRun } from '../sources/index.js';

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

/** The Prow files a run's identity is read from, at most this big (they are a few KiB). */
const PROW_FILES = new Set(['prowjob.json', 'started.json', 'finished.json']);
const MAX_PROW_FILE = 1024 * 1024;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

/**
 * The job and build id a Prow file states. prowjob.json is the ProwJob itself (`spec.job`,
 * `status.build_id`, and the `prow.k8s.io/job` and `prow.k8s.io/build-id` labels); started.json and
 * finished.json hold them only when the job's metadata adds them, under `metadata` or at the top.
 */
function prowIdOfFile(name: string, content: string): ProwId | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!isObject(doc)) return undefined;
  const candidates: [unknown, unknown][] = [];
  if (name === 'prowjob.json') {
    const spec = isObject(doc.spec) ? doc.spec : {};
    const status = isObject(doc.status) ? doc.status : {};
    const meta = isObject(doc.metadata) ? doc.metadata : {};
    const labels = isObject(meta.labels) ? meta.labels : {};
    candidates.push([spec.job, status.build_id], [labels['prow.k8s.io/job'], labels['prow.k8s.io/build-id']]);
  } else {
    for (const o of [doc, isObject(doc.metadata) ? doc.metadata : {}]) {
      candidates.push([o.job ?? o['job-name'], o.build_id ?? o['build-id'] ?? o.buildid]);
    }
  }
  for (const [j, b] of candidates) {
    const job = text(j);
    const buildId = text(b);
    if (job && buildId && BUILD_ID.test(buildId) && JOB.test(job)) return { job, buildId };
  }
  return undefined;
}

/** What a run is, read from its files: its Prow id when a Prow file states one, and its content's hash. */
export interface RunContent {
  readonly prow?: ProwId;
  /** `sha256:<hex>` of the run's files (paths and bytes), the same for a folder and an archive of it. */
  readonly hash: string;
  /**
   * A must-gather with one image folder, when the must-gather's folder holds more than it: the hash
   * the image folder alone has, the id such a run was stored under when its image folder was the run.
   */
  readonly former?: string;
}

interface HashedFile {
  readonly rel: string;
  readonly size: number;
  readonly digest: string;
}

/**
 * Drop the leading folders every path shares (`run/artifacts/…` → `artifacts/…`), so that a folder,
 * an archive of it made from its parent (`tar czf run.tar.gz run`) and one made inside it
 * (`tar czf run.tar.gz -C run .`) name their files alike.
 */
function withoutSharedRoot(rels: readonly string[]): (rel: string) => string {
  let prefix = '';
  for (;;) {
    const first = rels[0];
    if (first === undefined) break;
    const cut = first.indexOf('/', prefix.length);
    if (cut === -1) break;
    const next = first.slice(0, cut + 1);
    if (!rels.every((r) => r.startsWith(next))) break;
    prefix = next;
  }
  return (rel) => rel.slice(prefix.length);
}

/**
 * Read a run once: hash each file, keep the Prow files that name it. A run is named by what it is,
 * not by its container: its Prow id when its own files state one, else the hash of its files' paths
 * and bytes, in path order (an archive lists its entries in any order).
 */
export async function runContent(run: FoundRun, image?: string): Promise<RunContent> {
  const files: HashedFile[] = [];
  const prowFiles: { rel: string; content: string }[] = [];
  await eachRunFile(run, async (rel, size, bytes) => {
    const h = createHash('sha256');
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const keep = PROW_FILES.has(base) && size <= MAX_PROW_FILE;
    const chunks: Buffer[] = [];
    for await (const chunk of bytes) {
      h.update(chunk);
      if (keep) chunks.push(chunk);
    }
    files.push({ rel, size, digest: h.digest('hex') });
    if (keep) prowFiles.push({ rel, content: Buffer.concat(chunks).toString('utf8') });
  });
  const strip = withoutSharedRoot(files.map((f) => f.rel));
  const hash = hashOf(files);
  // The image folder's own files, named inside it, as they were when it was the run.
  const inImage = image === undefined ? [] : filesIn(files, `${image}/`);
  const former = inImage.length > 0 ? hashOf(inImage) : hash;
  // The shallowest Prow file that states an id, prowjob.json first: the run's own, not a nested one's.
  const depth = (rel: string) => strip(rel).split('/').length;
  const order = ['prowjob.json', 'finished.json', 'started.json'];
  prowFiles.sort(
    (a, b) =>
      depth(a.rel) - depth(b.rel) ||
      order.indexOf(a.rel.slice(a.rel.lastIndexOf('/') + 1)) -
        order.indexOf(b.rel.slice(b.rel.lastIndexOf('/') + 1)),
  );
  let prow: ProwId | undefined;
  for (const f of prowFiles) {
    prow = prowIdOfFile(f.rel.slice(f.rel.lastIndexOf('/') + 1), f.content);
    if (prow) break;
  }
  return { ...(prow ? { prow } : {}), hash, ...(former !== hash ? { former } : {}) };
}

/** The files under a folder of the run, named inside it. */
function filesIn(files: readonly HashedFile[], prefix: string): HashedFile[] {
  return files
    .filter((f) => f.rel.startsWith(prefix))
    .map((f) => ({ ...f, rel: f.rel.slice(prefix.length) }));
}

/** `sha256:<hex>` of files: each one's path (the folders every path shares left out), size and digest, in path order. */
function hashOf(files: readonly HashedFile[]): string {
  const strip = withoutSharedRoot(files.map((f) => f.rel));
  const h = createHash('sha256');
  for (const f of files
    .map((x) => ({ ...x, rel: strip(x.rel) }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)))
    h.update(`${f.rel}\0${f.size}\0${f.digest}\0`);
  return `sha256:${h.digest('hex')}`;
}

/** A URL without a Prow id: its normalised text stands in for the content, which is not fetched yet. */
export function urlHash(url: string): string {
  return `sha256:${createHash('sha256').update(url.replace(/\/+$/, '')).digest('hex')}`;
}
