/**
 * sources/url/ turns CI URLs into inputs: Prow job pages, gcsweb pages, storage.googleapis.com and
 * gs:// URLs are mapped to a Cloud Storage bucket and path, listed with the JSON API, and only the
 * objects a layout claims are fetched (bounded concurrency, retries with backoff, checked against
 * their size and MD5/CRC32C) into a cache keyed by bucket, path and generation. Large objects come
 * in parallel ranged slices, read back and hashed by a worker thread (hasher.ts, hash-worker.ts) so
 * that the main thread only reads sockets and writes files. docs/urls.md has the URL forms, the run
 * layout walked, the cache and the flags.
 */
export { cacheRoot, ObjectCache } from './cache.js';
export { looksLikeUrl, parseCiUrl } from './location.js';
export { type FetchStats, fetchFile, type RemoteInput, RemoteSession } from './open.js';
export { ENDPOINT_ENV, type ProgressSink, PUBLIC_ENDPOINT, type RemoteOptions } from './options.js';
export { pruneCache } from './prune.js';
