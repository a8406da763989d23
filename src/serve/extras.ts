/**
 * What a must-gather holds beyond the kinds atlevel models: every other resource's YAML (served as
 * is, so `kubectl get` works on any kind the gather captured) and the pod logs
 * (`namespaces/NS/pods/POD/CONTAINER/CONTAINER/logs/{current,previous}.log`, the layout of
 * openshift/must-gather's gather scripts). Only files below a must-gather root of a folder input
 * are read; log files are indexed by path here and read on request, never by a path from a URL.
 */
import { readFile } from 'node:fs/promises';
import { InputError, isKnownKind } from '../model/index.js';
import { listFolder, parseDocuments } from '../sources/index.js';
import type { KindObject } from './moment.js';

export interface LogFiles {
  readonly current?: string;
  readonly previous?: string;
}

export interface Extras {
  readonly objects: KindObject[];
  /** `namespace/pod/container` → log files. */
  readonly logs: Map<string, LogFiles>;
  readonly notes: string[];
}

/** Larger YAML files are skipped (a note says so): they are not resources a client lists. */
const MAX_OBJECT_FILE_BYTES = 64 * 1024 * 1024;

type Loose = Record<string, unknown>;

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The folder holding `cluster-scoped-resources/` or `namespaces/`, for a path below one. */
function mustGatherInside(rel: string): { root: string; inside: string } | undefined {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    if (parts[i] === 'cluster-scoped-resources' || parts[i] === 'namespaces') {
      return { root: parts.slice(0, i).join('/'), inside: parts.slice(i).join('/') };
    }
  }
  return undefined;
}

const LOG = /^namespaces\/([^/]+)\/pods\/([^/]+)\/([^/]+)\/\3\/logs\/(current|previous)\.log$/;

function objectsOf(value: unknown): Loose[] {
  if (!isObject(value)) return [];
  if (Array.isArray(value.items) && (value.kind === undefined || String(value.kind).endsWith('List'))) {
    return value.items.filter(isObject);
  }
  return [value];
}

/** The hosted cluster a must-gather root is the guest of (a hypershift dump's `hostedcluster-NAME/`). */
function guestOf(root: string): string | undefined {
  return /(?:^|\/)hostedcluster-([^/]+)$/.exec(root)?.[1];
}

/**
 * Read the extras of each folder input; archives and single files contribute none. A hypershift
 * dump's guest files are the guest's (`guest` names it) and never the management cluster's
 * (docs/hosted.md).
 */
export async function collectExtras(
  paths: readonly string[],
  stats: (p: string) => Promise<boolean>,
  guest?: string,
): Promise<Extras> {
  const objects: KindObject[] = [];
  const logs = new Map<string, LogFiles>();
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    if (!(await stats(path))) continue;
    const listing = await listFolder(path);
    for (const f of listing.files) {
      const where = mustGatherInside(f.rel);
      if (!where || guestOf(where.root) !== guest) continue;
      const log = LOG.exec(where.inside);
      if (log) {
        const key = `${log[1]}/${log[2]}/${log[3]}`;
        logs.set(key, { ...logs.get(key), [log[4] === 'previous' ? 'previous' : 'current']: f.abs });
        continue;
      }
      if (!/\.ya?ml$/i.test(f.rel)) continue;
      if (f.size > MAX_OBJECT_FILE_BYTES) {
        notes.push(`${f.rel}: larger than 64 MiB, not served`);
        continue;
      }
      let docs: ReturnType<typeof parseDocuments>;
      try {
        docs = parseDocuments(await readFile(f.abs, 'utf8'), f.rel, false);
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
          objects.push({ kind, apiVersion, object: o as KindObject['object'] });
        }
      }
    }
  }
  return { objects, logs, notes };
}
