/**
 * A must-gather: below a folder holding `cluster-scoped-resources/` or `namespaces/`, the YAML files
 * of the resources atlevel reads (by resource name, KINDS' `mustGather`), and `monitoring/alerts.json`.
 * The rest of the must-gather is covered: known, and not read.
 */
import { isMustGatherResource } from '../../model/index.js';
import type { Claim, Layout, ReaderSpec } from './types.js';

/** The must-gather root a path is under (the folder holding cluster-scoped-resources/ or namespaces/). */
export function mustGatherRoot(rel: string): string | undefined {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i];
    if (p === 'cluster-scoped-resources' || (p === 'namespaces' && parts.length - i >= 4)) {
      return parts.slice(0, i).join('/');
    }
  }
  return undefined;
}

/** How a file below a must-gather root (`''` for the input's root) is read, if atlevel reads it. */
export function mustGatherSpec(rel: string, root: string): ReaderSpec | undefined {
  const inside = root === '' ? rel : rel.slice(root.length + 1);
  if (inside === 'monitoring/alerts.json') return { reader: 'alerts' };
  if (!/\.ya?ml$/i.test(inside)) return undefined;
  const parts = inside.split('/');
  const stem = (parts[parts.length - 1] ?? '').replace(/\.ya?ml$/i, '');
  const dirs = parts.slice(0, -1);
  if (isMustGatherResource(stem) || dirs.some(isMustGatherResource)) return { reader: 'must-gather' };
  return undefined;
}

export const mustGather: Layout = {
  name: 'must-gather',
  detect: (rels) => {
    const roots = new Set<string>();
    for (const rel of rels) {
      const root = mustGatherRoot(rel);
      if (root !== undefined) roots.add(root);
    }
    const claims: Claim[] = [];
    const covers: string[] = [];
    if (roots.size === 0) return { claims };
    for (const rel of rels) {
      const root = [...roots].find((r) => r === '' || rel.startsWith(`${r}/`));
      if (root === undefined) continue;
      const spec = mustGatherSpec(rel, root);
      if (spec) claims.push({ rel, spec });
      else covers.push(rel);
    }
    return { claims, covers };
  },
};
