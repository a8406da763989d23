/**
 * A `hypershift dump cluster` folder (openshift/hypershift cmd/cluster/core/dump.go; docs/hosted.md):
 * `oc adm inspect`'s layout for the management cluster at the dump's root, and with
 * `--dump-guest-cluster` the hosted cluster's own under `hostedcluster-NAME/`. The guest's files are
 * claimed with `guest: NAME`, so they become a history of their own and are never read as the
 * management cluster's. Container logs, network logs and external infra clusters are covered.
 */
import { mustGatherSpec } from './must-gather.js';
import type { Claim, Layout } from './types.js';

const GUEST_DIR = /^hostedcluster-([a-z0-9]([-a-z0-9]*[a-z0-9])?)$/;
const INSPECT_DIRS = new Set(['namespaces', 'cluster-scoped-resources']);
/** Folders of a dump that hold nothing atlevel reads. */
const KNOWN_DIRS = new Set(['network_logs', 'external-infra-clusters']);

/** The dump root a path shows, if any: the folder holding `hostedcluster-NAME/` or a HostedCluster's namespace. */
function dumpRoot(parts: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < parts.length; i++) {
    const p = parts[i] ?? '';
    if (GUEST_DIR.test(p) && INSPECT_DIRS.has(parts[i + 1] ?? '')) return parts.slice(0, i).join('/');
    if (
      p === 'namespaces' &&
      parts[i + 2] === 'hypershift.openshift.io' &&
      /^(hostedclusters|nodepools)(\.ya?ml)?$/.test(parts[i + 3] ?? '')
    )
      return parts.slice(0, i).join('/');
  }
  return undefined;
}

export const hypershiftDump: Layout = {
  name: 'hypershift dump',
  detect: (rels) => {
    const roots = new Set<string>();
    for (const rel of rels) {
      const root = dumpRoot(rel.split('/'));
      if (root !== undefined) roots.add(root);
    }
    const claims: Claim[] = [];
    const covers: string[] = [];
    if (roots.size === 0) return { claims };
    // The deepest root first, so a dump inside another input's folder is its own.
    const ordered = [...roots].sort((a, b) => b.length - a.length);
    for (const rel of rels) {
      const root = ordered.find((r) => r === '' || rel.startsWith(`${r}/`));
      if (root === undefined) continue;
      const inside = root === '' ? rel : rel.slice(root.length + 1);
      const [top = '', next = ''] = inside.split('/');
      const guest = GUEST_DIR.exec(top)?.[1];
      if (guest !== undefined && INSPECT_DIRS.has(next)) {
        const spec = mustGatherSpec(rel, root === '' ? top : `${root}/${top}`);
        if (spec?.reader === 'must-gather') claims.push({ rel, spec: { reader: 'must-gather', guest } });
        else covers.push(rel);
      } else if (INSPECT_DIRS.has(top)) {
        const spec = mustGatherSpec(rel, root);
        if (spec?.reader === 'must-gather') claims.push({ rel, spec });
        else covers.push(rel);
      } else if (guest !== undefined || KNOWN_DIRS.has(top) || inside === 'hypershift-dump.tar.gz') {
        covers.push(rel);
      }
    }
    return { claims, covers };
  },
};
