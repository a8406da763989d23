/**
 * `atlevel release diff -o json` and `atlevel release info -o json`, documented in docs/diff-json.md.
 */
import { type ReleasePayload, safeJson } from '../model/index.js';
import { type ComponentMatch, type ReleaseDiff, UNKNOWN_VERSION } from '../release/index.js';
import type { Reporter } from './reporter.js';
import type { ReleaseInfoReport } from './results.js';

export const RELEASE_JSON_SCHEMA_VERSION = 1;

export function renderReleaseDiffJson(d: ReleaseDiff): string {
  // docs/diff-json.md: `version` is `unknown` when the file carries none (schema 1 keeps the key).
  const side = (s: ReleaseDiff['from']) => ({ version: UNKNOWN_VERSION, ...s });
  const doc = {
    schemaVersion: RELEASE_JSON_SCHEMA_VERSION,
    kind: 'ReleaseDiff',
    ...d,
    from: side(d.from),
    to: side(d.to),
  };
  return safeJson(doc);
}

export function renderReleaseInfoJson(p: ReleasePayload, matches?: readonly ComponentMatch[]): string {
  const doc = {
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
  return safeJson(doc);
}

/** The JSON reporter of `atlevel release info` (report/formats.ts). */
export const releaseInfoJson: Reporter<ReleaseInfoReport, unknown> = (r) =>
  renderReleaseInfoJson(r.payload, r.lookup?.matches);
