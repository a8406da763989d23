/**
 * One oc examples case (oc pkg/cli/admin/upgrade/status/examples/README.md): `CASE-cv.yaml`,
 * `-co.yaml`, `-mcp.yaml`, `-mc.yaml`, `-node.yaml` (KINDS' `ocExample`) and `-alerts.json`, all with
 * one prefix. Claimed only when the listing is exactly one case, as the case-prefix opener gives it;
 * oc's examples folder, holding many cases, is read as a folder of oc get files.
 */
import { KINDS, type KindFacts, KNOWN_KINDS } from '../../model/index.js';
import type { Claim, Layout } from './types.js';

const SUFFIXES = new Map<string, Claim['spec']>();
for (const kind of KNOWN_KINDS) {
  const facts: KindFacts = KINDS[kind];
  if (facts.ocExample !== undefined)
    SUFFIXES.set(`-${facts.ocExample}.yaml`, { reader: 'oc-example', expect: kind });
}
SUFFIXES.set('-alerts.json', { reader: 'alerts' });

/** The suffixes of one case's files, in the order a note lists them. */
export const OC_EXAMPLE_SUFFIXES = [...SUFFIXES.keys()];

export const ocExamples: Layout = {
  name: 'oc examples case',
  detect: (rels) => {
    const cv = rels.find((r) => !r.includes('/') && r.endsWith('-cv.yaml'));
    if (cv === undefined) return { claims: [] };
    const prefix = cv.slice(0, -'-cv.yaml'.length);
    const claims: Claim[] = [];
    for (const rel of rels) {
      const spec = rel.startsWith(prefix) ? SUFFIXES.get(rel.slice(prefix.length)) : undefined;
      if (!spec) return { claims: [] };
      claims.push({ rel, spec });
    }
    return { claims };
  },
};
