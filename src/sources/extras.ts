/**
 * What serve answers with as the must-gather holds it, beyond the kinds atlevel models: the objects
 * of every other resource's YAML (so `kubectl get` works on any kind the gather captured) and the pod
 * logs. Which files those are is the input's plan (planning.ts servedFiles, the same answer
 * `atlevel inputs` shows); here each is read through the decoders (a `.yaml.gz` is served too) and
 * charged to the run's budget, and every parsed tree is held to the budget's node and depth limits,
 * as every other input is. Log files are indexed by path here and read on request by the server,
 * never by a path from a URL. Archives and single files contribute none.
 */
import { stat } from 'node:fs/promises';
import { type Budget, InputError, isKnownKind } from '../model/index.js';
import { type Document, parseDocuments } from './documents.js';
import { readInputText } from './formats/index.js';
import { planListing, servedFiles } from './planning.js';
import { folderInput } from './runs.js';

type Loose = Record<string, unknown>;

/** One object of a kind atlevel does not model, as the must-gather holds it. */
interface ServedObject {
  readonly kind: string;
  readonly apiVersion: string | undefined;
  readonly object: Loose & { metadata: Loose & { name: string; namespace?: string } };
}

export interface LogFiles {
  readonly current?: string;
  readonly previous?: string;
}

export interface ServedExtras {
  readonly objects: ServedObject[];
  /** `namespace/pod/container` → log files. */
  readonly logs: Map<string, LogFiles>;
  readonly notes: string[];
}

/** Larger YAML files are skipped (a note says so): they are not resources a client lists. */
const MAX_OBJECT_FILE_BYTES = 64 * 1024 * 1024;

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objectsOf(value: unknown): Loose[] {
  if (!isObject(value)) return [];
  if (Array.isArray(value.items) && (value.kind === undefined || String(value.kind).endsWith('List'))) {
    return value.items.filter(isObject);
  }
  return [value];
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** The served-as-is files of each folder input (of the hosted cluster `guest`, or the management cluster's), read within `budget`. */
export async function readServedExtras(
  paths: readonly string[],
  opts: { readonly budget?: Budget } = {},
  guest?: string,
): Promise<ServedExtras> {
  const objects: ServedObject[] = [];
  const logs = new Map<string, LogFiles>();
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    if (!(await isFolder(path))) continue;
    // The folder as the loader lists it (runs.ts folderInput): without the files beside its runs,
    // and past a link loop beside them, as `inputs` plans what is served.
    const { listing, beside } = await folderInput(path);
    const files = beside.size > 0 ? listing.files.filter((f) => !beside.has(f.rel)) : listing.files;
    const rels = files.map((f) => f.rel);
    const byRel = new Map(files.map((f) => [f.rel, f]));
    for (const served of servedFiles(rels, planListing(rels))) {
      const f = byRel.get(served.rel);
      // A hypershift dump's guest files are the guest's, never the management cluster's (docs/hosted.md).
      if (!f || served.guest !== guest) continue;
      if (served.log) {
        const { key, previous } = served.log;
        logs.set(key, { ...logs.get(key), [previous ? 'previous' : 'current']: f.abs });
        continue;
      }
      if (f.size > MAX_OBJECT_FILE_BYTES) {
        notes.push(`${f.rel}: larger than 64 MiB, not served`);
        continue;
      }
      let docs: Document[];
      try {
        const text = await readInputText(f.abs, {
          display: f.rel,
          maxBytes: MAX_OBJECT_FILE_BYTES,
          ...(opts.budget ? { budget: opts.budget } : {}),
        });
        docs = parseDocuments(text, f.rel, false, opts.budget);
      } catch (err) {
        notes.push(
          err instanceof InputError ? `${err.message}: not served` : `${f.rel}: unreadable, not served`,
        );
        continue;
      }
      for (const doc of docs) {
        for (const o of objectsOf(doc.value)) {
          const kind = o.kind;
          const meta = o.metadata;
          if (typeof kind !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(kind) || isKnownKind(kind)) continue;
          if (!isObject(meta) || typeof meta.name !== 'string' || meta.name === '') continue;
          if (meta.namespace !== undefined && typeof meta.namespace !== 'string') continue;
          const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : undefined;
          const id = `${apiVersion ?? ''}\u0000${kind}\u0000${meta.namespace ?? ''}\u0000${meta.name}`;
          if (seen.has(id)) continue;
          seen.add(id);
          objects.push({ kind, apiVersion, object: o as ServedObject['object'] });
        }
      }
    }
  }
  return { objects, logs, notes };
}
