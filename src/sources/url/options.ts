/**
 * How URL inputs are fetched: the storage endpoint, the cache, offline mode, concurrency, and the
 * hooks through which the CLI shows progress and --verbose lines (the library never writes to a
 * terminal itself).
 */
import { InputError, printable } from '../../model/index.js';
import { ENDPOINT_ENV } from '../words.js';
import type { RetryPolicy } from './retry.js';

/** Cloud Storage's public endpoint: anonymous reads of public buckets such as origin-ci-test. */
export const PUBLIC_ENDPOINT = 'https://storage.googleapis.com';
export { ENDPOINT_ENV };
export const DEFAULT_CONCURRENCY = 16;

/** Bytes and files, as they are fetched: the CLI draws a progress bar from these. */
export interface ProgressSink {
  start(totalBytes: number, totalFiles: number): void;
  bytes(n: number): void;
  fileDone(): void;
  stop(): void;
}

export interface RemoteOptions {
  /** `--storage-endpoint`; else ATLEVEL_STORAGE_ENDPOINT; else a loopback URL's own origin; else public. */
  readonly endpoint?: string;
  /** `--cache-dir`; else ATLEVEL_CACHE_DIR; else $XDG_CACHE_HOME/atlevel. */
  readonly cacheDir?: string;
  /** `--offline`: use only the cache; a URL not fully cached is an error. */
  readonly offline?: boolean;
  /** `--must-gather`: also fetch and read a run's must-gather tarballs. */
  readonly mustGather?: boolean;
  /** Requests in flight at once. */
  readonly concurrency?: number;
  /** `--verbose` lines (what was skipped, retries, cache hits). */
  readonly verbose?: (line: string) => void;
  readonly progress?: ProgressSink;
  /** For tests: faster retries and timeouts. */
  readonly retry?: RetryPolicy;
  readonly idleTimeoutMs?: number;
  /** The fixed part of every request's deadline (url/http.ts deadlineFor). */
  readonly deadlineBaseMs?: number;
  /** Objects larger than this are refused before any byte is fetched (LoadOptions.maxFileBytes). */
  readonly maxFileBytes?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** The endpoint to use for a URL, validated; `loopbackOrigin` is the URL's own origin if local. */
export function storageEndpoint(opts: RemoteOptions, loopbackOrigin: string | undefined): string {
  const env = opts.env ?? process.env;
  const chosen = opts.endpoint ?? (env[ENDPOINT_ENV] || undefined) ?? loopbackOrigin ?? PUBLIC_ENDPOINT;
  let url: URL;
  try {
    url = new URL(chosen);
  } catch {
    throw new InputError(
      printable(chosen, 200),
      'the storage endpoint is not a URL',
      `check --storage-endpoint or ${ENDPOINT_ENV}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(printable(chosen, 200), 'the storage endpoint must be an http or https URL');
  }
  return url.href.replace(/\/+$/, '');
}
