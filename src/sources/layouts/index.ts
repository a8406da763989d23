/**
 * LAYOUTS: what an input's files mean. Each layout looks at the whole listing and claims the files it
 * reads; earlier layouts claim first. Works on relative paths only, so a folder and a tar of that
 * folder get the same plan. How to add one is in CONTRIBUTING.md ("Inputs").
 */
import { isArchiveName } from '../decoders/index.js';
import { ciRun } from './ci-run.js';
import { hypershiftDump } from './hypershift-dump.js';
import { mustGather } from './must-gather.js';

export { mustGatherRoot } from './must-gather.js';

import { ocExamples } from './oc-examples.js';
import { ocGet } from './oc-get.js';
import { baseName, type Claim, type Layout } from './types.js';

export { readerByName } from './ci-run.js';
export { OC_EXAMPLE_OPTIONAL, OC_EXAMPLE_SUFFIXES } from './oc-examples.js';
export { baseName, type ReaderSpec } from './types.js';

const LAYOUTS: readonly Layout[] = [ciRun, hypershiftDump, mustGather, ocExamples, ocGet];

export type PlannedFile = Claim;

export interface Plan {
  /** Which layouts were recognised, for the notes. */
  readonly layouts: readonly string[];
  readonly files: readonly PlannedFile[];
  readonly ignored: readonly string[];
  /** Archives found inside a folder: not opened (they would duplicate what is beside them). */
  readonly nestedArchives: readonly string[];
  /** Files a layout knows and does not read (`covers`): the layout's name, by file. */
  readonly covered: ReadonlyMap<string, string>;
  /** The layout that claimed each file of `files`, by its name in the notes. */
  readonly claimedBy: ReadonlyMap<string, string>;
}

/** Plan how to read the files of one folder or archive. `rels` are relative, `/`-separated. */
export function planFiles(rels: readonly string[]): Plan {
  const sorted = [...new Set(rels)].sort();
  const byRel = new Map<string, Claim>();
  const covered = new Map<string, string>();
  const claimedBy = new Map<string, string>();
  // Notes name the layouts in the order their first file comes, the catch-all oc get layout last.
  const layouts: { name: string; first: number }[] = [];
  let left = sorted;
  for (const layout of LAYOUTS) {
    const found = layout.detect(left, [...byRel.values()]);
    for (const c of found.claims) {
      byRel.set(c.rel, c);
      claimedBy.set(c.rel, found.name ?? layout.name);
    }
    for (const rel of found.covers ?? []) if (!covered.has(rel)) covered.set(rel, found.name ?? layout.name);
    const first = found.claims[0];
    if (first) {
      const at = layout === ocGet ? Number.POSITIVE_INFINITY : sorted.indexOf(first.rel);
      layouts.push({ name: found.name ?? layout.name, first: at });
    }
    left = left.filter((rel) => !byRel.has(rel) && !covered.has(rel));
  }
  const files = sorted.flatMap((rel) => byRel.get(rel) ?? []);
  const nestedArchives = left.filter((rel) => isArchiveName(baseName(rel)));
  const ignored = sorted.filter((rel) => !byRel.has(rel) && !nestedArchives.includes(rel));
  const names = layouts.sort((a, b) => a.first - b.first).map((l) => l.name);
  return { layouts: names, files, ignored, nestedArchives, covered, claimedBy };
}
