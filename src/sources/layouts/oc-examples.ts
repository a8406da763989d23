/**
 * One oc examples case (oc pkg/cli/admin/upgrade/status/examples/README.md): `CASE-cv.yaml`,
 * `-co.yaml`, `-mcp.yaml`, `-mc.yaml`, `-node.yaml` (KINDS' `ocExample`), `-alerts.json` and, in newer
 * cases, `-mco-deployment.yaml` (the machine-config-operator Deployment, whose image oc compares with
 * the machine-config ClusterOperator's), all with one prefix. Claimed only when the listing is exactly
 * one case, as the case-prefix opener gives it; oc's examples folder, holding many cases, is read as a
 * folder of oc get files. A file of the case with a suffix atlevel does not know (oc adds inputs over
 * time, `-us.yaml` say) is covered, not read: the case is still read, and the note names the file.
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
SUFFIXES.set('-mco-deployment.yaml', { reader: 'mco-deployment' });

/** The suffixes of one case's files, in the order a note lists them. */
export const OC_EXAMPLE_SUFFIXES = [...SUFFIXES.keys()];

/** The suffixes a case may lack without a note (oc reads them only when present). */
export const OC_EXAMPLE_OPTIONAL = new Set(['-alerts.json', '-mco-deployment.yaml']);

export const ocExamples: Layout = {
  name: 'oc examples case',
  detect: (rels) => {
    const cvs = rels.filter((r) => !r.includes('/') && r.endsWith('-cv.yaml'));
    const cv = cvs[0];
    if (cv === undefined) return { claims: [] };
    const prefix = cv.slice(0, -'-cv.yaml'.length);
    // Another case's ClusterVersion (`CASE-cv.yaml` and `CASE-x-cv.yaml`): a folder of cases.
    if (cvs.length > 1) return { claims: [] };
    const claims: Claim[] = [];
    const covers: string[] = [];
    for (const rel of rels) {
      if (rel.includes('/') || !rel.startsWith(`${prefix}-`)) return { claims: [] };
      const spec = SUFFIXES.get(rel.slice(prefix.length));
      if (spec) claims.push({ rel, spec });
      else covers.push(rel);
    }
    return { claims, covers };
  },
};
