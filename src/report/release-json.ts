/**
 * `atlevel release diff -o json` and `atlevel release info -o json`, documented in docs/diff-json.md.
 */
import { type ReleasePayload, safeJson } from '../model/index.js';
import { type ComponentMatch, type ReleaseDiff, UNKNOWN_VERSION } from '../release/index.js';
import type { Documenter } from './reporter.js';
import type { ReleaseInfoReport } from './results.js';

export const RELEASE_JSON_SCHEMA_VERSION = 1;

export function renderReleaseDiffJson(d: ReleaseDiff): string {
  return safeJson(releaseDiffDocument(d));
}

/** The document of `atlevel release diff -o json` and `-o yaml` (report/formats.ts). */
export function releaseDiffDocument(d: ReleaseDiff) {
  // docs/diff-json.md: `version` is `unknown` when the file carries none (schema 1 keeps the key).
  const side = (s: ReleaseDiff['from']) => ({ version: UNKNOWN_VERSION, ...s });
  const doc = {
    schemaVersion: RELEASE_JSON_SCHEMA_VERSION,
    kind: 'ReleaseDiff',
    ...d,
    from: side(d.from),
    to: side(d.to),
  };
  return doc;
}

export function renderReleaseInfoJson(p: ReleasePayload, matches?: readonly ComponentMatch[]): string {
  return safeJson(releaseInfoDocument(p, matches));
}

function releaseInfoDocument(p: ReleasePayload, matches?: readonly ComponentMatch[]) {
  return {
    schemaVersion: RELEASE_JSON_SCHEMA_VERSION,
    kind: 'ReleasePayload',
    // docs/diff-json.md: `unknown` when the file carries no version (schema 1 keeps the key).
    version: p.version ?? UNKNOWN_VERSION,
    ...(p.image ? { image: p.image } : {}),
    file: p.ref.file,
    ...(matches
      ? { matches: matches.map((m) => m.component) }
      : { components: [...p.components].sort((a, b) => a.name.localeCompare(b.name)) }),
  };
}

/** The document of `atlevel release info -o json` and `-o yaml` (report/formats.ts). */
export const releaseInfoDoc: Documenter<ReleaseInfoReport> = (r) =>
  releaseInfoDocument(r.payload, r.lookup?.matches);
