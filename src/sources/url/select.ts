/**
 * Which listed objects to fetch: exactly the ones a layout claims, so nothing is downloaded that no
 * reader needs. In a CI run that is the files claimed by name (gather-extra's dumps, build logs, e2e
 * intervals and timelines, ci-operator's release-images files) and, when asked, must-gather tarballs;
 * in any other folder it is what the folder planner would read (oc get files, must-gather trees).
 */
import { baseName, isArchiveName, planFiles, readerByName } from '../layout.js';
import type { Discovery } from './discover.js';
import type { ObjectInfo } from './gcs.js';

export interface Selected {
  /** Relative to the walked folder, `/`-separated. */
  readonly rel: string;
  readonly object: ObjectInfo;
  /** A must-gather tarball, read as an input of its own. */
  readonly archive: boolean;
}

export interface Selection {
  readonly fetch: Selected[];
  /** Listed but not needed. */
  readonly skipped: { readonly rel: string; readonly size: number }[];
}

export interface SelectOptions {
  /** Also fetch must-gather tarballs (`--must-gather`). */
  readonly mustGather?: boolean;
}

/** A step folder that runs must-gather (gather-must-gather, and variants). */
const MUST_GATHER_STEP = /(^|\/)[^/]*must-gather[^/]*\/artifacts\/[^/]+$/;

export function selectObjects(d: Discovery, opts: SelectOptions = {}): Selection {
  if (d.kind === 'object') {
    const o = d.objects[0];
    return { fetch: o ? [{ rel: baseName(o.name), object: o, archive: false }] : [], skipped: [] };
  }
  const rels = d.objects.map((o) => ({ rel: o.name.slice(d.prefix.length), object: o }));
  const fetch: Selected[] = [];
  const skipped: Selection['skipped'] = [];
  if (d.kind === 'run') {
    for (const { rel, object } of rels) {
      if (readerByName(baseName(rel))) fetch.push({ rel, object, archive: false });
      else if (opts.mustGather && isArchiveName(baseName(rel)) && MUST_GATHER_STEP.test(rel))
        fetch.push({ rel, object, archive: true });
      else skipped.push({ rel, size: object.size });
    }
    return { fetch, skipped };
  }
  const plan = planFiles(rels.map((r) => r.rel));
  const wanted = new Set(plan.files.map((f) => f.rel));
  for (const { rel, object } of rels) {
    if (wanted.has(rel)) fetch.push({ rel, object, archive: false });
    else if (opts.mustGather && isArchiveName(baseName(rel))) fetch.push({ rel, object, archive: true });
    else skipped.push({ rel, size: object.size });
  }
  return { fetch, skipped };
}
