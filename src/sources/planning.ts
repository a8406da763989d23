/**
 * What the files of one input are for, decided from their names alone, in one place: the layouts
 * claim the files analyze reads (each with its reader, and the kind it holds when the name says so);
 * serve's extras are the must-gather files it serves as they are (the YAML of the resources atlevel
 * does not model, and the pod logs); everything else is ignored, each file with its reason. The
 * loader, serve's extras, run discovery and the `inputs` command all take their answers from here
 * (plan.ts adds what the argument is and the runs it holds), so they cannot disagree.
 */
import { KNOWN_KINDS, type KnownKind, kindFacts, printable } from '../model/index.js';
import { withoutCompressionSuffix } from './decoders/index.js';
import { SIM_REVISIONS_FILE } from './formats/index.js';
import {
  baseName,
  mustGatherRoot,
  OC_EXAMPLE_OPTIONAL,
  OC_EXAMPLE_SUFFIXES,
  type Plan,
  type PlannedFile,
  planFiles,
  type ReaderSpec,
  readerByName,
} from './layouts/index.js';

export { NO_INPUTS_HINT } from './words.js';

/** A file named on the command line: CI names by name, text logs as build logs, YAML/JSON by content. */
export function readerForGivenFile(name: string): ReaderSpec | undefined {
  const byName = readerByName(name);
  if (byName) return byName;
  const plain = withoutCompressionSuffix(name);
  if (/\.(ya?ml|json)$/i.test(plain) || name === 'image-references')
    return { reader: 'oc-get', strict: true };
  if (/\.(txt|log)$/i.test(plain)) return { reader: 'build-log' };
  return undefined;
}

/** The layouts' plan of one listing, and whether it holds a simulated run's recorded revisions. */
export interface ListingPlan extends Plan {
  /** SIM_REVISIONS_FILE, read beside the layouts (formats/sim-revisions.ts), when the listing has it. */
  readonly revisions?: string;
}

/** Plan how to read the files of one folder, archive or case. `rels` are relative, `/`-separated. */
export function planListing(rels: readonly string[]): ListingPlan {
  const plan = planFiles(rels.filter((rel) => rel !== SIM_REVISIONS_FILE));
  return rels.includes(SIM_REVISIONS_FILE) ? { ...plan, revisions: SIM_REVISIONS_FILE } : plan;
}

/** One file served as it is (docs/serve.md): objects of kinds atlevel does not model, or a pod's log. */
export interface ServedFile {
  readonly rel: string;
  readonly as: 'objects' | 'log';
  /** The hosted cluster (a hypershift dump's `hostedcluster-NAME/`) whose file it is. */
  readonly guest?: string;
  /** A log's `namespace/pod/container`, and which of the container's logs it is. */
  readonly log?: { readonly key: string; readonly previous: boolean };
}

/** openshift/must-gather's gather scripts: `namespaces/NS/pods/POD/CONTAINER/CONTAINER/logs/{current,previous}.log`. */
const LOG = /^namespaces\/([^/]+)\/pods\/([^/]+)\/([^/]+)\/\3\/logs\/(current|previous)\.log$/;

/** The hosted cluster a must-gather root is the guest of (a hypershift dump's `hostedcluster-NAME/`). */
function guestOf(root: string): string | undefined {
  return /(?:^|\/)hostedcluster-([^/]+)$/.exec(root)?.[1];
}

/**
 * The files serve answers with as they are: below each must-gather root (layouts/must-gather.ts),
 * the YAML under `cluster-scoped-resources/` and `namespaces/` that no layout claims, and the pod
 * logs. A file a layout claims is read as its kind, never served a second time.
 */
export function servedFiles(rels: readonly string[], plan: Plan): ServedFile[] {
  const roots = new Set<string>();
  for (const rel of rels) {
    const root = mustGatherRoot(rel);
    if (root !== undefined) roots.add(root);
  }
  if (roots.size === 0) return [];
  const claimed = new Set(plan.files.map((f) => f.rel));
  const out: ServedFile[] = [];
  for (const rel of [...new Set(rels)].sort()) {
    const root = [...roots].find((r) => r === '' || rel.startsWith(`${r}/`));
    if (root === undefined || claimed.has(rel)) continue;
    const inside = root === '' ? rel : rel.slice(root.length + 1);
    if (!inside.startsWith('cluster-scoped-resources/') && !inside.startsWith('namespaces/')) continue;
    const guest = guestOf(root);
    const of = guest !== undefined ? { guest } : {};
    const log = LOG.exec(inside);
    if (log) {
      const key = `${log[1]}/${log[2]}/${log[3]}`;
      out.push({ rel, as: 'log', ...of, log: { key, previous: log[4] === 'previous' } });
    } else if (/\.ya?ml$/i.test(withoutCompressionSuffix(rel))) out.push({ rel, as: 'objects', ...of });
  }
  return out;
}

/** A file no reader takes, and why. */
export interface IgnoredFile {
  readonly rel: string;
  readonly why: string;
}

/** The files of a plan nothing reads or serves, each with its reason, in path order. */
export function ignoredFiles(plan: Plan, served: readonly ServedFile[]): IgnoredFile[] {
  const isServed = new Set(served.map((s) => s.rel));
  const out: IgnoredFile[] = [];
  for (const rel of plan.ignored) {
    if (isServed.has(rel)) continue;
    const layout = plan.covered.get(rel);
    out.push({ rel, why: layout ? `part of the ${layout}, not read` : 'no layout reads it' });
  }
  for (const rel of plan.nestedArchives)
    out.push({ rel, why: 'an archive inside the input: not opened (give it as an input of its own)' });
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** How a claimed file is read, in words: its reader, the kind it holds when its place says, its guest. */
export interface ClaimFacts {
  readonly reader: string;
  readonly kind?: KnownKind;
  readonly guest?: string;
}

const MUST_GATHER_KINDS: ReadonlyMap<string, KnownKind> = new Map(
  KNOWN_KINDS.flatMap((k) => {
    const resource = kindFacts(k).mustGather;
    return resource !== undefined ? [[resource, k] as const] : [];
  }),
);

export function claimFacts(planned: PlannedFile): ClaimFacts {
  const spec = planned.spec;
  switch (spec.reader) {
    case 'gather-extra':
    case 'oc-example':
      return { reader: spec.reader, kind: spec.expect };
    case 'must-gather': {
      const parts = planned.rel.split('/');
      const stem = baseName(planned.rel).replace(/\.ya?ml$/i, '');
      const kind =
        MUST_GATHER_KINDS.get(stem) ??
        parts
          .slice(0, -1)
          .reverse()
          .map((p) => MUST_GATHER_KINDS.get(p))
          .find((k) => k !== undefined);
      return {
        reader: spec.reader,
        ...(kind !== undefined ? { kind } : {}),
        ...(spec.guest !== undefined ? { guest: spec.guest } : {}),
      };
    }
    case 'mco-deployment':
      return { reader: spec.reader, kind: 'Deployment' };
    default:
      return { reader: spec.reader };
  }
}

/** The last two segments of a long relative path: enough to recognise it in a note. */
function shortPath(rel: string): string {
  if (rel.length <= 60) return printable(rel);
  const parts = rel.split('/');
  return printable(`…/${parts.slice(-2).join('/')}`, 80);
}

/** The notes a folder's or archive's plan gives (`read as …`, `ignored N files …`), as the loader says them. */
export function planNotes(path: string, plan: Plan): string[] {
  const notes: string[] = [];
  if (plan.layouts.length > 0) notes.push(`${path}: read as ${plan.layouts.join(' + ')}`);
  if (plan.ignored.length > 0) {
    const examples = plan.ignored.slice(0, 3).map(shortPath);
    notes.push(
      `${path}: ignored ${plan.ignored.length} file${plan.ignored.length === 1 ? '' : 's'} atlevel does not read (e.g. ${examples.join(', ')})`,
    );
  }
  for (const a of plan.nestedArchives.slice(0, 3)) {
    notes.push(`${path}: archive ${printable(a, 120)} not opened; pass it as its own input to read it`);
  }
  return notes;
}

/** What the loader says of an oc examples case: how it is read, which files it lacks, which it does not know. */
export function caseNotes(prefix: string, rels: readonly string[], plan: Plan): string[] {
  const name = baseName(prefix);
  const have = new Set(rels.map((rel) => rel.slice(name.length)));
  const missing = OC_EXAMPLE_SUFFIXES.filter((s) => !OC_EXAMPLE_OPTIONAL.has(s) && !have.has(s));
  const notes = [
    `${prefix}: read as an oc examples case (${name}-cv.yaml, -co.yaml, -mcp.yaml, -mc.yaml, -node.yaml)`,
  ];
  if (missing.length > 0) notes.push(`${prefix}: no ${missing.map((s) => `${name}${s}`).join(', ')}`);
  // A file of the case atlevel does not know is named, and the rest of the case is read all the same.
  const claimed = new Set(plan.files.map((p) => p.rel));
  for (const rel of rels) {
    if (claimed.has(rel)) continue;
    notes.push(
      `${prefix}: not read: ${printable(rel, 120)} (${UNKNOWN_CASE_FILE}; it reads ${OC_EXAMPLE_SUFFIXES.map((s) => s.slice(1)).join(', ')})`,
    );
  }
  return notes;
}

/** Why a file of an oc examples case is not read. */
export const UNKNOWN_CASE_FILE = 'an oc examples case file atlevel does not know';
