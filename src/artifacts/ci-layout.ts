/**
 * The text of the CI artifact layout that atlevel's sources read: gather-extra Lists (docs/domain.md
 * 7.4), origin's monitor lines and the upgrade test's log lines in build-log.txt (7.1, 6), origin's
 * interval JSON (7.3) and `oc adm release info -o json` (8.4). The artifact writer (src/writer/), and
 * through it the simulator, the watcher's record, the large-run bench and the bundled examples, lay
 * runs out with it, so a format change is made here once.
 *
 * Pure: a run is built up as path → text (`CiRun`), and the writer's `writeRunFolder` puts it on disk.
 * New kinds of artifact (for example recorded object revisions) are one more method or `add` call.
 */
import { KINDS, KNOWN_KINDS, type KnownKind } from '../model/index.js';
import { fileStamp, logfStamp, monitorDuration, monitorStamp, rfc3339 } from './timefmt.js';

type MonitorLevel = 'Info' | 'Warning' | 'Error';

/** One record of origin's monitor, times in wall-clock ms. An instant has `from === to`. */
export interface MonitorRecord {
  readonly from: number;
  readonly to: number;
  readonly level: MonitorLevel;
  readonly locator: string;
  readonly message: string;
}

/**
 * The gather-extra files atlevel reads, by the kind of object each List holds (docs/domain.md 7.4), as
 * the kinds' descriptors name them (model/kinds/); gather-extra names the others `<plural>.json`.
 */
const GATHER_FILES = Object.fromEntries(
  KNOWN_KINDS.map((k) => [k, KINDS[k].gatherExtra ?? `${KINDS[k].api.plural}.json`]),
) as Readonly<Record<KnownKind, string>>;
export type GatherKind = KnownKind;

/** Where a CI job's steps put their artifacts, for a multi-stage test named `target` (e.g. `e2e-aws-upgrade`). */
export function ciPaths(target: string): { readonly gather: string; readonly junit: string } {
  return {
    gather: `artifacts/${target}/gather-extra/artifacts`,
    junit: `artifacts/${target}/openshift-e2e-test/artifacts/junit`,
  };
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

/**
 * JSON as Go's json.MarshalIndent writes it: `<`, `>` and `&` escaped as \u003c, \u003e, \u0026, and a
 * final newline. `sortKeys` mimics objects decoded into maps (everything `oc get -o json` prints);
 * without it, key order is the order the object was built in (Go struct field order).
 */
function goJson(value: unknown, indent: number, sortKeys: boolean): string {
  const text = JSON.stringify(sortKeys ? sortKeysDeep(value) : value, null, indent);
  return `${text.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')}\n`;
}

/** `oc get <resource> -o json` of several objects: a v1 List, even for a single object (docs/domain.md 7.4). */
function listJson(items: readonly unknown[]): string {
  return goJson(
    { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '', selfLink: '' } },
    4,
    true,
  );
}

/** Time order; at the same instant by locator, then shorter first (instants before intervals). */
export function sortedRecords(records: readonly MonitorRecord[]): MonitorRecord[] {
  return [...records].sort(
    (a, b) => a.from - b.from || (a.locator < b.locator ? -1 : a.locator > b.locator ? 1 : 0) || a.to - b.to,
  );
}

/** One monitor record as the 4.10 monitor prints it in the build log (docs/domain.md 7.1). */
export function monitorLine(r: MonitorRecord): string {
  const letter = r.level.charAt(0);
  const message = r.message.replace(/\n/g, '\\n');
  if (r.to === r.from) return `${monitorStamp(r.from)} ${letter} ${r.locator} ${message}`;
  return `${monitorStamp(r.from)} - ${monitorDuration(r.to - r.from).padEnd(5)} ${letter} ${r.locator} ${message}`;
}

/** A line the upgrade test logs through framework.Logf (docs/domain.md 6). */
export function testLogLine(at: number, text: string): string {
  return `${logfStamp(at)}: INFO: ${text.replace(/\n/g, '\\n')}`;
}

/** origin's 4.10 interval file: `{items: [{level, locator, message, from, to}]}` in time order (docs/domain.md 7.3). */
function intervalsJson(records: readonly MonitorRecord[]): string {
  const items = sortedRecords(records).map((r) => ({
    level: r.level,
    locator: r.locator,
    message: r.message,
    from: rfc3339(r.from),
    to: rfc3339(r.to),
  }));
  return goJson({ items }, 4, false);
}

/** One interval in origin's current structured schema (docs/domain.md 7.3, third shape); times in wall ms. */
export interface StructuredRecord {
  readonly level: MonitorLevel;
  readonly source: string;
  readonly display: boolean;
  readonly locator: { readonly type: string; readonly keys: Readonly<Record<string, string>> };
  readonly message: {
    readonly reason: string;
    readonly cause: string;
    readonly humanMessage: string;
    readonly annotations: Readonly<Record<string, string>>;
  };
  readonly from: number;
  readonly to: number;
}

/** origin's current interval file: structured locators and messages, in the order given. */
export function structuredIntervalsJson(records: readonly StructuredRecord[]): string {
  return goJson(
    { items: records.map((r) => ({ ...r, from: rfc3339(r.from), to: rfc3339(r.to) })) },
    4,
    false,
  );
}

/** Names of origin's interval files for a run that started at `start` (docs/domain.md 7.3). */
export function intervalFileNames(start: number): { readonly events: string; readonly intervals: string } {
  const stamp = fileStamp(start);
  return { events: `e2e-events_${stamp}.json`, intervals: `e2e-intervals_${stamp}.json` };
}

/** One image-references tag of a release (docs/domain.md 8.2). */
interface ReleaseTag {
  readonly name: string;
  readonly pullSpec: string;
  readonly commit: string;
  readonly sourceLocation: string;
  /** `io.openshift.build.versions`: `component=version,…`. */
  readonly versions?: string;
  /** `io.openshift.build.version-display-names`: `component=Display Name,…`. */
  readonly displayNames?: string;
}

/** What `oc adm release info -o json` says about one release (docs/domain.md 8.4). */
export interface ReleaseInfoSpec {
  readonly image: string;
  readonly version: string;
  readonly digest: string;
  /** When the release image was built. */
  readonly created: number;
  /** When its image-references ImageStream was made (before the image). */
  readonly referencesCreated: number;
  readonly baseImageDigest: string;
  readonly previous: readonly string[];
  /** The image stream it was cut from, e.g. `ocp/4.10-art-latest`. */
  readonly fromImageStream: string;
  /** The release it was promoted from, when there is one. */
  readonly fromRelease?: string;
  /** The tags' `generation` (null when the stream was never re-imported). */
  readonly generation: number | null;
  readonly tags: readonly ReleaseTag[];
}

/** The component versions oc derives from the tags' version annotations. */
function displayVersions(
  tags: readonly ReleaseTag[],
): Record<string, { Version: string; DisplayName: string }> {
  const out: Record<string, { Version: string; DisplayName: string }> = {};
  for (const tag of tags) {
    if (!tag.versions) continue;
    const names = new Map(
      (tag.displayNames ?? '')
        .split(',')
        .filter(Boolean)
        .map((p) => p.split('=') as [string, string]),
    );
    for (const pair of tag.versions.split(',')) {
      const [component = '', version = ''] = pair.split('=');
      out[component] = { Version: version, DisplayName: names.get(component) ?? '' };
    }
  }
  return out;
}

/** `oc adm release info -o json <image>`: oc's ReleaseInfo struct, two-space indented. */
function releaseInfoJson(spec: ReleaseInfoSpec): string {
  const tags = spec.tags.map((t) => {
    // A map in Go: the annotations come out in key order.
    const annotations: Record<string, string> = {
      'io.openshift.build.commit.id': t.commit,
      'io.openshift.build.commit.ref': '',
      'io.openshift.build.source-location': t.sourceLocation,
    };
    if (t.displayNames) annotations['io.openshift.build.version-display-names'] = t.displayNames;
    if (t.versions) annotations['io.openshift.build.versions'] = t.versions;
    return {
      name: t.name,
      annotations,
      from: { kind: 'DockerImage', name: t.pullSpec },
      generation: spec.generation,
      importPolicy: {},
      referencePolicy: { type: 'Source' },
    };
  });
  const info = {
    image: spec.image,
    digest: spec.digest,
    contentDigest: spec.digest,
    config: {
      created: rfc3339(spec.created),
      architecture: 'amd64',
      os: 'linux',
      config: {
        Labels: {
          'io.openshift.release': spec.version,
          'io.openshift.release.base-image-digest': spec.baseImageDigest,
        },
      },
    },
    metadata: {
      kind: 'cincinnati-metadata-v0',
      version: spec.version,
      previous: [...spec.previous],
      metadata: {},
    },
    references: {
      kind: 'ImageStream',
      apiVersion: 'image.openshift.io/v1',
      metadata: {
        name: spec.version,
        creationTimestamp: rfc3339(spec.referencesCreated),
        annotations: {
          'release.openshift.io/from-image-stream': spec.fromImageStream,
          ...(spec.fromRelease !== undefined
            ? { 'release.openshift.io/from-release': spec.fromRelease }
            : {}),
        },
      },
      spec: { lookupPolicy: { local: false }, tags },
      status: { dockerImageRepository: '' },
    },
    displayVersions: displayVersions(spec.tags),
  };
  return goJson(info, 2, false);
}

/**
 * The files of one CI run, built up artifact by artifact; `files` maps each path (relative to the run's
 * folder) to its text.
 */
export class CiRun {
  readonly files = new Map<string, string>();
  readonly paths: { readonly gather: string; readonly junit: string };

  constructor(target: string) {
    this.paths = ciPaths(target);
  }

  /** A gather-extra List of `items`, already in the JSON form `oc get -o json` prints for the kind. */
  gatherList(kind: GatherKind, items: readonly unknown[]): this {
    return this.add(`${this.paths.gather}/${GATHER_FILES[kind]}`, listJson(items));
  }

  /** One of origin's interval files (`name` as given by `intervalFileNames`). */
  intervals(name: string, records: readonly MonitorRecord[]): this {
    return this.add(`${this.paths.junit}/${name}`, intervalsJson(records));
  }

  buildLog(text: string): this {
    return this.add('build-log.txt', text);
  }

  release(side: 'from' | 'to', spec: ReleaseInfoSpec): this {
    return this.add(`release/release-${side}.json`, releaseInfoJson(spec));
  }

  /** Any other file of the run. */
  add(path: string, text: string): this {
    this.files.set(path, text);
    return this;
  }
}
