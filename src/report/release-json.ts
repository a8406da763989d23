/**
 * `atlevel release diff -o json` and `atlevel release info -o json`, documented in docs/diff-json.md.
 */
import type { ReleasePayload } from '../model/index.js';
import type { ComponentMatch, ReleaseDiff } from '../release/index.js';
import type { Reporter } from './reporter.js';
import type { ReleaseInfoReport } from './results.js';

export const RELEASE_JSON_SCHEMA_VERSION = 1;

export function renderReleaseDiffJson(d: ReleaseDiff): string {
  return `${JSON.stringify({ schemaVersion: RELEASE_JSON_SCHEMA_VERSION, kind: 'ReleaseDiff', ...d }, null, 2)}\n`;
}

export function renderReleaseInfoJson(p: ReleasePayload, matches?: readonly ComponentMatch[]): string {
  const doc = {
    schemaVersion: RELEASE_JSON_SCHEMA_VERSION,
    kind: 'ReleasePayload',
    version: p.version,
    ...(p.image ? { image: p.image } : {}),
    file: p.ref.file,
    ...(matches
      ? { matches: matches.map((m) => m.component) }
      : { components: [...p.components].sort((a, b) => a.name.localeCompare(b.name)) }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The JSON reporter of `atlevel release info` (report/formats.ts). */
export const releaseInfoJson: Reporter<ReleaseInfoReport, unknown> = (r) =>
  renderReleaseInfoJson(r.payload, r.lookup?.matches);
