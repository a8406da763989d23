/**
 * `atlevel diff -o json`: the MachineConfigDiff with a schema version and a summary, as documented in
 * docs/diff-json.md. Keys are stable; new optional keys may be added without a version bump.
 */
import type { ConfigPart, MachineConfigDiff } from '../machineconfig/index.js';
import { type ReleasePayload, safeJson } from '../model/index.js';
import { UNKNOWN_VERSION } from '../release/names.js';
import type { Documenter } from './reporter.js';
import type { DiffReport, DiffSelection } from './results.js';

export const DIFF_JSON_SCHEMA_VERSION = 1;

export interface DiffJsonContext {
  readonly releases?: { readonly from?: ReleasePayload; readonly to?: ReleasePayload };
  readonly selection?: DiffSelection;
}

export function renderDiffJson(d: MachineConfigDiff, ctx: DiffJsonContext = {}): string {
  return safeJson(machineConfigDiffDocument(d, ctx));
}

/** The document `-o json` and `-o yaml` print. */
function machineConfigDiffDocument(d: MachineConfigDiff, ctx: DiffJsonContext) {
  const byPart: Partial<Record<ConfigPart, number>> = {};
  for (const ch of d.changes) byPart[ch.part] = (byPart[ch.part] ?? 0) + 1;
  const components = [
    ...new Set(
      d.changes.flatMap((ch) => (ch.images ?? []).flatMap((i) => (i.component ? [i.component] : []))),
    ),
  ].sort();
  const release = (p: ReleasePayload | undefined) =>
    p
      ? { version: p.version ?? UNKNOWN_VERSION, ...(p.image ? { image: p.image } : {}), file: p.ref.file }
      : undefined;
  const doc = {
    schemaVersion: DIFF_JSON_SCHEMA_VERSION,
    kind: 'MachineConfigDiff',
    from: d.from,
    to: d.to,
    identical: d.identical,
    ...(d.fromInfo ? { fromInfo: d.fromInfo } : {}),
    ...(d.toInfo ? { toInfo: d.toInfo } : {}),
    ...(d.filter ? { filter: d.filter } : {}),
    ...(ctx.selection ? { selection: ctx.selection } : {}),
    ...(ctx.releases?.from || ctx.releases?.to
      ? { releases: { from: release(ctx.releases.from), to: release(ctx.releases.to) } }
      : {}),
    summary: { changes: d.changes.length, byPart, components },
    changes: d.changes,
  };
  return doc;
}

/** The document of `atlevel diff -o json` and `-o yaml` (report/formats.ts). */
export const diffDocument: Documenter<DiffReport> = (r) =>
  machineConfigDiffDocument(r.diff, { releases: r.releases, selection: r.selection });
