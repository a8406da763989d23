/**
 * Layout detection: given the files under one input (a folder or an archive), decide which reader
 * reads each file and which files are ignored. Works on relative paths only, so a folder and a tar
 * of that folder get the same plan.
 *
 * - CI run: gather-extra `List` files by name, `build-log.txt`, `e2e-{events,intervals,timelines}*.json`,
 *   ci-operator's `release-images-{initial,latest}`,
 *   anywhere below the root (CI nests them under `artifacts/<target>/...`).
 * - must-gather: below a folder holding `cluster-scoped-resources/` or `namespaces/`, the YAML files
 *   of the resources atlevel reads (by resource name), and `monitoring/alerts.json`.
 * - oc get files: any other `*.yaml`, `*.yml`, `*.json` (optionally `.gz`), read by content.
 */
import { isMustGatherResource, type KnownKind, kindOfGatherExtraFile } from '../model/kinds.js';
import { isArchiveName, withoutCompressionSuffix } from './decoders/index.js';
import { intervalSourceOf } from './intervals-json.js';

export type ReaderSpec =
  | { readonly reader: 'gather-extra'; readonly expect: KnownKind }
  | { readonly reader: 'oc-example'; readonly expect: KnownKind }
  | { readonly reader: 'must-gather' }
  | { readonly reader: 'build-log' }
  | { readonly reader: 'e2e-intervals'; readonly source: string }
  | { readonly reader: 'alerts' }
  /** Read by content: objects, intervals, release payloads, alerts. `strict`: a file that does not parse is an error. */
  | { readonly reader: 'oc-get'; readonly strict: boolean };

export interface PlannedFile {
  readonly rel: string;
  readonly spec: ReaderSpec;
}

export interface Plan {
  /** Which layouts were recognised, for the notes. */
  readonly layouts: readonly string[];
  readonly files: readonly PlannedFile[];
  readonly ignored: readonly string[];
  /** Archives found inside a folder: not opened (they would duplicate what is beside them). */
  readonly nestedArchives: readonly string[];
}

const BUILD_LOG = /^build-log\.txt$/;
/**
 * ci-operator writes the image-references ImageStream of each release it imports (`initial`, `latest`,
 * per architecture) to `artifacts/release/artifacts/release-images-NAME` (openshift/ci-tools
 * pkg/steps/release/import_release.go): the payloads an upgrade run went from and to.
 */
const RELEASE_IMAGES = /^release-images-[a-z0-9][a-z0-9-]*$/;
const E2E_INTERVALS = /^e2e-(events|intervals|timelines).*\.json$/;
const OBJECT_FILE = /\.(ya?ml|json)$/i;

export function baseName(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i === -1 ? rel : rel.slice(i + 1);
}

function dirName(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i === -1 ? '' : rel.slice(0, i);
}

export { isArchiveName };

/** The reader a file's name alone selects (CI names), or undefined. */
export function readerByName(name: string): ReaderSpec | undefined {
  const plain = withoutCompressionSuffix(name);
  const kind = kindOfGatherExtraFile(plain);
  if (kind) return { reader: 'gather-extra', expect: kind };
  if (BUILD_LOG.test(plain)) return { reader: 'build-log' };
  if (E2E_INTERVALS.test(plain)) return { reader: 'e2e-intervals', source: intervalSourceOf(name) };
  if (RELEASE_IMAGES.test(name)) return { reader: 'oc-get', strict: false };
  return undefined;
}

/** The must-gather root a path is under (the folder holding cluster-scoped-resources/ or namespaces/). */
function mustGatherRoot(rel: string): string | undefined {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i];
    if (p === 'cluster-scoped-resources' || (p === 'namespaces' && parts.length - i >= 4)) {
      return parts.slice(0, i).join('/');
    }
  }
  return undefined;
}

function mustGatherSpec(rel: string, root: string): ReaderSpec | undefined {
  const inside = root === '' ? rel : rel.slice(root.length + 1);
  if (inside === 'monitoring/alerts.json') return { reader: 'alerts' };
  if (!/\.ya?ml$/i.test(inside)) return undefined;
  const parts = inside.split('/');
  const stem = (parts[parts.length - 1] ?? '').replace(/\.ya?ml$/i, '');
  const dirs = parts.slice(0, -1);
  if (isMustGatherResource(stem) || dirs.some(isMustGatherResource)) {
    return { reader: 'must-gather' };
  }
  return undefined;
}

/** Plan how to read the files of one folder or archive. `rels` are relative, `/`-separated. */
export function planFiles(rels: readonly string[]): Plan {
  const sorted = [...rels].sort();
  const roots = new Set<string>();
  for (const rel of sorted) {
    const root = mustGatherRoot(rel);
    if (root !== undefined) roots.add(root);
  }
  const ciDirs = new Set<string>();
  for (const rel of sorted) {
    const spec = readerByName(baseName(rel));
    if (spec && spec.reader !== 'build-log') ciDirs.add(dirName(rel));
  }

  const files: PlannedFile[] = [];
  const ignored: string[] = [];
  const nestedArchives: string[] = [];
  const layouts = new Set<string>();
  for (const rel of sorted) {
    const name = baseName(rel);
    const byName = readerByName(name);
    if (byName) {
      files.push({ rel, spec: byName });
      layouts.add('CI run');
      continue;
    }
    const root = [...roots].find((r) => r === '' || rel.startsWith(`${r}/`));
    if (root !== undefined) {
      const spec = mustGatherSpec(rel, root);
      if (spec) {
        files.push({ rel, spec });
        layouts.add('must-gather');
      } else ignored.push(rel);
      continue;
    }
    if (isArchiveName(name)) {
      nestedArchives.push(rel);
      continue;
    }
    // Beside gather-extra's dumps are dozens of other `oc get` dumps atlevel does not read.
    if (OBJECT_FILE.test(withoutCompressionSuffix(name)) && !ciDirs.has(dirName(rel))) {
      files.push({ rel, spec: { reader: 'oc-get', strict: false } });
      continue;
    }
    if (name === 'image-references') {
      files.push({ rel, spec: { reader: 'oc-get', strict: false } });
      continue;
    }
    ignored.push(rel);
  }
  // With no CI or must-gather file, the folder is a folder of `oc get` output: every file must parse.
  const pureOcGet = layouts.size === 0;
  const final = pureOcGet
    ? files.map((f) =>
        f.spec.reader === 'oc-get' ? { rel: f.rel, spec: { reader: 'oc-get', strict: true } as const } : f,
      )
    : files;
  if (final.some((f) => f.spec.reader === 'oc-get'))
    layouts.add(pureOcGet ? 'oc get files' : 'other YAML/JSON');
  return { layouts: [...layouts], files: final, ignored, nestedArchives };
}
